"""A run checks a move with the engine first (an illegal move: the engine's reason), then with
the step's goal (a legal move that misses it: the lesson's reason); a refused move changes
nothing. Finished lessons and the other seat's turn refuse too."""

from __future__ import annotations

import copy

import pytest

from app.engine import Game, Move
from app.engine.moves import DISCARD, END_TURN, PLAY, centre_pile, payoff_pile, side_pile
from app.lessons.core import LESSONS, Lesson, LessonRun, find
from app.lessons.core.goals import MoveGoal
from app.lessons.core.model import LEARNER

from .walk import walk

# The steps where no legal move misses the goal: only discards are legal (the discard lesson),
# only the Ace (Cat and Mouse: Aces first), or every move serves (the game).
NO_LEGAL_MISS = {("discard", "discard"), ("cat_and_mouse", "ace"), ("game", "play")}


def snapshot(run: LessonRun) -> tuple[object, ...]:
    return run.index, run.finished, run.view(), copy.deepcopy(run.record), run.step_moves[:], run.start.turn


def candidates(g: Game) -> list[Move]:
    """Moves to try for an illegal one: each hand card, pay-off top and side top to each centre
    slot, each hand card to each of both seats' side stacks, the other seat's pay-off top."""
    s = g.turn
    tops = [(c, "hand") for c in g.hands[s]] + [(g.payoff[s][-1], payoff_pile(s))]
    tops += [(st[-1], side_pile(s, k)) for k, st in enumerate(g.side[s]) if st]
    out = [Move(PLAY, card, src, centre_pile(i)) for card, src in tops for i in range(len(g.centre))]
    out += [Move(DISCARD, card, None, side_pile(t, k)) for card in g.hands[s] for t in range(g.n) for k in range(4)]
    out += [Move(PLAY, g.payoff[1 - s][-1], payoff_pile(1 - s), centre_pile(0)), Move(END_TURN)]
    return out


def illegal_move(g: Game) -> Move:
    legal = set(g.legal_moves())
    return next(m for m in candidates(g) if m not in legal)


def learner_states(lesson: Lesson, most: int = 40) -> list[LessonRun]:
    """Copies of the run at each point where the learner is to move (at most `most`)."""
    found = []
    for run, _done in walk(lesson):
        if not run.finished and run.bot_seat() is None:
            found.append(LessonRun.resume(lesson, list(run.record)))
        if len(found) >= most:
            break
    return found


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_a_legal_move_missing_the_step_is_refused_with_the_lessons_reason_and_changes_nothing(lesson: Lesson) -> None:
    missed_steps = set()
    for run in learner_states(lesson):
        step = lesson.steps[run.index]
        for move in run.game.legal_moves():
            why = step.goal.accepts(run.game, move)
            if why is None:
                continue
            before = snapshot(run)
            done = run.attempt(move)
            assert done.why == why and not done.ok and not done.events, (lesson.id, step.key, move)
            assert isinstance(step.goal, MoveGoal) and why[0] == f"lesson.miss.{step.goal.miss}"
            assert snapshot(run) == before
            missed_steps.add(step.key)
    expected = {step.key for step in lesson.steps} - {k for i, k in NO_LEGAL_MISS if i == lesson.id}
    assert missed_steps == expected


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_an_illegal_move_is_refused_with_the_engines_reason_and_changes_nothing(lesson: Lesson) -> None:
    states = learner_states(lesson)
    assert {run.index for run in states} == set(range(len(lesson.steps)))  # every step is tried
    for run in states:
        move = illegal_move(run.game)
        before = snapshot(run)
        done = run.attempt(move)
        assert done.why is not None and done.why[0].startswith("reason."), (lesson.id, move, done.why)
        assert snapshot(run) == before


def first_state(lesson_id: str, index: int) -> LessonRun:
    lesson = find(lesson_id)
    assert lesson is not None
    return next(run for run in learner_states(lesson) if run.index == index)


def refused(run: LessonRun, move: Move) -> tuple[str, dict[str, object]]:
    done = run.attempt(move)
    assert done.why is not None
    return done.why


def test_the_engine_says_why_in_the_moves_the_lessons_are_about() -> None:
    run = first_state("wild", 0)  # a King may not start a stack
    king = next(c for c in run.game.hands[0] if run.game.deck.code(c) == "KS")
    assert refused(run, Move(PLAY, king, "hand", centre_pile(1))) == ("reason.wild_cannot_be", {"need": 1})
    run = first_state("centre", 1)  # a 3 on an Ace
    three = next(c for c in run.game.hands[0] if run.game.deck.code(c) == "3D")
    assert refused(run, Move(PLAY, three, "hand", centre_pile(0))) == ("reason.wrong_rank", {"rank": 3, "need": 2})
    run = first_state("side", 0)  # the card under the top of a side stack
    under = run.game.side[0][0][-2]
    assert refused(run, Move(PLAY, under, side_pile(0, 0), centre_pile(0)))[0] == "reason.side_top_only"
    run = first_state("cat_and_mouse", 0)  # Aces first
    assert refused(run, Move(END_TURN)) == ("reason.must_play_first", {"ranks": [1]})
    run = first_state("cat_and_mouse", 2)  # a 3 on an 8
    three = next(c for c in run.game.hands[0] if run.game.deck.code(c) == "3C")
    assert refused(run, Move(DISCARD, three, None, side_pile(0, 0)))[0] == "reason.same_or_one_lower"


def test_feeding_the_other_players_pay_off_card_is_refused_naming_it() -> None:
    run = first_state("feed", 0)
    five = next(c for c in run.game.hands[0] if run.game.deck.code(c) == "5H")
    assert refused(run, Move(PLAY, five, "hand", centre_pile(0))) == ("lesson.miss.feeds", {"card": "6C"})
    assert run.step_json()["params"] == {"card": "6C"}


def test_a_finished_lesson_and_the_other_seats_turn_refuse_every_move() -> None:
    discard = find("discard")
    assert discard is not None
    run = LessonRun.begin(discard)
    move = run.hint()
    assert move is not None and run.attempt(move).finished
    assert run.attempt(move).why == ("lesson.miss.finished", {})
    assert run.hint() is None and run.bot_seat() is None  # no bot: the other seat never moves
    assert run.play_bot(Move(END_TURN)).why == ("lesson.miss.not_your_turn", {})
    game = find("game")
    assert game is not None
    run = LessonRun.begin(game)
    while run.game.turn == LEARNER:
        hint = run.hint()
        assert hint is not None and run.attempt(hint).ok
    assert run.bot_seat() == 1 and run.hint() is None
    assert run.attempt(Move(END_TURN)).why == ("lesson.miss.not_your_turn", {})
    with pytest.raises(ValueError):
        LessonRun.resume(game, [(0, Move(END_TURN).to_wire())])  # a record that does not replay


def test_step_json_names_the_step_texts_and_their_parameters() -> None:
    aim = find("aim")
    assert aim is not None
    got = LessonRun.begin(aim).step_json()
    assert got == {"lesson": "aim", "step": 1, "of": 2, "text": "lesson.aim.play_payoff",
                   "goal": "lesson.aim.play_payoff.goal", "params": {"card": "AH"}, "finished": False}
