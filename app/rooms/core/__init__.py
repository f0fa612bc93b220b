"""The rooms' pure core: the room model, the commands it takes, and the decisions (lobby, match
rules, timers, rematch, reminders) that turn a command into effects. No I/O, no clock, no asyncio:
the shell (`app.rooms.shell`) does the waiting, the committing and the telling."""
