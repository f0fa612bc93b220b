"""A learned evaluation: the chance that a seat's team wins the hand, from that seat's view.

`features(g, seat, hand=True)` reads one position the way the seat sees it: the public zones
(pay-off counts and tops, centre stacks, side stacks as shown, stock size, whose turn) and,
when `hand`, the seat's own hand, never another hand, the stock's order or a pay-off card
below its top. Under `side_stacks_shown=squared` (and for other seats under `peek`) only the
top of each side stack is read, so on a seat's template (`Knowledge.from_view`) the features
equal those of the real position (tests/bots/test_value.py checks it).

A logistic model over those features, fitted to Normal's self-play positions labelled with who
won the hand (`bench/train_value.py` regenerates `value_weights.json`; the calibration table is
in docs/bots.md), turns them into a probability:

    position_value(view)           # the viewer's chance to win, with its own hand
    position_value(view, seat)     # any seat's chance, from what the view shows of it (for
                                   # a seat other than the viewer, without its hand)
    game_value(g, seat)            # the same on an engine position
    search_leaf(g, seat)           # game_value with the `LEAF_MODEL` weights: the one leaf of
                                   # Hard's search, the match review and the analysis board

Three weight vectors: `full`, `public` (no hand) and `steady` (the features in `UNSTEADY` left
out: a search led by the value can buy them without progress; docs/bots.md).

Pure Python at play time (a dot product of two dozen numbers); numpy only to train.
"""

from __future__ import annotations

import json
import math
import os
from functools import lru_cache
from typing import Any

from app.engine.state import GameState

from .tactics import FAR, REACH_CHANCE, missing_to, needs, opponents_in_order, stacks_ranks

FEATURES: tuple[str, ...] = (
    "bias", "own_left", "opp_left", "log_ratio", "own_last", "opp_last",
    "to_move", "turns_until", "own_reach_public", "own_reach_hand", "opp_reach_next", "opp_reach_max",
    "own_gap", "opp_gap", "own_top_wild", "opp_top_wild",
    "hand_size", "hand_wilds", "hand_fits",
    "own_side_cards", "own_side_empty", "own_side_wild", "own_side_ranks",
    "opp_side_empty", "opp_side_wild", "opp_side_ranks", "stock", "players",
)
HAND_FEATURES = frozenset({"own_reach_hand", "hand_size", "hand_wilds", "hand_fits"})
# What a search can buy without progress: holding cards that fit, filling or keeping side stacks.
# The `steady` model leaves them out (weight 0), so a search led by it cannot trade pay-off
# progress for a pattern that merely went with winning in Normal's games (docs/bots.md).
UNSTEADY = frozenset({"hand_fits", "own_side_cards", "own_side_empty", "own_side_wild", "own_side_ranks",
                      "opp_side_empty", "opp_side_wild", "opp_side_ranks"})
WEIGHTS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "value_weights.json")


def _shown(g: GameState, owner: int, viewer: int) -> list[list[int]]:
    """`owner`'s side stacks as `viewer` sees them: whole when spread (and its own under peek),
    else the top card only."""
    how = g.opts.side_stacks_shown
    if how == "spread" or (how == "peek" and owner == viewer):
        return g.side[owner]
    return [st[-1:] for st in g.side[owner]]


def _side(g: GameState, stacks: list[list[int]]) -> tuple[set[int], int, int, int]:
    """Ranks reachable from `stacks` (the top and any run climbing by one below it), wild tops,
    empty stacks and cards on them."""
    ranks, wilds = stacks_ranks(g, stacks)
    return ranks, wilds, sum(1 for st in stacks if not st), sum(len(st) for st in stacks)


Side = tuple[set[int], int, int, int]


def _team(g: GameState, seat: int, sides: list[Side]) -> tuple[set[int], int]:
    """Side-stack ranks and wilds of `seat`'s team, from each seat's `_side` reading."""
    team = g.team_seats[seat]
    if len(team) == 1:
        r, w, _e, _c = sides[seat]
        return r, w
    ranks: set[int] = set()
    wilds = 0
    for p in team:
        r, w, _e, _c = sides[p]
        ranks |= r
        wilds += w
    return ranks, wilds


def _reach(g: GameState, seat: int, ranks: set[int], wilds: int, sn: list[int]) -> tuple[float, float, bool]:
    """The best chance-like weight that `seat`'s team plays a pay-off top soon, the smallest gap
    (in ranks, / 13) between a centre stack and such a top, and whether a top is wild."""
    best = FAR
    gap = 13
    top_wild = False
    deck = g.deck
    for p in g.team_seats[seat]:
        pile = g.payoff[p]
        if not pile:
            continue
        card = pile[-1]
        if deck.wild[card]:
            top_wild = True
            best = 0
            gap = 0
            continue
        best = min(best, missing_to(g, card, ranks, wilds, sn))
        r = deck.rank[card]
        for need in sn:
            if need <= r:
                gap = min(gap, r - need)
    chance = REACH_CHANCE[best] if best < len(REACH_CHANCE) else 0.0
    return chance, gap / 13.0, top_wild


