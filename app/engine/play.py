"""Applying a legal move and everything that follows from it automatically.

Automatic steps: turning up the next pay-off card, completing a centre stack, refilling an
emptied hand (`five_card_bonus`), drawing at the start of a turn, bringing set-aside stacks
back when the stock runs out, stock-out, stalemates, the end of a hand that makes no progress
(`STALE_REFILLS`) and the end of the hand. Every step that shows something hidden sets
`GameState.revealing`, which decides whether the move may be taken back (`takeback`).
"""

from __future__ import annotations

from . import scoring, takeback
from .errors import BadMove, HandOver
from .explain import explain
from .legal import block_breakers, can_play, centre_needs, legal_moves
from .moves import DISCARD, END_TURN, FORFEIT, HAND, LOAD, MOVE_SIDE, PAYOFF, PLAY, TAKE_BACK, Move, parse_pile
from .observer import uncovers_hidden
from .reasons import refusal
from .state import GameState, Outcome, TurnEnd

STALE_REFILLS = 40
"""Every hand ends: when this many stale steps (a centre stack completed, a redeal, or a card
loaded from one pay-off pile onto another) have happened since the pay-off piles last fell to
fewer cards than ever before in the hand, the hand ends as a stalemate (fewest pay-off cards
wins the difference). Between two stale steps cards only flow forward (stock -> hand -> side
stacks or pay-off piles -> centre), so play between them is finite, and the pay-off total can
reach a new low only so often: no hand runs forever, whatever the options."""


def apply(g: GameState, move: Move, check: bool = True) -> None:
    """Apply a move of the player to move; raise (changing nothing) if it is not legal.
    `check=False` is for search, with a move just taken from this position's legal moves
    (or `legal.centre_plays`): it skips building them again."""
    if move[0] == FORFEIT:
        forfeit(g, None if move[2] is None else forfeit_seat(g, move))  # naming a seat: a resign
        return
    if check:
        legal = g._legal
        if legal is None:
            legal = legal_moves(g)
        if move not in legal:
            if g.outcome is not None:
                raise refusal("hand_over", HandOver)
            raise explain(g, move)
    g._legal = None
    kind = move[0]
    if kind == TAKE_BACK:
        takeback.take_back(g)
        return
    snap = takeback.before_move(g)
    turn = g.turn
    if kind != END_TURN and kind != MOVE_SIDE:
        g.block = False  # a play, discard or load breaks a block
    if kind == PLAY:
        _play(g, move)
    elif kind == DISCARD:
        _discard(g, move)
    elif kind == END_TURN:
        if g.events is not None:
            g.emit({"type": "end_turn", "seat": g.turn})
        end_turn(g)
    elif kind == MOVE_SIDE:
        _move_side(g, move)
    elif kind == LOAD:
        _load(g, move)
    takeback.after_move(g, snap, turn)


def _shuffle(g: GameState, items: list[int]) -> None:
    """Shuffle from the hand's stream, on a stream of this state's own: copies of a state share
    the stream until one of them shuffles (`GameState.copy`)."""
    g.rng = g.rng.copy()
    g.rng.shuffle(items)


def _take(g: GameState, src: str, card: int) -> tuple[str, int]:
    zone, p, k = parse_pile(src)
    if zone == HAND:
        g.hands[g.turn].remove(card)
    elif zone == PAYOFF:
        g.payoff[p].pop()
    else:
        _off_side_stack(g, g.side[p][k])
    return zone, p


def _off_side_stack(g: GameState, stack: list[int]) -> int:
    """Take a side stack's top card; under squared stacks the card it uncovers is shown now."""
    card = stack.pop()
    if uncovers_hidden(g.opts, stack):
        g.revealing = True
    return card


