"""Layout, at 1280×800 and 390×844: the home page's "Leaderboard · Sign in" line
clear of the name card, and the Join-by-code card as tall as what it holds."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import PageOpener, Server, shot
from .play import register
from .test_honest_table import SIZES, page_at, server  # noqa: F401  (the fixture)


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b is not None, selector
    return b


@pytest.mark.parametrize("size", SIZES)
def test_the_home_page_cards_do_not_overlap_or_stretch(server: Server, open_page: PageOpener,  # noqa: F811
                                                       size: str) -> None:
    ann = page_at(open_page, "ann", size)
    ann.goto(server.url + "/")
    expect(ann.locator(".name-form")).to_be_visible()
    name, links = box(ann, ".name-form"), box(ann, ".toplinks")
    assert links["y"] >= name["y"] + name["height"], f"the links line ({links}) overlaps the name card ({name})"
    shot(ann, f"layout-home-guest-{size}")
    register(ann, "Ann")
    expect(ann.locator(".join-form")).to_be_visible()
    ann.wait_for_timeout(500)  # the open rooms and the finding cards arrive after the first paint
    join, form = box(ann, ".card-panel.join"), box(ann, ".join-form")
    assert join["height"] <= form["height"] + 120, f"the join card is {join['height']} px tall"
    rooms = box(ann, ".card-panel.public")
    assert rooms["y"] <= join["y"] + join["height"] + 40, "the open rooms follow the join card"
    ann.locator(".card-panel.join").scroll_into_view_if_needed()
    shot(ann, f"layout-home-{size}")

