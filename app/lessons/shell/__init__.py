"""Lessons, the I/O: progress kept per player, lesson rooms over the room socket."""
