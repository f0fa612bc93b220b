"""Every lesson table is a real position of the game: built through the engine, every card of
the deal exactly once, the learner (seat 0) to move, the hand not over."""

from __future__ import annotations

import pytest

from app.engine import Game, make_options
from app.engine.moves import DISCARD, HAND, PLAY
from app.lessons.core import LESSONS, Lesson, Step
from app.lessons.core.positions import climb, table, then


def every_card(g: Game) -> list[int]:
    cards = [c for pile in g.payoff for c in pile] + [c for hand in g.hands for c in hand]
    cards += [c for sides in g.side for st in sides for c in st] + [c for st in g.centre for c in st]
    return sorted(cards + g.stock + g.aside)


POSITIONS = [(lesson, step) for lesson in LESSONS for step in lesson.steps if step.position is not None]


@pytest.mark.parametrize(("lesson", "step"), POSITIONS, ids=[f"{lesson.id}.{step.key}" for lesson, step in POSITIONS])
def test_each_position_deals_every_card_once_and_the_learner_is_to_move(lesson: Lesson, step: Step) -> None:
    options = make_options(lesson.preset, lesson.overrides)
    assert step.position is not None
    g = step.position(options)
    assert every_card(g) == list(range(g.deck.size))
    assert g.deck.size == options.decks * (52 + options.jokers_per_deck)
    assert g.turn == 0 and g.outcome is None
    assert g.legal_moves() and step.solve(g) in g.legal_moves()
    assert all(len(h) <= options.hand_size for h in g.hands)
    assert all(len(st) < g.top for st in g.centre)  # no stack left complete


def test_a_table_names_every_pile_and_the_rest_is_the_stock() -> None:
    options = make_options()
    g = table(payoff=[["9C", "4D"], ["QS"]], hands=[["5C"], ["2C"]], side=[[["7H"]], []],
              centre=[climb(3, "H")], stock=["JD", "8S"])(options)
    code = g.deck.code
    assert [[code(c) for c in p] for p in g.payoff] == [["9C", "4D"], ["QS"]]
    assert [code(c) for c in g.side[0][0]] == ["7H"] and g.side[1] == [[], [], [], []]
    assert [code(c) for c in g.centre[0]] == ["AH", "2H", "3H"] and len(g.centre) == options.centre_stacks
    assert [code(c) for c in g.stock[-2:]] == ["JD", "8S"]  # the top last: the 8S is drawn first
    assert len(every_card(g)) == 104


def test_then_plays_on_through_the_engine_and_refuses_a_card_that_is_not_there() -> None:
    options = make_options()
    start = table(payoff=[["9C", "4D"], ["QS", "KD"]], hands=[["5C", "AH"], ["2C"]],
                  stock=["JD", "6S", "7S", "8S"])
    g = then(start, (PLAY, "AH", HAND, "centre:0"), (DISCARD, "5C", None, "side:0:2"))(options)
    code = g.deck.code
    assert g.turn == 1 and [code(c) for c in g.centre[0]] == ["AH"] and [code(c) for c in g.side[0][2]] == ["5C"]
    assert sorted(code(c) for c in g.hands[1]) == ["2C", "6S", "7S", "8S", "JD"]  # drawn up to five
    with pytest.raises(ValueError):
        then(start, (PLAY, "3C", HAND, "centre:0"))(options)
