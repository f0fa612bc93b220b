"""Short reasons a person can read for a suggested move (hints).

`reason(g, seat, line)` looks at the first move of the chosen line and at where the line
goes (the template game `g` is the seat's own knowledge: public zones and its hand). Each
reason is true of the position: "without helping an opponent" only when the play
raises no opponent's chance at its pay-off card, "opens the way" only when a card that is not
wild may follow, and a discard says that playing more would help the next opponent only when a
centre play is left that would. It
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
HELPS = 0.2  # a chance (tactics.threat) that an opponent plays its pay-off card next worth warning of


def english(why: Why) -> str:
    """The hint in English (a discard that would help the next opponent says so after it)."""
    key, params = why
    text = fill(HINTS[key], params)
    return f"{text} {HINTS['helps_next']}" if params.get("helps_next") else text


def _from_payoff(move: Move) -> bool:
    """Whether `move` plays or loads a pay-off card."""
    return move[0] in (PLAY, LOAD) and move[2] is not None and parse_pile(move[2]).zone == PAYOFF


def _after(g: Game, move: Move) -> Game | None:
    """The seat's knowledge after `move` (None if the template cannot play it out)."""
    h = g.copy()
    try:
        h.apply(move)
    except Exception:  # noqa: BLE001 - a template's hidden zones may not bear every draw
        return None
    return h


def _helps(g: Game, seat: int, move: Move) -> bool:
    """Whether `move` makes some opponent likelier to play its pay-off card next."""
    h = _after(g, move)
    if h is None:
        return False
    return any(_raises(g, h, opp) for opp in opponents_in_order(g, seat))


def _raises(g: Game, h: Game, opp: int) -> bool:
    """Whether `opp` is likelier in `h` than in `g` to play its pay-off card next, and likely
    enough to be worth saying (HELPS)."""
    after = threat(h, opp)
    return after >= HELPS and after > threat(g, opp)


def _opens(g: Game, move: Move) -> bool:
    """Whether after the wild `move` a card that is not wild may go to the centre."""
    h = _after(g, move)
    if h is None or h.outcome is not None:
        return False
    return any(m[0] == PLAY and m[1] is not None and not h.deck.wild[m[1]] for m in h.legal_moves())


def _more_plays_help_next(g: Game, seat: int) -> bool:
    """Whether the seat could still play to the centre now, and a play would help the next
    opponent toward its pay-off card (what `helps_next` says)."""
    nxt = opponents_in_order(g, seat)[:1]
    if not nxt or g.turn != seat:
        return False
    for m in g.legal_moves():
        if m[0] == PLAY:
            h = _after(g, m)
            if h is not None and _raises(g, h, nxt[0]):
                return True
    return False


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
            return ("wild_opens" if _opens(g, first) else "play"), {"card": name}
        return ("play" if _helps(g, seat, first) else "clears_card"), {"card": name}
    if kind == MOVE_SIDE:  # the move carries no card: it moves its source stack's top
        assert src is not None
        top = parse_pile(src)
        return "move_side", {"card": g.deck.code(g.side[top.seat][top.slot][-1])}
    if kind == DISCARD:
        tail = _more_plays_help_next(g, seat)
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
