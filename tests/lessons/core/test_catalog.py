"""The catalogue of lessons: the order, and every lesson walked through to its end by its steps'
solutions, a resumed run matching the walked one at every point."""

from __future__ import annotations

import pytest

from app.engine.moves import PAYOFF, PLAY
from app.lessons.core import LESSONS, Lesson, LessonRun, find

from .walk import walk

ORDER = ["aim", "centre", "wild", "hand", "discard", "side", "bonus", "complete", "feed", "game", "cat_and_mouse"]


def test_the_lessons_come_in_the_order_a_newcomer_takes_them() -> None:
    assert [lesson.id for lesson in LESSONS] == ORDER
    assert all(find(i) is lesson for i, lesson in zip(ORDER, LESSONS, strict=True))
    assert find("nope") is None
    for lesson in LESSONS:
        assert 1 <= len(lesson.steps) <= 4, lesson.id
        assert len({step.key for step in lesson.steps}) == len(lesson.steps), lesson.id
        assert lesson.steps[0].position is not None, lesson.id


def state(run: LessonRun) -> tuple[object, ...]:
    return run.index, run.finished, run.view(), run.step_json(), run.record


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_every_lesson_walks_to_its_end_and_resumes_from_its_record_at_any_point(lesson: Lesson) -> None:
    for seen, (run, _done) in enumerate(walk(lesson)):
        if seen % 5 == 0 or run.finished:  # the game lesson is long: a resume every fifth move
            again = LessonRun.resume(lesson, list(run.record))
            assert state(again) == state(run)
    assert run.finished and run.step_json()["finished"]
    assert run.step_json()["step"] == len(lesson.steps)


def test_the_game_is_against_the_easy_bot_from_a_deal_the_learner_starts() -> None:
    game = find("game")
    assert game is not None and game.bot == "easy" and game.overrides == {"payoff_size": 5}
    run = LessonRun.begin(game)
    assert run.game.turn == 0 and run.bot_seat() is None
    assert [len(p) for p in run.game.payoff] == [5, 5]
    *_, (last, _done) = walk(game)
    assert any(seat == 1 for seat, _move in last.record), "the bot never moved"
    assert last.game.outcome is not None and last.finished


def events_of(lesson_id: str) -> list[list[str]]:
    lesson = find(lesson_id)
    assert lesson is not None
    return [[e["type"] for e in done.events] for _run, done in walk(lesson) if done is not None]


def test_the_lessons_show_what_the_engine_does() -> None:
    assert events_of("aim")[-1] == ["play", "hand_over"]  # the last pay-off card wins the hand
    assert events_of("bonus")[4] == ["play", "draw"]  # the fifth hand card played: five more
    assert ["play", "complete"] in events_of("complete")
    assert ["play", "complete"] in events_of("cat_and_mouse")  # a King completes the stack there
    assert events_of("discard")[-1] == ["discard", "turn"]  # a discard ends the turn
    assert events_of("hand")[2] == ["discard", "turn", "draw"]  # ... and the other player draws up to five
    assert events_of("cat_and_mouse")[2] == ["discard"]  # ... but not in Cat and Mouse
    assert events_of("cat_and_mouse")[3] == ["end_turn", "turn"]


def test_the_hand_lesson_draws_back_up_to_five_and_the_bonus_lesson_five_more() -> None:
    hand = find("hand")
    assert hand is not None
    runs = [(run.index, len(run.game.hands[0])) for run, _ in walk(hand)]
    assert runs[:4] == [(0, 5), (0, 4), (1, 3), (2, 5)]  # two played, one discarded, three drawn
    draws = [e for _run, done in walk(hand) if done for e in done.events if e["type"] == "draw"]
    assert draws == [{"type": "draw", "seat": 1, "count": 3}]  # the other player's, seen by the learner
    bonus = find("bonus")
    assert bonus is not None
    sizes = [len(run.game.hands[0]) for run, _ in walk(bonus)]
    assert sizes[:6] == [5, 4, 3, 2, 1, 5]


def test_the_wild_king_stands_for_the_rank_the_stack_needs() -> None:
    wild = find("wild")
    assert wild is not None
    for run, done in walk(wild):
        if run.index == 1 and done is not None:
            (play,) = done.events
            assert play["card"]["wild"] and play["card"]["as"] == "6", play
            break
    else:
        raise AssertionError("the king was not played")


def test_the_aim_lesson_ends_by_playing_the_last_pay_off_card() -> None:
    aim = find("aim")
    assert aim is not None
    *_, (last, _done) = walk(aim)
    assert last.game.outcome is not None and last.game.outcome.winners == (0,)
    assert all(m["kind"] == PLAY and m["from"].startswith(PAYOFF) for _s, m in last.record)
