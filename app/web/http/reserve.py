"""Moving-window counts that are reserved before slow work and given back after it.

`limits` (used for the other rate limits) counts a hit for good; sign-in needs more: a try is
counted *before* its password is hashed (so every request in flight counts, and 40 parallel
tries cannot all pass a check made before any of them finished), and once the outcome is known
the count that did not happen (a failure, or a success) is given back. All of it runs on the
event loop without awaiting, so a reservation over several keys is all-or-nothing and atomic
within this instance.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from limits import parse_many

Rules = list[tuple[int, float]]  # (amount, seconds) pairs: "5/minute;50/day" -> [(5, 60), (50, 86400)]
SWEEP_EVERY = 4096  # reservations between sweeps of keys whose entries all expired


def parse_rules(text: str) -> Rules:
    """Rules in the `limits` notation ("5/minute;50/day")."""
    return [(item.amount, float(item.get_expiry())) for item in parse_many(text)]


class _Entry:
    __slots__ = ("at",)

    def __init__(self, at: float) -> None:
        self.at = at


@dataclass
class Ticket:
    """What one reservation holds: an entry per (kind, key); `give_back` cancels some."""

    owner: Reservations
    held: dict[str, tuple[str, _Entry]] = field(default_factory=dict)

    def give_back(self, *kinds: str) -> None:
        for kind in kinds:
            got = self.held.pop(kind, None)
            if got is not None:
                self.owner.drop(kind, got[0], got[1])


class Reservations:
    """Entries per (kind, key) with their times; a kind's rules bound how many may be live."""

    def __init__(self, rules: dict[str, Rules], clock: Callable[[], float] = time.monotonic) -> None:
        self.rules = rules
        self.clock = clock
        self.longest = {kind: max((s for _, s in r), default=0.0) for kind, r in rules.items()}
        self.entries: dict[tuple[str, str], deque[_Entry]] = {}
        self.taken = 0

    def _live(self, kind: str, key: str, now: float) -> deque[_Entry]:
        found = self.entries.get((kind, key))
        if found is None:
            return deque()
        horizon = now - self.longest[kind]
        while found and found[0].at <= horizon:
            found.popleft()
        if not found:
            del self.entries[(kind, key)]
        return found

    def wait(self, kind: str, key: str) -> int | None:
        """None if one more `kind` fits for `key`, else the whole seconds until it would."""
        now = self.clock()
        live = self._live(kind, key, now)
        worst = 0.0
        for amount, seconds in self.rules[kind]:
            inside = [e.at for e in live if e.at > now - seconds]
            if len(inside) >= amount:
                worst = max(worst, inside[len(inside) - amount] + seconds - now)
        return max(1, math.ceil(worst)) if worst > 0 else None

    def count(self, kind: str, key: str, seconds: float) -> int:
        """Entries of `kind` for `key` made in the last `seconds` (at most its longest rule)."""
        now = self.clock()
        return sum(1 for e in self._live(kind, key, now) if e.at > now - seconds)

    def reserve(self, wanted: Sequence[tuple[str, str]]) -> Ticket | int:
        """One entry for every (kind, key) if all fit, else none and the seconds to wait."""
        waits = [w for kind, key in wanted if (w := self.wait(kind, key)) is not None]
        if waits:
            return max(waits)
        now = self.clock()
        ticket = Ticket(self)
        for kind, key in wanted:
            entry = _Entry(now)
            self.entries.setdefault((kind, key), deque()).append(entry)
            ticket.held[kind] = (key, entry)
        self.taken += 1
        if self.taken % SWEEP_EVERY == 0:
            self.sweep()
        return ticket

    def note(self, ticket: Ticket, kind: str, key: str) -> None:
        """Add an entry of `kind` for `key` to `ticket` whatever the rules say (a count that
        changes how later tries are treated rather than refusing this one)."""
        entry = _Entry(self.clock())
        self.entries.setdefault((kind, key), deque()).append(entry)
        ticket.held[kind] = (key, entry)

    def drop(self, kind: str, key: str, entry: _Entry) -> None:
        found = self.entries.get((kind, key))
        if found is not None:
            with contextlib.suppress(ValueError):  # already expired
                found.remove(entry)
            if not found:
                del self.entries[(kind, key)]

    def sweep(self) -> None:
        """Forget every key whose entries have all expired (memory stays bounded by the rates)."""
        now = self.clock()
        for kind, key in list(self.entries):
            self._live(kind, key, now)
