"""Legal moves are exact and complete: on every step of random games, the engine's list equals
the set an independent, deliberately naive re-reading of docs/rules.md produces (take-backs
judged from the test's own record of which moves of the turn revealed something)."""

from __future__ import annotations

import random

import pytest

from app.engine import PRESETS, Game, Move, make_options
from app.engine.cards import RANK_BY_NAME
from tests.engine.test_take_backs import revealed

ACE, TWO, JOKER = 1, 2, 14


def side_top_values(g: Game, stack: list[int], wild_values: set[int]) -> set[int]:
    values: set[int] = set()
    for c in stack:
        if g.deck.wild[c]:
            values = {w for v in values for w in (v, v - 1) if w in wild_values} if values else set(wild_values)
        else:
            values = {g.deck.rank[c]}
    return values


def oracle(g: Game, may_take_back: bool = False) -> set[Move]:
    """`may_take_back`: whether the test's own record says this turn has a move to take back."""
    o, deck, s = g.opts, g.deck, g.turn
    undo = {Move("take_back")} if may_take_back else set()
    banned = {RANK_BY_NAME[r] for r in o.wild_cannot_be}
    top = 12 if o.kings_wild else 13
    wild_values = {r for r in range(1, 14) if r not in banned}
    team = [p for p in range(o.players) if o.team_of(p) is not None and o.team_of(p) == o.team_of(s)] or [s]
    sources = [(c, "hand") for c in g.hands[s]]
    for p in team:
        if g.payoff[p]:
            sources.append((g.payoff[p][-1], f"payoff:{p}"))
        for k, st in enumerate(g.side[p]):
            if st:
                sources.append((st[-1], f"side:{p}:{k}"))
    plays = set()
    for c, src in sources:
        for i, st in enumerate(g.centre):
            need = len(st) + 1
            fits = (need <= top and need not in banned) if deck.wild[c] else deck.rank[c] == need
            if fits:
                plays.add(Move("play", c, src, f"centre:{i}"))

    def real(c: int, ranks: tuple[int, ...]) -> bool:
        return not deck.wild[c] and deck.rank[c] in ranks

    forced: set[Move] = set()  # every forced play together: the player chooses the order
    if g.block:  # stalemate_aces_twos: everyone passed; a fitting Ace or 2 in the hand must go
        forced |= {m for m in plays if m.card is not None and real(m.card, (ACE, TWO)) and m.src == "hand"}
    if o.compulsory_aces:
        forced |= {m for m in plays if m.card is not None and real(m.card, (ACE,))
                   and m.src in ("hand", f"payoff:{s}")}
    if o.compulsory_aces_twos:
        own = {f"payoff:{s}"} | {f"side:{s}:{k}" for k in range(4)}
        forced |= {m for m in plays if m.card is not None and real(m.card, (ACE, TWO)) and m.src in own}
    if forced:
        return forced | undo

    def may_lie_on_side(c: int) -> bool:
        if deck.wild[c]:
            return o.wilds_on_side_stacks
        return o.aces_on_side_stacks or deck.rank[c] != ACE

    def red(c: int) -> bool:
        return deck.suit[c] in (1, 2)

    def fits_side(c: int, stack: list[int]) -> bool:
        if not stack:
            return True
        if o.side_colours == "alternate" and not deck.wild[c] and not deck.wild[stack[-1]] \
                and red(c) == red(stack[-1]):
            return False
        if o.discard_rule == "any":
            return True
        shown = stack if o.side_stacks_shown == "spread" else stack[-1:]  # the rule reads what shows
        tops = side_top_values(g, shown, wild_values)
        wanted = tops | {v - 1 for v in tops}
        return bool(wanted & wild_values) if deck.wild[c] else deck.rank[c] in wanted

    moves = set(plays)
    has_empty = any(not st for st in g.side[s])
    for c in g.hands[s]:
        for k, st in enumerate(g.side[s]):
            if o.massachusetts and has_empty and st:
                continue
            if may_lie_on_side(c) and fits_side(c, st):
                moves.add(Move("discard", c, None, f"side:{s}:{k}"))
    could_discard = any(m.kind == "discard" for m in moves)
    if o.side_to_side:
        for k, st in enumerate(g.side[s]):
            for j, dest in enumerate(g.side[s]):
                if st and j != k and not (len(st) == 1 and not dest) and st[-1] not in g.moved \
                        and may_lie_on_side(st[-1]) and fits_side(st[-1], dest):
                    moves.add(Move("move_side", None, f"side:{s}:{k}", f"side:{s}:{j}"))
    if o.load_opponent:
        mine = [(c, "hand") for c in g.hands[s]] + ([(g.payoff[s][-1], f"payoff:{s}")] if g.payoff[s] else [])
        for t in range(o.players):
            if t in team or not g.payoff[t]:
                continue
            tc = g.payoff[t][-1]
            for c, src in mine:
                if deck.rank[c] != JOKER and deck.rank[tc] != JOKER and deck.suit[c] == deck.suit[tc] \
                        and abs(deck.rank[c] - deck.rank[tc]) == 1:
                    moves.add(Move("load", c, src, f"payoff:{t}"))
    must_fill = o.massachusetts and has_empty and could_discard  # fill before the turn ends
    if not must_fill and (not o.must_discard or not could_discard or (o.side_plays == "many" and g.turn_discards > 0)):
        moves.add(Move("end_turn"))
    return moves | undo


