"""Marks and summaries: how many points a decision lost, and what a player's review adds up to."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

INACCURACY = 5.0  # points (100 x chance) lost from the best move
MISTAKE = 10.0
BLUNDER = 15.0

SHOWN = 3  # decimals of a chance as the review gives and shows it: a tenth of a per cent (41.5 %)


@dataclass(frozen=True)
class Judged:
    """A decision's figures as the review gives and shows them, rounded once, here: each chance
    to a tenth of a per cent, the points lost as the difference of those two (never below 0), and
    the mark from that shown loss, so a loss shown as 5.0 is always an inaccuracy."""

    chance_played: float
    chance_best: float
    loss: float
    mark: str | None


def judged(chance_played: float, chance_best: float) -> Judged:
    """The shown figures of a decision whose estimates were `chance_played` and `chance_best` (0..1)."""
    played, best = round(chance_played, SHOWN), round(chance_best, SHOWN)
    tenths = max(0, round(best * 10**SHOWN) - round(played * 10**SHOWN))  # whole tenths of a point: exact
    loss = tenths / 10
    return Judged(played, max(best, played), loss, mark(loss))


def mark(loss: float) -> str | None:
    """The mark of a decision that lost `loss` points: from 5, 10 and 15 points on."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def accuracy(losses: Sequence[float]) -> float | None:
    """An accuracy-like figure, 0..100: each decision scores 103.17 e^(-0.0435 loss) - 3.17
    (lichess's curve from win-chance points lost: 0 lost is 100, 15 lost about 50), averaged."""
    if not losses:
        return None
    each = [max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669)) for loss in losses]
    return round(sum(each) / len(each), 1)


def summary(seats: Sequence[int], decisions: Sequence[dict[str, Any]],
            luck: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per seat: decisions judged, accuracy, the count of each mark, average loss and the luck
    over every hand (points of chance moved by cards drawn or turned up)."""
    out = []
    for s in seats:
        mine = [d for d in decisions if d["seat"] == s]
        losses = [float(d["loss"]) for d in mine]
        out.append({
            "seat": s,
            "decisions": len(mine),
            "accuracy": accuracy(losses),
            "inaccuracies": sum(1 for d in mine if d["mark"] == "inaccuracy"),
            "mistakes": sum(1 for d in mine if d["mark"] == "mistake"),
            "blunders": sum(1 for d in mine if d["mark"] == "blunder"),
            "average_loss": round(sum(losses) / len(losses), 1) if losses else None,
            "luck": round(sum(float(x["points"]) for x in luck if x["seat"] == s), 1),
        })
    return out
