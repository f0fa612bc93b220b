"""The Resign button in the room (docs/client.md, "Resign"): a seated player's button under the
table while a hand is played, a question in words before anything is sent ("Keep playing" leaves
the match as it was), and after the resign the result says who resigned. Phone and desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import PageOpener, Server, shot
from .play import create_room, register, sit, status, version

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def against_a_bot(page: Page, base: str) -> None:
    page.goto(base + "/")
    register(page, "Ann")
    create_room(page, base, seed="e2e-resign")
    sit(page, 0)
    seat = page.locator(".seat[data-seat='1']")
    seat.locator("select").select_option("easy")
    seat.locator("text=Add bot").click()
    page.click("#start-button")
    expect(page.locator(".table")).to_be_visible()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_resign_asks_first_then_the_result_says_who_resigned(server: Server, open_page: PageOpener,
                                                              size: str) -> None:
    ann = open_page("ann", phone=size == "phone", viewport=SIZES[size])
    against_a_bot(ann, server.url)
    button = ann.locator("#resign")
    expect(button).to_have_text("Resign")
    button.click()
    ask = ann.locator("#resign-ask")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("Resign this match? Your side loses.")
    expect(ann.locator("#resign-no")).to_be_focused()  # the safe choice first
    shot(ann, f"resign-ask-{size}")
    v = version(ann)
    ann.click("#resign-no")
    expect(ask).to_have_count(0)
    assert status(ann) == "playing" and version(ann) >= v  # nothing was sent

    ann.locator("#resign").click()
    ann.click("#resign-yes")
    expect(ann.locator(".result .result-reason")).to_have_text("Resigned by Ann: that side loses the match.")
    assert status(ann) == "match_over"
    expect(ann.locator(".result")).to_contain_text("Easy bot")  # the winner is named
    expect(ann.locator(".move-log")).to_contain_text("Ann resigned the match.")
    expect(ann.locator("#resign")).to_have_count(0)
    expect(ann.locator("#resign-ask")).to_have_count(0)
    shot(ann, f"resign-result-{size}")
