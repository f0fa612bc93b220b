"""Bots finish whole hands under every preset and unusual options, always moving legally."""

from __future__ import annotations

import pytest

from app.bots import choose_move
from app.engine import PRESETS, Match, make_options, view
from tests.bots.bot_helpers import play

TABLES = [
    {"players": 2},
    {"players": 4, "teams": "pairs"},
    {"players": 3},
    {"players": 6},
]
OPTIONS = [
    {"discard_rule": "same_or_one_lower"},
    {"side_to_side": True, "discard_rule": "same_or_one_lower"},
    {"load_opponent": True},
    {"must_discard": False, "stalemate": "redeal"},
    {"stock_out": "play_on", "completed_stacks": "set_aside_until_stock_empty"},
    {"stock_out": "fewest_wins", "jokers_per_deck": 2, "wild_cannot_be": ["A", "7"]},
    {"aces_on_side_stacks": False, "wilds_on_side_stacks": False, "centre_stacks": "unlimited"},
    {"kings_wild": False, "jokers_per_deck": 2, "five_card_bonus": "none"},
    {"compulsory_aces": True},
    {"side_stacks_shown": "peek", "side_to_side": True, "discard_rule": "same_or_one_lower"},
    {"five_card_bonus": "centre_only", "side_plays": "many", "load_opponent": True},
    {"massachusetts": True, "side_plays": "many", "must_discard": False},
]


def _opts(preset: str, table: dict[str, object]):  # type: ignore[no-untyped-def]
    try:
        return make_options(preset, table)
    except ValueError:
        pytest.skip(f"{preset} cannot seat {table}")


@pytest.mark.parametrize("table", TABLES, ids=lambda t: "-".join(str(v) for v in t.values()))
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_easy_finishes_every_preset(preset: str, table: dict[str, object]) -> None:
    opts = _opts(preset, table)
    m = play(opts, ["easy", "random"], f"games-{preset}")
    assert m.game.outcome is not None


@pytest.mark.parametrize("table", [TABLES[0], TABLES[1], TABLES[3]], ids=lambda t: "-".join(str(v) for v in t.values()))
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_normal_and_hard_finish_every_preset(preset: str, table: dict[str, object]) -> None:
    opts = _opts(preset, table)
    # Normal and Hard at every table: one seat each (their own side and the other), Easy the rest
    # (Easy is covered at every seat by the test above; two more planners per hand only cost time).
    levels = ["normal", "hard"] + ["easy"] * (opts.players - 2)
    m = play(opts, levels, f"levels-{preset}", iterations=8)
    assert m.game.outcome is not None


@pytest.mark.parametrize("overrides", OPTIONS, ids=lambda o: ",".join(o))
def test_normal_and_hard_finish_under_options(overrides: dict[str, object]) -> None:
    m = play(make_options("standard", {"players": 2, **overrides}), ["hard", "normal"], "options-nh", iterations=8)
    assert m.game.outcome is not None
    m = play(make_options("standard", {"players": 4, "teams": "pairs", **overrides}), ["normal", "easy"], "options-ne")
    assert m.game.outcome is not None


@pytest.mark.parametrize("overrides", OPTIONS, ids=lambda o: ",".join(o))
def test_easy_finishes_under_options(overrides: dict[str, object]) -> None:
    for table in ({"players": 2}, {"players": 4, "teams": "pairs"}):
        m = play(make_options("standard", {**table, **overrides}), ["easy"], "options")
        assert m.game.outcome is not None


def test_random_is_repeatable_and_legal() -> None:
    m = Match(make_options("standard"))
    m.deal("random-bot")
    v = view(m, m.game.turn)
    picks = {str(choose_move(v, "random", seed=s)) for s in range(40)}
    assert len(picks) > 5  # it really varies with the seed
    assert choose_move(v, "random", seed=3) == choose_move(v, "random", seed=3)


def test_bad_calls_are_refused() -> None:
    m = Match(make_options("standard"))
    m.deal("refuse")
    other = 1 - m.game.turn
    with pytest.raises(ValueError, match="not this seat's turn"):
        choose_move(view(m, other), "easy")
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_move(view(m, m.game.turn), "genius")
