"""Why a move is not legal, in words a player understands.

Only called for a move that `legal_moves` does not list, so it never decides legality;
it only finds the first rule the move breaks and says so.
"""

from __future__ import annotations

from .cards import ACE, a_rank, rank_word
from .errors import BadMove, IllegalMove
from .legal import accepts, centre_needs, colour_fits, forced_plays, top_mask
from .moves import CENTRE, DISCARD, END_TURN, HAND, LOAD, MOVE_SIDE, PAYOFF, PLAY, SIDE, TAKE_BACK, Move, parse_pile
from .state import GameState
from .takeback import MAX_TAKE_BACKS


def explain(g: GameState, move: Move) -> IllegalMove:
    try:
        return IllegalMove(_reason(g, move))
    except BadMove as err:
        return IllegalMove(str(err))


def _card_at(g: GameState, src: str, card: int | None) -> str | None:
    """None if `card` is available at `src` to the player to move, else the reason."""
    s = g.turn
    zone, p, k = parse_pile(src)
    if card is None or not 0 <= card < g.deck.size:
        return "there is no such card"
    if zone == HAND:
        return None if card in g.hands[s] else "that card is not in your hand"
    if zone == CENTRE:
        return "cards on the centre stacks stay there"
    if p not in g.team_seats[s]:
        return "you may only play from your own piles" + (
            " and your partner's" if len(g.team_seats[s]) > 1 else "")
    if zone == PAYOFF:
        pile = g.payoff[p] if 0 <= p < g.n else []
        return None if pile and pile[-1] == card else "only the top card of a pay-off pile can be played"
    sides = g.side[p]
    if not 0 <= k < len(sides):
        return "there is no such side stack"
    return None if sides[k] and sides[k][-1] == card else "only the top card of a side stack can be played"


def _reason(g: GameState, move: Move) -> str:
    s = g.turn
    deck = g.deck
    kind, card, src, dst = move
    if kind == TAKE_BACK:
        if not g.opts.take_backs:
            return "take-backs are not allowed in this game"
        if g.take_backs_used >= MAX_TAKE_BACKS:
            return f"you may take back at most {MAX_TAKE_BACKS} moves in a turn"
        return "there is no move of yours this turn that can be taken back (it showed a card, or there is none)"
    need_slots, _ = centre_needs(g)
    compulsory = g.opts.compulsory_aces or g.opts.compulsory_aces_twos or g.block
    forced = forced_plays(g, need_slots) if compulsory else []
    if forced:
        names = sorted({rank_word(deck.rank[m.card]) for m in forced if m.card is not None})
        return f"you must first play your {' or '.join(names)} to the centre"
    if kind == PLAY:
        assert src is not None and dst is not None
        why = _card_at(g, src, card)
        if why:
            return why
        assert card is not None
        zone, _, i = parse_pile(dst)
        if zone != CENTRE:
            return ("a pay-off card can only go to a centre stack" if parse_pile(src).zone == PAYOFF
                    else "use a discard to put a card on a side stack")
        if not 0 <= i < len(g.centre):
            return "there is no such centre stack"
        need = len(g.centre[i]) + 1
        if deck.wild[card]:
            return f"a wild card cannot stand for {a_rank(need)} here"
        r = deck.rank[card]
        if need == ACE:
            return "only an Ace can start a centre stack"
        if r == ACE:
            return "an Ace can only start a new stack on an empty centre slot"
        return f"{a_rank(r)} cannot go on a stack that needs {a_rank(need)}"
    if kind == DISCARD:
        assert dst is not None
        if card is None or card not in g.hands[s]:
            return "you can only discard a card from your hand"
        zone, p, k = parse_pile(dst)
        if zone != SIDE:
            return "a discard goes on one of your side stacks"
        if p != s:
            return "you may only discard to your own side stacks"
        if not 0 <= k < len(g.side[s]):
            return "there is no such side stack"
        if deck.wild[card] and not g.opts.wilds_on_side_stacks:
            return "a wild card may not be discarded"
        if deck.rank[card] == ACE and not deck.wild[card] and not g.opts.aces_on_side_stacks:
            return "an Ace may not be discarded"
        if g.opts.massachusetts and g.side[s][k] and any(not st for st in g.side[s]):
            return "fill your empty side stacks first"
        stack = g.side[s][k]
        if not colour_fits(g, stack, card):
            return "on a side stack colours must alternate: red on black, black on red"
        if stack and not accepts(g, top_mask(g, stack), card):
            return "on that side stack only the same rank or one lower may go"
    if kind == MOVE_SIDE:
        if not g.opts.side_to_side:
            return "cards may not move from one side stack to another"
        return "that side stack card cannot move there"
    if kind == LOAD:
        if not g.opts.load_opponent:
            return "loading an opponent's pay-off pile is not allowed in this game"
        return "you may load only a card of the same suit, one rank above or below the top card"
    if kind == END_TURN:
        if g.opts.massachusetts and not all(g.side[s]):
            return "fill your empty side stacks before you end your turn"
        if g.opts.side_plays == "many":
            return "discard at least one card to a side stack before you end your turn"
        return "you must discard a card to a side stack to end your turn"
    return "that move is not allowed now"
