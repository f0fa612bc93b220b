"""Swiss, the pure part: who meets whom in the next round, by the FIDE Dutch system of the
`caissify-pairings` library (docs/tournaments.md says why that library). This module only
translates: the tournament's tables and byes into the library's per-player history, and the
library's boards back into tables.

A large field (more than `FAST_FROM` players, from round 2) is first paired by the Dutch kernel
of `pairing-core`, much faster there; whenever that kernel finds no pairing (or gives up), the
round is paired by caissify-pairings as any other.

- Withdrawn players are not paired.
- Pairing numbers (the Dutch system's fixed ranking) are by rating, highest first, players without
  a rating (guests) after those with one, then by `Entrant.order`; scores come first anyway.
- Points: a win 1, a draw ½ (the tables' `scores`), a bye 1; only finished tables count.
- An odd count gives one player a bye: the library picks the lowest-ranked player of the lowest
  score group who has not had one yet (at most one each while any player has none).
- No two players meet twice while a pairing without a rematch exists (the library's absolute
  criterion). If the library still leaves several players unpaired (no legal pairing left), they
  are paired among themselves in ranking order, rematches allowed, so every round has at most one
  bye.
- Seats are chess colours: white is seat 0, black seat 1, so the library's colour allocation
  (alternate, balance, no three in a row where it can) decides who sits first.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from caissify_pairings import generate_pairings
from pairing_core import DUTCH_TILL2026_COMPAT, CanonicalPlayer, CanonicalRequest, PairingError, pair_canonical

from app.tournaments.core.model import Bye, Entrant, Pairing, TableResult

WHITE, BLACK, NONE = "white", "black", "none"
FAST_FROM = 48  # from this many players on, pairing-core first (caissify-pairings: ~2.5 s a round at 64)
_CORE_COLOUR = {WHITE: "w", BLACK: "b", NONE: "-"}
_CORE_FLOAT = {"down": "D", "up": "U", NONE: "-"}


@dataclass(slots=True)
class History:
    """What the Dutch system needs of one player before a round: their score, the colours and
    floats of each round so far (`none` for a round not played), their byes and opponents."""

    score: float = 0.0
    colours: list[str] = field(default_factory=list)
    floats: list[str] = field(default_factory=list)
    byes: int = 0
    opponents: set[str] = field(default_factory=set)


def pairing_numbers(entrants: list[Entrant]) -> dict[str, int]:
    """Each entrant's fixed Dutch pairing number, from 1: rating highest first (no rating last),
    then join order."""
    ranked = sorted(entrants, key=lambda e: (e.rating is None, -(e.rating or 0.0), e.order))
    return {e.player_id: i for i, e in enumerate(ranked, start=1)}


def histories(entrants: list[Entrant], results: list[TableResult], byes: list[Bye],
              before_round: int) -> dict[str, History]:
    """Every entrant's history over rounds 1..before_round − 1."""
    hist = {e.player_id: History() for e in entrants}
    tables_by_round: dict[int, list[TableResult]] = defaultdict(list)
    for t in results:
        tables_by_round[t.round].append(t)
    byes_by_round: dict[int, list[str]] = defaultdict(list)
    for bye in byes:
        byes_by_round[bye.round].append(bye.player_id)
    for r in range(1, before_round):
        start = {pid: h.score for pid, h in hist.items()}
        seen: set[str] = set()
        for t in tables_by_round[r]:
            if len(t.seats) != 2 or any(p not in hist for p in t.seats):
                continue
            a, b = t.seats
            for me, other, colour in ((a, b, WHITE), (b, a, BLACK)):
                h = hist[me]
                h.colours.append(colour)
                h.floats.append("down" if start[me] > start[other] else "up" if start[me] < start[other] else NONE)
                h.opponents.add(other)
                seen.add(me)
            if t.finished and len(t.scores) == 2:
                hist[a].score += t.score(0)
                hist[b].score += t.score(1)
        for pid in byes_by_round[r]:
            if pid in hist:
                hist[pid].score += 1.0
                hist[pid].byes += 1
        for pid, h in hist.items():
            if pid not in seen:
                h.colours.append(NONE)
                h.floats.append(NONE)
    return hist


