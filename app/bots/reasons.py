"""Short reasons a person can read for a suggested move (hints).

`reason(g, seat, line)` looks at the first move of the chosen line and at where the line
goes (the template game `g` is the seat's own knowledge: public zones and its hand).
"""

from __future__ import annotations

from app.engine import Game, Move
from app.engine.cards import rank_word
from app.engine.moves import DISCARD, END_TURN, HAND, LOAD, MOVE_SIDE, PAYOFF, PLAY, SIDE, parse_pile

from .tactics import opponents_in_order, threat


def _from_payoff(move: Move) -> bool:
    """Whether `move` plays or loads a pay-off card."""
    return move[0] in (PLAY, LOAD) and move[2] is not None and parse_pile(move[2]).zone == PAYOFF


def reason(g: Game, seat: int, line: list[Move]) -> str:
    """Why the first move of `line` is suggested, in a sentence."""
    first = line[0]
    kind, card, src, dst = first
    name = g.deck.name(card) if card is not None else ""
    if kind == END_TURN:
        return "Nothing useful to play: end your turn."
    if _from_payoff(first):
        assert src is not None
        if parse_pile(src).seat == seat:
            return f"Play your pay-off card {name}: every pay-off card played brings you closer to winning."
        return f"Play your partner's pay-off card {name}."
    reaches_payoff = any(_from_payoff(m) for m in line)
    if kind == PLAY:
        if reaches_payoff:
            return f"Play {name}: it leads on to a pay-off card this turn."
        if src == HAND and all(m[2] == HAND or m[0] != PLAY for m in line) and \
                sum(1 for m in line if m[0] == PLAY and m[2] == HAND) >= len(g.hands[seat]):
            return f"Play {name}: emptying your hand draws five fresh cards."
        if card is not None and g.deck.wild[card]:
            return f"Play the wild {name}: it opens the way for the cards you hold."
        return f"Play {name}: it clears a card without helping an opponent."
    if kind == MOVE_SIDE:
        return f"Move {name} between your side stacks to open a run."
    if kind == DISCARD:
        tail = ""
        for opp in opponents_in_order(g, seat)[:1]:
            if threat(g, opp) > 0.2:
                tail = " Playing more now would help the next opponent toward their pay-off card."
        pile = parse_pile(dst) if dst else None
        target = g.side[seat][pile.slot] if pile is not None and pile.zone == SIDE else []
        if target and not g.deck.wild[target[-1]]:
            t = g.deck.rank[target[-1]]
            r = g.deck.rank[card] if card is not None else 0
            if t == r:
                return f"Discard {name} on the same rank: the stack plays out together later.{tail}"
            if t == r + 1:
                return f"Discard {name} on the {rank_word(t)}: a descending run plays out in order later.{tail}"
        if not target:
            return f"Discard {name} on an empty side stack.{tail}"
        return f"Discard {name} on your junk stack.{tail}"
    return f"Play {name}."
