"""The daily deal's pages at 1280×800 and 390×844 (issue 39): the daily room shows no invite
link, no invitations and no Hint button; its result says when the seed can be checked (never a red
cross); a stranger opening its link, and its player opening its replay, are told when it opens, in
their own time; the day's results page says when it will check the seed, then checks it once the
day is over, and is never wider than a phone. The leaderboard states its real rules and where the
reader stands. Screenshots in test-artifacts/screenshots/daily-*."""

from __future__ import annotations

import random
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.web.helpers import Person, Sock, new_person
from tests.web.test_daily import play_alone

from .conftest import PageOpener, Server, running_server, shot
from .play import register
from .test_history_pages import as_person, in_thread
from .test_honest_table import SIZES

DAY, NEXT = "2030-06-01", "2030-06-02"
NOW = "2030-06-01T18:48:00Z"  # the browsers' clock: the day ends in 5 h 12 min
ZONE = "Europe/Paris"  # UTC+2 in June: the day ends at 2:00 AM there
OPENS = re.compile(r"Jun 2, 2030, 2:00\s?AM your time, in 5 h 12 min")
SETTINGS = {"SPITE_DAILY_DAY": DAY, "SPITE_DAILY_OPTIONS": '{"payoff_size": 5}', "SPITE_BOT_THINK_MS": "10",
            "SPITE_DAILY_TRIES_PER_ADDRESS": "100", "SPITE_RATE_PER_SECOND": "200", "SPITE_RATE_BURST": "400"}


def page_at(open_page: PageOpener, who: str, size: str, fixed: bool = True) -> Page:
    """A page at `size` in Paris, whose clock reads NOW (`fixed`) or the machine's time."""
    width, height, phone = SIZES[size]
    ctx = open_page.browser.new_context(viewport={"width": width, "height": height},
                                        device_scale_factor=2 if phone else 1, is_mobile=phone, has_touch=phone,
                                        bypass_csp=True, timezone_id=ZONE, locale="en-US")
    if fixed:
        ctx.clock.set_fixed_time(NOW)
    ctx.set_default_timeout(15_000)
    open_page.contexts.append(ctx)
    return open_page.watch.page(ctx.new_page(), who)