def _leftovers(unpaired: list[str], numbers: dict[str, int], hist: dict[str, History]
               ) -> tuple[list[tuple[str, str]], list[str]]:
    """Players the library could not pair: paired among themselves best first (rematches
    allowed), the last one of an odd count keeping the bye."""
    ranked = sorted(unpaired, key=lambda p: (-hist[p].score, numbers[p]))
    bye = [ranked.pop()] if len(ranked) % 2 else []
    return [(ranked[i], ranked[i + 1]) for i in range(0, len(ranked), 2)], bye


def _fast_boards(players: list[dict[str, Any]], round_no: int) -> list[tuple[int, int | None]] | None:
    """The boards (white, black or None for the bye) by pairing-core's Dutch kernel, or None
    when it finds no pairing within its search limit."""
    request = CanonicalRequest(
        players=tuple(CanonicalPlayer(
            id=p["id"], pairing_no=p["pairing_number"], rating=int(p["rating"]), points=p["score"],
            color_hist="".join(_CORE_COLOUR[c] for c in p["color_hist"]), opponents=p["opponents"],
            received_bye=p["bye_count"] > 0, float_hist="".join(_CORE_FLOAT[f] for f in p["float_history"]))
            for p in players),
        ruleset=DUTCH_TILL2026_COMPAT, round_number=round_no)
    try:
        result: Any = pair_canonical(request)
    except PairingError:
        return None
    return [(b.white_id, None if b.is_bye else b.black_id) for b in result.pairings]


def swiss_round(entrants: list[Entrant], results: list[TableResult], byes: list[Bye],
                round_no: int, *, total_rounds: int | None = None) -> Pairing:
    """The tables and the bye of Swiss round `round_no` (from 1). `total_rounds` (the library
    relaxes colour rules in the last round) defaults to `round_no` + 1."""
    active = [e for e in entrants if not e.withdrawn]
    if not active:
        return Pairing(tables=())
    numbers = pairing_numbers(entrants)
    hist = histories(entrants, results, byes, round_no)
    if len(active) == 1:
        return Pairing(tables=(), byes=(active[0].player_id,))
    ids = {e.player_id: numbers[e.player_id] for e in active}
    back = {n: pid for pid, n in ids.items()}
    players: list[dict[str, Any]] = [
        {"id": ids[e.player_id], "name": e.player_id, "score": hist[e.player_id].score,
         "rating": e.rating or 0, "pairing_number": ids[e.player_id], "starting_number": ids[e.player_id],
         "color_hist": hist[e.player_id].colours, "float_history": hist[e.player_id].floats,
         "bye_count": hist[e.player_id].byes}
        for e in active
    ]
    previous = {(min(ids[a], ids[b]), max(ids[a], ids[b]))
                for a in ids for b in hist[a].opponents if b in ids}
    for row in players:
        row["opponents"] = tuple(ids[o] for o in hist[back[row["id"]]].opponents if o in ids)
    boards = _fast_boards(players, round_no) if len(players) > FAST_FROM and round_no > 1 else None
    if boards is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the library's advice on float history, which we pass
            found = generate_pairings("dutch", players, previous, round_no, total_rounds or round_no + 1)
        boards = [(b["white_id"], b.get("black_id")) for b in sorted(found, key=lambda b: b["table"])]
    tables: list[tuple[str, str]] = []
    unpaired: list[str] = []
    for white, black in boards:
        if black is None:
            unpaired.append(back[white])
        else:
            tables.append((back[white], back[black]))
    extra, bye = _leftovers(unpaired, numbers, hist)
    return Pairing(tables=tuple(tables + extra), byes=tuple(bye))
