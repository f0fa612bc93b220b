"""Learning to play in the browser: every lesson played through by real input (mouse clicks,
drags, the keyboard; taps and drags on a phone), each move the one the lesson's Hint shows, at
phone and desktop size; one lesson in French; a move that misses the step refused on the panel
(read out) with nothing changed; the home page's Learn to play card first for a new player, and
gone once dismissed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from app.i18n import render
from app.lessons.core import LESSONS
from app.lessons.shell.service import title

from .conftest import PageOpener, Server, shot
from .play import Style, discard_move, make_move, register, version

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
              "has_touch": True},
}
STYLES: dict[str, list[Style]] = {"desktop": ["drag", "click", "keys"], "phone": ["tap", "drag"]}
KEY = re.compile(r"^[a-z_]+(\.[a-z_0-9]+)+$")  # what a catalogue key looks like


def raw_keys(page: Page) -> list[str]:
    """Texts of the lesson panel and the list that are catalogue keys, not words."""
    texts: list[str] = page.evaluate("""() => [...document.querySelectorAll(
        '#lesson-panel *, .learn-page *, #learn-card *')].filter((e) => !e.children.length)
        .map((e) => e.textContent.trim()).filter(Boolean)""")
    return [x for x in texts if KEY.match(x)]


def start_from_list(page: Page, base: str, lesson_id: str) -> None:
    page.goto(base + "/#learn")
    page.click(f".lesson-list button[data-lesson='{lesson_id}']")
    page.wait_for_url(re.compile(r"#lesson/1[A-Z0-9]+$"))
    page.wait_for_selector("#stage[data-v]")


def hinted_move(page: Page) -> tuple[str, str, str] | None:
    """The move the Hint button shows: the card it lights and the place it lights (then put back);
    None when the hint is to end the turn (it lights no card: the End turn button does that)."""
    before = page.locator("#lesson-why").text_content()
    page.click("#lesson-hint")
    expect(page.locator("#lesson-why")).not_to_have_text(before or "")  # lit in the same step
    card = page.locator("#stage .card.hint")
    if card.count() == 0:
        expect(page.locator("#end-turn")).to_be_visible()
        return None
    found = (card.get_attribute("data-card"), card.get_attribute("data-from"),
             page.locator("#stage [data-pile].hint").first.get_attribute("data-pile"))
    page.keyboard.press("Escape")  # the hint picked the card: put it back, the move is made by hand
    assert all(found), found
    return str(found[0]), str(found[1]), str(found[2])


def walk(page: Page, styles: list[Style], limit: int = 300) -> int:
    """Play the lesson on the page to its end, each move by the next style; the moves made."""
    made = 0
    while page.get_attribute("#stage", "data-finished") != "true":
        assert made < limit, "the lesson did not end"
        page.wait_for_function("""() => { const s = document.getElementById('stage');
            return s.dataset.finished === 'true' || (s.dataset.turn === 'you' && !s.classList.contains('busy')); }""",
                               timeout=60_000)
        if page.get_attribute("#stage", "data-finished") == "true":
            break
        hinted = hinted_move(page)
        if hinted is None:
            page.click("#end-turn")
        else:
            make_move(page, hinted, styles[made % len(styles)])
        made += 1
    return made


@pytest.mark.parametrize("size", SIZES)
def test_every_lesson_by_real_input(server: Server, open_page: PageOpener, size: str) -> None:
    page = open_page("learner", **SIZES[size])
    page.goto(server.url + "/")
    register(page, "Lea")
    for lesson in LESSONS:
        start_from_list(page, server.url, lesson.id)
        expect(page.locator("#lesson-step")).to_have_text(render("en", "learn.step", {"step": 1,
                                                                                      "of": len(lesson.steps)}))
        shot(page, f"lesson-{lesson.id}-{size}-start")
        walk(page, STYLES[size])
        expect(page.locator("#lesson-text")).to_have_text(render("en", "learn.done"))
        expect(page.locator("#lesson-hint")).to_be_hidden()
        shot(page, f"lesson-{lesson.id}-{size}-done")
        assert raw_keys(page) == []
    page.goto(server.url + "/#learn")
    expect(page.locator(".lesson-item.done")).to_have_count(len(LESSONS))
    again = render("en", "learn.again")
    for lesson in LESSONS:
        expect(page.locator(f".lesson-list button[data-lesson='{lesson.id}']")).to_have_text(again)
    shot(page, f"lessons-list-{size}")
    assert raw_keys(page) == []


def test_next_lesson_leads_on(server: Server, open_page: PageOpener) -> None:
    page = open_page("next", **SIZES["desktop"])
    page.goto(server.url + "/")
    register(page, "Ned")
    start_from_list(page, server.url, LESSONS[0].id)
    walk(page, ["click"])
    page.click("#lesson-next")
    expect(page.locator(".lesson-title")).to_have_text(title(LESSONS[1], "en"))
    expect(page.locator("#lesson-step")).to_have_text(render("en", "learn.step", {"step": 1,
                                                                                  "of": len(LESSONS[1].steps)}))


def test_a_lesson_in_french(server: Server, open_page: PageOpener) -> None:
    page = open_page("fr", locale="fr-FR", **SIZES["phone"])
    page.goto(server.url + "/")
    register(page, "Léa")
    lesson = LESSONS[0]
    start_from_list(page, server.url, lesson.id)
    expect(page.locator("#lesson-step")).to_have_text(render("fr", "learn.step", {"step": 1, "of": len(lesson.steps)}))
    expect(page.locator("#lesson-hint")).to_have_text(render("fr", "learn.hint"))
    expect(page.locator(".lesson-title")).to_have_text(title(lesson, "fr"))
    shot(page, "lesson-fr-phone")
    code = page.url.rsplit("/", 1)[1]
    walk(page, ["tap"])
    expect(page.locator("#lesson-text")).to_have_text(render("fr", "learn.done"))
    assert raw_keys(page) == []
    page.goto(server.url + "/r/" + code)  # the room's path with a lesson's code: the lesson's page, as it was left
    page.wait_for_url(re.compile(r"#lesson/" + code + "$"))
    expect(page.locator("#lesson-text")).to_have_text(render("fr", "learn.done"))
    expect(page.locator("#lesson-all")).to_be_visible()


def test_a_move_that_misses_the_step_is_refused_and_read_out(server: Server, open_page: PageOpener) -> None:
    page = open_page("miss", **SIZES["desktop"])
    page.goto(server.url + "/")
    register(page, "Max")
    lesson = LESSONS[0]  # aim: play the pay-off card; a discard misses the step
    start_from_list(page, server.url, lesson.id)
    v = version(page)
    card, src, dst = discard_move(page)
    page.click(f".card[data-card='{card}'][data-from='{src}']")
    page.click(f"[data-pile='{dst}']")
    why = page.locator("#lesson-why")
    expect(why).to_have_class(re.compile(r"\brefused\b"))
    said = why.text_content() or ""
    assert said and not KEY.match(said.rstrip(".")), said
    assert "\u2665" in said  # the reason names the pay-off card, the A\u2665 ...
    heard = page.evaluate("async (s) => (await import('/announce.js')).spoken(s)", said)
    assert "Ace of hearts" in heard  # ... and a screen reader hears it by name
    expect(page.locator("#announce-urgent")).to_have_text(heard)
    assert version(page) == v  # nothing changed
    shot(page, "lesson-refused-desktop")
    hinted = hinted_move(page)
    assert hinted is not None  # the aim's step is a play
    make_move(page, hinted, "drag")
    assert version(page) == v + 1


@pytest.mark.parametrize("size", SIZES)
def test_the_home_page_shows_learn_to_play_first_until_dismissed(server: Server, open_page: PageOpener,
                                                                  size: str) -> None:
    page = open_page("home", **SIZES[size])
    page.goto(server.url + "/")
    register(page, "Nia")
    card = page.locator("#learn-card")
    expect(card).to_be_visible()
    expect(card.locator("h2")).to_have_text(render("en", "learn.title"))
    first = page.evaluate("""() => { let e = document.querySelector('.home .whoami').nextElementSibling;
        while (e && e.offsetParent === null) e = e.nextElementSibling; return e && e.id; }""")  # first after the name
    assert first == "learn-card", first
    shot(page, f"home-learn-card-{size}")
    assert raw_keys(page) == []
    page.click("#learn-dismiss")
    expect(card).to_have_count(0)
    page.reload()
    page.wait_for_selector("#opt-preset")
    expect(page.locator("#learn-card")).to_have_count(0)