def _play(g: GameState, move: Move) -> None:
    s = g.turn
    card = move[1]
    assert card is not None and move[2] is not None and move[3] is not None
    zone, p = _take(g, move[2], card)
    slot = parse_pile(move[3]).slot
    stack = g.centre[slot]
    stack.append(card)
    g.turn_plays += 1
    g.turn_centre += 1
    if g.events is not None:
        as_rank = len(stack) if g.deck.wild[card] else None
        g.emit({"type": "play", "seat": s, "card": g.deck.json(card, as_rank),
                "from": move[2], "to": move[3]})
    if zone == PAYOFF:
        g.payoff_since_redeal = True
        total = g.payoff_total()
        if total < g.payoff_low:
            g.payoff_low, g.stale_refills = total, 0
    if len(stack) == g.top:
        _complete(g, slot)
        if g.outcome is not None:
            return
    elif g.opts.centre_stacks is None:
        tidy_unlimited(g)
    if zone == PAYOFF:
        _after_payoff_card(g, p)
    elif zone == HAND:
        _five_card_bonus(g, s)


def _five_card_bonus(g: GameState, s: int) -> None:
    """A hand emptied during the turn, which goes on: `five_card_bonus=refill` draws five (seed
    003: "if you play all five cards from your hand at once"; whether they went to the centre, a
    side stack or an opponent's pay-off pile), `centre_only` only if every card that left the hand
    since it was last filled went to the centre (seed 003's variant), `none` never."""
    if g.hands[s] or g.outcome is not None:
        return
    mode = g.opts.five_card_bonus
    if mode == "refill" or (mode == "centre_only" and not g.off_centre):
        _new_hand(g, s)


def _new_hand(g: GameState, s: int) -> None:
    """Draw a fresh hand into an empty one, in the middle of the turn."""
    draw(g, s, g.opts.hand_size)
    g.off_centre = False


def _after_payoff_card(g: GameState, owner: int) -> None:
    pile = g.payoff[owner]
    if pile:
        g.revealing = True
        if g.events is not None:
            g.emit({"type": "reveal", "seat": owner, "card": g.deck.json(pile[-1])})
    elif all(not g.payoff[t] for t in g.team_seats[owner]):
        finish(g, scoring.payoff_out(g, owner))


def _complete(g: GameState, slot: int) -> None:
    cards = g.centre[slot]
    g.centre[slot] = []
    if g.opts.completed_stacks == "shuffle_into_stock":
        g.stock.extend(cards)
        _shuffle(g, g.stock)
        into = "stock"
    else:
        g.aside = g.aside + cards  # replaced, never changed in place: copies share it
        into = "aside"
    if g.opts.centre_stacks is None:
        tidy_unlimited(g)
    if g.events is not None:
        g.emit({"type": "complete", "slot": slot, "count": len(cards), "into": into})
    g.revealing = True
    _stale_step(g)


def _stale_step(g: GameState) -> None:
    """A step that carries no card forward for good — a completed stack or a redeal refilled the
    stock, or a pay-off card was loaded onto another pay-off pile: count it towards `STALE_REFILLS`."""
    g.stale_refills += 1
    if g.stale_refills >= STALE_REFILLS and g.outcome is None:
        finish(g, scoring.fewest(g, "stalemate"))


def tidy_unlimited(g: GameState) -> None:
    """Unlimited centre: keep exactly one empty slot at the end (inner holes keep their place)."""
    c = g.centre
    if c[-1]:
        c.append([])
    else:
        while len(c) >= 2 and not c[-2]:
            c.pop()


def _discard(g: GameState, move: Move) -> None:
    s = g.turn
    card = move[1]
    assert card is not None and move[3] is not None
    k = parse_pile(move[3]).slot
    stack = g.side[s][k]
    was_empty = not stack
    g.hands[s].remove(card)
    stack.append(card)
    g.turn_plays += 1
    g.turn_discards += 1
    g.off_centre = True
    if g.events is not None:
        g.emit({"type": "discard", "seat": s, "card": g.deck.json(card), "to": move[3]})
    if g.opts.massachusetts and was_empty:
        # filling an empty side stack does not end the turn; an emptied hand starts afresh
        if not g.hands[s]:
            _new_hand(g, s)
        return
    if g.opts.side_plays == "many":
        _five_card_bonus(g, s)
        return  # the player ends the turn with end_turn ("that's it")
    end_turn(g)


