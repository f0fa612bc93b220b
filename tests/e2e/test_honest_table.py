"""The table, second pass (issue 25), in the browser at 1280×800 and 390×844: rated rooms give
no hints (the form and the summary say so), a take-back is said and struck out in the move log,
the log survives a reload, a returning player is told what the server did for them, and a
rematch is an offer the others accept."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import PageOpener, Server, running_server, shot
from .play import discard_move, make_move, my_turn, seated_game, version, wait_version_above
from .test_accounts import claim, sized
from .test_take_backs import room_against_a_bot

SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True)}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """As conftest's, with a stand-in for an absent player after one second."""
    with running_server(tmp_path, SPITE_ABSENT_GRACE="1") as srv:
        yield srv


def page_at(open_page: PageOpener, who: str, size: str) -> Page:
    width, height, phone = SIZES[size]
    return sized(open_page, who, width, height, phone)


@pytest.mark.parametrize("size", SIZES)
def test_a_rated_room_offers_no_hints(server: Server, open_page: PageOpener, size: str) -> None:
    ann = page_at(open_page, "ann", size)
    claim(ann, server.url, "Ann", f"ann_{size}")
    ann.goto(server.url + "/")
    hints = ann.locator("#opt-hints")
    expect(hints).to_be_checked()
    ann.check("#rated-input")
    expect(hints).to_be_disabled()
    expect(hints).not_to_be_checked()
    expect(ann.locator("#opt-hints-help")).to_contain_text("A rated match gives no hints")
    ann.locator("#opt-hints").scroll_into_view_if_needed()
    shot(ann, f"pass2-rated-form-{size}")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url("**/r/*")
    summary = ann.locator("#room-summary")
    expect(summary).to_contain_text("no hints (rated)")
    expect(summary).to_contain_text("Standard rules")  # the preset by its name, not "standard"
    expect(summary).to_contain_text("no take-backs")
    shot(ann, f"pass2-rated-lobby-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_a_take_back_is_logged_and_the_log_survives_a_reload(server: Server, open_page: PageOpener,
                                                              size: str) -> None:
    ann = page_at(open_page, "ann", size)
    room_against_a_bot(ann, server.url)
    v = version(ann)
    make_move(ann, discard_move(ann), "click")
    wait_version_above(ann, v)
    lines = ann.locator(".move-lines li")
    expect(lines.last).to_contain_text("You discarded")
    discarded = (lines.last.text_content() or "").split("You discarded ")[1].split(" to ")[0]
    v = version(ann)
    ann.click("#undo")
    wait_version_above(ann, v)
    expect(lines.last).to_have_text(f"You took back {discarded}")
    struck = ann.locator(".move-lines li.undone s")
    expect(struck).to_have_count(1)
    expect(struck).to_contain_text(f"You discarded {discarded}")
    ann.locator(".move-log").scroll_into_view_if_needed()
    shot(ann, f"pass2-take-back-log-{size}")
    before = lines.all_text_contents()
    ann.reload()
    expect(ann.locator(".table")).to_be_visible()
    expect(lines.last).to_have_text(f"You took back {discarded}")
    assert lines.all_text_contents() == before  # rebuilt from the match's moves, nothing lost or doubled
    expect(ann.locator(".move-lines li.undone s")).to_have_count(1)


@pytest.mark.parametrize("size", SIZES)
def test_a_returning_player_is_told_what_was_played_for_them(server: Server, open_page: PageOpener,
                                                              size: str) -> None:
    ann, bob = page_at(open_page, "ann", size), page_at(open_page, "bob", size)
    seated_game(server.url, ann, bob, seed="e2e-away")
    ann.wait_for_function("() => document.querySelector('.turn-text') !== null")
    away, stay = (ann, bob) if my_turn(ann) else (bob, ann)
    if not my_turn(away):
        bob.wait_for_selector(".turn-text.mine")
        away, stay = bob, ann
    url, ctx = away.url, away.context
    v = version(stay)
    away.close()
    # After the one-second grace the server plays the absent player's turn.
    expect(stay.locator(".move-lines .by-server").first).to_be_visible(timeout=20_000)
    wait_version_above(stay, v)
    back = open_page.watch.page(ctx.new_page(), "back")
    back.goto(url)
    note = back.locator("#away-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("While you were away, the server")
    expect(back.locator(".move-lines .by-server").first).to_be_visible()  # the log came back whole
    shot(back, f"pass2-while-away-{size}")
    back.locator("#away-note button").click()
    expect(note).to_be_hidden()
