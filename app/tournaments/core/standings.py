"""The standings, the pure part: each player's points, the format's tie-break and rank.

- Swiss and round-robin: a win 1, a draw ½ (`TableResult.score`: a forfeited seat 0), a bye 1. With duplicate deals
  the points are the match points of `duplicate.match_points` instead (a bye: the round's average).
- Arena: `arena.arena_points` (2 a win, 1 a draw, doubled on a streak); no tie-break (0).
- Swiss tie-break, Buchholz: the sum of the opponents' points; a bye counts as a game against an
  opponent with the player's own points (FIDE's 2023 rule for unplayed rounds, simplified).
- Round-robin tie-break, Sonneborn–Berger: the points of each opponent times the result against
  them (all of a beaten opponent's points, half of a drawn one's).
- Only finished tables count. Ranked by points, then tie-break; equal rows share a rank (1, 1, 3),
  listed in join order.
"""

from __future__ import annotations

from collections import defaultdict

from app.tournaments.core.arena import arena_points
from app.tournaments.core.duplicate import match_points
from app.tournaments.core.model import Bye, Entrant, Format, Standing, TableResult


def game_points(results: list[TableResult], byes: list[Bye]) -> dict[str, float]:
    """A win 1, a draw ½, a bye 1, over finished tables."""
    points: dict[str, float] = defaultdict(float)
    for t in results:
        if t.finished:
            for seat, pid in enumerate(t.seats):
                points[pid] += t.score(seat)
    for b in byes:
        points[b.player_id] += 1.0
    return points


def tiebreaks(fmt: Format, points: dict[str, float], results: list[TableResult],
              byes: list[Bye]) -> dict[str, float]:
    """Buchholz (swiss), Sonneborn–Berger (round_robin) or nothing (arena), on `points`."""
    tb: dict[str, float] = defaultdict(float)
    if fmt == "arena":
        return tb
    for t in results:
        if not t.finished or len(t.seats) != 2 or len(t.scores) != 2:
            continue
        for me, other, score in ((t.seats[0], t.seats[1], t.score(0)), (t.seats[1], t.seats[0], t.score(1))):
            opp = points.get(other, 0.0)
            tb[me] += opp if fmt == "swiss" else opp * score
    if fmt == "swiss":
        for b in byes:
            tb[b.player_id] += points.get(b.player_id, 0.0)
    return tb


def standings(fmt: Format, entrants: list[Entrant], results: list[TableResult], byes: list[Bye],
              *, duplicate: bool) -> list[Standing]:
    """Every entrant's row, best first (withdrawn players keep their row, flagged)."""
    if fmt == "arena":
        points: dict[str, float] = {k: float(v) for k, v in arena_points(results).items()}
    elif duplicate:
        points = match_points(results, byes)
    else:
        points = game_points(results, byes)
    tb = tiebreaks(fmt, points, results, byes)
    key = {e.player_id: (round(points.get(e.player_id, 0.0), 9), round(tb.get(e.player_id, 0.0), 9))
           for e in entrants}
    ordered = sorted(entrants, key=lambda e: (-key[e.player_id][0], -key[e.player_id][1], e.order))
    rows: list[Standing] = []
    for i, e in enumerate(ordered):
        rank = rows[-1].rank if rows and key[e.player_id] == key[ordered[i - 1].player_id] else i + 1
        p, t = key[e.player_id]
        rows.append(Standing(e.player_id, e.name, p, t, rank, e.withdrawn))
    return rows