def _move_side(g: GameState, move: Move) -> None:
    s = g.turn
    assert move[2] is not None and move[3] is not None
    k = parse_pile(move[2]).slot
    j = parse_pile(move[3]).slot
    card = _off_side_stack(g, g.side[s][k])
    g.side[s][j].append(card)
    g.moved = [*g.moved, card]  # replaced, never changed in place: copies share it
    if g.events is not None:
        g.emit({"type": "move_side", "seat": s, "card": g.deck.json(card),
                "from": move[2], "to": move[3]})


def _load(g: GameState, move: Move) -> None:
    s = g.turn
    card = move[1]
    assert card is not None and move[2] is not None and move[3] is not None
    zone, _p = _take(g, move[2], card)
    target = parse_pile(move[3]).seat
    g.payoff[target].append(card)
    g.turn_plays += 1
    if g.events is not None:
        g.emit({"type": "load", "seat": s, "card": g.deck.json(card),
                "from": move[2], "to": move[3]})
    if zone == HAND:
        g.off_centre = True
        _five_card_bonus(g, s)
    else:
        _after_payoff_card(g, s)
        if g.outcome is None:
            _stale_step(g)  # pay-off cards handed to and fro would otherwise go on for ever


def draw(g: GameState, seat: int, count: int) -> None:
    """Draw `count` cards into `seat`'s hand; handles set-aside stacks and stock-out. Reveals
    something (`GameState.revealing`) only if a card is drawn (or the set-aside cards are
    shuffled in): a five-card bonus from an empty stock shows nothing."""
    if count <= 0:
        return
    hand = g.hands[seat]
    stock = g.stock
    got = 0
    while got < count:
        if not stock:
            if g.aside:
                stock.extend(g.aside)
                g.aside = []
                _shuffle(g, stock)
                g.revealing = True  # the stream was used: no snapshot brings that back
                if g.events is not None:
                    g.emit({"type": "reshuffle", "count": len(stock)})
                continue
            if got and g.events is not None:
                g.emit({"type": "draw", "seat": seat, "count": got})
            mode = g.opts.stock_out
            if mode == "draw":
                finish(g, scoring.drawn(g, "stock_out"))
            elif mode == "fewest_wins":
                finish(g, scoring.fewest(g, "stock_out"))
            return  # play_on: no more drawing for now
        hand.append(stock.pop())
        g.revealing = True  # a card drawn is a card seen: no taking back past it
        got += 1
    if g.events is not None:
        g.emit({"type": "draw", "seat": seat, "count": got})


def end_turn(g: GameState) -> None:
    """Close the turn of the player to move: blocked-game checks, then the next turn."""
    n = g.n
    o = g.opts
    ends = g.turn_ends[:]  # replaced, never changed in place: copies share it
    ends[g.turn] = TurnEnd(tuple(map(len, g.centre)), tuple([p[-1] if p else -1 for p in g.payoff]))
    g.turn_ends = ends
    g.passes = g.passes + 1 if g.turn_plays == 0 else 0
    if o.stock_out == "play_on" and not g.stock and not g.aside:
        g.dry = g.dry + 1 if g.turn_centre == 0 else 0
        # Hoyle (seed 002): the hand ends when the stock is gone "and no players can play cards"
        if not any(can_play(g, p) for p in range(n)):
            finish(g, scoring.fewest(g, "stock_out"))
            return
    else:
        g.dry = 0
    if g.passes == 0:
        g.block = False
    if g.passes >= n and o.stalemate_aces_twos and _someone_can_break(g):
        g.block = True  # not blocked yet: whoever holds a fitting Ace or 2 must play it
    elif g.passes >= n:
        g.block = False
        # The fact, not a count of pay-off cards: a load (a card onto an opponent's pile) would
        # hide a pay-off play from a count, or pass for one.
        if o.stalemate == "redeal" and g.payoff_since_redeal:
            redeal(g)
            g.payoff_since_redeal = False
            _stale_step(g)
            if g.outcome is not None:
                return
        else:
            finish(g, scoring.fewest(g, "stalemate"))
            return
    g.turn = s = (g.turn + 1) % n
    g.turn_plays = g.turn_centre = g.turn_discards = g.take_backs_used = 0
    g.off_centre = False
    g.undo = []
    if g.moved:
        g.moved = []
    if g.events is not None:
        g.emit({"type": "turn", "seat": s})
    draw(g, s, o.hand_size - len(g.hands[s]))


