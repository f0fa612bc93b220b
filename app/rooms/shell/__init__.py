"""The rooms' I/O shell: the service that runs each room (lock, core decision, commit, apply,
tell), what feeds it (sockets' commands, timers and bots, other instances over the bus, rooms the
server arranges), and the SQL adapter behind `app.rooms.ports`."""
