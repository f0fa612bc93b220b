"""What a new player meets, at 1280×800 and 390×844: a turn-based room's times in days and hours
(the lobby, the host's form, the table's clock, Your games) and its true Leave warning; an invited
player who has not sat told to take a seat; in a live game the true Leave warning, "plays next"
on the real next player, a Game over dialog that closes (Close, Esc) and stays closed on reload,
and an achievement announced once, not again on reload."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Dialog, Page, expect

from .conftest import PageOpener, Server, shot
from .play import my_turn, play_until_hand_ends, register, seated_game, sit

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
              "has_touch": True},
}
# A day's turn just begun, counted down in words (never "1439:58" nor "86,400 s").
A_DAY_LEFT = re.compile(r"^(23 h 59 min|1 day)$")
# Counts the achievement toasts a page shows (the toast's text is set once per announcement).
AWARD_SPY = """
window.__awards = 0;
new MutationObserver((ms) => {
  for (const m of ms) if (m.target.id === "toast" && m.target.classList.contains("award")) window.__awards += 1;
}).observe(document, {childList: true, subtree: true});
"""


def leave_warning(page: Page) -> str:
    """The question *← Home* asks mid-match (dismissed: the page stays)."""
    said: list[str] = []

    def answer(d: Dialog) -> None:
        said.append(d.message)
        d.dismiss()

    page.once("dialog", answer)
    page.click(".home-link")
    expect(page.locator(".table")).to_be_visible()
    assert said, "leaving asked nothing"
    return said[0]


@pytest.mark.parametrize("size", SIZES)
def test_a_turn_based_room_in_days_and_hours_and_a_seat_to_take(server: Server, open_page: PageOpener,
                                                                size: str) -> None:
    ann = open_page("ann", **SIZES[size])
    bob = open_page("bob", **SIZES[size])
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.wait_for_selector("#opt-preset")
    ann.select_option("#pace-input", "turn_based")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url(re.compile(r"/r/[^/]+$"))
    code = ann.url.rsplit("/", 1)[1]
    sit(ann, 0)
    summary = ann.locator("#room-summary")
    expect(summary).to_contain_text("turn-based: 1 day a turn")
    expect(summary).not_to_contain_text(re.compile(r"86[,.]?400"))
    expect(ann.locator("#opt-clock option:checked")).to_have_text("1 day a turn")  # the host's form
    expect(ann.locator("#opt-clock")).not_to_contain_text("second")
    expect(ann.locator("#lobby-next")).to_have_count(0)  # the host sits: Start is hers

    # Bob follows the invite: not seated, he is told to take a seat (not to wait for the host).
    bob.goto(f"{server.url}/r/{code}")
    register(bob, "Bob")
    expect(bob.locator("#lobby-next")).to_have_text(re.compile(r"^Take a seat to play"))
    expect(bob.locator(".lobby")).not_to_contain_text("Waiting for the host")
    shot(bob, f"new-player-take-a-seat-{size}")
    sit(bob, 1)
    expect(bob.locator(".lobby")).to_contain_text("Waiting for the host")
    ann.click("#start-button")

    # The table's clock: a day's turn in hours and minutes.
    for page in (ann, bob):
        expect(page.locator(".table .clock")).to_have_text(A_DAY_LEFT)
    shot(ann, f"new-player-turn-based-table-{size}")
    # Leaving says what really happens in a turn-based room.
    said = leave_warning(ann)
    assert "when your turn's time runs out the server plays it" in said, said
    assert "after 3 missed turns in a row a bot plays your seat" in said, said
    assert "while you are away" not in said, said

    # Your games: the time left in words.
    mover = ann if my_turn(ann) else bob
    mover.goto(server.url + "/#games")
    row = mover.locator(f".game-row[data-code='{code}']")
    expect(row).to_contain_text(re.compile(r"(23 h 59 min|1 day) left"))
    shot(mover, f"new-player-your-games-{size}")


def test_a_live_game_over_closes_and_achievements_are_announced_once(server: Server,
                                                                       open_page: PageOpener) -> None:
    ann = open_page("ann", **SIZES["desktop"])
    bob = open_page("bob", **SIZES["phone"])
    for page in (ann, bob):
        page.add_init_script(AWARD_SPY)
    seated_game(server.url, ann, bob, seed="e2e-14")

    # "plays next" marks the real next player: never the one to play, with two players the other.
    for page in (ann, bob):
        expect(page.locator(".plays-next")).to_have_count(1)
        expect(page.locator(".player.turn")).not_to_contain_text("plays next")
        expect(page.locator(".player:not(.turn) .plays-next")).to_have_text("plays next")
    waiting = bob if my_turn(ann) else ann
    expect(waiting.locator(".player.me .plays-next")).to_be_visible()
    shot(waiting, "new-player-plays-next-" + ("phone" if waiting is bob else "desktop"))

    # Leaving a live game says what really happens: it waits, or a stand-in after a while.
    said = leave_warning(ann)
    assert "if nobody stays, the game waits for you" in said, said
    assert "once you have been away 1 min" in said, said

    play_until_hand_ends([(ann, ["click"]), (bob, ["tap"])])
    for page in (ann, bob):
        expect(page.locator(".result h2")).to_have_text("Game over")
    winner = ann if ann.locator(".result .scores tr.winner").inner_text().startswith("Ann") else bob
    winner.wait_for_function("() => window.__awards === 1")  # "Achievement unlocked", once
    shot(ann, "new-player-game-over-desktop")
    shot(bob, "new-player-game-over-phone")

    # Close (desktop) and Esc (phone) close the dialog: the final table stays to study.
    ann.click("#close-game-over")
    bob.keyboard.press("Escape")
    for page in (ann, bob):
        expect(page.locator(".result")).to_have_count(0)
        expect(page.locator(".table")).to_be_visible()
        expect(page.locator("#show-result")).to_be_visible()
    shot(ann, "new-player-game-over-closed-desktop")
    shot(bob, "new-player-game-over-closed-phone")

    # A reload neither opens it again nor announces the achievement again.
    for page in (ann, bob):
        page.reload()
        expect(page.locator("#show-result")).to_be_visible()
        expect(page.locator(".result")).to_have_count(0)
    assert winner.evaluate("window.__awards") == 0
    # Show the result opens it again, with its buttons.
    ann.click("#show-result")
    expect(ann.locator(".result h2")).to_have_text("Game over")
    expect(ann.locator("#back-to-room")).to_be_visible()