def _someone_can_break(g: GameState) -> bool:
    """`stalemate_aces_twos`: whether any seat holds a real Ace or 2 that fits the centre now."""
    need_slots, _ = centre_needs(g)
    return any(block_breakers(g, s, need_slots) for s in range(g.n))


def redeal(g: GameState) -> None:
    """Stalemate redeal: every card but the pay-off piles is shuffled and new hands dealt.

    The cards are gathered in id order, shuffled from the hand's stream, dealt hand_size
    to each seat from seat 0, and the rest is the stock (first card on top). A second
    stalemate with no pay-off card played since ends the hand (`stalemate=end` scoring).
    """
    cards: list[int] = []
    for s in range(g.n):
        cards += g.hands[s]
        for st in g.side[s]:
            cards += st
    for st in g.centre:
        cards += st
    cards += g.stock
    cards += g.aside
    cards.sort()
    _shuffle(g, cards)
    size = g.opts.hand_size
    g.hands = [cards[s * size:(s + 1) * size] for s in range(g.n)]
    g.stock = cards[g.n * size:][::-1]
    g.aside = []
    g.side = [[[] for _k in range(g.opts.side_stacks)] for _s in range(g.n)]
    g.centre = [[] for _i in range(g.opts.centre_stacks or 1)]
    g.passes = 0
    g.off_centre = False
    g.turn_ends = [None] * g.n  # new hands: what was left unplayed says nothing now
    if g.events is not None:
        g.emit({"type": "redeal"})


def forfeit_seat(g: GameState, move: Move) -> int:
    """The seat a forfeit move gives up for: the one its `from` names (a resign, on any turn),
    else the seat to move (the server's forfeit for missed turns). Raises BadMove for a `from`
    that is no seat's pay-off pile."""
    if move[2] is None:
        return g.turn
    pile = parse_pile(move[2])
    if pile.zone != PAYOFF or not 0 <= pile.seat < g.n:
        raise BadMove(f"{move[2]!r} is not the pay-off pile of a seat")
    return pile.seat


def forfeit(g: GameState, seat: int | None = None) -> None:
    """`seat` (default: the seat to move) forfeits; never a legal move: the room rules it
    (docs/rules.md "Forfeit", "Resign"). The hand ends at once, every seat outside its team
    wins, nobody scores. A named seat is a resign: its event and outcome say `resign`. Nothing
    hidden is shown by it: the hand is over, and its seed shows as for any hand's end."""
    if g.outcome is not None:
        raise refusal("hand_over", HandOver)
    kind = "forfeit" if seat is None else "resign"
    seat = g.turn if seat is None else seat
    g._legal = None
    if g.events is not None:
        g.emit({"type": kind, "seat": seat})
    losers = set(g.team_seats[seat])
    finish(g, Outcome(kind, tuple(s for s in range(g.n) if s not in losers), (0,) * g.n))


def finish(g: GameState, outcome: Outcome) -> None:
    g.outcome = outcome
    g._legal = []
    if g.events is not None:
        g.emit({"type": "hand_over", **outcome.to_json()})
