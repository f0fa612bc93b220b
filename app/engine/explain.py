"""Why a move is not legal, in words a player understands.

Only called for a move that `legal_moves` does not list, so it never decides legality;
it only finds the first rule the move breaks and says so: a key of `reasons.REASONS` with
its parameters.
"""

from __future__ import annotations

from typing import Any

from .cards import ACE
from .errors import BadMove, IllegalMove
from .legal import accepts, centre_needs, colour_fits, forced_plays, top_mask
from .moves import CENTRE, DISCARD, END_TURN, HAND, LOAD, MOVE_SIDE, PAYOFF, PLAY, SIDE, TAKE_BACK, Move, parse_pile
from .reasons import refusal
from .state import GameState
from .takeback import MAX_TAKE_BACKS

Why = tuple[str, dict[str, Any]]  # a key of reasons.REASONS and its parameters


def _r(key: str, **params: Any) -> Why:
    return key, params


def explain(g: GameState, move: Move) -> IllegalMove:
    try:
        key, params = _reason(g, move)
        return refusal(key, **params)
    except BadMove as err:
        return IllegalMove(str(err), key="bad_move")


def _card_at(g: GameState, src: str, card: int | None) -> Why | None:
    """None if `card` is available at `src` to the player to move, else the reason."""
    s = g.turn
    zone, p, k = parse_pile(src)
    if card is None or not 0 <= card < g.deck.size:
        return _r("no_such_card")
    if zone == HAND:
        return None if card in g.hands[s] else _r("not_in_hand")
    if zone == CENTRE:
        return _r("centre_stays")
    if p not in g.team_seats[s]:
        return _r("own_or_partner_piles" if len(g.team_seats[s]) > 1 else "own_piles_only")
    if zone == PAYOFF:
        pile = g.payoff[p] if 0 <= p < g.n else []
        return None if pile and pile[-1] == card else _r("payoff_top_only")
    sides = g.side[p]
    if not 0 <= k < len(sides):
        return _r("no_such_side_stack")
    return None if sides[k] and sides[k][-1] == card else _r("side_top_only")


def _reason(g: GameState, move: Move) -> Why:
    s = g.turn
    deck = g.deck
    kind, card, src, dst = move
    if kind == TAKE_BACK:
        if not g.opts.take_backs:
            return _r("take_backs_off")
        if g.take_backs_used >= MAX_TAKE_BACKS:
            return _r("take_backs_used", n=MAX_TAKE_BACKS)
        return _r("nothing_to_take_back")
    need_slots, _ = centre_needs(g)
    compulsory = g.opts.compulsory_aces or g.opts.compulsory_aces_twos or g.block
    forced = forced_plays(g, need_slots) if compulsory else []
    if forced:
        ranks = sorted({deck.rank[m.card] for m in forced if m.card is not None})
        return _r("must_play_first", ranks=ranks)
    if kind == PLAY:
        assert src is not None and dst is not None
        why = _card_at(g, src, card)
        if why:
            return why
        assert card is not None
        if dst == CENTRE:  # "any centre stack", never legal: a client asks why the card has no move
            return _r("fits_no_centre", rank=deck.rank[card], needs=sorted(need_slots))
        zone, _, i = parse_pile(dst)
        if zone != CENTRE:
            return (_r("payoff_to_centre") if parse_pile(src).zone == PAYOFF
                    else _r("discard_to_side"))
        if not 0 <= i < len(g.centre):
            return _r("no_such_centre_stack")
        need = len(g.centre[i]) + 1
        if deck.wild[card]:
            return _r("wild_cannot_be", need=need)
        r = deck.rank[card]
        if need == ACE:
            return _r("ace_starts")
        if r == ACE:
            return _r("ace_on_empty")
        return _r("wrong_rank", rank=r, need=need)
    if kind == DISCARD:
        assert dst is not None
        if card is None or card not in g.hands[s]:
            return _r("discard_from_hand")
        zone, p, k = parse_pile(dst)
        if zone != SIDE:
            return _r("discard_on_side")
        if p != s:
            return _r("discard_own_side")
        if not 0 <= k < len(g.side[s]):
            return _r("no_such_side_stack")
        if deck.wild[card] and not g.opts.wilds_on_side_stacks:
            return _r("no_wild_discard")
        if deck.rank[card] == ACE and not deck.wild[card] and not g.opts.aces_on_side_stacks:
            return _r("no_ace_discard")
        if g.opts.massachusetts and g.side[s][k] and any(not st for st in g.side[s]):
            return _r("fill_empty_first")
        stack = g.side[s][k]
        if not colour_fits(g, stack, card):
            return _r("colours_alternate")
        if stack and not accepts(g, top_mask(g, stack), card):
            return _r("same_or_one_lower")
    if kind == MOVE_SIDE:
        if not g.opts.side_to_side:
            return _r("no_side_to_side")
        return _r("side_move_bad")
    if kind == LOAD:
        if not g.opts.load_opponent:
            return _r("no_loading")
        return _r("load_bad")
    if kind == END_TURN:
        if g.opts.massachusetts and not all(g.side[s]):
            return _r("fill_before_end")
        if g.opts.side_plays == "many":
            return _r("discard_before_end")
        return _r("discard_to_end")
    return _r("not_allowed")
