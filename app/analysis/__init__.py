"""The analysis board: "what if I had played that?" on a finished match (docs/protocol.md,
"Analysis board (v1.4)"). `core` is pure (the position, the what-if moves, the lines); `shell`
is the I/O around it (the store, the process pool, the cache, the rate)."""
