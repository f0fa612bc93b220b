"""Four at a table, at 1280×800 and 390×844: the others sit left, across and right
in play order (the next player on your left, your partner across), each says where they sit, at
1280×800 the buttons under the table are above the fold, and no pay-off count covers a rank."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import PageOpener, Server, shot
from .play import register, sit
from .test_honest_table import SIZES, page_at, server  # noqa: F401  (the fixture)

SEED = "e2e-table"


def four_with_bots(page: Page, base: str) -> None:
    page.goto(base + "/")
    register(page, "Ann")
    page.goto(base + f"/?seed={SEED}")
    page.select_option("#opt-preset", "short")
    page.select_option("#opt-seats", "4")
    page.select_option("#opt-teams", "pairs")
    page.click("form.create-form button[type=submit]")
    page.wait_for_selector(".lobby .seat")
    sit(page, 0)
    for seat in (1, 2, 3):
        row = page.locator(f".seat[data-seat='{seat}']")
        row.locator("text=Add bot").click()
        expect(row.locator(".badge")).to_contain_text("bot")
    page.click("#start-button")
    expect(page.locator(".table .player")).to_have_count(4)


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).bounding_box()
    assert b is not None, selector
    return b


@pytest.mark.parametrize("size", SIZES)
def test_four_players_sit_left_across_right_in_play_order(server: Server, open_page: PageOpener,  # noqa: F811
                                                          size: str) -> None:
    ann = page_at(open_page, "ann", size)
    four_with_bots(ann, server.url)
    left, across, right = (box(ann, f".player[data-seat='{s}']") for s in (1, 2, 3))
    me = box(ann, ".me")
    stock = box(ann, "[data-pile='stock']")
    # seat 1 plays after Ann: on her left; her partner (seat 2) across; seat 3 on her right
    assert left["x"] + left["width"] / 2 < across["x"] + across["width"] / 2 < right["x"] + right["width"] / 2
    for b in (left, across, right):
        assert b["y"] + b["height"] <= stock["y"] + 1, "the others sit above the centre"
        assert b["y"] < me["y"]
    expect(ann.locator(".player[data-seat='1'] .place")).to_contain_text("left")
    expect(ann.locator(".player[data-seat='2'] .place")).to_contain_text("across")
    expect(ann.locator(".player[data-seat='3'] .place")).to_contain_text("right")
    if size == "desktop":
        ann.wait_for_selector(".turn-text.mine", timeout=15_000)
        actions = box(ann, ".table-actions")
        assert actions["y"] + 40 <= 800, f"the buttons start at {actions['y']} px, below the fold"
        hand = box(ann, ".me .hand-row")
        assert hand["y"] + hand["height"] <= 800
    # no pay-off count badge over a card's rank, no ▲ over a badge
    for seat in range(4):
        pile = f".player[data-seat='{seat}'] [data-pile='payoff:{seat}']"
        badge, rank = box(ann, f"{pile} .count"), box(ann, f"{pile} .corner")
        assert not overlap(badge, rank), f"seat {seat}'s badge covers the rank"
    marks = ann.eval_on_selector_all(".card.playable", """els => els.map(e => {
        const a = getComputedStyle(e, "::after"), r = e.getBoundingClientRect();
        const badge = e.closest("[data-pile]")?.querySelector(".count");
        const b = badge ? badge.getBoundingClientRect().toJSON() : null;
        return [r.left + parseFloat(a.left), r.top + parseFloat(a.top), b];
    })""")
    for x, y, badge in marks:
        assert not badge or not overlap({"x": x, "y": y, "width": 16, "height": 16}, badge), "the ▲ covers a badge"
    shot(ann, f"seating-four-{size}")


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]
