"""What a new player met on the home page, in the lobby, in the chat and on How to play (issue
39), at a phone's size (390x844) and a desktop's (1280x800): How to play says the rules of the
options in play (a preset's, the room's); one long chat word wraps instead of widening the page;
the Rated box is worded and gives the clock a rated room gets; bot names, the skip link and open
rooms' presets are said in the player's language, and the chat's placeholder is not cut."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.i18n import CATALOGUES, LANGS
from app.rooms.core.wording import OPTION_LABEL

from .conftest import PageOpener, Server, shot

SIZES = {"desktop": ({"width": 1280, "height": 800}, False), "phone": ({"width": 390, "height": 844}, True)}
FR = CATALOGUES["fr"].texts


def person(server: Server, name: str, username: str | None = None) -> dict[str, Any]:
    """A guest (an account holder when `username` is given), made over REST: its identity."""
    made = httpx.post(server.url + "/api/players", json={"name": name}).json()
    me = {"id": made["id"], "name": made["name"], "token": made["token"]}
    if username:
        r = httpx.post(server.url + "/api/account", json={"username": username, "password": "correct horse"},
                       headers=auth(me))
        assert r.status_code == 201, r.text
        me["username"] = username
    return me


def auth(me: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {me['token']}"}


def room(server: Server, host: dict[str, Any], **body: Any) -> str:
    r = httpx.post(server.url + "/api/rooms", json={"sit": True, **body}, headers=auth(host))
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def page_as(open_page: PageOpener, who: dict[str, Any], size: str, lang: str | None = None, **kw: Any) -> Page:
    viewport, phone = SIZES[size]
    page = open_page(f"{who['name']}-{size}", phone=phone, viewport=viewport, **kw)
    script = f"localStorage.setItem('spite.identity', {json.dumps(json.dumps(who))});"
    if lang:
        script += f"localStorage.setItem('spite.lang', {json.dumps(lang)});"
    page.context.add_init_script(script)
    return page


def fits(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("size", SIZES)
def test_how_to_play_says_the_rules_of_the_options_in_play(server: Server, open_page: PageOpener, size: str) -> None:
    ann = person(server, "Ann")
    page = page_as(open_page, ann, size)
    # The standard game: Kings are wild but not as an Ace, so a wild never starts a stack.
    page.goto(server.url + "/#how")
    text = page.locator(".how-to .rules-text")
    expect(text).to_contain_text("all 20 cards of your pay-off pile")
    expect(text).to_contain_text("up to the Queen.")
    expect(text).to_contain_text("At most 4 are open at once.")
    expect(text.locator(".wild-rule")).to_have_text(
        "Kings are wild. A wild card (marked WILD) stands for any rank but Ace. So it cannot start a centre "
        "stack: only a real Ace can. On a centre stack, =7 shows the rank a wild card took.")
    expect(text).to_contain_text("End with a discard from your hand onto a side stack.")
    expect(text).not_to_contain_text("Also in this game")
    assert fits(page)
    shot(page, f"how-standard-{size}")
    # Cat and Mouse: jokers are the wilds, stacks climb to the King, discards go down.
    page.select_option("#how-preset", "cat_and_mouse")
    expect(text.locator(".wild-rule")).to_contain_text("Jokers are wild. A wild card (marked WILD) stands for any "
                                                       "rank but Ace.")
    expect(text).to_contain_text("up to the King.")
    expect(text).to_contain_text("There may be any number of them.")
    expect(text).to_contain_text("the same rank as the stack's top card or one lower")
    expect(text).to_contain_text("An Ace in your hand or on your pay-off pile must be played at once.")
    expect(text).to_contain_text("Going out scores 10 points")
    expect(text).to_contain_text("A match plays hands until someone reaches 25 points.")
    expect(text).to_contain_text("then end the turn yourself")
    expect(text.locator(".other-rules")).to_contain_text(OPTION_LABEL["first_player"])
    assert page.url.endswith("/#how/cat_and_mouse")
    assert fits(page)
    shot(page, f"how-cat-and-mouse-{size}")
    page.reload()  # the address names the preset
    expect(page.locator("#how-preset")).to_have_value("cat_and_mouse")
    expect(text).to_contain_text("up to the King.")
    # In a room: its own options (here a wild may be anything, an Ace too), again when they change.
    code = room(server, ann, preset="standard", options={"wild_cannot_be": []})
    page.goto(server.url + f"/r/{code}")
    page.click("#room-rules summary")
    rules = page.locator("#room-rules .wild-rule")
    expect(rules).to_have_text("Kings are wild. A wild card (marked WILD) stands for any rank. On a centre stack, "
                               "=7 shows the rank a wild card took.")
    shot(page, f"how-room-{size}")
    page.click(".configure summary")
    page.select_option(".configure #opt-preset", "cat_and_mouse")
    page.click(".configure >> text=Apply")
    expect(rules).to_contain_text("Jokers are wild.")
    expect(page.locator("#room-rules .rules-text")).to_contain_text("up to the King.")


@pytest.mark.parametrize("size", SIZES)
def test_one_long_chat_word_wraps_and_the_page_keeps_its_width(server: Server, open_page: PageOpener,
                                                              size: str) -> None:
    ann = person(server, "Ann")
    code = room(server, ann, preset="short")
    page = page_as(open_page, ann, size)
    page.goto(server.url + f"/r/{code}")
    expect(page.locator(".lobby .seat").first).to_be_visible()
    word = "Malice" * 50  # 300 characters, no space
    page.fill("#chat-input", word)
    page.press("#chat-input", "Enter")
    line = page.locator(".chat-log li").last
    expect(line).to_contain_text(word)
    assert fits(page), "the room page is wider than the screen"
    # The whole message is on screen, wrapped over lines: nothing cut at the log's edge.
    assert line.evaluate("e => e.scrollWidth <= e.clientWidth && e.closest('.chat-log').scrollWidth <= "
                         "e.closest('.chat-log').clientWidth")
    assert line.evaluate("e => e.getClientRects().length > 0 && e.getBoundingClientRect().height > "
                         "3 * parseFloat(getComputedStyle(e).lineHeight || '16')")
    line.scroll_into_view_if_needed()
    shot(page, f"chat-long-word-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_the_rated_box_is_worded_and_gives_the_clock_a_rated_room_gets(server: Server, open_page: PageOpener,
                                                                       size: str) -> None:
    ann = person(server, "Ann", username=f"ann_rated_{size}")
    page = page_as(open_page, ann, size)
    page.goto(server.url + "/")
    expect(page.locator("label[for=rated-input]")).to_have_text("Rated match")
    clock = page.locator("#opt-clock")
    expect(clock).to_have_value("null")
    values = lambda: clock.evaluate("s => [...s.options].map((o) => o.value)")  # noqa: E731
    page.check("#rated-input")
    expect(clock).to_have_value("60")  # what the server gives a rated room that names none
    assert "null" not in values() and "30" in values()
    page.uncheck("#rated-input")
    expect(clock).to_have_value("null")  # the host's own pick back
    page.check("#rated-input")
    shot(page, f"rated-clock-{size}")
    page.click("form.create-form button[type=submit]")
    page.wait_for_url("**/r/*")
    code = page.url.rsplit("/", 1)[1]
    made = httpx.get(server.url + f"/api/rooms/{code}", headers=auth(ann)).json()
    assert made["rated"] is True and made["turn_seconds"] == 60
    expect(page.locator("#room-summary")).to_contain_text("1 min turn clock")


@pytest.mark.parametrize("size", SIZES)
def test_words_in_the_players_language_on_an_english_browser(server: Server, open_page: PageOpener,
                                                             size: str) -> None:
    """A French player on a browser that asks for English: the skip link, open rooms' presets,
    bot names at the lobby and the table, and the chat's placeholder, whole."""
    bob = person(server, "Bob")
    shown = room(server, bob, preset="short", public=True)
    ann = person(server, "Ann")
    page = page_as(open_page, ann, size, lang="fr", locale="en-US")
    page.goto(server.url + "/")
    expect(page.locator("a.skip")).to_have_text(FR["ix.skip"])
    listed = page.locator(f".room-list li:has(a[href='/r/{shown}']) .muted")
    expect(listed).to_contain_text(FR["preset.short"] + " · ")
    shot(page, f"fr-open-rooms-{size}")
    code = room(server, ann, preset="short")
    page.goto(server.url + f"/r/{code}")
    page.click(f".seat[data-seat='1'] >> text={FR['lb.add_bot']}")
    expect(page.locator(".seat[data-seat='1'] .seat-name")).to_have_text("Robot moyen 2")
    chat = page.locator("#chat-input")
    expect(chat).to_have_attribute("placeholder", FR["ct.say"])
    shot(page, f"fr-bot-lobby-{size}")
    for lang in LANGS:  # each language's placeholder fits the box (French's was cut: "Dites quelque chos")
        text = CATALOGUES[lang].texts["ct.say"]
        widths = chat.evaluate("(e, text) => { e.value = text; const w = [e.scrollWidth, e.clientWidth]; "
                               "e.value = ''; return w; }", text)
        assert widths[0] <= widths[1], f"the placeholder is cut: {text!r} {widths}"
    page.click("#start-button")
    expect(page.locator(".player[data-seat='1'] .name")).to_have_text("Robot moyen 2")
    expect(page.locator("#app")).not_to_contain_text("Normal bot")
    shot(page, f"fr-bot-table-{size}")
