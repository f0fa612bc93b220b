"""Short reasons a person can read for a suggested move (hints).

`reason(g, seat, line)` looks at the first move of the chosen line and at where the line
goes (the template game `g` is the seat's own knowledge: public zones and its hand). It
gives a key of `HINTS` and its parameters (a card as its code, "7H"), so the hint can be
said in any language (the catalogues' `hint.<key>`); `english` says it in English.
"""

from __future__ import annotations

from typing import Any

from app.engine import Game, Move
from app.engine.moves import DISCARD, END_TURN, HAND, LOAD, MOVE_SIDE, PAYOFF, PLAY, SIDE, parse_pile
from app.engine.reasons import fill

from .tactics import opponents_in_order, threat

HINTS: dict[str, str] = {
    "end_turn": "Nothing useful to play: end your turn.",
    "own_payoff": "Play your pay-off card {card:card}: every pay-off card played brings you closer to winning.",
    "partner_payoff": "Play your partner's pay-off card {card:card}.",
    "leads_to_payoff": "Play {card:card}: it leads on to a pay-off card this turn.",
    "empties_hand": "Play {card:card}: emptying your hand draws five fresh cards.",
    "wild_opens": "Play the wild {card:card}: it opens the way for the cards you hold.",
    "clears_card": "Play {card:card}: it clears a card without helping an opponent.",
    "move_side": "Move {card:card} between your side stacks to open a run.",
    "discard_same": "Discard {card:card} on the same rank: the stack plays out together later.",
    "discard_run": "Discard {card:card} on the {rank:rank}: a descending run plays out in order later.",
    "discard_empty": "Discard {card:card} on an empty side stack.",
    "discard_junk": "Discard {card:card} on your junk stack.",
    "play": "Play {card:card}.",
    "helps_next": "Playing more now would help the next opponent toward their pay-off card.",
}
Why = tuple[str, dict[str, Any]]


def english(why: Why) -> str:
    """The hint in English (a discard that would help the next opponent says so after it)."""
    key, params = why
    text = fill(HINTS[key], params)
    return f"{text} {HINTS['helps_next']}" if params.get("helps_next") else text


def _from_payoff(move: Move) -> bool:
    """Whether `move` plays or loads a pay-off card."""
    return move[0] in (PLAY, LOAD) and move[2] is not None and parse_pile(move[2]).zone == PAYOFF


def reason(g: Game, seat: int, line: list[Move]) -> Why:
    """Why the first move of `line` is suggested: a key of `HINTS` and its parameters."""
    first = line[0]
    kind, card, src, dst = first
    name = g.deck.code(card) if card is not None else ""
    if kind == END_TURN:
        return "end_turn", {}
    if _from_payoff(first):
        assert src is not None
        if parse_pile(src).seat == seat:
            return "own_payoff", {"card": name}
        return "partner_payoff", {"card": name}
    reaches_payoff = any(_from_payoff(m) for m in line)
    if kind == PLAY:
        if reaches_payoff:
            return "leads_to_payoff", {"card": name}
        if src == HAND and all(m[2] == HAND or m[0] != PLAY for m in line) and \
                sum(1 for m in line if m[0] == PLAY and m[2] == HAND) >= len(g.hands[seat]):
            return "empties_hand", {"card": name}
        if card is not None and g.deck.wild[card]:
            return "wild_opens", {"card": name}
        return "clears_card", {"card": name}
    if kind == MOVE_SIDE:
        return "move_side", {"card": name}
    if kind == DISCARD:
        tail = any(threat(g, opp) > 0.2 for opp in opponents_in_order(g, seat)[:1])
        params: dict[str, Any] = {"card": name, "helps_next": True} if tail else {"card": name}
        pile = parse_pile(dst) if dst else None
        target = g.side[seat][pile.slot] if pile is not None and pile.zone == SIDE else []
        if target and not g.deck.wild[target[-1]]:
            t = g.deck.rank[target[-1]]
            r = g.deck.rank[card] if card is not None else 0
            if t == r:
                return "discard_same", params
            if t == r + 1:
                return "discard_run", {**params, "rank": t}
        if not target:
            return "discard_empty", params
        return "discard_junk", params
    return "play", {"card": name}
