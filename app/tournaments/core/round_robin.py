"""Round-robin, the pure part: who meets whom in each round, by FIDE's Berger tables.

The players are numbered 1..n by `Entrant.order` (the order they joined). An odd count adds a
dummy number n + 1: whoever meets the dummy has the round's bye. Berger's rule (FIDE Handbook
C.05, Annex 1) for an even count n: in round 1, player i meets n + 1 − i, the lower number in
seat 0 except player n, who sits in seat 1; each next round the numbers 1..n − 1 move on by n/2
(mod n − 1) and player n alternates seats. Everyone meets everyone exactly once in n − 1 rounds;
a double round-robin plays the cycle again with the seats swapped.

A withdrawn player stays in the tables (the numbering never changes, so nobody's schedule
shifts): their opponent of that round has a bye instead of a table.
"""

from __future__ import annotations

from app.tournaments.core.model import Entrant, Pairing


def round_robin_rounds(n_players: int, double: bool) -> int:
    """How many rounds a round-robin of `n_players` plays: n − 1 for an even count, n for an odd
    one (every round someone meets the dummy), twice that for a double round-robin."""
    once = n_players - 1 if n_players % 2 == 0 else n_players
    return max(once, 0) * (2 if double else 1)


def berger_numbers(n: int, round_no: int) -> list[tuple[int, int]]:
    """The pairs of numbers (seat 0, seat 1) that meet in round `round_no` (from 1) of a single
    cycle for an even `n`, numbers from 1."""
    if n % 2 or n < 2:
        raise ValueError("Berger tables are drawn for an even count")
    rounds = n - 1
    r = (round_no - 1) % rounds
    # The rotating numbers: in round r + 1 board k (0-based) pairs slots k and n - 1 - k of a
    # circle that starts 1..n-1 and moves on by n/2 each round (Berger's "add n/2").
    shift = (r * (n // 2)) % rounds
    circle = [((i + shift) % rounds) + 1 for i in range(rounds)]
    pairs: list[tuple[int, int]] = []
    first = circle[0]
    # Board 1 holds player n: white in even rounds (r odd), black in odd rounds.
    pairs.append((n, first) if r % 2 else (first, n))
    for k in range(1, n // 2):
        pairs.append((circle[k], circle[rounds - k]))
    return pairs


def berger_round(entrants: list[Entrant], round_no: int, double: bool) -> Pairing:
    """The tables and byes of round `round_no` (from 1). The tables hold player ids by seat; in a
    double round-robin's second cycle each table is the first cycle's with the seats swapped."""
    players = sorted(entrants, key=lambda e: e.order)
    n = len(players) + len(players) % 2
    per_cycle = n - 1
    total = per_cycle * (2 if double else 1)
    if not 1 <= round_no <= total:
        raise ValueError(f"round {round_no} of a round-robin of {total} rounds")
    second_cycle = round_no > per_cycle
    by_number: dict[int, Entrant | None] = {i + 1: e for i, e in enumerate(players)}
    by_number.setdefault(n, None)  # the dummy of an odd count
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for a, b in berger_numbers(n, round_no - per_cycle if second_cycle else round_no):
        pa, pb = by_number[a], by_number[b]
        if second_cycle:
            pa, pb = pb, pa
        present = [p for p in (pa, pb) if p is not None and not p.withdrawn]
        if len(present) == 2:
            tables.append((present[0].player_id, present[1].player_id))
        elif len(present) == 1:
            byes.append(present[0].player_id)
    return Pairing(tables=tuple(tables), byes=tuple(byes))
