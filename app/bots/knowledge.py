"""What one seat may know, rebuilt from its view as an engine position.

A bot is given only `view(match, seat)`. `Knowledge.from_view` turns it into:

- the public zones and the seat's hand, as card ids;
- the *unknown pool*: every card of the deck that the view does not show (other hands,
  pay-off piles below their tops, the stock, the set-aside cards);
- a *template* `Game` in which the hidden zones are filled from the pool in a fixed
  order (so it depends on the view alone), and `determinize(game, rng)`, which refills
  the hidden zones of a copy with a fresh uniform sample for search.

Planners that must stay honest read only the public zones and the seat's own hand of the
template; anything they reach by drawing or turning up a card is a made-up card, so they
stop there (see `planner.py`).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.engine import Game, Move, Options, options_from_json
from app.engine.options import OPTION_NAMES

from .belief import Belief


@lru_cache(maxsize=64)
def _options(key: tuple[tuple[str, Any], ...]) -> Options:
    return options_from_json(dict(key))


def options_of(view: dict[str, Any]) -> Options:
    """The options of a view (cached: rebuilding them is the same for every move)."""
    raw = view["options"]
    key = tuple(
        (name, tuple(raw[name]) if isinstance(raw[name], list) else raw[name])
        for name in OPTION_NAMES if name in raw
    )
    return _options(key)


def _ids(cards: Sequence[dict[str, Any]]) -> list[int]:
    return [int(c["id"]) for c in cards]


def payoff_pack(opts: Options) -> frozenset[int] | None:
    """Card ids the pay-off piles can hold under `deal=separate_packs` (None: any card)."""
    if opts.deal != "separate_packs":
        return None
    decks = -(-(opts.players * opts.payoff_size) // 52)
    per = 52 + opts.jokers_per_deck
    return frozenset(d * per + i for d in range(decks) for i in range(52))


@dataclass
class Knowledge:
    """A seat's knowledge of the position (see the module docstring)."""

    opts: Options
    seat: int
    template: Game
    pool: list[int]
    hand_counts: list[int]
    payoff_hidden: list[int]
    stock_count: int
    aside_count: int
    payoff_pack: frozenset[int] | None
    buried: list[list[int]]  # hidden cards below each side stack's top (squared stacks)

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Knowledge:
        if view.get("you") is None:
            raise ValueError("a bot needs a seat's view, not a spectator's")
        opts = options_of(view)
        if opts.take_backs:  # bots never take back: their searches play the game without them
            opts = dataclasses.replace(opts, take_backs=False)
        seat = int(view["you"])
        n = opts.players
        players = view["players"]
        hand = _ids(view["hand"])
        tops: list[int | None] = [
            int(p["payoff_top"]["id"]) if p["payoff_top"] is not None else None for p in players
        ]
        side = [[_ids(st) for st in p["side"]] for p in players]
        if view.get("own_side") is not None:  # side_stacks_shown=peek: its own stacks, whole
            side[seat] = [_ids(st) for st in view["own_side"]]
        centre = [_ids(st) for st in view["centre"]]
        known: set[int] = set(hand)
        known.update(t for t in tops if t is not None)
        for sides in side:
            for st in sides:
                known.update(st)
        for st in centre:
            known.update(st)
        size = opts.decks * (52 + opts.jokers_per_deck)
        pool = [c for c in range(size) if c not in known]
        hand_counts = [len(hand) if s == seat else int(players[s]["hand_count"]) for s in range(n)]
        payoff_hidden = [max(0, int(players[s]["payoff_count"]) - 1) for s in range(n)]
        stock_count = int(view["stock_count"])
        aside_count = int(view["set_aside_count"])
        # side_stacks_shown=squared: cards below each side stack's top are not shown (a bot
        # does not remember them: it samples them like any unseen card; under peek its own are known)
        buried = [[int(c) - len(st) for c, st in zip(p.get("side_counts") or [len(x) for x in p["side"]],
                                                     side[s], strict=True)] for s, p in enumerate(players)]
        hidden = sum(hand_counts) - len(hand) + sum(payoff_hidden) + stock_count + aside_count
        hidden += sum(map(sum, buried))
        if hidden != len(pool):
            raise ValueError(f"inconsistent view: {len(pool)} unseen cards for {hidden} hidden places")
        pack = payoff_pack(opts)
        info = view["turn_info"]
        fill = _fill(pool, seat, hand_counts, payoff_hidden, stock_count, aside_count, pack)
        hands, below, stock, aside, left = fill
        hands[seat] = hand
        side = _bury(side, buried, left)
        payoff = [below[s] + [t for t in tops[s:s + 1] if t is not None] for s in range(n)]
        template = Game.from_piles(
            opts, payoff=payoff, hands=hands, side=side, centre=centre, stock=stock, aside=aside,
            turn=int(view["turn"]), first=int(view["first"]),
            turn_plays=int(info["plays"]), turn_centre=int(info["centre_plays"]),
            moved=[int(c) for c in info["moved_side"]], passes=int(info["passes"]),
            dry=int(info["dry_turns"]), discards=int(info.get("discards", 0)),
            block=bool(info.get("block", False)), stale_refills=int(info.get("stale_refills", 0)),
            off_centre=bool(info.get("off_centre", False)),
        )
        return cls(opts, seat, template, pool, hand_counts, payoff_hidden, stock_count,
                   aside_count, pack, buried)

    def determinize(self, g: Game, rng: random.Random, belief: Belief | None = None) -> None:
        """Refill the hidden zones of `g` (a copy of the template) with a fresh sample: uniform,
        or with the other hands drawn from `belief` (belief.py)."""
        pool = self.pool[:]
        rng.shuffle(pool)
        if belief is not None:
            need = sum(self.payoff_hidden)
            if self.payoff_pack is None:
                first = pool[:need]
            else:
                first = [c for c in pool if c in self.payoff_pack][:need]
            pool = belief.arrange(pool, self.seat, self.hand_counts, first, rng)
        hands, below, stock, aside, left = _fill(pool, self.seat, self.hand_counts, self.payoff_hidden,
                                                 self.stock_count, self.aside_count, self.payoff_pack)
        if left:
            g.side = _bury([[st[-1:] for st in sides] for sides in g.side], self.buried, left)
        for s in range(g.n):
            if s != self.seat:
                g.hands[s] = hands[s]
            if below[s]:
                g.payoff[s] = below[s] + g.payoff[s][-1:]
        g.stock = stock
        g.aside = aside
        g._legal = None

    def legal(self, view: dict[str, Any]) -> list[Move]:
        """The view's legal moves as engine moves (in the view's order)."""
        return [Move.from_wire(m) for m in view["legal_moves"]]


