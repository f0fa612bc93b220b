"""Duplicate deals, the pure part: every table of a round plays the same deal seeds, and each
player is scored against everyone else who held the SAME SEAT on those deals (match points, as in
duplicate bridge), so the luck of the deal cancels out. Also the round's seed and its commitment.

Match points, within one round and one seat (docs/tournaments.md has a worked example):
- each player is compared with every other player who held that seat at a finished table;
- first by the table's result (`TableResult.score`: 1, ½, 0; a forfeit 0), then, when those are equal,
  by the margin: the player's own `totals` minus the best total of the other seats at their table;
- beating one scores 1, an equal result ½, so a seat held by n players hands out n·(n − 1)/2.
A player with a bye in a duplicate round scores the average match points of that round's players.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import defaultdict
from collections.abc import Iterable

from app.engine import commitment
from app.tournaments.core.model import Bye, TableResult

TDUP_PREFIX = "tdup-"  # the engine keeps seeds with this prefix sealed until the round is over


def performance(table: TableResult, seat: int) -> tuple[float, int]:
    """What one seat achieved at a table: its result, then its margin over the best other seat."""
    score = table.score(seat)
    if len(table.totals) != len(table.seats):
        return score, 0
    others = [t for i, t in enumerate(table.totals) if i != seat]
    return score, table.totals[seat] - max(others, default=0)


def round_match_points(tables: Iterable[TableResult]) -> dict[str, float]:
    """The match points of one round's finished tables."""
    by_seat: dict[int, list[tuple[str, tuple[float, int]]]] = defaultdict(list)
    for t in tables:
        if t.finished:
            for seat, pid in enumerate(t.seats):
                by_seat[seat].append((pid, performance(t, seat)))
    points: dict[str, float] = {}
    for group in by_seat.values():
        for pid, mine in group:
            won = sum(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0 for _, theirs in group)
            points[pid] = points.get(pid, 0.0) + won - 0.5  # minus the comparison with oneself
    return points


def match_points(results: list[TableResult], byes: Iterable[Bye] = ()) -> dict[str, float]:
    """Each player's match points summed over the rounds (byes: the round's average)."""
    by_round: dict[int, list[TableResult]] = defaultdict(list)
    for t in results:
        by_round[t.round].append(t)
    totals: dict[str, float] = {}
    averages: dict[int, float] = {}
    for r, tables in by_round.items():
        got = round_match_points(tables)
        averages[r] = sum(got.values()) / len(got) if got else 0.0
        for pid, mp in got.items():
            totals[pid] = totals.get(pid, 0.0) + mp
    for b in byes:
        totals[b.player_id] = totals.get(b.player_id, 0.0) + averages.get(b.round, 0.0)
    return totals


def round_seed(secret_hex: str, tournament_id: str, round_no: int) -> str:
    """The deal seed every table of a duplicate round plays: `tdup-`, the tournament and round,
    then an HMAC-SHA-256 of them keyed by the tournament's secret (drawn by the shell), so the
    seed cannot be guessed before it is published and the secret never is."""
    mac = hmac.new(bytes.fromhex(secret_hex), f"{tournament_id}|{round_no}".encode(), hashlib.sha256)
    return f"{TDUP_PREFIX}{tournament_id}-{round_no}-{mac.hexdigest()[:32]}"


def round_seeds(secret_hex: str, tournament_id: str, round_no: int) -> str:
    """The round's seed (one seed string per round; the engine derives each hand from it)."""
    return round_seed(secret_hex, tournament_id, round_no)


def seed_commitment(seed: str) -> str:
    """The commitment published with the round: the SHA-256 of its seed (docs/fair-deals.md)."""
    return commitment(seed)
