"""Life outside a room: each player's own channel (the lobby socket), quick match, the daily deal,
blocks. `core` decides (pure), `shell` talks to the store, the bus and the room service."""
