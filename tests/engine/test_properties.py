"""Property tests over random legal games: every preset, 2-6 players, partnerships and
random option mixes. Invariants: the cards never change, events leak nothing (every step),
views leak nothing, every offered move applies and random illegal moves are refused without
change (every few steps), every game ends, its hand summary matches the view, and replay
reproduces the state."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import PRESETS, IllegalMove, Match, Move, OptionsError, make_options
from app.engine.options import Options
from tests.engine.test_observer import check_events, check_hand_end, check_views

MAX_MOVES = 50_000
SETTINGS = settings(max_examples=3, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

TABLES = [(p, n, "none") for p in sorted(PRESETS) for n in (2, 3, 4, 5, 6)]
TABLES += [(p, n, "pairs") for p in sorted(PRESETS) for n in (4, 6)]


def snapshot(m: Match) -> tuple[Any, ...]:
    g = m.game
    return (repr(g.payoff), repr(g.hands), repr(g.side), repr(g.centre), repr(g.stock), g.turn,
            g.turn_plays, g.passes, m.v)


def random_move(g: Any, rng: random.Random) -> Move:
    kind = rng.choice(["play", "discard", "move_side", "load", "end_turn", "take_back"])
    pile = rng.choice(["hand", f"payoff:{rng.randrange(g.n)}", f"side:{rng.randrange(g.n)}:{rng.randrange(5)}",
                       f"centre:{rng.randrange(6)}", "bogus", "side:x:1"])
    card = rng.randrange(-2, g.deck.size + 3)
    bare = kind in ("end_turn", "take_back")
    dst = rng.choice([f"centre:{rng.randrange(6)}", f"side:{rng.randrange(g.n)}:{rng.randrange(4)}",
                      f"payoff:{rng.randrange(g.n)}"])
    return Move(kind, None if bare else card, pile if kind in ("play", "move_side", "load") else None,
                None if bare else dst)


def run_game(o: Options, seed: int, check_every: int = 1) -> None:
    rng = random.Random(seed)
    m = Match(o)
    check_events(m, m.deal(f"prop-{seed}"), None)
    g = m.game
    cards = sorted(g.all_cards())
    assert cards == list(range(g.deck.size))
    steps = 0
    while m.status == "playing":
        g = m.game
        legal = g.legal_moves()
        assert legal, "a live hand always offers a move"
        assert len(set(legal)) == len(legal), "each legal move is listed once"
        if steps % check_every == 0:
            check_views(m)
            shared = (snapshot(m), repr(g.aside), repr(g.moved), repr(g.turn_ends), len(g.undo),
                      (g.rng._block, g.rng._pos))
            for move in rng.sample(legal, min(4, len(legal))):
                trial = g.copy()
                trial.apply(move)
            # a copy shares nothing the rules change in place (what it shares, they replace)
            assert (snapshot(m), repr(g.aside), repr(g.moved), repr(g.turn_ends), len(g.undo),
                    (g.rng._block, g.rng._pos)) == shared
            for _ in range(3):
                bad = random_move(g, rng)
                if bad in legal:
                    continue
                before = snapshot(m)
                with pytest.raises(IllegalMove):
                    m.apply(bad, seat=g.turn)
                assert snapshot(m) == before
        move = rng.choice(legal)
        check_events(m, m.apply(move, seat=g.turn), move.card)
        steps += 1
        assert sorted(m.game.all_cards()) == cards
        assert steps < MAX_MOVES, "the game did not end"
    check_views(m)
    check_hand_end(m)
    replayed = Match.replay(o, None, m.hands)
    assert snapshot(replayed) == snapshot(m)
    assert replayed.game.outcome == m.game.outcome


@pytest.mark.parametrize(("preset", "players", "teams"), TABLES)
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_random_games_by_preset(preset: str, players: int, teams: str, seed: int) -> None:
    o = make_options(preset, {"players": players, "teams": teams})
    run_game(o, seed, check_every=3)


OPTION_MIX = st.fixed_dictionaries(
    {},
    optional={
        "players": st.integers(2, 6),
        "jokers_per_deck": st.sampled_from([0, 2]),
        "kings_wild": st.booleans(),
        "wild_cannot_be": st.sampled_from([[], ["A"], ["A", "7"]]),
        "payoff_size": st.integers(5, 20),
        "centre_stacks": st.sampled_from([3, 4, 5, "unlimited", "players_plus_one"]),
        "completed_stacks": st.sampled_from(["shuffle_into_stock", "set_aside_until_stock_empty"]),
        "stock_out": st.sampled_from(["draw", "fewest_wins", "play_on"]),
        "five_card_bonus": st.sampled_from(["refill", "centre_only", "none"]),
        "discard_rule": st.sampled_from(["any", "same_or_one_lower"]),
        "must_discard": st.booleans(),
        "side_to_side": st.booleans(),
        "aces_on_side_stacks": st.booleans(),
        "wilds_on_side_stacks": st.booleans(),
        "compulsory_aces_twos": st.booleans(),
        "load_opponent": st.booleans(),
        "massachusetts": st.booleans(),
        "stalemate": st.sampled_from(["end", "redeal"]),
        "deal": st.sampled_from(["shuffled_together", "separate_packs"]),
        "first_player": st.sampled_from(["highest", "lowest_deals", "dealer"]),
        "side_plays": st.sampled_from(["one", "many"]),
        "side_colours": st.sampled_from(["any", "alternate"]),
        "side_stacks_shown": st.sampled_from(["spread", "squared", "peek"]),
        "stalemate_aces_twos": st.booleans(),
        "take_backs": st.booleans(),
    },
)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(overrides=OPTION_MIX, seed=st.integers(0, 2**32), compulsory=st.booleans())
def test_random_games_with_random_options(overrides: dict[str, Any], seed: int, compulsory: bool) -> None:
    if compulsory:
        overrides = {**overrides, "compulsory_aces": True, "centre_stacks": "unlimited"}
    try:
        o = make_options("standard", overrides)
    except OptionsError:
        return  # an impossible mix is refused up front, which test_options covers
    run_game(o, seed, check_every=5)
