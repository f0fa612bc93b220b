"""The first lessons: the aim, the centre stacks, wild cards, the hand, the discard and the
side stacks (docs/lessons.md). Each step's table is built through the engine (`table`)."""

from __future__ import annotations

from app.engine.moves import HAND

from .goals import (
    MoveGoal,
    discards_card,
    fixed,
    is_discard,
    moves_made,
    payoff_top,
    plays_ace,
    plays_hand,
    plays_payoff,
    plays_side,
    plays_wild,
    prefer,
    side_top,
    solver,
)
from .model import Lesson, Step
from .positions import THEIRS_HAND, THEIRS_PAYOFF, climb, table, then

AIM = Lesson("aim", (
    Step("play_payoff", MoveGoal(plays_payoff, "play_payoff", miss_params=payoff_top), solver(plays_payoff),
         position=table(payoff=[["9C", "4D", "AH"], THEIRS_PAYOFF],
                        hands=[["5C", "9H", "JD", "3S", "6H"], THEIRS_HAND]),
         params=payoff_top),
    Step("win", MoveGoal(plays_payoff, "play_payoff", miss_params=payoff_top), solver(plays_payoff),
         position=table(payoff=[["5D"], THEIRS_PAYOFF], hands=[["9C", "JD", "3S", "6H", "10C"], THEIRS_HAND],
                        centre=[climb(4, "H")]),
         params=payoff_top),
))

CENTRE = Lesson("centre", (
    Step("ace", MoveGoal(plays_ace, "start_stack", miss_params=fixed(card="AH")), solver(plays_ace),
         position=table(payoff=[["10C", "4H"], THEIRS_PAYOFF], hands=[["AH", "2C", "3D", "9S", "JC"], THEIRS_HAND]),
         params=fixed(card="AH")),
    Step("climb", MoveGoal(plays_hand, "climb", until=moves_made(2)), solver(plays_hand)),
    Step("payoff", MoveGoal(plays_payoff, "play_payoff", miss_params=payoff_top), solver(plays_payoff),
         params=payoff_top),
))

WILD = Lesson("wild", (
    Step("king", MoveGoal(plays_wild, "play_wild", miss_params=fixed(card="KS")), solver(plays_wild),
         position=table(payoff=[["3H", "7D"], THEIRS_PAYOFF], hands=[["KS", "9H", "JD", "3S", "10C"], THEIRS_HAND],
                        centre=[climb(5, "C")]),
         params=fixed(card="KS", rank=6)),
    Step("payoff", MoveGoal(plays_payoff, "play_payoff", miss_params=payoff_top), solver(plays_payoff),
         params=payoff_top),
))

# The hand: two plays leave three cards, the discard ends the turn and the other seat (two cards
# left from its last turn) draws three; the learner's next turn (the other seat has discarded in
# between) starts by drawing back up to five.
_HAND_START = table(payoff=[["QD", "JH"], ["QS", "8S", "9D"]], hands=[["3C", "4D", "8C", "JD", "QC"], ["2C", "4C"]],
                    side=[[], [["9C"]]], centre=[climb(2, "H")],
                    stock=["9S", "2D", "5S", "KH", "6C", "8D", "3H", "10S"])
HAND_LESSON = Lesson("hand", (
    Step("play", MoveGoal(plays_hand, "play_hand", until=moves_made(2)), solver(plays_hand), position=_HAND_START),
    Step("discard", MoveGoal(discards_card("JD"), "discard_card", miss_params=fixed(card="JD")),
         solver(discards_card("JD")), params=fixed(card="JD")),
    Step("refill", MoveGoal(plays_hand, "play_hand"), prefer(plays_hand),
         position=then(_HAND_START, ("play", "3C", HAND, "centre:0"), ("play", "4D", HAND, "centre:0"),
                       ("discard", "JD", None, "side:0:0"), ("discard", "10S", None, "side:1:1")),
         params=fixed(card="5S")),
))

DISCARD = Lesson("discard", (
    Step("discard", MoveGoal(is_discard, "discard"), solver(is_discard),
         position=table(payoff=[["9C", "4D", "10H"], THEIRS_PAYOFF], hands=[["5C", "9H", "JD", "3S", "6H"],
                                                                            THEIRS_HAND])),
))

SIDE = Lesson("side", (
    Step("top", MoveGoal(plays_side, "play_side", miss_params=side_top), solver(plays_side),
         position=table(payoff=[["3C", "9D"], THEIRS_PAYOFF], hands=[["8D", "JS", "QC", "10H", "7C"], THEIRS_HAND],
                        side=[[["9C", "5S", "4H"]], []], centre=[climb(3, "D")]),
         params=side_top),
    Step("under", MoveGoal(plays_side, "play_side", miss_params=side_top), solver(plays_side), params=side_top),
))

__all__ = ["AIM", "CENTRE", "DISCARD", "HAND_LESSON", "SIDE", "WILD"]
