"""The room service: the one place where the engine, the store, the bus and the clock meet.

Import `app.rooms.shell.service.RoomService` for the service itself; this package's `__init__` stays
empty so bot worker processes (which import `app.bots.pool_work`) start quickly.
"""
