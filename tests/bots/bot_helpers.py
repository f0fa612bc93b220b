"""Shared helpers for the bot tests: play games with bots, hide-and-reshuffle positions."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

from app.bots import choose_move
from app.engine import Match, Move, Options, view


def play(opts: Options, levels: Sequence[str], seed: str, *, budget_ms: int | None = None,
         iterations: int | None = None, max_moves: int = 5000,
         on_move: Callable[[Match, dict[str, Any], dict[str, Any]], None] | None = None) -> Match:
    """Play one hand: seat s is played by `levels[s % len(levels)]`. Every chosen move must
    be one of the view's legal moves; `on_move(match, view, move)` sees each decision."""
    m = Match(opts)
    m.deal(seed)
    moves = 0
    while m.status == "playing":
        seat = m.game.turn
        v = view(m, seat)
        move = choose_move(v, levels[seat % len(levels)], seed=moves, budget_ms=budget_ms, iterations=iterations)
        assert move in v["legal_moves"], (move, v["legal_moves"])
        if on_move is not None:
            on_move(m, v, move)
        m.apply(Move.from_wire(move), seat)
        moves += 1
        assert moves <= max_moves, "the hand did not end"
    return m


def reshuffle_hidden(m: Match, seat: int, rng: random.Random) -> Match:
    """A copy of `m` in which every card `seat` cannot see is dealt anew among the hidden
    places (other hands, pay-off piles below their tops, the stock, set-aside cards),
    keeping every count. Under separate packs pay-off cards only swap among themselves."""
    other = copy.deepcopy(m)
    g = other.game
    below = [pile[:-1] for pile in g.payoff]
    payoff_cards = [c for b in below for c in b]
    rng.shuffle(payoff_cards)
    rest = [c for s in range(g.n) if s != seat for c in g.hands[s]] + g.stock + g.aside
    if g.opts.deal != "separate_packs":
        rest += payoff_cards
        rng.shuffle(rest)
        payoff_cards, rest = rest[:len(payoff_cards)], rest[len(payoff_cards):]
    else:
        rng.shuffle(rest)
    pos = 0
    for s in range(g.n):
        if below[s]:
            g.payoff[s] = payoff_cards[pos:pos + len(below[s])] + g.payoff[s][-1:]
            pos += len(below[s])
    pos = 0
    for s in range(g.n):
        if s != seat:
            k = len(g.hands[s])
            g.hands[s] = rest[pos:pos + k]
            pos += k
    k = len(g.stock)
    g.stock = rest[pos:pos + k]
    pos += k
    g.aside = rest[pos:]
    return other


def hidden_part(m: Match, seat: int) -> tuple[Any, ...]:
    """What `seat` cannot see, to check a reshuffle changed something."""
    g = m.game
    return (tuple(tuple(h) for s, h in enumerate(g.hands) if s != seat),
            tuple(tuple(p[:-1]) for p in g.payoff), tuple(g.stock))
