"""Luck (`estimate.luck`): the cards a seat saw, judged on the same sampled worlds with and
without them, so that two reviews with different sampling seeds tell the same luck."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from app.bots.estimate import Budget, condition, luck, place_card
from app.bots.knowledge import Knowledge
from app.bots.value import game_value
from app.engine import Game, Match, Move, view
from app.review import ReviewSettings, run
from app.review.analysis import known_cards
from tests.review.test_analysis import _short_match

# decisions are not judged (no person) and the graph is cheap: only luck costs anything here
LUCK_ONLY = ReviewSettings(decision=Budget(samples=2, turns=1), graph=Budget(samples=1, turns=1))
SPREAD = 6.0  # points: most difference between seeds of a seat's luck over the hand (measured ~3.3)


def _cards(g: Game) -> Counter[int]:
    zones = [*g.hands, *g.payoff, *(st for sides in g.side for st in sides), *g.centre, g.stock, g.aside]
    return Counter(c for z in zones for c in z)


def _first_draw() -> tuple[dict[str, Any], dict[str, Any], Move, int]:
    """The views of seat 1 before and after the first move that made it draw."""
    match = _short_match(frozenset())
    m = Match(match.options, list(match.names))
    m.deal(match.hands[0].seed, None)
    for step in match.hands[0].moves:
        before = view(m, 1)
        m.apply(step.move, step.seat)
        after = view(m, 1)
        if known_cards(after) - known_cards(before) - {step.move.card}:
            return before, after, step.move, step.seat
    raise AssertionError("seat 1 never drew")


def test_a_world_conditioned_on_the_cards_seen_keeps_every_card_and_shows_the_real_ones() -> None:
    before, after, move, mover = _first_draw()
    know = Knowledge.from_view(before)
    real = Knowledge.from_view(after).template
    shown = set(know.pool) - set(Knowledge.from_view(after).pool) - {move.card}
    assert shown
    g = know.template.copy()
    know.determinize(g, random.Random(3))
    place_card(g, mover, move, random.Random(4))  # the card seat 0 played was in its hand
    g.apply(move)
    cards = _cards(g)
    assert condition(g, real, shown)
    assert _cards(g) == cards
    assert set(g.hands[1]) == set(real.hands[1])
    assert [p[-1:] for p in g.payoff] == [p[-1:] for p in real.payoff]


def test_no_card_seen_is_no_luck() -> None:
    before, after, move, mover = _first_draw()
    assert luck(before, before, move, mover=mover, budget=Budget(samples=4, turns=0), leaf=game_value) == 0.0
    assert luck(before, after, move, mover=mover, budget=Budget(samples=8, turns=0), leaf=game_value) != 0.0


def test_the_luck_of_a_hand_differs_little_between_sampling_seeds() -> None:
    match = _short_match(frozenset())
    lucks = [[x["points"] for x in run(match, ReviewSettings(LUCK_ONLY.decision, LUCK_ONLY.graph, seed=seed))["luck"]]
             for seed in range(3)]
    for seat in (0, 1):
        each = [lk[seat] for lk in lucks]
        assert max(each) - min(each) <= SPREAD, lucks
    assert max(abs(p) for lk in lucks for p in lk) >= 1.0, lucks  # the cards did move the chances
