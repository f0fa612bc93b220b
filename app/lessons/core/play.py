"""The later lessons: the five-card bonus, a completed stack, not feeding the other player, a
short game against the Easy bot, and the Cat and Mouse rules (docs/lessons.md)."""

from __future__ import annotations

from app.engine.moves import PAYOFF

from .goals import (
    MoveGoal,
    any_move,
    both,
    centre_play,
    completes_stack,
    discards_on_a_card,
    either,
    ends_turn,
    fed_param,
    fixed,
    hand_over,
    is_discard,
    moves_made,
    not_feeding,
    payoff_top,
    played_from,
    plays_ace,
    plays_hand,
    plays_payoff,
    plays_side,
    prefer,
    solver,
    turn_over,
)
from .model import Lesson, Step
from .positions import THEIRS_HAND, THEIRS_PAYOFF, climb, deal, table

BONUS = Lesson("bonus", (
    Step("all_five", MoveGoal(plays_hand, "empty_hand", until=moves_made(5)), solver(plays_hand),
         position=table(payoff=[["QD", "10D"], THEIRS_PAYOFF], hands=[["3S", "4D", "5C", "6H", "7S"], THEIRS_HAND],
                        centre=[climb(2, "H")], stock=["QH", "JS", "2D", "9C", "8H"])),
    Step("go_on", MoveGoal(either(plays_hand, plays_payoff), "go_on", until=played_from(PAYOFF),
                           miss_params=payoff_top),
         prefer(plays_payoff, plays_hand), params=payoff_top),
))

COMPLETE = Lesson("complete", (
    Step("queen", MoveGoal(completes_stack, "complete", miss_params=fixed(card="QS")), solver(completes_stack),
         position=table(payoff=[["4S", "10C"], THEIRS_PAYOFF], hands=[["QS", "AD", "8C", "9H", "6S"], THEIRS_HAND],
                        centre=[climb(11, "H"), climb(2, "C"), climb(3, "D"), ["AC"]]),
         params=fixed(card="QS")),
    Step("free", MoveGoal(plays_ace, "start_stack", miss_params=fixed(card="AD")), solver(plays_ace),
         params=fixed(card="AD")),
))

FEED = Lesson("feed", (
    Step("dont_feed", MoveGoal(not_feeding, "feeds", until=turn_over, miss_params=fed_param),
         prefer(both(centre_play, not_feeding), is_discard),
         position=table(payoff=[["2S", "10S"], ["9H", "6C"]], hands=[["5H", "3D", "JS", "9C", "QD"], THEIRS_HAND],
                        centre=[climb(4, "S"), climb(2, "D")]),
         params=fed_param),
))

# A real deal: the learner (seat 0) starts, the pay-off piles are short (5), and the first hand
# holds AS, 2S for a quick start (seed "lesson-game-11": in trials the learner's hints win it).
GAME = Lesson("game", (
    Step("play", MoveGoal(any_move, "other", until=hand_over),
         prefer(plays_payoff, plays_side, plays_hand, is_discard, any_move), position=deal("lesson-game-11")),
), overrides={"payoff_size": 5}, bot="easy")

# Cat and Mouse: Aces must be played at once, Kings are real Kings (stacks climb to the King),
# a side stack takes only the same rank or one lower, and you end your turn yourself.
CAT_AND_MOUSE = Lesson("cat_and_mouse", (
    Step("ace", MoveGoal(plays_ace, "start_stack", miss_params=fixed(card="AH")), solver(plays_ace),
         position=table(payoff=[["5S", "10S"], ["9H", "6C"]], hands=[["AH", "KS", "7H", "3C", "9D"], THEIRS_HAND],
                        centre=[climb(12, "D")], side=[[["8C"]], []]),
         params=fixed(card="AH")),
    Step("king", MoveGoal(completes_stack, "complete", miss_params=fixed(card="KS")), solver(completes_stack),
         params=fixed(card="KS")),
    Step("side", MoveGoal(discards_on_a_card, "on_the_stack", miss_params=fixed(card="8C")),
         solver(discards_on_a_card), params=fixed(card="8C")),
    Step("end", MoveGoal(ends_turn, "end_turn"), solver(ends_turn)),
), preset="cat_and_mouse")

__all__ = ["BONUS", "CAT_AND_MOUSE", "COMPLETE", "FEED", "GAME"]
