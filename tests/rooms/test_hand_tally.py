"""The facts a hand's achievements are judged on, kept move by move with the live match
(`hand_tally`, through `steps.apply_steps`), are those a replay of the hand finds
(`achievements.hand_facts`); deciding a move changes none of them, and a match whose tally is
unknown replays the hand instead."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

import pytest

from app.engine import Match, MatchStatus, make_options
from app.rooms.core import hand_tally
from app.rooms.core.achievements import earned, hand_facts
from app.rooms.core.effects import Committed
from app.rooms.core.match_rules import _hand_facts, decide_seat_move
from app.rooms.core.room_core import committed
from app.rooms.core.steps import DealStep, apply_steps

from .fakes import START
from .test_core import RULES, lobby, playing
from .test_room_core import AT

CASES: list[tuple[str, dict[str, Any]]] = [
    ("standard", {"payoff_size": 8}), ("short", {"payoff_size": 6, "match_target": 30}),
    ("standard", {"payoff_size": 6, "players": 3}), ("standard", {"teams": "pairs", "payoff_size": 6, "players": 4}),
    ("book", {"payoff_size": 6}),
]


@pytest.mark.parametrize(("preset", "overrides"), CASES)
def test_a_tally_kept_move_by_move_is_the_replay(preset: str, overrides: dict[str, Any]) -> None:
    rng = random.Random(f"{preset}{overrides}")
    match = Match(make_options(preset, overrides))
    for hand in range(1, 4):
        if match.status == MatchStatus.MATCH_OVER:
            break
        match.deal(f"tally-{hand}")
        tally = hand_tally.Tally.start(match.options.players, match.v)
        while match.status == MatchStatus.PLAYING:
            mv = rng.choice(match.legal_moves())
            b = hand_tally.before(match.game, mv)
            match.apply(mv)
            hand_tally.count(tally, b, match.game, match.v)
        assert hand_tally.finished(tally, match.game) == hand_facts(match, hand)


@pytest.mark.parametrize(("preset", "overrides"), CASES[:2])
def test_the_live_matchs_facts_are_the_replays_at_every_hands_end(preset: str, overrides: dict[str, Any]) -> None:
    rng = random.Random(f"{preset}{overrides}")
    room = playing(lobby(preset=preset, overrides=overrides))
    m = room.match
    assert m is not None
    ends = 0
    for _ in range(20000):
        if m.engine.status == MatchStatus.MATCH_OVER:
            break
        if m.engine.status == MatchStatus.HAND_OVER:
            number = len(m.engine.hands) + 1
            apply_steps(m, [DealStep(m.v + 1, number, f"next-{number}")], None)
            continue
        mv = rng.choice(m.engine.legal_moves())
        before = (m.v, copy.deepcopy(m.tally), [h[:] for h in m.engine.game.hands])
        decided = decide_seat_move(room, m.turn, mv, "player", None, START, RULES.missed_turns)
        assert (m.v, m.tally, m.engine.game.hands) == before  # deciding changed nothing
        after = decided.previewed.match if decided.previewed else None
        assert after is not None
        if after.status != MatchStatus.PLAYING:
            ends += 1
            kept = _hand_facts(m, mv, after)
            assert kept is not None and kept == hand_facts(after, len(after.hands))
            assert list(decided.write.earned) == earned(after, m.seats)  # the replay's awards
        committed(room, decided, Committed(), AT, RULES)
        m = room.match
        assert m is not None and m.tally is not None and m.tally.v == m.v
    assert ends >= 1


def test_a_match_without_a_tally_replays_the_hand() -> None:
    room = playing(lobby(overrides={"payoff_size": 5}))
    m = room.match
    assert m is not None
    rng = random.Random(3)
    for _ in range(4000):
        mv = rng.choice(m.engine.legal_moves())
        m.tally = None if rng.random() < 0.5 else m.tally  # lost along the way: the hand is replayed
        decided = decide_seat_move(room, m.turn, mv, "player", None, START, RULES.missed_turns)
        after = decided.previewed.match if decided.previewed else None
        if after is not None and after.status != MatchStatus.PLAYING:
            assert list(decided.write.earned) == earned(after, m.seats)
            break
        committed(room, decided, Committed(), AT, RULES)
        m = room.match
        assert m is not None
        if m.tally is not None:
            m.tally = replace(m.tally, v=m.tally.v - 1)  # behind the match: not used either
    else:
        raise AssertionError("the hand never ended")
