"""Hard's rollout policy: legal to the end of every hand, and its opponent model (`model=True`)
closer to Normal's play than the plain policy, as docs/bots.md reports."""

from __future__ import annotations

import random

from app.bots import choose_move, hard
from app.bots.planner import move_key
from app.engine import Match, Move, make_options, view


def test_the_opponent_model_agrees_with_normal_more_often_than_the_plain_rollout() -> None:
    opts = make_options("standard", {})
    agree = {False: 0, True: 0}
    n = 0
    for game in range(3):
        m = Match(opts)
        m.deal(f"rollout-{game}")
        moves = 0
        while m.status == "playing" and moves < 400:
            seat = m.game.turn
            normal = Move.from_wire(choose_move(view(m, seat), "normal", seed=moves))
            for model in (False, True):
                r = hard.rollout_move(m.game.copy(), random.Random(moves), model=model)
                assert r in m.game.legal_moves()
                agree[model] += move_key(m.game, r) == move_key(m.game, normal)
            n += 1
            m.apply(normal, seat)
            moves += 1
    assert n >= 300
    assert agree[True] > agree[False] + 0.05 * n  # measured: about 60 % against 49 %


def test_rollouts_play_every_preset_to_the_end() -> None:
    from app.engine import PRESETS
    for preset in sorted(PRESETS):
        opts = make_options(preset, {})
        for model in (False, True):
            m = Match(opts)
            m.deal(f"rollout-end-{preset}")
            g = m.game.copy()
            rng = random.Random(1)
            moves = 0
            while g.outcome is None:
                g.apply(hard.rollout_move(g, rng, model=model))
                moves += 1
                assert moves < 20000, preset


def test_the_fast_rollout_chooses_what_the_full_one_does() -> None:
    """`fast` reads the centre plays without building every legal move, and rollouts apply them
    unchecked: the choice must be the very move the full list gives, and legal, in every preset
    (compulsory Aces and blocks take the full path)."""
    from app.engine import PRESETS
    from app.engine.legal import centre_plays
    checked = 0
    for preset in sorted(PRESETS):
        m = Match(make_options(preset, {}))
        m.deal(f"rollout-fast-{preset}")
        g = m.game.copy()
        rng = random.Random(2)
        while g.outcome is None:
            plays = centre_plays(g)
            if plays is not None:
                assert plays == [mv for mv in g.legal_moves() if mv[0] == "play"]
            k = rng.getrandbits(32)
            full = hard.rollout_move(g.copy(), random.Random(k))
            quick = hard.rollout_move(g.copy(), random.Random(k), fast=True)
            assert quick == full and quick in g.legal_moves()
            g.apply(full)
            checked += 1
            assert checked < 100000
    assert checked > 500
