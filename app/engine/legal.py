"""Legal moves: the one place that decides what may be done now.

`legal_moves(g)` lists every legal move for the player to move, each (kind, card, from, to)
exactly once; `apply` accepts exactly these. The list is cached on the state until the next
move. Predicates used by both generation and explanations live here too.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import ACE
from .moves import DISCARD, END, HAND, LOAD, MOVE_SIDE, PLAY, TAKE, Move, centre_pile
from .observer import side_shown
from .state import GameState
from .takeback import can_take_back

CENTRE_NAMES: tuple[str, ...] = tuple(centre_pile(i) for i in range(256))
_new = tuple.__new__


def top_mask(g: GameState, stack: list[int]) -> int:
    """Ranks (as bits) the top of a non-empty side stack may stand for.

    A real card is its rank; each wild above it may be the same or one lower; a stack of
    wilds only may be anything a wild may stand for. Only the cards the table shows count
    (`observer.side_shown`): on a squared stack the card showing alone, so a wild on top may
    stand for any rank a wild may be, whatever lies below it.
    """
    stack = side_shown(g.opts, stack)
    deck_wild = g.deck.wild
    i = len(stack) - 1
    while i >= 0 and deck_wild[stack[i]]:
        i -= 1
    wmask = g.wild_side_mask
    if i >= 0:
        mask, wilds_above = 1 << g.deck.rank[stack[i]], len(stack) - 1 - i
    else:
        mask, wilds_above = wmask, len(stack) - 1
    for _w in range(wilds_above):
        mask = (mask | (mask >> 1)) & wmask
    return mask


def accepts(g: GameState, mask: int, card: int) -> bool:
    """Whether `card` may go on a non-empty side stack whose top may be any rank in `mask`
    (under discard_rule=same_or_one_lower: the same rank or one lower)."""
    if g.deck.wild[card]:
        return bool((mask | (mask >> 1)) & g.wild_side_mask)
    return bool((mask >> g.deck.rank[card]) & 3)


RED = (1, 2)  # suit indexes of hearts and diamonds (cards.py: S, H, D, C)


def colour_fits(g: GameState, stack: list[int], card: int) -> bool:
    """`side_colours=alternate`: a card goes on a side stack only on a card of the other colour
    (red: hearts, diamonds). A wild card has no colour here: it goes on any card, any card on it."""
    if g.opts.side_colours == "any" or not stack:
        return True
    deck = g.deck
    top = stack[-1]
    if deck.wild[card] or deck.wild[top]:
        return True
    return (deck.suit[card] in RED) != (deck.suit[top] in RED)


def side_accepts(g: GameState, stack: list[int], card: int) -> bool:
    """Whether `card` may be put on this side stack (the ban on Aces or wilds aside)."""
    if not stack:
        return True
    if not colour_fits(g, stack, card):
        return False
    return g.opts.discard_rule == "any" or accepts(g, top_mask(g, stack), card)


def centre_needs(g: GameState) -> tuple[dict[int, list[str]], list[str]]:
    """(rank needed -> slot names, slot names a wild may go to)."""
    need_slots: dict[int, list[str]] = {}
    wild_slots: list[str] = []
    wild_ok = g.wild_ok
    for i, st in enumerate(g.centre):
        need = len(st) + 1
        name = CENTRE_NAMES[i] if i < 256 else centre_pile(i)
        lst = need_slots.get(need)
        if lst is None:
            need_slots[need] = [name]
        else:
            lst.append(name)
        if wild_ok[need]:
            wild_slots.append(name)
    return need_slots, wild_slots


def can_play(g: GameState, seat: int) -> bool:
    """Whether `seat`, were it to move now, could play a card: to the centre (from its hand, its
    team's pay-off tops or side stack tops) or, under `load_opponent`, onto an opponent's pay-off
    pile. Side-to-side moves and discards are not plays here (`stock_out=play_on`)."""
    need_slots, wild_slots = centre_needs(g)
    rank = g.deck.rank
    wild = g.deck.wild
    cards = list(g.hands[seat])
    for p in g.team_seats[seat]:
        cards += g.payoff[p][-1:]
        for st in g.side[p]:
            cards += st[-1:]
    if any((wild_slots if wild[c] else need_slots.get(rank[c])) for c in cards):
        return True
    if g.opts.load_opponent:
        loads: list[Move] = []
        _loads(g, seat, loads.append)
        return bool(loads)
    return False


def block_breakers(g: GameState, seat: int, need_slots: dict[int, list[str]]) -> list[Move]:
    """`stalemate_aces_twos`: plays of a real Ace or 2 from `seat`'s hand that fit the centre."""
    rank = g.deck.rank
    wild = g.deck.wild
    return [_new(Move, (PLAY, c, HAND, t)) for c in g.hands[seat] if rank[c] <= 2 and not wild[c]
            for t in need_slots.get(rank[c], ())]


def forced_plays(g: GameState, need_slots: dict[int, list[str]]) -> list[Move]:
    """Plays the compulsory options force now (empty if none is forced).

    Every forced play is offered together, and the player chooses which to make first (the
    book: "if you have more than one such card you can choose which to play first"): a hand or
    pay-off Ace under `compulsory_aces`, an Ace or 2 on the pay-off pile or a side stack under
    `compulsory_aces_twos`, and in a `stalemate_aces_twos` block a fitting Ace or 2 from the hand
    (any of them breaks the block: none takes precedence)."""
    o = g.opts
    s = g.turn
    rank = g.deck.rank
    wild = g.deck.wild
    forced: list[Move] = block_breakers(g, s, need_slots) if g.block else []
    if o.compulsory_aces:
        targets = need_slots.get(ACE, [])
        for c in g.hands[s]:
            if rank[c] == ACE and not wild[c]:
                forced += [_new(Move, (PLAY, c, HAND, t)) for t in targets]
        pile = g.payoff[s]
        if pile and rank[pile[-1]] == ACE and not wild[pile[-1]]:
            forced += [_new(Move, (PLAY, pile[-1], g.payoff_names[s], t)) for t in targets]
    if o.compulsory_aces_twos:
        sources = [(g.payoff[s], g.payoff_names[s])]
        sources += [(st, g.side_names[s][k]) for k, st in enumerate(g.side[s])]
        for pile, name in sources:
            if pile:
                c = pile[-1]
                r = rank[c]
                if r <= 2 and not wild[c]:
                    forced += [_new(Move, (PLAY, c, name, t)) for t in need_slots.get(r, ())]
    return list(dict.fromkeys(forced)) if len(forced) > 1 else forced


def legal_moves(g: GameState) -> list[Move]:
    """Every legal move of the player to move (cached until the state changes)."""
    cached = g._legal
    if cached is not None:
        return cached
    g._legal = moves = _generate(g)
    return moves


def _generate(g: GameState) -> list[Move]:
    if g.outcome is not None:
        return []
    o = g.opts
    s = g.turn
    need_slots, wild_slots = centre_needs(g)
    if o.compulsory_aces or o.compulsory_aces_twos or g.block:
        forced = forced_plays(g, need_slots)
        if forced:
            return forced + [TAKE] if can_take_back(g) else forced
    moves: list[Move] = []
    add = moves.append
    _centre_plays(g, need_slots, wild_slots, add)
    hand = g.hands[s]
    side = g.side[s]
    names = g.side_names[s]
    can_discard = False
    if hand:
        slots = range(len(side))
        if o.massachusetts:
            empties = [k for k in slots if not side[k]]
            if empties:
                slots = empties  # type: ignore[assignment]
        side_card_ok = g.side_card_ok
        if o.side_colours != "any":
            for c in hand:
                if side_card_ok[c]:
                    for k in slots:
                        if side_accepts(g, side[k], c):
                            add(_new(Move, (DISCARD, c, None, names[k])))
                            can_discard = True
        elif o.discard_rule == "any" and len(slots) == len(side):
            table = g.static.discards(s)  # every card's discards onto each stack, made once
            for c in hand:
                if side_card_ok[c]:
                    moves += table[c]
                    can_discard = True
        elif o.discard_rule == "any":
            for c in hand:
                if side_card_ok[c]:
                    for k in slots:
                        add(_new(Move, (DISCARD, c, None, names[k])))
                    can_discard = True
        else:
            masks = [top_mask(g, side[k]) if side[k] else -1 for k in slots]
            for c in hand:
                if side_card_ok[c]:
                    for k, mask in zip(slots, masks, strict=True):
                        if mask == -1 or accepts(g, mask, c):
                            add(_new(Move, (DISCARD, c, None, names[k])))
                            can_discard = True
    if o.side_to_side:
        _side_to_side(g, s, add)
    if o.load_opponent:
        _loads(g, s, add)
    # Massachusetts: every empty side stack the hand can fill is filled before the turn ends
    must_fill = o.massachusetts and can_discard and not all(side)
    if not must_fill and (not o.must_discard or not can_discard or (o.side_plays == "many" and g.turn_discards)):
        add(END)
    if o.take_backs and can_take_back(g):
        add(TAKE)
    return moves


def _centre_plays(g: GameState, need_slots: dict[int, list[str]], wild_slots: list[str],
                  add: Callable[[Move], None]) -> None:
    """Plays to the centre of the player to move: from its hand, its team's pay-off tops and
    side stack tops."""
    s = g.turn
    rank = g.deck.rank
    wild = g.deck.wild
    for c in g.hands[s]:
        targets = wild_slots if wild[c] else need_slots.get(rank[c])
        if targets:
            for t in targets:
                add(_new(Move, (PLAY, c, HAND, t)))
    for p in g.team_seats[s]:
        pile = g.payoff[p]
        if pile:
            c = pile[-1]
            targets = wild_slots if wild[c] else need_slots.get(rank[c])
            if targets:
                src = g.payoff_names[p]
                for t in targets:
                    add(_new(Move, (PLAY, c, src, t)))
        names = g.side_names[p]
        for k, st in enumerate(g.side[p]):
            if st:
                c = st[-1]
                targets = wild_slots if wild[c] else need_slots.get(rank[c])
                if targets:
                    src = names[k]
                    for t in targets:
                        add(_new(Move, (PLAY, c, src, t)))


def centre_plays(g: GameState) -> list[Move] | None:
    """The centre plays among the legal moves of the player to move, without building the rest
    (for search); None when the compulsory options or a block may force other plays first."""
    if g.outcome is not None or g.opts.compulsory_aces or g.opts.compulsory_aces_twos or g.block:
        return None
    out: list[Move] = []
    need_slots, wild_slots = centre_needs(g)
    _centre_plays(g, need_slots, wild_slots, out.append)
    return out


def _side_to_side(g: GameState, s: int, add: Callable[[Move], None]) -> None:
    side = g.side[s]
    names = g.side_names[s]
    for k, st in enumerate(side):
        if not st:
            continue
        c = st[-1]
        if c in g.moved or not g.side_card_ok[c]:
            continue
        for j, dest in enumerate(side):
            if j == k or (not dest and len(st) == 1):
                continue
            if side_accepts(g, dest, c):
                add(_new(Move, (MOVE_SIDE, None, names[k], names[j])))


def _loads(g: GameState, s: int, add: Callable[[Move], None]) -> None:
    rank = g.deck.rank
    suit = g.deck.suit
    sources = [(c, HAND) for c in g.hands[s]]
    if g.payoff[s]:
        sources.append((g.payoff[s][-1], g.payoff_names[s]))
    for o in g.opponents[s]:
        pile = g.payoff[o]
        if not pile:
            continue
        t = pile[-1]
        if suit[t] < 0:
            continue
        for c, src in sources:
            if suit[c] == suit[t] and abs(rank[c] - rank[t]) == 1:
                add(_new(Move, (LOAD, c, src, g.payoff_names[o])))
