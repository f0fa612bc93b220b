"""The arena's statistics (bench/arena_stats.py): the sequential test decides when it should and
not before, the paired interval is taken over deals, and comparisons pair game with game."""

from __future__ import annotations

import math

from bench.arena_stats import Sprt, compare, paired, sign_test


def test_the_sequential_test_decides_only_on_enough_evidence() -> None:
    t = Sprt(0.5, 0.6)
    lo, hi = t.bounds
    assert math.isclose(hi, math.log(19)) and math.isclose(lo, -math.log(19))
    assert t.decision(6, 4) is None  # 60 % of ten games proves nothing
    assert t.decision(180, 120) == "H1"
    assert t.decision(150, 150) == "H0"
    assert t.decision(55, 45) is None


def test_the_paired_interval_is_over_deals() -> None:
    # every deal split one-one: the seat decided, not the bot: no noise left between the bots
    games = [{"deal": d, "outcome": o} for d in range(20) for o in ("a", "b")]
    mean, ci, deals = paired(games)
    assert (mean, ci, deals) == (0.5, 0.0, 20)
    swept = [{"deal": d, "outcome": "a" if d % 2 else "b"} for d in range(20) for _ in range(2)]
    assert paired(swept)[1] > 0.2


def test_a_comparison_pairs_the_same_deal_and_seating() -> None:
    new = [{"deal": d, "swap": s, "outcome": "a"} for d in range(10) for s in (False, True)]
    old = [{"deal": d, "swap": s, "outcome": "a" if s else "b"} for d in range(10) for s in (False, True)]
    c = compare(new, old)
    assert c["games"] == 20 and c["deals"] == 10
    assert math.isclose(c["diff"], 0.5) and c["better"] == 10 and c["worse"] == 0
    assert c["p"] < 0.01
    assert sign_test(5, 5) == 1.0
