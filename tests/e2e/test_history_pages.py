"""History, a match's page, the replay and the rating chart, at
1280×800 and 390×844: each match in the history shows the link its `progress` calls for (back
to the table, watch, the replay) and says when it is abandoned; a match's page says how each
hand ended; the replay says it too, keeps the stock face down, numbers its moves in a column and
does not jump between steps; the profile's chart has its axes, values, dates and the 1500 line."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
import threading
from collections.abc import Awaitable, Callable, Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator, Page, Route, expect

from app.store.db import make_engine, make_sessions
from app.store.tables import Match as MatchRow
from tests.web.helpers import Person, Sock, new_account, new_person, new_room, play_to_end, seat_everyone

from .conftest import PageOpener, Server, running_server, shot
from .test_honest_table import SIZES, page_at

ABANDONED_AFTER = 3600  # seconds (the default): the test ages the matches' moves past it in the store


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("server")
    with running_server(folder, SPITE_ABANDONED_AFTER=str(ABANDONED_AFTER), SPITE_RATE_PER_SECOND="200",
                        SPITE_RATE_BURST="400") as srv:
        yield srv


def in_thread(make: Callable[[httpx.AsyncClient], Awaitable[dict[str, Any]]], base: str) -> dict[str, Any]:
    """Run `make` (sockets and REST against the test's server) to its end, off Playwright's loop."""
    out: dict[str, Any] = {}

    async def run() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            out.update(await make(http))

    t = threading.Thread(target=lambda: asyncio.run(run()))
    t.start()
    t.join(240)
    assert out, "the set-up did not finish"
    return out


async def finished(base: str, http: httpx.AsyncClient, players: list[Person], **room: Any) -> str:
    """The players play one match to its end; its id."""
    code = (await new_room(http, players[0], **room))["code"]
    socks = [await Sock.open(base, code, p) for p in players]
    try:
        await seat_everyone(socks[0], socks)
        await socks[0].send({"type": "start"})
        last = await play_to_end(socks, random.Random(5))
    finally:
        for s in socks:
            await s.close()
    return str(last["match_id"])


async def left_at_the_table(base: str, http: httpx.AsyncClient, ann: Person, public: bool) -> str:
    """Ann starts a match against a bot and leaves it (nobody at the table: the bot waits)."""
    room = await new_room(http, ann, seats=2, public=public)
    a = await Sock.open(base, room["code"], ann)
    await a.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
    await a.room({"type": "add_bot", "seat": 1, "level": "easy"}, lambda r: r["seats"][1]["bot"] == "easy")
    await a.send({"type": "start"})
    match_id = str((await a.state_at(0))["match_id"])
    await a.close()
    return match_id


async def age(db_url: str, match_ids: list[str], seconds: float) -> None:
    """Move the matches' start and last move `seconds` back in the store, as if nobody had moved
    for that long since (waited for by no second of it)."""
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s, s.begin():
            for match_id in match_ids:
                row = await s.get(MatchRow, match_id)
                assert row is not None
                row.started_at -= timedelta(seconds=seconds)
                if row.last_move_at is not None:
                    row.last_move_at -= timedelta(seconds=seconds)
    finally:
        await engine.dispose()


def as_person(page: Page, person: dict[str, str]) -> None:
    identity = json.dumps({"id": person["id"], "name": person["name"], "token": person["token"]})
    page.context.add_init_script(f"localStorage.setItem('spite.identity', {json.dumps(identity)});")


def row(page: Page, match_id: str) -> Locator:
    """The history line of that match (its Details link names it)."""
    return page.locator(f".match-item:has(a.match-link[href='/#match/{match_id}'])")


def person(p: Person) -> dict[str, str]:
    return {"id": p.id, "name": p.name, "token": p.token}


def test_history_links_each_match_as_it_stands_and_its_page_says_how_hands_ended(
        server: Server, open_page: PageOpener) -> None:
    async def make(http: httpx.AsyncClient) -> dict[str, Any]:
        ann, bob, eve = [await new_person(http, n) for n in ("Ann", "Bob", "Eve")]
        over = await finished(server.url, http, [ann, bob], preset="short", options={"payoff_size": 5}, seats=2,
                              seed="history-e2e")
        public = await left_at_the_table(server.url, http, ann, True)
        private = await left_at_the_table(server.url, http, ann, False)
        return {"ann": person(ann), "eve": person(eve), "over": over, "public": public, "private": private}

    got = in_thread(make, server.url)
    pages = {}
    for size in SIZES:
        ann = page_at(open_page, f"ann-{size}", size)
        as_person(ann, got["ann"])
        ann.goto(server.url + "/#history")
        item = ann.locator(".match-item")
        expect(item).to_have_count(3)
        mine = {k: row(ann, got[k]) for k in ("over", "public", "private")}
        expect(mine["over"].locator("a.replay-link")).to_have_attribute("href", f"/#replay/{got['over']}")
        for k in ("public", "private"):  # Ann played in both: back to their tables
            expect(mine[k].locator(".badge")).to_have_text("in progress")
            expect(mine[k].locator("a.resume")).to_have_text("Back to the table")
        shot(ann, f"history-progress-{size}")
        eve = page_at(open_page, f"eve-{size}", size)  # Ann's profile, as someone else sees it
        as_person(eve, got["eve"])
        eve.goto(server.url + f"/#player/{got['ann']['id']}")
        seen = {k: row(eve, got[k]) for k in ("public", "private")}
        expect(seen["public"].locator("a.watch")).to_have_text("Watch")
        expect(seen["private"].locator(".badge")).to_have_text("private room")
        expect(seen["private"].locator("a.resume, a.watch")).to_have_count(0)
        shot(eve, f"history-watch-{size}")
        # The finished match's own page: each hand, how it ended, the points, the replay.
        ann.click(f"a.match-link[href='/#match/{got['over']}']")
        expect(ann).to_have_title("Ann vs Bob · Spite & Malice")
        hand = ann.locator(".hand-item").first
        expect(hand).to_contain_text("Hand 1")
        expect(hand.locator(".hand-who")).to_contain_text("went out.")
        expect(hand.locator(".hand-who")).not_to_contain_text("A pay-off pile was emptied.")  # going out says it
        expect(hand.locator(".hand-points")).to_contain_text("Points this hand: Ann")
        expect(ann.locator(".match-standing a.replay-link")).to_be_visible()
        assert ann.evaluate("document.documentElement.scrollWidth") <= ann.viewport_size["width"]  # type: ignore[index]
        shot(ann, f"match-page-{size}")
        pages[size] = ann
    # Once nobody has moved for ABANDONED_AFTER seconds, the two left matches are abandoned.
    aging = threading.Thread(target=lambda: asyncio.run(
        age(server.env["SPITE_DATABASE_URL"], [got["public"], got["private"]], ABANDONED_AFTER + 60)))
    aging.start()
    aging.join(60)
    for size, ann in pages.items():
        ann.goto(server.url + "/#history")
        for k in ("public", "private"):
            expect(row(ann, got[k]).locator(".badge")).to_have_text("abandoned")
            expect(row(ann, got[k]).locator("a.resume")).to_be_visible()  # its players may still go back
        shot(ann, f"history-abandoned-{size}")


def short_match_of_ann(server: Server, seed: str) -> dict[str, Any]:
    """A finished short match (pay-off piles of 5) of Ann and Bob: Ann's identity and the match id."""
    async def make(http: httpx.AsyncClient) -> dict[str, Any]:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        match = await finished(server.url, http, [ann, bob], preset="short", options={"payoff_size": 5}, seats=2,
                               seed=seed)
        return {"ann": person(ann), "match": match}

    return in_thread(make, server.url)


def test_a_match_is_dated_by_its_start_on_every_page(server: Server, open_page: PageOpener) -> None:
    got = short_match_of_ann(server, "dated-e2e")
    # Started three hours before it ended: a page showing the end (or the first move) would differ.
    with sqlite3.connect(server.db) as db:
        db.execute("UPDATE matches SET started_at = datetime(started_at, '-3 hours') WHERE id = ?", (got["match"],))
    for size in SIZES:
        page = page_at(open_page, f"ann-{size}", size)
        as_person(page, got["ann"])
        page.goto(server.url + "/#history")
        when = row(page, got["match"]).locator(".when")
        expect(when).to_have_text(re.compile(r"\d:\d\d"))  # the day and the time
        shown = when.text_content() or ""
        page.goto(server.url + f"/#player/{got['ann']['id']}")  # the profile's recent matches
        expect(page.locator(f".match-item:has(a.match-link[href='/#match/{got['match']}']) .when")).to_have_text(shown)
        page.goto(server.url + f"/#match/{got['match']}")
        expect(page.locator(".match-standing")).to_contain_text(shown)
        page.goto(server.url + f"/#replay/{got['match']}")
        expect(page.locator(".replay h1")).to_have_text(re.compile(" · " + re.escape(shown) + "$"))
        shot(page, f"match-dated-{size}")


def test_the_replay_says_how_the_hand_ended_and_keeps_still(server: Server, open_page: PageOpener) -> None:
    got = short_match_of_ann(server, "replay-e2e")
    for size in SIZES:
        page = page_at(open_page, f"ann-{size}", size)
        as_person(page, got["ann"])
        page.goto(server.url + f"/#replay/{got['match']}")
        moves = page.locator(".replay-moves li[data-at]")
        expect(moves.first).to_be_visible()
        expect(page.locator(".replay-stage .table")).to_be_visible()
        # the stock is face down at every step (nobody may see its top, in the replay neither)
        expect(page.locator(".replay-stage .stock .card.back")).to_have_count(1)
        expect(page.locator(".replay-stage .stock .card.face")).to_have_count(0)
        # a column of move numbers: every move's words start right of its number
        for i in (1, 2, 3):
            n, words = moves.nth(i).locator(".mv-n"), moves.nth(i).locator("button")
            expect(n).to_have_text(str(i))
            nb, wb = n.bounding_box(), words.bounding_box()
            assert nb and wb and wb["x"] >= nb["x"] + nb["width"] - 1, (nb, wb)
        # stepping never moves what is under the stage back up (the stage keeps its height)
        below = []
        for _ in range(12):
            page.click("#replay-next")
            page.wait_for_timeout(150)
            b = page.locator(".replay-moves").bounding_box()
            assert b is not None
            below.append(b["y"])
        assert all(b2 >= b1 - 1 for b1, b2 in zip(below, below[1:], strict=False)), below
        page.click("#replay-last")
        now = page.locator("#replay-now")
        expect(now).to_contain_text("Hand 1 over:")
        expect(now).to_contain_text("went out.")
        expect(now).to_contain_text("Points this hand:")
        end = page.locator(".replay-moves li.hand-end")
        expect(end).to_have_count(1)
        said = r"Hand 1 over: (Ann|Bob) went out\. Points this hand: Ann \d+ and Bob \d+\."  # no reason again
        expect(end).to_contain_text(re.compile(said))
        expect(end).to_have_class(re.compile(r"\bcurrent\b"))
        page.wait_for_timeout(100)
        eb, lb = end.bounding_box(), page.locator(".replay-moves").bounding_box()
        assert eb and lb and lb["y"] <= eb["y"] and eb["y"] + eb["height"] <= lb["y"] + lb["height"] + 1, \
            "the hand's end is in sight in the move list"
        # before anyone asks for a review, its panel is as tall as its button (no tall empty box)
        expect(page.locator("#review-ask")).to_be_visible()
        rb = page.locator(".review").bounding_box()
        assert rb and rb["height"] <= 110, rb
        expect(page.locator(".replay-stage .stock .card.face")).to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
        shot(page, f"replay-end-{size}")
    # The step controls wait for the match: Last clicked while it loads would mean move 0.
    page = page_at(open_page, "ann-slow", "phone")
    as_person(page, got["ann"])
    held: list[Route] = []
    page.route(f"**/api/matches/{got['match']}/replay", lambda route: held.append(route))
    page.goto(server.url + f"/#replay/{got['match']}")
    expect(page.locator("#replay-last")).to_be_disabled()
    expect(page.locator("#replay-slider")).to_be_disabled()
    page.keyboard.press("End")
    for _ in range(50):  # the held request reaches the route while the page waits
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the replay was asked for"
    for route in held:
        route.continue_()
    page.click("#replay-last")
    expect(page.locator(".replay-moves li.hand-end")).to_have_class(re.compile(r"\bcurrent\b"))


def test_the_rating_chart_has_axes_values_dates_and_the_1500_line(server: Server, open_page: PageOpener) -> None:
    async def make(http: httpx.AsyncClient) -> dict[str, Any]:
        ann, bob = await new_account(http, "Ann"), await new_account(http, "Bob")
        for i in range(3):
            await finished(server.url, http, [ann, bob], preset="short", options={"payoff_size": 5}, seats=2,
                           rated=True, seed=f"rated-{i}")
        return {"ann": person(ann)}

    got = in_thread(make, server.url)
    for size in SIZES:
        page = page_at(open_page, f"ann-{size}", size)
        as_person(page, got["ann"])
        page.goto(server.url + f"/#player/{got['ann']['id']}")
        chart = page.locator(".rating-chart")
        expect(chart.locator("circle")).to_have_count(4)  # before the first match, then after each
        ticks = chart.locator("text.tick.y")
        expect(ticks.first).to_be_visible()
        values = [int(v) for v in ticks.all_text_contents()]
        assert len(values) >= 3 and values == sorted(values), values
        assert all(v % 10 == 0 for v in values), values  # round numbers on the 1500 scale
        expect(chart.locator("line.zero")).to_have_count(1)
        expect(chart.locator("text.ref")).to_have_text("1500")
        expect(chart.locator("text.tick.x").first).to_be_visible()  # dates along the bottom
        # one format along the axis: days, never a time (the three matches are of one day: one label)
        days = chart.locator("text.tick.x").all_text_contents()
        assert days and not any(re.search(r"\d:\d\d", d) for d in days), days
        assert len(set(days)) == len(days), days
        now = page.locator(".rating-now strong")
        expect(now).to_have_text(re.compile(r"^\d+$"))
        expect(chart.locator("text.value")).to_have_text(now.text_content() or "")
        chart.scroll_into_view_if_needed()
        shot(page, f"rating-chart-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_a_french_player_reads_the_match_page_and_the_replay_in_french(server: Server, open_page: PageOpener,
                                                                        size: str) -> None:
    from .test_language_pages import english_on, overflows

    got = short_match_of_ann(server, "replay-fr")
    page = page_at(open_page, f"ann-{size}", size)
    page.context.add_init_script("localStorage.setItem('spite.lang', 'fr');")
    as_person(page, got["ann"])
    page.goto(server.url + f"/#match/{got['match']}")
    expect(page.locator(".hand-item .hand-who")).to_contain_text("a vidé sa réserve.")
    expect(page.locator(".hand-item .hand-points")).to_contain_text("Points de la donne : Ann")
    page.wait_for_load_state("networkidle")
    assert not english_on(page, "fr") and not overflows(page)
    shot(page, f"fr-match-page-{size}")
    page.goto(server.url + f"/#replay/{got['match']}")
    expect(page.locator(".replay-moves li.hand-end")).to_have_count(1)  # the moves have loaded
    page.click("#replay-last")
    expect(page.locator("#replay-now")).to_contain_text("Donne 1 terminée : ")
    page.wait_for_load_state("networkidle")
    assert not english_on(page, "fr") and not overflows(page)
    shot(page, f"fr-replay-end-{size}")