def _bury(side: list[list[list[int]]], buried: list[list[int]], cards: list[int]) -> list[list[list[int]]]:
    """Side stacks with `buried[s][k]` of `cards` (in order) put below each shown top."""
    if not cards:
        return side
    out: list[list[list[int]]] = []
    pos = 0
    for sides, counts in zip(side, buried, strict=True):
        row = []
        for st, count in zip(sides, counts, strict=True):
            row.append(cards[pos:pos + count] + st)
            pos += count
        out.append(row)
    return out


def _fill(pool: list[int], seat: int, hand_counts: list[int], payoff_hidden: list[int],
          stock_count: int, aside_count: int, pack: frozenset[int] | None
          ) -> tuple[list[list[int]], list[list[int]], list[int], list[int], list[int]]:
    """Deal `pool` (in its order) into the hidden zones; pay-off cards from `pack` if given.
    Returns hands, pay-off cards below the tops, stock, set-aside and the cards left over
    (as many as the squared side stacks hide)."""
    if pack is None:
        rest = pool
        payoff_source = pool
    else:
        payoff_source = [c for c in pool if c in pack]
        need = sum(payoff_hidden)
        chosen = set(payoff_source[:need])
        rest = [c for c in pool if c not in chosen]
        if len(chosen) < need:
            raise ValueError("inconsistent view: too few pay-off pack cards unseen")
    pos = 0
    below: list[list[int]] = []
    for count in payoff_hidden:
        below.append(payoff_source[pos:pos + count])
        pos += count
    if pack is not None:
        pos = 0
    hands: list[list[int]] = []
    for s, count in enumerate(hand_counts):
        if s == seat:
            hands.append([])
            continue
        hands.append(rest[pos:pos + count])
        pos += count
    stock = rest[pos:pos + stock_count]
    pos += stock_count
    aside = rest[pos:pos + aside_count]
    return hands, below, stock, aside, rest[pos + aside_count:]