def features(g: GameState, seat: int, hand: bool = True) -> list[float]:
    """The model's inputs for `seat` (see FEATURES); `hand=False` leaves the hand out (zeros)
    and reads the side stacks as every receiver sees them (under `peek` the tops only)."""
    size = float(g.opts.payoff_size * len(g.team_seats[seat]))
    own = g.team_payoff(seat)
    order = opponents_in_order(g, seat)
    opp = min(g.team_payoff(o) for o in order) if order else 0
    sn = needs(g)
    viewer = seat if hand else -1  # without the hand, read the table as a spectator would
    sides = [_side(g, _shown(g, p, viewer)) for p in range(g.n)]
    ranks, wilds = _team(g, seat, sides)
    own_pub, own_gap, own_wild = _reach(g, seat, ranks, wilds, sn)
    nxt = order[0] if order else seat
    opp_next = opp_max = 0.0
    opp_gap = 1.0
    opp_wild = False
    for k, o in enumerate(order):
        r, w = _team(g, o, sides)
        chance, gap, top_wild = _reach(g, o, r, w, sn)
        if k == 0:
            opp_next, opp_gap, opp_wild = chance, gap, top_wild
        opp_max = max(opp_max, chance)
    own_hand = size_h = hw = fits = 0.0
    if hand:
        deck = g.deck
        hr = set()
        wild_n = 0
        want = set(sn)
        fit = 0
        for c in g.hands[seat]:
            if deck.wild[c]:
                wild_n += 1
            else:
                hr.add(deck.rank[c])
                fit += deck.rank[c] in want
        own_hand = _reach(g, seat, ranks | hr, wilds + wild_n, sn)[0]
        size_h = len(g.hands[seat]) / 5.0
        hw = float(wild_n)
        fits = float(fit)
    sr, sw, se, sc = sides[seat]
    orr, ow, oe, _oc = sides[nxt]
    n = g.n
    return [
        1.0, own / size, opp / size, math.log((opp + 1.0) / (own + 1.0)), float(own == 1), float(opp == 1),
        float(g.turn == seat), ((seat - g.turn) % n) / n, own_pub, own_hand, opp_next, opp_max,
        own_gap, opp_gap, float(own_wild), float(opp_wild),
        size_h, hw, fits,
        sc / 20.0, se / 4.0, float(sw), len(sr) / 13.0,
        oe / 4.0, float(ow), len(orr) / 13.0, len(g.stock) / float(g.deck.size), (n - 2) / 4.0,
    ]


@lru_cache(maxsize=1)
def _weights() -> dict[str, list[float]]:
    with open(WEIGHTS_FILE) as f:
        raw = json.load(f)
    if tuple(raw["features"]) != FEATURES:
        raise ValueError(f"{WEIGHTS_FILE} was fitted to other features; run bench/train_value.py")
    return {name: list(raw[name]) for name in ("full", "public", "steady") if name in raw}


def logit(g: GameState, seat: int, hand: bool = True, model: str | None = None) -> float:
    """The model's log-odds that `seat`'s team wins the hand (`model`: a weight vector of
    value_weights.json; by default `full` with the hand, `public` without)."""
    w = _weights()[model or ("full" if hand else "public")]
    return sum(a * b for a, b in zip(w, features(g, seat, hand), strict=True))


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def game_value(g: GameState, seat: int, hand: bool = True, model: str | None = None) -> float:
    """The chance that `seat`'s team wins the hand from position `g`, as `seat` sees it
    (a finished hand: 1, 0, or 0.5 for a draw)."""
    if g.outcome is not None:
        if seat in g.outcome.winners:
            return 1.0
        return 0.0 if g.outcome.winners else 0.5
    return _sigmoid(logit(g, seat, hand, model))


LEAF_MODEL = "steady"  # the weights of `search_leaf`: "full", or "steady" (without `UNSTEADY`)


def search_leaf(g: GameState, seat: int) -> float:
    """The one evaluation of Hard's search, the match review and the analysis board: `game_value`
    with the `LEAF_MODEL` weights (a `estimate.Leaf`)."""
    return game_value(g, seat, model=LEAF_MODEL)


def position_value(view: dict[str, Any], seat: int | None = None) -> float:
    """The chance (0..1) that `seat`'s team wins the hand in play, judged from `view` alone
    (a seat's view, `app.engine.view(match, viewer)`). `seat` defaults to the viewer, whose hand
    is used; for any other seat only what the view shows of it is. Raises ValueError for a
    spectator's view or a seat outside the table."""
    from .knowledge import Knowledge  # knowledge imports belief, which does not import value

    result = view.get("result")
    if result is not None:  # the hand is over: its result decides
        who = int(view["you"] if seat is None else seat)
        winners = [int(w) for w in result["winners"]]
        return 1.0 if who in winners else (0.0 if winners else 0.5)
    know = Knowledge.from_view(view)
    who = know.seat if seat is None else int(seat)
    if not 0 <= who < know.opts.players:
        raise ValueError(f"seat {who} is not at this table")
    return game_value(know.template, who, hand=who == know.seat)
