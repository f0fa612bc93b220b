"""Every text a lesson shows is in the four catalogues, and every placeholder in it is filled by
the parameters the lesson gives (the step's, at the step's start, or the miss reason's)."""

from __future__ import annotations

import pytest

from app.i18n import CATALOGUES, LANGS
from app.i18n.catalog import PLACEHOLDER, render
from app.lessons.core import LESSONS, Lesson, LessonRun
from app.lessons.core.goals import MoveGoal

from .walk import walk

RUN_REASONS = ["lesson.miss.finished", "lesson.miss.not_your_turn"]


def placeholders(lang: str, key: str) -> set[str]:
    texts = CATALOGUES[lang].texts
    forms = [t for k, t in texts.items() if k == key or k.startswith(f"{key}#")]
    assert forms, f"{lang}: {key} is missing"
    return {m.group(1) for text in forms for m in PLACEHOLDER.finditer(text)}


def says(key: str, params: dict[str, object]) -> None:
    """`key` exists in every language, its placeholders are all in `params`, and it renders."""
    for lang in LANGS:
        missing = placeholders(lang, key) - set(params)
        assert not missing, f"{lang}: {key} needs {missing}, given {params}"
        text = render(lang, key, dict(params))
        assert text != key and "{" not in text and text.strip(), (lang, key, text)


def texts_of(lesson: Lesson) -> list[tuple[str, dict[str, object]]]:
    """Every key the lesson shows, with its parameters, from a walk through it."""
    found: list[tuple[str, dict[str, object]]] = [(lesson.title_key, {}), (f"lesson.{lesson.id}.about", {}),
                                                  (f"lesson.{lesson.id}.done", {})]
    entered = -1
    for run, _done in walk(lesson):
        if run.finished or run.index == entered:
            continue
        entered = run.index
        step = lesson.steps[run.index]
        info = run.step_json()
        found += [(info["text"], info["params"]), (info["goal"], info["params"])]
        assert isinstance(step.goal, MoveGoal)
        found.append((f"lesson.miss.{step.goal.miss}", step.goal.miss_params(run.game)))
    assert entered == len(lesson.steps) - 1
    return found


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_every_text_of_a_lesson_is_in_every_language_with_its_placeholders_filled(lesson: Lesson) -> None:
    for key, params in texts_of(lesson):
        says(key, params)


def test_the_runs_own_reasons_are_in_every_language() -> None:
    for key in RUN_REASONS:
        says(key, {})


def test_a_miss_names_the_card_in_the_learners_language() -> None:
    assert "6♣" in render("en", "lesson.miss.feeds", {"card": "6C"})
    assert "R♠" in render("fr", "lesson.miss.complete", {"card": "KS"})
    assert "D♠" in render("de", "lesson.miss.complete", {"card": "QS"})  # Dame
    run = LessonRun.begin(LESSONS[0])
    assert "A♥" in render("en", run.step_json()["text"], run.step_json()["params"])


def test_the_lesson_texts_sit_in_one_block_after_the_language_picker() -> None:
    """The helpers add keys elsewhere in the catalogues; the lessons' are one block at the top."""
    from app.i18n.catalog import FOLDER

    for lang in LANGS:
        keys = [line.split('"')[1] for line in (FOLDER / f"{lang}.json").read_text(encoding="utf-8").splitlines()
                if line.startswith('"')]
        at = [i for i, key in enumerate(keys) if key.startswith("lesson.")]
        assert at and keys[at[0] - 1] == "lang.pick" and at == list(range(at[0], at[0] + len(at))), lang