def not_wider_than_the_screen(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"  # type: ignore[index]


def person_of(d: dict[str, str]) -> Person:
    return Person(d["id"], d["name"], d["token"])


@pytest.mark.parametrize("size", SIZES)
def test_a_daily_room_its_result_replay_and_results_say_when_the_deal_opens(
        open_page: PageOpener, tmp_path: Path, size: str) -> None:
    with running_server(tmp_path, **SETTINGS) as server:
        try:
            _daily_pages(server, open_page, size)
        finally:
            open_page.close_pages()


def _daily_pages(server: Server, open_page: PageOpener, size: str) -> None:
    async def enter(http: httpx.AsyncClient) -> dict[str, str]:
        ann = await new_person(http, "Ann")
        r = await http.post("/api/daily", headers=ann.auth)
        assert r.status_code == 201, r.text
        return {"id": ann.id, "name": ann.name, "token": ann.token, "code": r.json()["room"]}

    ann_d = in_thread(enter, server.url)
    code = ann_d["code"]
    ann = page_at(open_page, "ann", size)
    as_person(ann, ann_d)
    ann.goto(f"{server.url}/r/{code}")
    expect(ann.locator(".how")).to_be_visible()  # Ann's turn: the actions under the table are drawn
    expect(ann.locator(".room-title")).to_have_text("Daily deal")
    assert ann.locator("#invite-url").count() == 0 and ann.locator("#copy-invite").count() == 0
    assert ann.locator(".invite-slot *").count() == 0
    assert ann.locator("#hint-button").count() == 0
    assert code not in (ann.locator(".topbar").text_content() or "")
    shot(ann, f"daily-room-{size}")

    async def finish(http: httpx.AsyncClient) -> dict[str, str]:
        sock = await Sock.open(server.url, code, person_of(ann_d))
        last = await play_alone(sock, random.Random(3))
        await sock.close()
        return {"match_id": str(last["match_id"])}

    match_id = in_thread(finish, server.url)["match_id"]
    fair = ann.locator(".result .fair")
    expect(fair.locator(".verdict-short")).to_have_attribute("data-verdict", "later")
    expect(fair.locator("summary")).to_contain_text(OPENS)
    assert "✗" not in (ann.locator(".result").text_content() or "")
    fair.locator("summary").click()
    expect(fair.locator(".seed")).to_contain_text("its seed stays hidden until the day is over")
    expect(fair.locator(f"a[href='/#daily/{DAY}']")).to_be_visible()
    shot(ann, f"daily-result-{size}")

    # A stranger with the link: a page saying when the deal opens, nothing of the room.
    stranger = page_at(open_page, "stranger", size)
    stranger.goto(f"{server.url}/r/{code}")
    register(stranger, "Mallory")
    sealed = stranger.locator("#daily-sealed")
    expect(sealed).to_contain_text("Daily deal · June 1, 2030")
    expect(sealed).to_contain_text(OPENS)
    expect(sealed).to_contain_text("only its player sees its table")
    assert stranger.locator("#stage, .banner.bad:visible, #invite-url").count() == 0
    not_wider_than_the_screen(stranger)
    shot(stranger, f"daily-sealed-room-{size}")

    # Its replay: when it opens, not an error.
    ann.goto(f"{server.url}/#replay/{match_id}")
    expect(ann.locator("#daily-sealed")).to_contain_text(OPENS)
    assert ann.locator(".form-error:visible").count() == 0
    shot(ann, f"daily-sealed-replay-{size}")

    # The day's results: when the seed can be checked, never a red cross; as wide as the phone.
    ann.goto(f"{server.url}/#daily/{DAY}")
    check = ann.locator("#daily-fair")
    expect(check).to_have_attribute("data-verdict", "later")
    expect(check).to_contain_text(OPENS)
    expect(ann.locator(".daily-page .results-table")).to_contain_text("Ann")
    assert "✗" not in (ann.locator(".daily-page").text_content() or "")
    not_wider_than_the_screen(ann)
    shot(ann, f"daily-results-during-{size}")

    # Once the day is over, the page checks the seed against the commitment.
    ctx = ann.context
    ann.close()  # no page keeps a socket to the server while it restarts
    stranger.close()
    open_page.watch.allowed.append("WebSocket connection to")  # as test_room's restart: a socket may be cut
    server.stop()
    server.env["SPITE_DAILY_DAY"] = NEXT
    server.start()
    ann = open_page.watch.page(ctx.new_page(), "ann")
    ann.goto(f"{server.url}/#daily/{DAY}")
    check = ann.locator("#daily-fair")
    expect(check).to_have_attribute("data-verdict", "ok")
    expect(check).to_contain_text("✓ The seed matches the commitment")
    expect(check.locator(".seed code")).to_contain_text(f"daily-{DAY}-")
    not_wider_than_the_screen(ann)
    shot(ann, f"daily-results-after-{size}")
    ann.goto(f"{server.url}/#replay/{match_id}")
    expect(ann.locator(".replay-moves li").first).to_be_visible()
    assert ann.locator("#daily-sealed").count() == 0


@pytest.mark.parametrize("size", SIZES)
def test_the_leaderboard_states_its_rules_and_where_you_stand(open_page: PageOpener, tmp_path: Path,
                                                               size: str) -> None:
    with running_server(tmp_path, SPITE_LEADERBOARD_MIN_GAMES="5", SPITE_LEADERBOARD_MIN_OPPONENTS="2",
                        SPITE_LEADERBOARD_MIN_AGE_HOURS="24") as server:
        async def make(http: httpx.AsyncClient) -> dict[str, str]:
            ann = await new_person(http, "Ann")
            return {"id": ann.id, "name": ann.name, "token": ann.token}

        ann = page_at(open_page, "ann", size, fixed=False)  # the account is made now, on the machine's clock
        as_person(ann, in_thread(make, server.url))
        ann.goto(f"{server.url}/#leaderboard")
        rules = ann.locator(".leaderboard > p.muted").first
        expect(rules).to_contain_text("players with at least 5 rated matches against at least 2 different opponents")
        expect(rules).to_contain_text("at least 1 day old")
        you = ann.locator("#board-you")
        expect(you).to_contain_text("You: 0 of 5 rated matches · 0 of 2 different opponents · account old enough from")
        expect(ann.locator(".leaderboard table")).to_contain_text("Nobody meets these rules yet.")
        not_wider_than_the_screen(ann)
        shot(ann, f"daily-leaderboard-{size}")
        open_page.close_pages()
