"""Turn-based play in the browser: the create-room form offers the pace, a turn-based
game against a bot shows on Your games (first on the home page, with the count of your turns in
the list and the tab title), the notifications panel asks for permission only after a click
(granted through the browser context) and registers the service worker; the manifest and icons
are served. Screenshots at phone (390x844) and desktop (1280x800) size."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from .conftest import PageOpener, Server, shot
from .play import register, sit


def sized(open_page: PageOpener, who: str, width: int, height: int, phone: bool, **kw: Any) -> Page:
    ctx = open_page.browser.new_context(viewport={"width": width, "height": height},
                                        device_scale_factor=2 if phone else 1, is_mobile=phone, has_touch=phone,
                                        bypass_csp=False, **kw)
    ctx.set_default_timeout(10_000)
    open_page.contexts.append(ctx)
    return open_page.watch.page(ctx.new_page(), who)


def test_turn_based_game_your_games_and_notifications(server: Server, open_page: PageOpener,
                                                       tmp_path: Path) -> None:
    # Subscribing needs a browser push service, which this machine cannot reach: the browser may
    # log that (the page says it too); everything before it is what is tested.
    open_page.watch.allowed += ["push service", "Push API"]
    ann = sized(open_page, "ann", 1280, 800, phone=False, permissions=["notifications"])
    asked: list[str] = []
    ann.goto(server.url + "/")
    register(ann, "Ann")
    # Nothing has asked for permission or registered a worker yet.
    assert ann.evaluate("navigator.serviceWorker.getRegistration('/').then(r => !!r)") is False
    expect(ann.locator("#your-games")).to_be_hidden()  # no games yet: the list does not show
    ann.wait_for_selector("#opt-preset")
    ann.select_option("#pace-input", "turn_based")
    expect(ann.locator("#turn-length")).to_be_visible()
    assert ann.input_value("#turn-length") == "86400"
    shot(ann, "turn-based-create-desktop")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url(re.compile(r"/r/[^/]+$"))
    code = ann.url.rsplit("/", 1)[1]
    room = httpx.get(f"{server.url}/api/rooms/{code}").json()
    assert room["pace"] == "turn_based" and room["turn_seconds"] == 86400
    sit(ann, 0)
    seat = ann.locator(".seat[data-seat='1']")
    seat.locator("select").select_option("easy")
    seat.locator("text=Add bot").click()
    ann.click("#start-button")
    expect(ann.locator("[data-pile='hand'] .card").first).to_be_visible(timeout=15_000)

    # The home page shows Your games first, with the count of games waiting for a move.
    ann.goto(server.url + "/")
    games = ann.locator("#your-games")
    expect(games).to_be_visible()
    row = games.locator(f".game-row[data-code='{code}']")
    expect(row).to_contain_text("vs Easy bot") if row.locator("text=bot").count() else expect(row).to_be_visible()
    expect(row.locator(".badge.pace")).to_have_text("turn-based")
    box = games.bounding_box()
    quick = ann.locator(".create").bounding_box()
    assert box is not None and quick is not None and box["y"] < quick["y"], "Your games comes first"
    # Bots in turn-based rooms move at once: it is soon Ann's turn, and the page says so.
    for _ in range(20):
        if row.get_attribute("class") and "your-turn" in (row.get_attribute("class") or ""):
            break
        ann.reload()
        row = ann.locator(f"#your-games .game-row[data-code='{code}']")
        row.wait_for()
    expect(row).to_have_class(re.compile("your-turn"))
    expect(row).to_contain_text("Your turn")
    expect(row).to_contain_text("left")
    expect(ann.locator("#your-turn-count")).to_have_text("1 your turn")
    assert ann.title() == "(1) Spite & Malice"
    shot(ann, "your-games-home-desktop")

    # The games page: the notifications panel explains first, asks only on the click.
    ann.goto(server.url + "/#games")
    expect(ann.locator("#push-panel")).to_contain_text("when it is your turn")
    expect(ann).to_have_title(re.compile(r"^\(1\) Your games"))  # the count comes with the list
    assert ann.evaluate("navigator.serviceWorker.getRegistration('/').then(r => !!r)") is False
    ann.on("console", lambda m: asked.append(m.text))
    ann.click("#push-on")
    # The panel already says "Allowed" (the context grants permission): wait for the click's answer.
    # Debian's Chromium has no push service to subscribe to ("Registration failed"), so the answer
    # is either; the worker is registered first either way (tests/web/test_push.py sends).
    expect(ann.locator("#push-state")).to_have_text(re.compile(r"^(On: |Could not turn them on: )"), timeout=15_000)
    assert ann.evaluate("Notification.permission") == "granted"
    assert ann.evaluate("navigator.serviceWorker.getRegistration('/').then(r => !!r && r.scope)") == server.url + "/"
    shot(ann, "your-games-page-desktop")

    # The phone: the same list, installable (manifest, icons, worker).
    phone = sized(open_page, "ann-phone", 390, 844, phone=True)
    phone.goto(server.url + "/")
    me = ann.evaluate("localStorage.getItem('spite.identity')")
    phone.evaluate("id => localStorage.setItem('spite.identity', id)", me)
    phone.goto(server.url + "/#games")
    expect(phone.locator(f".game-row[data-code='{code}']")).to_be_visible()
    shot(phone, "your-games-page-phone")
    phone.goto(server.url + "/")
    expect(phone.locator("#your-games")).to_be_visible()
    shot(phone, "your-games-home-phone")
    manifest = httpx.get(server.url + "/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    for icon in ("/icon-192.png", "/icon-512.png", "/sw.js"):
        assert httpx.get(server.url + icon).status_code == 200
    assert phone.locator("link[rel=manifest]").count() == 1
