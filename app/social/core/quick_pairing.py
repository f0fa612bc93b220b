"""Quick match, the pure part: who sits with whom, given the waiting tickets and
the time. No I/O: the shell (`quick_match.QuickMatch`) reads the queue, asks `pair`, and builds
the rooms it decides.

Rules:
- tickets meet only tickets of the same kind (seats, rated);
- a ticket's window is `window + widen × seconds waited` ordinal points; two tickets may sit
  together when their gap fits inside both windows (each side agrees), and at a table of four
  every two of them must fit;
- two players of whom one blocked the other never sit together;
- the oldest ticket is served first, with the nearest ratings;
- an unrated ticket that allows bots and has waited `bot_seconds` sits now with whoever fits
  (of those who also allow bots), bots taking the other seats; a rated ticket never gets bots;
- a ticket whose player has had no lobby socket for `gone_seconds` is cancelled.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.domain.quick_ticket import Ticket


@dataclass(frozen=True, slots=True)
class MatchRules:
    window: float
    widen: float
    bot_seconds: float
    gone_seconds: float


@dataclass(frozen=True, slots=True)
class Table:
    """A table to build: `seating` holds a ticket per seat, None for a bot."""

    seats: int
    rated: bool
    seating: tuple[Ticket | None, ...]

    @property
    def tickets(self) -> list[Ticket]:
        return [t for t in self.seating if t is not None]


@dataclass(frozen=True, slots=True)
class Pairing:
    tables: list[Table]
    gone: list[Ticket]


def window(t: Ticket, now: datetime, rules: MatchRules) -> float:
    """How far from its own rating a ticket takes an opponent, now."""
    return rules.window + rules.widen * max(0.0, (now - t.created_at).total_seconds())


def fits(a: Ticket, b: Ticket, now: datetime, rules: MatchRules, blocked: set[frozenset[str]]) -> bool:
    """May these two tickets' players sit at one table now?"""
    if a.player_id == b.player_id or frozenset((a.player_id, b.player_id)) in blocked:
        return False
    gap = abs(a.ordinal - b.ordinal)
    return gap <= window(a, now, rules) and gap <= window(b, now, rules)


def seat_order(tickets: list[Ticket | None]) -> tuple[Ticket | None, ...]:
    """Seats for a table. Four seats are two partnerships (partners sit opposite: seats 0 and
    2 against 1 and 3): the strongest with the weakest, against the middle two."""
    if len(tickets) != 4:
        return tuple(tickets)
    people = sorted((t for t in tickets if t is not None), key=lambda t: (-t.ordinal, t.id))
    ranked: list[Ticket | None] = [*people, *([None] * (4 - len(people)))]
    a, b, c, d = ranked
    return (a, b, d, c)


def pair(tickets: list[Ticket], now: datetime, rules: MatchRules, blocked: set[frozenset[str]]) -> Pairing:
    """The tables to build now and the tickets to cancel (`tickets` in any order)."""
    gone = [t for t in tickets if not t.online and (now - t.created_at).total_seconds() >= rules.gone_seconds]
    gone_ids = {t.id for t in gone}
    queue = sorted((t for t in tickets if t.id not in gone_ids), key=lambda t: (t.created_at, t.id))
    taken: set[str] = set()
    tables: list[Table] = []
    for first in queue:
        if first.id in taken:
            continue
        table = [first]
        others = [t for t in queue if t.id not in taken and t.id != first.id and t.seats == first.seats
                  and t.rated == first.rated]
        others.sort(key=lambda t: (abs(t.ordinal - first.ordinal), t.created_at, t.id))
        for t in others:
            if len(table) == first.seats:
                break
            if all(fits(t, m, now, rules, blocked) for m in table):
                table.append(t)
        if len(table) < first.seats:
            waited = (now - first.created_at).total_seconds()
            if first.rated or not first.bots or waited < rules.bot_seconds:
                continue
            table = [m for m in table if m.bots]
            seating: list[Ticket | None] = [*table, *([None] * (first.seats - len(table)))]
        else:
            seating = list(table)
        taken.update(m.id for m in table)
        tables.append(Table(first.seats, first.rated, seat_order(seating)))
    return Pairing(tables, gone)
