"""Statistics of the arena (bench/arena.py): paired deals, a sequential test, paired comparisons.

- `paired(games)`: A's score a game (win 1, draw 1/2, loss 0) with a 95 % interval whose
  variance is taken over *deals* (each deal played twice, seats swapped), so the luck of a deal
  that both seatings share does not count as noise.
- `Sprt`: Wald's sequential probability ratio test on decided games, H0: A wins a share p0 of
  them, H1: p1, with error rates alpha (accepting H1 when H0 holds) and beta; it is looked at
  after whole deals only.
- `compare(x, y)`: two result files of runs on the same deals (e.g. Hard-new vs Normal and
  Hard-old vs Normal, same `--seed`): the difference of A's score, game by game, with a 95 %
  interval over deals, and a sign test over the games whose outcomes differ.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959964


def score(outcome: str) -> float:
    return 1.0 if outcome == "a" else (0.0 if outcome == "b" else 0.5)


def _mean_ci(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return 0.0, float("inf")
    mean = sum(values) / n
    if n == 1:
        return mean, float("inf")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


def by_deal(games: Iterable[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = {}
    for g in games:
        out.setdefault(int(g["deal"]), []).append(g)
    return out


def paired(games: Iterable[dict[str, Any]]) -> tuple[float, float, int]:
    """A's mean score a game and its 95 % half-interval, the variance over deals; and the deals."""
    deals = by_deal(games)
    per = [sum(score(g["outcome"]) for g in gs) / len(gs) for gs in deals.values()]
    mean, ci = _mean_ci(per)
    return mean, ci, len(per)


@dataclass
class Sprt:
    p0: float
    p1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, losses: int) -> float:
        return (wins * math.log(self.p1 / self.p0)
                + losses * math.log((1 - self.p1) / (1 - self.p0)))

    def decision(self, wins: int, losses: int) -> str | None:
        """'H1' (A wins at least p1 of decided games), 'H0' (at most p0) or None (go on)."""
        lo, hi = self.bounds
        value = self.llr(wins, losses)
        if value >= hi:
            return "H1"
        if value <= lo:
            return "H0"
        return None


def sign_test(plus: int, minus: int) -> float:
    """Two-sided p-value of `plus` against `minus` under an even chance (exact binomial)."""
    n = plus + minus
    if n == 0:
        return 1.0
    k = min(plus, minus)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def compare(x: Iterable[dict[str, Any]], y: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Paired comparison of two runs over the games both played (same deal and seating)."""
    ys = {(int(g["deal"]), bool(g["swap"])): g for g in y}
    diffs: dict[int, list[float]] = {}
    plus = minus = 0
    for g in x:
        key = (int(g["deal"]), bool(g["swap"]))
        other = ys.get(key)
        if other is None:
            continue
        d = score(g["outcome"]) - score(other["outcome"])
        diffs.setdefault(key[0], []).append(d)
        plus += d > 0
        minus += d < 0
    per = [sum(v) / len(v) for v in diffs.values()]
    mean, ci = _mean_ci(per)
    return {"games": sum(len(v) for v in diffs.values()), "deals": len(per), "diff": mean, "ci": ci,
            "better": plus, "worse": minus, "p": sign_test(plus, minus)}