CASES = [(p, {}) for p in sorted(PRESETS)] + [
    ("standard", {"players": 4, "teams": "pairs", "load_opponent": True}),
    ("standard", {"players": 6, "teams": "pairs", "jokers_per_deck": 2, "wild_cannot_be": ["A", "7"]}),
    ("standard", {"wild_cannot_be": [], "centre_stacks": "unlimited", "aces_on_side_stacks": False,
                  "wilds_on_side_stacks": False, "kings_wild": False, "jokers_per_deck": 2}),
    ("book", {"side_to_side": True, "load_opponent": True, "massachusetts": True, "players": 3}),
    ("massachusetts", {"side_plays": "many", "side_to_side": True}),
    ("standard", {"side_colours": "alternate", "side_to_side": True, "jokers_per_deck": 2, "side_plays": "many"}),
    ("cat_and_mouse", {"side_colours": "alternate", "side_stacks_shown": "squared", "take_backs": True}),
    ("book", {"side_stacks_shown": "squared", "side_to_side": True, "take_backs": True}),
    ("book", {"stalemate_aces_twos": True, "take_backs": True, "players": 3}),
    ("cat_and_mouse", {"compulsory_aces_twos": True, "stalemate_aces_twos": True}),
    ("standard", {"must_discard": False, "stalemate_aces_twos": True, "side_plays": "many",
                  "first_player": "dealer", "centre_stacks": "players_plus_one", "players": 5, "take_backs": True}),
]


@pytest.mark.parametrize(("preset", "overrides"), CASES)
def test_legal_moves_equal_the_oracle(preset: str, overrides: dict[str, object]) -> None:
    o = make_options(preset, overrides)
    for game_no in range(6):
        g = Game.deal(o, f"oracle-{preset}-{game_no}")
        rng = random.Random(game_no)
        undoable: list[int] = []  # this turn's moves that may be taken back (see test_take_backs)
        used = 0
        while g.outcome is None:
            legal = g.legal_moves()
            assert set(legal) == oracle(g, o.take_backs and bool(undoable) and used < 5)
            before = g.copy()
            move = rng.choice(legal)
            g.apply(move)
            if move.kind == "take_back":
                undoable.pop()
                used += 1
            elif revealed(before, g):
                undoable = []
                used = 0 if g.turn != before.turn else used
            else:
                undoable.append(1)


def test_a_given_deal_order_is_dealt_exactly() -> None:
    o = make_options("short")
    order = list(range(104))
    random.Random(3).shuffle(order)
    g = Game.deal(o, "order", order=order)
    assert g.deck.rank[order[12]] != g.deck.rank[order[25]]  # no tie-break reshuffle
    assert g.payoff[0] == order[:13] and g.payoff[1] == order[13:26]
    assert g.hands[0] == order[26:31] and g.hands[1] == order[31:36]
    assert g.stock == order[36:][::-1]
    with pytest.raises(ValueError, match="each of the 104 cards once"):
        Game.deal(o, "order", order=order[:-1] + [0])
