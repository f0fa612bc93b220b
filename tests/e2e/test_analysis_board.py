"""The analysis board in the browser: a marked mistake of the review opens in the board at the
position it was chosen on, the review's better move marked; trying it shows the new position and
its lines (chances as per cents), Back steps back, another move branches; the replay's "Analyse"
opens the position on screen. At 1280×800 and 390×844, screenshots of both.

The review row is written into the server's database (as tests/e2e/test_review_marks.py does), its
better move one of the mover's legal moves at that position; the board's answers are the real
server's, from its own process pool."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.engine import HandRecord, Match, Move, options_from_json, view
from app.review import judged, summary
from tests.web.review_helpers import finished_match, in_a_thread, store_review

from .conftest import PageOpener, Server, running_server, shot
from .test_review import at_desktop_and_phone

PER_CENT = re.compile(r"^\d{1,3}\s?%$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("server"), SPITE_RATE_PER_SECOND="200", SPITE_RATE_BURST="400",
                        SPITE_ANALYSIS_MS="150", SPITE_ANALYSIS_PER_MINUTE="100") as srv:
        yield srv


def _set_up(base: str, db_url: str) -> dict[str, Any]:
    out: dict[str, Any] = {}

    async def make() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            ann, _bob, match_id = await finished_match(base, http, seed="analysis-board")
            replay = (await http.get(f"/api/matches/{match_id}/replay")).json()
        h = replay["hands"][0]
        hand = HandRecord(h["seed"], [Move.from_wire(m["move"]) for m in replay["moves"]], h["deal_order"])
        # one of Ann's moves, not her first, with another legal move she could have made instead
        for m in replay["moves"]:
            if m["seat"] != 0 or m["actor"] != "player" or m["seq"] < 3 or m["move"]["kind"] == "take_back":
                continue
            before = Match.replay(options_from_json(replay["options"]), replay["names"], [hand], upto=m["seq"] - 1)
            seen = view(before, 0)
            others = [x for x in seen["legal_moves"] if x != m["move"] and x["kind"] not in ("take_back", "end_turn")]
            if others:
                marked, best = m, others[-1]
                break
        shown = judged(0.30, 0.45)
        decisions = [{"v": marked["seq"], "seat": 0, "played": marked["move"], "best": best,
                      "chance_played": shown.chance_played, "chance_best": shown.chance_best, "loss": shown.loss,
                      "mark": shown.mark, "alternatives": 3}]
        chances = [{"v": v, "seat": s, "chance": 0.5, "hand": 1} for v in range(replay["total"] + 1) for s in (0, 1)]
        result = {"level": "rollout-test", "decisions": decisions, "chances": chances,
                  "luck": [{"hand": 1, "seat": 0, "points": 0.0}], "summary": summary([0], decisions, [])}
        await store_review(db_url, match_id, ann.id, result)
        out.update(ann=ann, match=match_id, marked=marked["seq"], best=best, total=replay["total"])

    in_a_thread(make)
    assert out, "the set-up did not finish"
    return out


def _answered(page: Page) -> None:
    """Wait for the board's answer (not loading, no error)."""
    expect(page.locator(".analysis")).not_to_have_attribute("aria-busy", "true", timeout=20_000)
    expect(page.locator(".analysis .form-error")).to_have_text("")


def _check(page: Page, got: dict[str, Any], size: str) -> None:
    page.goto(f"{got['base']}/#replay/{got['match']}")
    page.locator("#review-graph").wait_for(state="visible")
    page.locator(f'.replay-moves li[data-at="{got["marked"]}"] button').click()
    link = page.locator("#review-board")
    expect(link).to_have_text("Open in the board")
    link.click()
    # the board at the position the move was chosen on, as Ann saw it
    expect(page).to_have_url(re.compile(rf"#analysis/{got['match']}/{got['marked'] - 1}/0/"))
    _answered(page)
    expect(page.locator(".ab-where")).to_contain_text(f"Move {got['marked'] - 1} of {got['total']}")
    expect(page.locator("#ab-trail")).to_have_text("The position as it was played.")
    chances = page.locator("#ab-lines .ab-chance").all_text_contents()
    plain = [c.replace("\u202f", " ").replace("\xa0", " ") for c in chances]
    assert 1 <= len(chances) <= 4 and all(PER_CENT.match(c) for c in plain), chances
    expect(page.locator("#ab-status")).to_contain_text("Best move:")
    suggested = page.locator("#ab-moves li.ab-suggested button")
    expect(suggested).to_have_count(1)
    expect(suggested).to_contain_text("the review's better move")
    assert page.locator(".ab-stage .review-best, .ab-stage .review-target").count() >= 1
    shot(page, f"analysis-board-{size}")
    words = (suggested.text_content() or "").replace(" (the review's better move)", "")
    # try the better move: a new position, the move said in the trail
    suggested.focus()
    page.keyboard.press("Enter")
    _answered(page)
    expect(page.locator("#ab-trail")).to_have_text(f"What if: {words}")
    after = page.locator(".ab-stage").inner_html()
    shot(page, f"analysis-board-tried-{size}")
    # Back: the position as played again; another move: a branch
    page.locator("#ab-back").click()
    _answered(page)
    expect(page.locator("#ab-trail")).to_have_text("The position as it was played.")
    expect(page.locator("#ab-back")).to_be_disabled()
    other = page.locator("#ab-moves li:not(.ab-suggested) button").first
    other_words = other.text_content() or ""
    other.click()
    _answered(page)
    expect(page.locator("#ab-trail")).to_have_text(f"What if: {other_words}")
    assert page.locator(".ab-stage").inner_html() != after or other_words == words
    # the replay's "Analyse": the position on screen
    page.goto(f"{got['base']}/#replay/{got['match']}")
    page.locator(f'.replay-moves li[data-at="{got["marked"] - 1}"] button').click()
    page.locator("#replay-analyse").click()
    expect(page).to_have_url(re.compile(rf"#analysis/{got['match']}/{got['marked'] - 1}/0$"))
    _answered(page)
    expect(page.locator("#ab-moves li.ab-suggested")).to_have_count(0)


def test_a_marked_mistake_opens_in_the_board_and_its_better_move_can_be_tried(
        server: Server, open_page: PageOpener) -> None:
    got = _set_up(server.url, f"sqlite:///{server.db}")
    got["base"] = server.url
    at_desktop_and_phone(open_page, got["ann"], lambda page, size: _check(page, got, size), "analysis")
