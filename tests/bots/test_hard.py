"""Hard's search (app/bots/hard.py): its candidates are whole turns, its choice is one of them and
legal, its simulations end in the learned value, and all of it is repeatable for a seed."""

from __future__ import annotations

import random
from typing import Any

from app.bots import choose_move, hard, normal
from app.bots.belief import Belief
from app.bots.knowledge import Knowledge
from app.bots.planner import ends_turn, plan_turn
from app.engine import Match, Move, make_options, view


def _views(preset: str, overrides: dict[str, Any], seed: str, every: int = 9) -> Any:
    m = Match(make_options(preset, overrides))
    m.deal(seed)
    moves = 0
    while m.status == "playing" and moves < 300:
        seat = m.game.turn
        v = view(m, seat)
        if moves % every == 0:
            yield v
        m.apply(Move.from_wire(choose_move(v, "normal", seed=moves)), seat)
        moves += 1


def test_candidates_are_whole_turns_that_replay_legally() -> None:
    checked = 0
    for preset, overrides in (("standard", {}), ("standard", {"players": 3}), ("book", {})):
        for v in _views(preset, overrides, "hard-lines-" + preset):
            know = Knowledge.from_view(v)
            pool = hard.candidates(plan_turn(know.template, normal.SCORER, normal.MAX_NODES))
            assert 1 <= len(pool) <= hard.CANDIDATES
            for line in pool:
                g = know.template.copy()
                for k, m in enumerate(line.moves):
                    assert m in g.legal_moves()
                    last = k == len(line.moves) - 1
                    if last and line.how == "end":
                        # the turn closes: with a discard or end_turn, or the last play hands it on
                        g2 = g.copy()
                        g2.apply(m)
                        assert ends_turn(g, m) or g2.turn != know.seat or g2.outcome is not None
                    g.apply(m)
                assert line.how in ("end", "reveal", "refill", "over")
            checked += 1
    assert checked >= 15


def test_the_choice_is_the_first_move_of_a_candidate() -> None:
    for v in _views("standard", {}, "hard-choice", every=13):
        know = Knowledge.from_view(v)
        firsts = {ln.moves[0] for ln in hard.candidates(plan_turn(know.template, normal.SCORER, normal.MAX_NODES))}
        wire = choose_move(v, "hard", seed=3, iterations=60)
        assert wire in v["legal_moves"]
        assert not firsts or Move.from_wire(wire) in firsts


def test_a_simulation_ends_in_the_learned_value() -> None:
    assert hard.VALUE_LEAF
    seen = 0
    for v in _views("standard", {}, "hard-leaf", every=11):
        know = Knowledge.from_view(v)
        pool = hard.candidates(plan_turn(know.template, normal.SCORER, normal.MAX_NODES))
        belief = Belief.from_view(v, know.template, know.seat)
        rng = random.Random(4)
        sample = know.template.copy()
        know.determinize(sample, rng, belief)
        for line in pool:
            a = hard.simulate(sample, line, know.seat, random.Random(9))
            assert 0.0 <= a <= hard.VALUE_SCALE
            assert a == hard.simulate(sample, line, know.seat, random.Random(9))  # repeatable
            seen += 1
    assert seen >= 10


def test_hard_is_repeatable_and_legal_under_either_leaf() -> None:
    views = list(_views("standard", {}, "hard-repeat", every=5))
    picks = [choose_move(v, "hard", seed=5, iterations=120) for v in views]
    assert picks == [choose_move(v, "hard", seed=5, iterations=120) for v in views]
    old = hard.VALUE_LEAF
    try:
        hard.VALUE_LEAF = False
        classic = [choose_move(v, "hard", seed=5, iterations=120) for v in views]
    finally:
        hard.VALUE_LEAF = old
    assert all(p in v["legal_moves"] and c in v["legal_moves"] for p, c, v in zip(picks, classic, views, strict=True))
