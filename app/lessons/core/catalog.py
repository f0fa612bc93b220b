"""The lessons, in the order a newcomer takes them (docs/lessons.md)."""

from __future__ import annotations

from typing import Any

from app.engine import Game

from .goals import MoveGoal, card_param, is_discard, plays_payoff, solver
from .model import Lesson, Step
from .positions import table


def _payoff_top(game: Game) -> dict[str, Any]:
    return card_param(game, game.payoff[0][-1])


AIM = Lesson("aim", (
    Step("play_payoff", MoveGoal(plays_payoff, "play_payoff", miss_params=_payoff_top), solver(plays_payoff),
         position=table(payoff=[["9C", "4D", "AH"], ["QS", "8S", "7D"]], hands=[["5C", "9H", "JD", "3S", "6H"],
                                                                                 ["2C", "4C", "8H", "10D", "JS"]]),
         params=_payoff_top),
))

DISCARD = Lesson("discard", (
    Step("discard", MoveGoal(is_discard, "discard"), solver(is_discard),
         position=table(payoff=[["9C", "4D", "10H"], ["QS", "8S", "7D"]], hands=[["5C", "9H", "JD", "3S", "6H"],
                                                                                  ["2C", "4C", "8H", "10D", "JS"]])),
))

LESSONS: tuple[Lesson, ...] = (AIM, DISCARD)
_BY_ID = {lesson.id: lesson for lesson in LESSONS}


def find(lesson_id: str) -> Lesson | None:
    return _BY_ID.get(lesson_id)
