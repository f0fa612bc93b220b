"""What the room service counts, in Prometheus form (served at `/metrics` by the server; the
store's move writer counts its batches in `spite_commit_batch_moves`).

All collectors live in the default registry of the process; several app instances in one
process (tests) add up.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1,
                   0.25, 0.5, 1.0, 2.5, 5.0)

ROOMS_LOADED = Gauge("spite_rooms_loaded", "Rooms loaded in memory on this instance")
LEASES_HELD = Gauge("spite_leases_held", "Rooms whose timers and bots this instance drives")
MOVES = Counter("spite_moves_committed", "Moves committed by this instance, by who made them", ["actor"])
MOVES_BY = {actor: MOVES.labels(actor) for actor in ("player", "bot", "clock", "absent")}
BOT_THINK = Histogram("spite_bot_think_seconds", "Time a bot (or a stand-in) took to choose a move, by level",
                      ["level"], buckets=LATENCY_BUCKETS)
AUTOMATIC = Counter("spite_automatic_moves", "Automatic moves (bot, clock, absent) by outcome", ["kind", "outcome"])
REMINDERS = Counter("spite_reminders", "Reminders (your turn, match over) put in the outbox, by outcome", ["outcome"])
BUS_CATCH_UP = Counter("spite_bus_updates", "Changes from other instances, by how they were applied",
                       ["how"])
