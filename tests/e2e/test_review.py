"""The review on the replay page, in a real browser: ask for it, a progress bar that moves while
it runs (live, no reload), then the chance graph (one line per player, hands marked), marks
beside the moves, the better move on the table, and the summary; at desktop and phone size."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.web.review_helpers import finished_match

from .conftest import PageOpener, Server, running_server, shot


def _finished(base: str) -> tuple[Any, str]:
    out: dict[str, Any] = {}

    async def make() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            ann, _bob, match_id = await finished_match(base, http, seed="review-e2e")
            out["ann"], out["match"] = ann, match_id

    t = threading.Thread(target=lambda: asyncio.run(make()))
    t.start()
    t.join(180)
    return out["ann"], out["match"]


def _as(page: Page, person: Any) -> None:
    identity = json.dumps({"id": person.id, "name": person.name, "token": person.token})
    page.context.add_init_script(f"localStorage.setItem('spite.identity', {json.dumps(identity)});")


def at_desktop_and_phone(open_page: PageOpener, person: Any, check: Callable[[Page, str], None], root: str) -> None:
    """`check(page, size)` on a desktop page, then on a phone page, as `person`; nothing of the
    part `root` (a class) is wider than the phone."""
    desktop = open_page(f"{person.name}-desktop", viewport={"width": 1280, "height": 800})
    _as(desktop, person)
    check(desktop, "desktop")
    phone = open_page(f"{person.name}-phone", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    _as(phone, person)
    check(phone, "phone")
    wide = phone.evaluate(f"""() => [...document.querySelectorAll('.{root}, .{root} *')]
        .filter(e => e.getBoundingClientRect().right > 391).map(e => e.tagName + '.' + e.className)""")
    assert wide == [], wide  # nothing of it is wider than the phone


def test_review_on_the_replay_page(open_page: PageOpener, tmp_path: Path) -> None:
    # 100 ms a decision: the review takes some seconds, so the bar (polled each second) shows it moving
    with running_server(tmp_path, SPITE_REVIEW_MS="100", SPITE_REVIEW_SAMPLES="400") as srv:
        try:
            _review_pages(srv, open_page)
        finally:
            open_page.close_pages()  # before the server stops (PageOpener.close_pages)


def _review_pages(srv: Server, open_page: PageOpener) -> None:
    ann, match_id = _finished(srv.url)
    # before anyone asked, GET .../review is a 404 (the contract): the browser logs it
    open_page.watch.allowed.append("status of 404")
    page = open_page("ann", viewport={"width": 1280, "height": 800})
    _as(page, ann)
    page.goto(f"{srv.url}/#replay/{match_id}")
    ask = page.locator("#review-ask")
    ask.wait_for(state="visible")
    ask.click()
    bar = page.locator("#review-progress")
    bar.wait_for(state="visible")
    seen = set()
    for _ in range(600):  # the bar follows the review as it runs
        if not bar.is_visible():
            break
        seen.add(round(float(bar.evaluate("b => b.value")), 2))
        page.wait_for_timeout(100)
    assert len(seen) >= 3, seen
    graph = page.locator("#review-graph")
    graph.wait_for(state="visible", timeout=60_000)
    assert graph.locator("path.review-line").count() == 2
    assert graph.locator("line.review-hand").count() == 1
    assert page.locator(".review-summary tr").count() == 3  # a head row and a row per player
    # a marked row explains its own move: "Best was …", and the better move on the table
    # (tests/e2e/test_review_marks.py checks it on marks placed for the test)
    note = page.locator("#review-note")
    marked = page.locator(".replay-moves li:has(.review-mark)")
    if marked.count():
        row = marked.first.locator("button")
        row.click()
        expect(note).to_contain_text(f"This move, {row.text_content()}:")
        expect(note).to_contain_text("Best was")
        assert page.locator(".replay-stage .review-best, .replay-stage .review-target").count() >= 1
    shot(page, "review-desktop")
    phone = open_page("ann-phone", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    _as(phone, ann)
    phone.goto(f"{srv.url}/#replay/{match_id}")
    phone.locator("#review-graph").wait_for(state="visible")
    shot(phone, "review-phone")
    wide = phone.evaluate("""() => [...document.querySelectorAll('.review, .review *')]
        .filter(e => e.getBoundingClientRect().right > 391).map(e => e.tagName + '.' + e.className)""")
    assert wide == [], wide  # nothing of the review is wider than the phone
