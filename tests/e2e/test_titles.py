"""A page's title is its own: an answer the page before asked for (the home page's count of games
waiting for you) arriving after the player moved on does not retitle the new page."""

from __future__ import annotations

from playwright.sync_api import Route, expect

from .conftest import PageOpener, Server
from .play import register


def test_a_late_games_count_leaves_the_next_pages_title_alone(server: Server, open_page: PageOpener) -> None:
    page = open_page("ann", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(server.url + "/")
    register(page, "Ann")
    held: list[Route] = []
    page.route("**/api/players/me/games", lambda route: held.append(route))
    page.goto(server.url + "/")
    expect(page.locator("#your-games")).to_have_count(1)
    page.wait_for_function("() => true")  # let the held request reach the route
    page.click("text=How to play")
    expect(page).to_have_title("How to play · Spite & Malice")
    assert held, "the home page asked for its games list"
    with page.expect_response("**/api/players/me/games"):
        for route in held:
            route.continue_()
    page.wait_for_timeout(300)  # the late answer is handled by now
    assert page.title() == "How to play · Spite & Malice"
