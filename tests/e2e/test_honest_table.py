"""The table, second pass, in the browser at 1280×800 and 390×844: rated rooms give
no hints (the form and the summary say so), a take-back is said and struck out in the move log,
the log survives a reload, a returning player is told what the server did for them, and a
rematch is an offer the others accept."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from .conftest import PageOpener, Server, running_server, shot
from .play import discard_move, make_move, my_turn, seated_game, version, wait_version_above
from .test_accounts import claim, sized
from .test_take_backs import room_against_a_bot

SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """As conftest's, with a stand-in for an absent player after one second, and the socket rate
    the server tests use (a script plays whole matches faster than a person may send)."""
    folder = tmp_path_factory.mktemp("server")
    with running_server(folder, SPITE_ABSENT_GRACE="1", SPITE_RATE_PER_SECOND="200", SPITE_RATE_BURST="400") as srv:
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


def finished_match(base: str) -> tuple[str, list[dict[str, str]]]:
    """Ann and Bob play a single game of a short room to its end over real sockets (fast,
    outside the browser); returns the room code and their identities as the client keeps them."""
    import asyncio
    import random
    import threading

    import httpx

    from tests.web.helpers import Sock, new_person, new_room, play_to_end, seat_everyone

    out: dict[str, object] = {}

    async def run() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
            room = await new_room(http, ann, preset="short", options={"payoff_size": 5}, seed="e2e-rematch")
            socks = [await Sock.open(base, room["code"], p) for p in (ann, bob)]
            await seat_everyone(socks[0], socks)
            await socks[0].send({"type": "start"})
            last = await play_to_end(socks, random.Random(2))
            assert last["view"]["status"] == "match_over"
            for s in socks:
                await s.close()
            out["code"] = room["code"]
            out["people"] = [{"id": p.id, "name": p.name, "token": p.token} for p in (ann, bob)]

    t = threading.Thread(target=lambda: asyncio.run(run()))
    t.start()
    t.join(300)
    assert "code" in out, "the match was not played"
    return str(out["code"]), out["people"]  # type: ignore[return-value]


def test_a_rematch_is_an_offer_the_other_accepts(server: Server, open_page: PageOpener) -> None:
    """Ann at 1280×800 offers; Bob's result (390×844) stays, shows the offer; he declines, then
    accepts, and only then the new game starts for both."""
    code, people = finished_match(server.url)
    ann, bob = page_at(open_page, "ann", "desktop"), page_at(open_page, "bob", "phone")
    for page, me in ((ann, people[0]), (bob, people[1])):
        page.goto(server.url + "/")
        page.evaluate("me => localStorage.setItem('spite.identity', JSON.stringify(me))", me)
        page.goto(f"{server.url}/r/{code}")
        expect(page.locator("#result-title")).to_have_text("Game over")  # a single game, not a match
    ann.click("#rematch-button")
    expect(ann.locator("#rematch-button")).to_be_disabled()
    expect(ann.locator("#rematch-line")).to_have_text("You offered a rematch · waiting for Bob.")
    line = bob.locator("#rematch-line")
    expect(line).to_have_text("Ann offered a rematch · waiting for you.")
    expect(bob.locator("#result-title")).to_be_visible()  # the result stays: no new deal for Bob yet
    assert bob.get_attribute("#stage", "data-status") == "match_over"
    shot(ann, "pass2-rematch-offered-desktop")
    shot(bob, "pass2-rematch-offer-phone")
    bob.click("#rematch-decline")
    expect(ann.locator("#rematch-line")).to_have_text("You offered a rematch · Bob declined.")
    expect(bob.locator("#rematch-decline")).to_have_count(0)
    shot(ann, "pass2-rematch-declined-desktop")
    assert ann.get_attribute("#stage", "data-status") == "match_over"
    bob.click("#rematch-accept")  # he changes his mind: everyone seated has accepted
    for page in (ann, bob):
        expect(page.locator("#stage")).to_have_attribute("data-status", "playing")
        expect(page.locator("#result-title")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
def test_focus_picked_and_playable_marks_differ_and_e_says_why(server: Server, open_page: PageOpener,
                                                                 size: str) -> None:
    """Three different marks; E that cannot end the turn says why; the
    help line names no button that is not there; no Keys button on a phone."""
    ann = page_at(open_page, "ann", size)
    room_against_a_bot(ann, server.url)  # side_plays=many: the turn ends with End turn only
    expect(ann.locator(".keys-button")).to_be_visible() if size == "desktop" else \
        expect(ann.locator(".keys-button")).to_be_hidden()
    cards = ann.locator(".me .hand-row .card.movable")
    first, second = cards.nth(0), cards.nth(1)
    second.focus()
    ann.keyboard.press("Shift+Tab")
    ann.keyboard.press("Tab")  # keyboard focus on the second card (focus-visible)
    style = "el => { const s = getComputedStyle(el); return [s.boxShadow, s.transform, s.outlineStyle]; }"
    playable = first.evaluate(style)
    focused = second.evaluate(style)
    assert focused[2] == "dashed" and playable[2] != "dashed"
    assert "26, 95, 208" in focused[0] and "26, 95, 208" not in playable[0]  # blue, not the gold ring
    first.click()
    expect(first).to_have_class(__import__("re").compile(r"\bpicked\b"))
    ann.wait_for_timeout(300)  # the lift's transition
    picked = first.evaluate(style)
    lift = ann.evaluate("""el => new DOMMatrix(getComputedStyle(el).transform).m42""", first.element_handle())
    assert lift <= -14, f"a picked card is lifted {lift}px"
    assert picked[0] != playable[0]
    shot(ann, f"pass2-marks-{size}")
    ann.keyboard.press("Escape")
    ann.locator("body").click(position={"x": 2, "y": 2})
    ann.keyboard.press("e")  # nothing played yet: the turn cannot end
    expect(ann.locator("#toast")).to_contain_text("You cannot end your turn yet")
    expect(ann.locator("#end-turn")).to_have_count(0)
    expect(ann.locator(".table-actions .how")).to_contain_text("after your first card")  # no missing button named
    shot(ann, f"pass2-e-refused-{size}")
