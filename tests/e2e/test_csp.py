"""The client under the site's Content-Security-Policy (the other browser tests bypass it for
Playwright's own helpers): the pages load, the socket connects, a game starts and a move is
made, and the browser reports no violation (a refused script, style or socket is a console
error, which fails the test)."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import PageOpener, Server, shot
from .play import create_room, register, sit


def test_the_client_runs_under_its_content_security_policy(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann", bypass_csp=False)
    response = ann.goto(server.url + "/")
    assert response is not None and "frame-ancestors 'none'" in response.headers["content-security-policy"]
    register(ann, "Ann")
    create_room(ann, server.url, preset="short")
    sit(ann, 0)
    seat = ann.locator(".seat[data-seat='1']")
    seat.locator("select").select_option("easy")
    seat.locator("text=Add bot").click()
    expect(seat.locator(".badge")).to_have_text("bot · Easy")
    ann.click("#start-button")
    expect(ann.locator("[data-pile='hand'] .card").first).to_be_visible(timeout=15_000)
    assert ann.locator(".card[data-from='hand']").count() >= 5
    shot(ann, "csp-table")
