"""A bot decides from its seat's view alone: hidden cards never change its choice."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import choose_move
from app.engine import Match, make_options, view
from tests.bots.bot_helpers import hidden_part, play, reshuffle_hidden

LEVELS = ["random", "easy", "normal", "hard"]


@pytest.mark.parametrize("preset,overrides", [
    ("standard", {}),
    ("book", {}),                       # separate packs: pay-off cards come from one pack
    ("standard", {"players": 4, "teams": "pairs"}),
])
@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_do_not_change_the_view_or_the_choice(level: str, preset: str,
                                                           overrides: dict[str, Any]) -> None:
    opts = make_options(preset, overrides)
    rng = random.Random(5)
    checked = 0

    def check(m: Match, v: dict[str, Any], move: dict[str, Any]) -> None:
        nonlocal checked
        if m.v % 7:
            return
        seat = m.game.turn
        other = reshuffle_hidden(m, seat, rng)
        assert hidden_part(other, seat) != hidden_part(m, seat)
        w = view(other, seat)
        assert w == v  # the bot is given exactly the same thing
        assert choose_move(w, level, seed=11, iterations=60) == choose_move(v, level, seed=11, iterations=60)
        checked += 1

    play(opts, ["easy"], "honesty-" + preset, on_move=check)
    assert checked >= 5
