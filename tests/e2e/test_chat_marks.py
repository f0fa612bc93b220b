"""Chat marks seated players apart from watchers: a seated player's line
carries their seat, a watcher's says "watching", on a phone (390x844) and a desktop (1280x800)."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import PageOpener, Server, shot
from .play import create_room, register, sit

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def test_chat_tells_seated_players_from_watchers(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann", viewport={"width": 1280, "height": 800})
    carol = open_page("carol", phone=True, **PHONE)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    code = create_room(ann, server.url, preset="standard")
    sit(ann, 0)
    carol.goto(f"{server.url}/r/{code}")
    register(carol, "Carol")  # she does not sit: she watches
    expect(ann.locator(".seat[data-seat='0'] .seat-name")).to_contain_text("Ann")

    ann.fill("#chat-input", "welcome!")
    ann.press("#chat-input", "Enter")
    carol.fill("#chat-input", "just watching")
    carol.press("#chat-input", "Enter")
    for page in (ann, carol):
        player = page.locator(".chat-log li.by-player")
        watcher = page.locator(".chat-log li.by-watcher")
        expect(player).to_have_count(1)
        expect(watcher).to_have_count(1)
        expect(player.locator(".chat-tag")).to_have_text("Seat 1")
        expect(player).to_contain_text("Ann")
        expect(player).to_contain_text("welcome!")
        expect(watcher.locator(".chat-tag")).to_have_text("watching")
        expect(watcher).to_contain_text("Carol")
        expect(watcher).to_contain_text("just watching")
    carol.locator(".chat").scroll_into_view_if_needed()
    ann.locator(".chat").scroll_into_view_if_needed()
    shot(carol, "chat-marks-phone")
    shot(ann, "chat-marks-desktop")
    # the marks survive a reload (the history carries each line's seat)
    carol.reload()
    expect(carol.locator(".chat-log li.by-player .chat-tag")).to_have_text("Seat 1")
    expect(carol.locator(".chat-log li.by-watcher .chat-tag")).to_have_text("watching")
