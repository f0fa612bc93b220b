"""Your games, at 1280×800 and 390×844: a waiting room's free seat is said as a count, never as
a player called "empty"; two games against the same bot each say when they started; a partner
is named as one ("with Cat vs Bob and Dan")."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.web.helpers import Person, Sock, new_person, new_room, seat_everyone

from .conftest import PageOpener, Server, shot
from .play import register


def _pairs(base: str, ann: Person) -> dict[str, Any]:
    """Ann, Bob, Cat and Dan start a match in pairs (Ann and Cat against Bob and Dan)."""
    out: dict[str, Any] = {}

    async def make() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            others = [await new_person(http, n) for n in ("Bob", "Cat", "Dan")]
            code = (await new_room(http, ann, seats=4, options={"teams": "pairs"}))["code"]
            socks = [await Sock.open(base, code, p) for p in (ann, *others)]
            await seat_everyone(socks[0], socks)
            await socks[0].send({"type": "start"})
            await socks[0].state_at(0)
            for s in socks:
                await s.close()
            out["code"] = code

    t = threading.Thread(target=lambda: asyncio.run(make()))
    t.start()
    t.join(120)
    assert out, "the set-up did not finish"
    return out


def test_your_games_says_free_seats_starts_and_partners(server: Server, open_page: PageOpener) -> None:
    page = open_page("ann", viewport={"width": 1280, "height": 800})
    page.goto(server.url + "/")
    register(page, "Ann")
    for _ in range(2):  # two games against the bot, both left to come back to
        page.click("#quick-bot")
        page.wait_for_url("**/r/*")
        expect(page.locator(".table")).to_be_visible()
        page.goto(server.url + "/")
    page.click("form.create-form button[type=submit]")  # a room waiting for a second player
    page.wait_for_url("**/r/*")
    waiting = page.url.rsplit("/", 1)[1]
    me = json.loads(page.evaluate("localStorage.getItem('spite.identity')"))
    pairs = _pairs(server.url, Person(me["id"], me["name"], me["token"]))["code"]

    phone = open_page("ann-phone", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.add_init_script(f"localStorage.setItem('spite.identity', {json.dumps(json.dumps(me))});")
    for p, size in ((page, "desktop"), (phone, "phone")):
        p.goto(server.url + "/#games")
        rows = p.locator("#your-games .game-row")
        expect(rows).to_have_count(4)
        expect(p.locator("#your-games")).not_to_contain_text("empty")
        wait = p.locator(f".game-row[data-code='{waiting}']")
        expect(wait.locator(".game-link")).to_have_text(f"Room {waiting}")
        expect(wait).to_contain_text("Waiting for 1 more player")
        bot_rows = p.locator(".game-row:has-text('Normal bot 2 (bot)')")
        expect(bot_rows).to_have_count(2)
        for i in range(2):
            expect(bot_rows.nth(i)).to_contain_text("started ")
        expect(p.locator(f".game-row[data-code='{pairs}'] .game-link")).to_have_text("with Cat vs Bob and Dan")
        wide = p.evaluate("() => [...document.querySelectorAll('#your-games *')]"
                          ".filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.className)")
        assert wide == [], wide
        shot(p, f"your-games-{size}")
