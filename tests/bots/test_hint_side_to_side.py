"""Hints under side-to-side rules, over many positions (fixed seeds): a move between side
stacks is named by the card it moves, and every hint is said in every language.

A move between side stacks carries no card (the card is the source stack's top), and the
hint once named it by that missing card: "" and a KeyError in the sentence."""

from __future__ import annotations

import random

import pytest

from app.bots import suggest
from app.bots.knowledge import Knowledge
from app.bots.reasons import english, reason
from app.engine import Match, Move, make_options, view
from app.engine.moves import MOVE_SIDE, parse_pile
from app.i18n import LANGS, render

TABLES = [("cat_and_mouse", 2, {}), ("cat_and_mouse", 3, {}),
          ("standard", 2, {"side_to_side": True}), ("standard", 4, {"side_to_side": True})]
SEEDS = range(3)
MAX_STEPS = 400   # positions walked per game: enough for side stacks to grow and runs to open


def _say_everywhere(key: str, params: dict[str, object]) -> None:
    english((key, params))
    for lang in LANGS:
        assert render(lang, f"hint.{key}", params) != f"hint.{key}"


@pytest.mark.parametrize(("preset", "players", "overrides"), TABLES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_side_to_side_move_has_a_hint_naming_its_card(
        preset: str, players: int, overrides: dict[str, object], seed: int) -> None:
    rng = random.Random(seed)
    m = Match(make_options(preset, {"players": players, **overrides}))
    m.deal(f"side-to-side-{seed}")
    moves_side = 0
    for _step in range(MAX_STEPS):
        if m.status != "playing":
            break
        g = m.game
        seat = g.turn
        legal = g.legal_moves()
        sideways = [mv for mv in legal if mv.kind == MOVE_SIDE]
        if sideways:
            v = view(m, seat)
            know = Knowledge.from_view(v)
            for mv in sideways:
                assert mv.src is not None
                pile = parse_pile(mv.src)
                key, params = reason(know.template, seat, [mv])
                assert (key, params) == ("move_side", {"card": g.deck.code(g.side[seat][pile.slot][-1])})
                _say_everywhere(key, params)
            moves_side += 1
        m.apply(rng.choice(legal), seat)
    assert moves_side  # the walk met moves between side stacks


@pytest.mark.parametrize(("preset", "players", "overrides"), [t for t in TABLES if t[:2] != ("standard", 2)])
def test_a_hint_whose_best_move_is_between_side_stacks_names_the_card(
        preset: str, players: int, overrides: dict[str, object]) -> None:
    # the whole hint (the Normal bot's plan, then its reason) where it picks a move between side stacks
    found = 0
    for seed in range(40):
        if found:
            break
        rng = random.Random(seed)
        m = Match(make_options(preset, {"players": players, **overrides}))
        m.deal(f"best-sideways-{seed}")
        for _step in range(MAX_STEPS):
            if m.status != "playing" or found:
                break
            g = m.game
            legal = g.legal_moves()
            if any(mv.kind == MOVE_SIDE for mv in legal):
                wire, (key, params) = suggest(view(m, g.turn), "normal", seed=seed)
                if Move.from_wire(wire).kind == MOVE_SIDE:
                    assert key == "move_side" and params["card"]
                    _say_everywhere(key, params)
                    found += 1
            m.apply(rng.choice(legal), g.turn)
    assert found
