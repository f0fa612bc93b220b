"""The room service: the one place where the engine, the store, the bus and the clock meet.

Import `app.rooms.service.RoomService` for the service itself; this package's `__init__` stays
empty so bot worker processes (which import `app.rooms.jobs`) start quickly.
"""
