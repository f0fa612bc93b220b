"""Arena, the pure part: which of the players free right now sit down together, and what each
arena game scores (lichess's streak rule).

Pairing, each time the shell asks (a player became free):
- players are taken in points order (most first; equal points: who has waited longest first);
- a table is `seats` players, exactly: a tail that cannot fill one waits for the next call;
- each table is filled from the top of what is left: the first player, then the next ones in
  points order who were not at that player's (or any chosen player's) last table;
- never the same opponent twice in a row when another is free: a player whose only possible
  tablemates are their last opponents waits (two players who just met and are alone free wait
  for a third).

Scoring, per player in the order of their games: a win 2, a draw 1, a loss 0. After two wins in
a row the player is on fire: each further game scores double (a win 4, a draw 2) until a game
that is not a win, which ends the streak (that game itself still scores double if a draw).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.tournaments.core.model import TableResult


@dataclass(frozen=True, slots=True)
class ArenaPlayer:
    """A free player: `last_opponents` the others at their last table, `waiting_since` a counter
    (lower: free for longer)."""

    player_id: str
    points: float
    last_opponents: frozenset[str] = frozenset()
    waiting_since: int = 0


def _compatible(candidate: ArenaPlayer, table: list[ArenaPlayer]) -> bool:
    return all(candidate.player_id not in p.last_opponents and p.player_id not in candidate.last_opponents
               for p in table)


def arena_tables(free: list[ArenaPlayer], seats: int) -> tuple[tuple[str, ...], ...]:
    """The tables to start now (player ids by seat, the higher points in seat 0)."""
    waiting = sorted(free, key=lambda p: (-p.points, p.waiting_since, p.player_id))
    tables: list[tuple[str, ...]] = []
    while len(waiting) >= seats:
        placed = False
        for i, first in enumerate(waiting):
            table = [first]
            for other in waiting[i + 1:]:
                if len(table) == seats:
                    break
                if _compatible(other, table):
                    table.append(other)
            if len(table) == seats:
                tables.append(tuple(p.player_id for p in table))
                chosen = {p.player_id for p in table}
                waiting = [p for p in waiting if p.player_id not in chosen]
                placed = True
                break
        if not placed:
            break
    return tuple(tables)


def arena_points(results: list[TableResult]) -> dict[str, int]:
    """Each player's arena points over their finished games, in round order then table order
    (the shell numbers an arena's games by the order they started)."""
    points: dict[str, int] = {}
    wins_in_a_row: dict[str, int] = {}
    for t in sorted((t for t in results if t.finished), key=lambda t: (t.round, t.table)):
        best = max((t.score(seat) for seat in range(len(t.seats))), default=0.0)
        for seat, pid in enumerate(t.seats):
            score = t.score(seat)
            won = score == best and score > 0 and (len(t.seats) > 2 or score > 0.5)
            drew = not won and score > 0
            base = 2 if won else 1 if drew else 0
            on_fire = wins_in_a_row.get(pid, 0) >= 2
            points[pid] = points.get(pid, 0) + base * (2 if on_fire else 1)
            wins_in_a_row[pid] = wins_in_a_row.get(pid, 0) + 1 if won else 0
    return points
