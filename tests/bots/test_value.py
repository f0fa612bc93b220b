"""The learned evaluation (app/bots/value.py): it reads only a seat's view, its weights fit its
features, and it judges the obvious positions the obvious way."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.bots import choose_move
from app.bots.knowledge import Knowledge
from app.bots.value import (
    FEATURES,
    HAND_FEATURES,
    UNSTEADY,
    WEIGHTS_FILE,
    features,
    game_value,
    position_value,
    search_leaf,
)
from app.engine import Game, Match, Move, make_options, view
from tests.bots.bot_helpers import reshuffle_hidden

MIXES = [
    ("standard", {}),
    ("book", {}),  # separate packs
    ("pagat", {}),  # squared side stacks: only the tops are shown
    ("hoyle", {}),  # peek: a seat sees its own stacks whole, the others' tops only
    ("standard", {"players": 4, "teams": "pairs"}),
]


def _positions(preset: str, overrides: dict[str, Any], seed: str, every: int = 5) -> Any:
    opts = make_options(preset, overrides)
    m = Match(opts)
    m.deal(seed)
    moves = 0
    while m.status == "playing" and moves < 400:
        seat = m.game.turn
        v = view(m, seat)
        if moves % every == 0:
            yield m, v
        m.apply(Move.from_wire(choose_move(v, "easy", seed=moves)), seat)
        moves += 1


@pytest.mark.parametrize("preset,overrides", MIXES)
def test_features_read_only_the_seats_view(preset: str, overrides: dict[str, Any]) -> None:
    """On the seat's template (hidden places filled with made-up cards) the features are those
    of the real position: nothing hidden is read, for the viewer (with its hand) and, without
    hands, for every other seat."""
    checked = 0
    for m, v in _positions(preset, overrides, "value-" + preset):
        seat = m.game.turn
        template = Knowledge.from_view(v).template
        assert features(template, seat) == features(m.game, seat)
        for other in range(m.game.n):
            assert features(template, other, hand=False) == features(m.game, other, hand=False)
        checked += 1
    assert checked >= 10


def test_hidden_cards_do_not_change_the_value() -> None:
    rng = random.Random(3)
    for m, v in _positions("standard", {"players": 3}, "value-hidden", every=7):
        seat = m.game.turn
        other = reshuffle_hidden(m, seat, rng)
        w = view(other, seat)
        for s in range(3):
            assert position_value(w, s) == position_value(v, s)
        assert position_value(v) == game_value(m.game, seat)


def test_the_weights_file_fits_the_features() -> None:
    with open(WEIGHTS_FILE) as f:
        raw = json.load(f)
    assert tuple(raw["features"]) == FEATURES
    assert len(raw["full"]) == len(raw["public"]) == len(FEATURES)
    for name, w in zip(FEATURES, raw["public"], strict=True):
        if name in HAND_FEATURES:
            assert w == 0.0  # fitted with the hand left out
    assert "command" in raw["trained"]
    assert len(raw["steady"]) == len(FEATURES)
    for name, w in zip(FEATURES, raw["steady"], strict=True):
        assert (w == 0.0) == (name in UNSTEADY)  # fitted without what a search could hold on to


def test_the_steady_value_ignores_side_stacks_and_cards_kept_back() -> None:
    """Cards on the seat's side stacks move the full value and never the steady one (the cards
    come out of the other hand, which the seat's value does not read)."""
    g = _near_end(5, 5)
    more = g.copy()
    more.side[0][0].extend(more.hands[1][:2])
    del more.hands[1][:2]
    assert game_value(more, 0) != game_value(g, 0)
    assert game_value(more, 0, model="steady") == game_value(g, 0, model="steady")
    # the leaf of Hard's search, the review and the board is the steady one: a search cannot buy
    # a better score by piling cards on its side stacks (docs/bots.md, "the steady weights")
    assert search_leaf(more, 0) == search_leaf(g, 0)


def _near_end(own_left: int, opp_left: int) -> Game:
    opts = make_options("standard", {"players": 2})
    low = ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "2S", "3S", "4S"]
    high = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "2C", "3C", "4C"]
    return Game.layout(opts, payoff=[low[:own_left], high[:opp_left]],
                       hands=[["9C", "9S", "QS", "8S", "7C"], ["5C", "6C", "7S", "8C", "10C"]],
                       centre=[["AS"]], stock=["10S", "JC", "JS", "QC", "6S"])


def test_fewer_own_pay_off_cards_win_more_often() -> None:
    ahead = game_value(_near_end(2, 12), 0)
    even = game_value(_near_end(8, 8), 0)
    behind = game_value(_near_end(12, 2), 0)
    assert ahead > 0.75 > even > 0.25 > behind
    # a two-player hand: the two seats' chances add up to about one
    g = _near_end(8, 8)
    assert abs(game_value(g, 0) + game_value(g, 1) - 1.0) < 0.2


def test_a_finished_hand_is_won_or_lost() -> None:
    opts = make_options("standard", {"players": 2})
    g = Game.layout(opts, payoff=[["2D"], ["3C", "8C"]], hands=[["AD", "9D", "QH", "8S", "7D"], ["2C"]],
                    centre=[], stock=["4D", "5C", "6D", "7C", "8D", "9H"])
    m = Match.of_position(g)
    v = view(m, 0)
    play = next(Move.from_wire(w) for w in v["legal_moves"] if w["kind"] == "play" and w["from"] == "hand")
    m.apply(play, 0)  # the Ace
    two = next(Move.from_wire(w) for w in view(m, 0)["legal_moves"] if w.get("from") == "payoff:0")
    m.apply(two, 0)  # the last pay-off card
    done = view(m, 1)
    assert done["result"] is not None
    assert position_value(done, 0) == 1.0
    assert position_value(done) == 0.0
    assert game_value(m.game, 0) == 1.0


def test_a_spectator_or_a_stranger_seat_is_refused() -> None:
    m = Match(make_options("standard", {"players": 2}))
    m.deal("value-refuse")
    with pytest.raises(ValueError):
        position_value(view(m, None))
    with pytest.raises(ValueError):
        position_value(view(m, 0), 5)
