"""Helpers for engine tests: build exact positions and name cards by their codes."""

from __future__ import annotations

import random
from typing import Any

from app.engine import Game, Move, make_options
from app.engine.moves import parse_pile


def opts(preset: str = "standard", **overrides: Any):  # type: ignore[no-untyped-def]
    return make_options(preset, overrides)


def lay(preset: str = "standard", overrides: dict[str, Any] | None = None, **piles: Any) -> Game:
    """A position from card codes; unnamed piles are empty, seats default to 2."""
    o = make_options(preset, overrides or {})
    n = o.players
    default = [["9D", "JD"], ["9H", "JH"], ["9C", "JC"], ["9S", "JS"], ["10D", "JD"], ["10H", "JH"]]
    piles.setdefault("payoff", default[:n])
    piles.setdefault("hands", [[] for _ in range(n)])
    return Game.layout(o, **piles)


def code(g: Game, card: int) -> str:
    return g.deck.code(card)


def codes(g: Game, cards: list[int]) -> list[str]:
    return [g.deck.code(c) for c in cards]


def find(g: Game, card_code: str, pile: str) -> int:
    """The id of the card `card_code` in `pile` (a hand: any position; else the top)."""
    zone, p, k = parse_pile(pile)
    if zone == "hand":
        cards = g.hands[g.turn]
    elif zone == "payoff":
        cards = g.payoff[p][-1:]
    elif zone == "side":
        cards = g.side[p][k][-1:]
    else:
        raise ValueError(pile)
    for c in cards:
        if g.deck.code(c) == card_code.upper():
            return c
    raise AssertionError(f"{card_code} not available at {pile}: {codes(g, cards)}")


def play(g: Game, card_code: str, src: str, dst: str) -> Move:
    return Move("play", find(g, card_code, src), src, dst)


def discard(g: Game, card_code: str, dst: str) -> Move:
    return Move("discard", find(g, card_code, "hand"), None, dst)


def load(g: Game, card_code: str, src: str, dst: str) -> Move:
    return Move("load", find(g, card_code, src), src, dst)


def centre_codes(g: Game) -> list[list[str]]:
    return [codes(g, st) for st in g.centre]


def random_game(g: Game, rng: random.Random, limit: int = 100_000) -> int:
    """Play random legal moves to the end; returns the number of moves."""
    steps = 0
    while g.outcome is None and steps < limit:
        g.apply(rng.choice(g.legal_moves()))
        steps += 1
    return steps
