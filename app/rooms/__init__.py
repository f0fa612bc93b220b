"""Rooms: a pure core (`app.rooms.core`: the room model and its decisions) inside one I/O shell
(`app.rooms.shell`: the service where the engine, the store, the bus and the clock meet), and the
ports the shell needs (`app.rooms.ports`).

Import `app.rooms.shell.service.RoomService` for the service itself; this package's `__init__` stays
empty so bot worker processes (which import `app.bots.pool_work`) start quickly.
"""
