"""Take-backs (`take_backs`): a take-back restores the position exactly; a move that showed a
hidden card (a pay-off card turned up, a card drawn, a stack completed) or ended the turn can
never be taken back; at most MAX_TAKE_BACKS a turn; bots never take back; replays replay them.

Whether a move revealed something is judged here from the outside (zone sizes and tops before
and after), independently of the engine's own bookkeeping."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import LEVELS, choose_move
from app.engine import Game, IllegalMove, Match, Move, make_options, view
from app.engine.moves import TAKE
from app.engine.takeback import MAX_TAKE_BACKS
from tests.engine.util import discard, lay, play


def position(g: Game) -> tuple[Any, ...]:
    return (repr(g.payoff), repr(g.hands), repr(g.side), repr(g.centre), repr(g.stock), repr(g.aside),
            g.turn, g.turn_plays, g.turn_centre, g.turn_discards, tuple(g.moved), g.passes, g.dry, g.block,
            g.payoff_since_redeal, g.stale_refills, g.off_centre)


def revealed(before: Game, after: Game) -> bool:
    """Whether a move showed something hidden or handed the turn on, seen from outside."""
    if after.outcome is not None or after.turn != before.turn:
        return True
    if len(after.stock) != len(before.stock) or len(after.aside) != len(before.aside):
        return True  # a draw, or a completed stack shuffled into the stock
    if sum(map(len, after.centre)) < sum(map(len, before.centre)):
        return True  # a stack completed
    for p_before, p_after in zip(before.payoff, after.payoff, strict=True):
        if len(p_after) < len(p_before) and p_after:
            return True  # a pay-off card turned up
    if before.opts.side_stacks_shown != "spread":  # only each side stack's top card is shown
        for sides_before, sides_after in zip(before.side, after.side, strict=True):
            for st_before, st_after in zip(sides_before, sides_after, strict=True):
                if len(st_after) < len(st_before) and st_after:
                    return True  # a card below a squared side stack's top turned up
    return False


MIXES = [
    ("standard", {"take_backs": True}),
    ("standard", {"take_backs": True, "must_discard": False, "side_plays": "many", "side_to_side": True}),
    ("cat_and_mouse", {"take_backs": True}),
    ("book", {"take_backs": True, "load_opponent": True, "stalemate_aces_twos": True}),
    ("massachusetts", {"take_backs": True, "players": 3}),
    ("standard", {"take_backs": True, "players": 4, "teams": "pairs", "load_opponent": True,
                  "side_stacks_shown": "squared"}),
]


@pytest.mark.parametrize(("preset", "overrides"), MIXES)
def test_take_backs_restore_exactly_and_never_undo_a_reveal(preset: str, overrides: dict[str, Any]) -> None:
    o = make_options(preset, overrides)
    taken = 0
    for game_no in range(4):
        m = Match(o)
        m.deal(f"undo-{preset}-{game_no}")
        rng = random.Random(game_no)
        stack: list[tuple[Any, ...]] = []  # positions before this turn's moves that revealed nothing
        used = 0
        while m.status == "playing":
            g = m.game
            legal = g.legal_moves()
            may = bool(stack) and used < MAX_TAKE_BACKS
            assert (TAKE in legal) == may, "take_back is listed exactly when a move may be taken back"
            move = TAKE if may and rng.random() < 0.3 else rng.choice([mv for mv in legal if mv != TAKE])
            before = g.copy()
            m.apply(move, seat=g.turn)
            g = m.game
            if move == TAKE:
                assert position(g) == stack.pop(), "a take-back restores the position exactly"
                used += 1
                taken += 1
            elif revealed(before, g):
                stack, used = [], (0 if g.turn != before.turn else used)
            else:
                stack.append(position(before))
        replayed = Match.replay(o, None, m.hands)
        assert position(replayed.game) == position(m.game) and replayed.game.outcome == m.game.outcome
    assert taken >= 5, "the walk took back too few moves to test anything"


def test_take_backs_are_off_by_default() -> None:
    g = lay(overrides={"must_discard": False}, hands=[["5C", "6C", "7C", "8C", "AS"], ["2H"]])
    g.apply(play(g, "AS", "hand", "centre:0"))
    assert TAKE not in g.legal_moves()
    with pytest.raises(IllegalMove, match="not allowed in this game"):
        g.apply(TAKE)


def test_a_turn_up_of_a_payoff_card_cannot_be_taken_back() -> None:
    g = lay(overrides={"take_backs": True}, payoff=[["9D", "AD"], ["9H", "JH"]],
            hands=[["5C", "6C", "7C", "8C", "AS"], ["2H"]])
    g.apply(play(g, "AS", "hand", "centre:0"))
    assert TAKE in g.legal_moves()
    g.apply(play(g, "AD", "payoff:0", "centre:1"))  # turns up the 9D
    assert TAKE not in g.legal_moves()
    with pytest.raises(IllegalMove, match="can be taken back"):
        g.apply(TAKE)


def test_a_discard_that_ends_the_turn_cannot_be_taken_back_but_under_side_plays_many_it_can() -> None:
    hands = [["5C", "6C", "7C", "8C", "9S"], ["2H", "3H", "4H", "10S", "6D"]]
    g = lay(overrides={"take_backs": True}, hands=hands)
    g.apply(discard(g, "5C", "side:0:0"))
    assert g.turn == 1 and TAKE not in g.legal_moves()
    g = lay(overrides={"take_backs": True, "side_plays": "many"}, hands=hands)
    g.apply(discard(g, "5C", "side:0:0"))
    g.apply(TAKE)
    assert g.side[0][0] == [] and len(g.hands[0]) == 5 and g.turn_discards == 0


def test_at_most_max_take_backs_a_turn() -> None:
    g = lay(overrides={"take_backs": True, "side_plays": "many", "must_discard": False},
            hands=[["5C", "6C", "7C", "8C", "9S"], ["2H"]])
    for _ in range(MAX_TAKE_BACKS):
        g.apply(discard(g, "5C", "side:0:0"))
        g.apply(TAKE)
    g.apply(discard(g, "5C", "side:0:0"))
    assert TAKE not in g.legal_moves()
    with pytest.raises(IllegalMove, match=f"at most {MAX_TAKE_BACKS}"):
        g.apply(TAKE)


def test_take_back_on_the_wire() -> None:
    assert Move.from_wire({"kind": "take_back", "card": 3, "to": "side:0:0"}) == TAKE
    assert TAKE.to_wire() == {"kind": "take_back"}


@pytest.mark.parametrize("level", LEVELS)
def test_bots_never_take_back(level: str) -> None:
    o = make_options("standard", {"take_backs": True, "side_plays": "many", "must_discard": False})
    m = Match.of_position(Game.layout(o, payoff=[["9D", "JD"], ["9H", "JH"]],
                                      hands=[["5C", "6C", "7C", "8C", "9S"], ["2H", "3H", "4H", "10S", "6D"]]))
    m.apply(discard(m.game, "5C", "side:0:0"), seat=0)
    v = view(m, 0)
    assert {"kind": "take_back"} in v["legal_moves"]
    for seed in range(5):
        assert choose_move(v, level, seed=seed, iterations=20)["kind"] != "take_back"


def test_a_five_card_bonus_that_draws_nothing_reveals_nothing() -> None:
    """The outside referee's `dry0`: the stock is gone (`stock_out=play_on`), the last card of the
    hand is discarded under `side_plays=many`, the bonus draws nothing: nothing was shown, so the
    discard (and the one before it) may still be taken back, as rules.md says ("draws a card")."""
    g = lay("standard", {"take_backs": True, "side_plays": "many", "must_discard": False,
                         "stock_out": "play_on", "decks": 1},
            hands=[["7C", "8C"], ["2D"]])
    g.side[1][3].extend(g.stock)  # every other card out of the way: the stock is gone
    g.stock.clear()
    start = position(g)
    g.apply(discard(g, "7C", "side:0:0"))
    g.apply(discard(g, "8C", "side:0:1"))
    assert g.hands[0] == [] and g.turn == 0 and g.outcome is None  # the bonus drew nothing; play goes on
    assert TAKE in g.legal_moves()
    g.apply(TAKE)
    g.apply(TAKE)
    assert position(g)[:3] == start[:3]
