"""The goals' predicates on small tables: which moves they name, and the reasons a goal gives."""

from __future__ import annotations

from app.engine import Game, Move, make_options
from app.engine.moves import DISCARD, END_TURN, PLAY, centre_pile, payoff_pile, side_pile
from app.lessons.core.goals import (
    MoveGoal,
    completes_stack,
    discards_on_a_card,
    fed_card,
    moves_made,
    not_feeding,
    plays_ace,
    plays_hand,
    plays_payoff,
    plays_wild,
    prefer,
    turn_over,
)
from app.lessons.core.positions import climb, table


def position() -> Game:
    return table(payoff=[["9C", "4D"], ["QS", "6C"]], hands=[["5H", "AD", "KS", "QH", "3D"], ["2C"]],
                 side=[[["8C"]], []], centre=[climb(4, "S"), climb(11, "H"), climb(2, "D")])(make_options())


def hand_card(g: Game, code: str) -> int:
    return next(c for c in g.hands[0] if g.deck.code(c) == code)


def play(g: Game, code: str, slot: int) -> Move:
    return Move(PLAY, hand_card(g, code), "hand", centre_pile(slot))


def test_the_predicates_name_the_moves_a_step_asks_for() -> None:
    g = position()
    assert plays_ace(g, play(g, "AD", 3)) and not plays_ace(g, play(g, "5H", 0))
    assert plays_wild(g, play(g, "KS", 0)) and not plays_wild(g, play(g, "5H", 0))
    assert completes_stack(g, play(g, "QH", 1)) and not completes_stack(g, play(g, "3D", 2))
    assert plays_hand(g, play(g, "5H", 0)) and not plays_payoff(g, play(g, "5H", 0))
    assert plays_payoff(g, Move(PLAY, g.payoff[0][-1], payoff_pile(0), centre_pile(2)))
    discard = Move(DISCARD, hand_card(g, "3D"), None, side_pile(0, 0))
    assert discards_on_a_card(g, discard)
    assert not discards_on_a_card(g, discard._replace(dst=side_pile(0, 1)))


def test_feeding_is_leaving_a_stack_one_below_the_other_players_pay_off_card() -> None:
    g = position()
    assert fed_card(g, play(g, "5H", 0)) == g.payoff[1][-1]  # 5 on a 4: the stack needs their 6
    assert not_feeding(g, play(g, "3D", 2)) and not_feeding(g, Move(END_TURN))
    goal = MoveGoal(not_feeding, "feeds", miss_params=lambda game: {"card": game.deck.code(game.payoff[1][-1])})
    assert goal.accepts(g, play(g, "5H", 0)) == ("lesson.miss.feeds", {"card": "6C"})
    assert goal.accepts(g, play(g, "3D", 2)) is None


def test_steps_end_after_some_moves_or_when_the_turn_passes() -> None:
    g = position()
    after = g.copy()
    after.apply(Move(DISCARD, hand_card(after, "3D"), None, side_pile(0, 1)))
    assert turn_over(g, after, []) and not turn_over(g, g, [])
    assert moves_made(2)(g, g, [Move(END_TURN)] * 2) and not moves_made(2)(g, g, [Move(END_TURN)])


def test_a_solution_takes_the_first_option_a_legal_move_serves() -> None:
    g = position()
    move = prefer(plays_payoff, completes_stack, plays_hand)(g)  # no pay-off play fits
    assert completes_stack(g, move) and move.dst == centre_pile(1)  # the Queen, or the wild King as one
    assert prefer(plays_ace)(g).card == hand_card(g, "AD")
