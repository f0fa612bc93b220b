"""The lobby, its words and its signals, in the browser at 1280×800
and 390×844: Play a bot now reaches the table without a refusal, the room summary and the form
say what the room plays, the host sits at once and may remove a person, the others hear of a
change of rules, sign-out asks first."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, WebSocket, expect
from websockets.sync.client import connect

from .conftest import SHOTS, PageOpener, Server, shot
from .play import create_room, play_until_hand_ends, register, seated_game, sit
from .test_accounts import claim, sized

SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True)}

# Every toast the page shows, kept as it appears (a toast lasts seconds: a test that looks
# later must still see it). Installed before any script of the page runs.
TOASTS = """
window.__toasts = [];
new MutationObserver(() => {
  const t = document.getElementById("toast");
  if (t && !t.hidden && t.textContent && window.__toasts[window.__toasts.length - 1] !== t.textContent) {
    window.__toasts.push(t.textContent);
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""


def page_at(open_page: PageOpener, who: str, size: str) -> Page:
    width, height, phone = SIZES[size]
    page = sized(open_page, who, width, height, phone)
    page.add_init_script(TOASTS)
    return page


def errors_received(page: Page) -> list[dict[str, object]]:
    """The `error` messages the page's sockets receive, from now on."""
    got: list[dict[str, object]] = []

    def on_socket(ws: WebSocket) -> None:
        def frame(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "error":
                got.append(msg)
        ws.on("framereceived", frame)

    page.on("websocket", on_socket)
    return got


@pytest.mark.parametrize("size", SIZES)
def test_play_a_bot_now_shows_no_refusal(server: Server, open_page: PageOpener, size: str) -> None:
    """The one-click game reaches the table with no error toast, no `error` from the
    server and no console error (the fixture fails the test on one)."""
    ann = page_at(open_page, "ann", size)
    errors = errors_received(ann)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.click("#quick-bot")
    expect(ann.locator(".table")).to_be_visible(timeout=15_000)
    expect(ann.locator(".player .bot-badge")).to_have_count(1)
    ann.wait_for_timeout(500)  # a late refusal would arrive by now
    shot(ann, f"lobby-quick-bot-{size}")
    assert errors == [], errors
    assert ann.evaluate("window.__toasts") == []
    expect(ann.locator("#toast")).to_be_hidden()


@pytest.mark.parametrize("size", SIZES)
def test_the_form_and_the_summary_say_what_the_room_plays(server: Server, open_page: PageOpener, size: str) -> None:
    """The preset's help never contradicts a box (what the form changes from the
    preset is said under it); an option with one possible value is shown, not asked; the
    lobby's summary names the preset as people say it and lists partners, take-backs and hints."""
    ann = page_at(open_page, "ann", size)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.select_option("#opt-preset", "short")
    note = ann.locator("#opt-preset-changed")
    expect(note).to_be_hidden()  # nothing changed yet
    ann.fill("#opt-payoff_size", "5")
    expect(note).to_have_text("Changed from Short game: Pay-off pile size: 5 (not 13).")
    expect(ann.locator("#opt-preset-help")).to_have_text("A quick game with pay-off piles of 13.")
    ann.select_option("#opt-seats", "4")
    ann.select_option("#opt-teams", "pairs")
    ann.click(".more-options summary")
    ann.check("#opt-take_backs")
    expect(note).to_contain_text("Teams: Partners (4 or 6 players) (not Every player for themselves)")
    expect(note).to_contain_text("Allow undo: on (not off)")
    for fixed in ("hand_size", "side_stacks"):  # min equals max: a value, not an input
        expect(ann.locator(f"input#opt-{fixed}")).to_have_count(0)
        expect(ann.locator(f"span#opt-{fixed}.fixed-value")).to_have_text("5" if fixed == "hand_size" else "4")
    ann.locator("#opt-hand_size").scroll_into_view_if_needed()
    shot(ann, f"lobby-form-fixed-{size}")
    ann.locator("#opt-preset").scroll_into_view_if_needed()
    shot(ann, f"lobby-form-changed-{size}")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url("**/r/*")
    # The host sits at once (the room is made with them in the first seat).
    expect(ann.locator(".seat[data-seat='0'] .seat-name")).to_have_text("Ann (you)")
    expect(ann.locator(".seat >> text=Sit here")).to_have_count(0)
    summary = ann.locator("#room-summary")
    for part in ("Short game rules", "4 seats", "pay-off piles of 5", "partners", "take-backs allowed", "hints on"):
        expect(summary).to_contain_text(part)
    shot(ann, f"lobby-summary-{size}")
    # The host's Change the rules form says the same of the room's overrides.
    ann.click(".configure summary")
    expect(ann.locator(".configure #opt-preset-changed")).to_contain_text("Pay-off pile size: 5 (not 13)")


@pytest.mark.parametrize("size", SIZES)
def test_the_host_removes_a_person_and_the_others_hear_of_new_rules(server: Server, open_page: PageOpener,
                                                                       size: str) -> None:
    """The others are told when the host changes the rules; the host may take a
    person who is here out of their seat (remove_player), and that person is told."""
    ann, bob = page_at(open_page, "ann", size), page_at(open_page, "bob", size)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.select_option("#opt-preset", "short")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url("**/r/*")
    # The host starts changing the rules; Bob's arrival (a room update draws the lobby again)
    # leaves the form open with what she typed.
    ann.click(".configure summary")
    ann.fill(".configure #opt-payoff_size", "7")
    bob.goto(ann.url)
    register(bob, "Bob")
    bob.click(".seat[data-seat='1'] >> text=Sit here")
    expect(bob.locator(".seat[data-seat='1'] .seat-name")).to_contain_text("(you)")
    expect(ann.locator(".seat[data-seat='1'] .conn")).to_have_text("online")
    expect(ann.locator(".configure #opt-payoff_size")).to_be_visible()
    expect(ann.locator(".configure #opt-payoff_size")).to_have_value("7")
    # She applies them: Bob is told what they are now.
    ann.click(".configure >> text=Apply")
    expect(bob.locator("#toast")).to_contain_text(
        "The host changed the rules: Short game rules · 2 seats · pay-off piles of 7")
    expect(ann.locator("#toast")).to_be_hidden()  # the host knows
    shot(bob, f"lobby-rules-changed-{size}")
    # Bob is here, and the host may still remove him.
    seat = ann.locator(".seat[data-seat='1']")
    expect(seat.locator(".conn")).to_have_text("online")
    shot(ann, f"lobby-remove-button-{size}")
    seat.get_by_role("button", name="Remove").click()
    expect(seat.locator(".seat-name")).to_have_text("empty")
    expect(bob.locator("#toast")).to_have_text("The host took you out of your seat. You can still watch.")
    # news, not a problem: the calm notice style, read out politely (an error toast is an alert)
    expect(bob.locator("#toast")).to_have_class(re.compile(r"\bnotice\b"))
    expect(bob.locator("#toast")).to_have_attribute("role", "status")
    expect(bob.locator(".seat[data-seat='1']").get_by_role("button", name="Sit here")).to_be_visible()
    shot(bob, f"lobby-removed-{size}")
    # Standing up oneself is no news.
    bob.click(".seat[data-seat='1'] >> text=Sit here")
    bob.evaluate("document.getElementById('toast').hidden = true")  # the toast above read, put away
    bob.click(".seat[data-seat='1'] >> text=Stand up")
    expect(bob.locator(".seat[data-seat='1'] .seat-name")).to_have_text("empty")
    bob.wait_for_timeout(300)
    expect(bob.locator("#toast")).to_be_hidden()


HIDE = """() => { Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
  document.dispatchEvent(new Event("visibilitychange")); }"""
SHOW = """() => { Object.defineProperty(document, "hidden", {configurable: true, get: () => false});
  document.dispatchEvent(new Event("visibilitychange")); }"""
AUDIO = """
window.__contexts = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real { constructor(...a) { super(...a); window.__contexts += 1; } };
"""


@pytest.mark.parametrize("size", SIZES)
def test_chat_read_on_screen_chime_armed_and_sign_out_asks(server: Server, open_page: PageOpener, size: str) -> None:
    """A chat line that arrives while the chat is out of sight is unread until the
    chat comes on screen (no click needed); after a reload the chime is made ready by the first
    key press or click (a browser allows sound only then); signing out asks first."""
    ann, bob = page_at(open_page, "ann", size), page_at(open_page, "bob", size)
    bob.add_init_script(AUDIO)
    claim(bob, server.url, "Bob", f"bob_{size}")
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url("**/r/*")
    bob.goto(ann.url)
    sit(bob, 1)
    # The chime after a reload: nothing until Bob touches the page, then ready.
    bob.reload()
    expect(bob.locator(".seat[data-seat='1'] .seat-name")).to_contain_text("(you)")
    assert bob.evaluate("window.__contexts") == 0
    bob.keyboard.press("Shift")
    bob.wait_for_function("() => window.__contexts === 1")
    # Chat out of sight (a short phone window: at 1280x800 the chat sits beside the lobby, in
    # sight): a line is unread; once the chat is on screen it is read.
    bob.set_viewport_size({"width": 390, "height": 300})
    bob.evaluate("window.scrollTo(0, 0)")
    expect(bob.locator("section.chat")).not_to_be_in_viewport()
    ann.fill("#chat-input", "hello Bob")
    ann.press("#chat-input", "Enter")
    badge = bob.locator("#chat-badge")
    expect(badge).to_have_text("Chat · 1 new")
    bob.locator("section.chat").scroll_into_view_if_needed()
    expect(badge).to_be_hidden()
    assert not bob.evaluate("document.title").startswith("(")
    width, height, _ = SIZES[size]
    bob.set_viewport_size({"width": width, "height": height})
    # In sight already: a new line is never unread.
    ann.fill("#chat-input", "still there?")
    ann.press("#chat-input", "Enter")
    expect(bob.locator("section.chat")).to_contain_text("still there?")
    bob.wait_for_timeout(300)
    expect(badge).to_be_hidden()
    # A line that comes while the tab is hidden is unread; back on the tab, with the chat in sight, it is read.
    bob.evaluate(HIDE)
    ann.fill("#chat-input", "are you there?")
    ann.press("#chat-input", "Enter")
    expect(badge).to_have_text("Chat · 1 new")
    bob.evaluate(SHOW)
    expect(badge).to_be_hidden()
    shot(bob, f"lobby-chat-read-{size}")
    # Sign-out asks; staying keeps the account here.
    bob.goto(server.url + "/#account")
    bob.click("#sign-out")
    expect(bob.locator("#sign-out-ask")).to_contain_text("Sign out on this device?")
    expect(bob.locator("#sign-out-confirm")).to_be_focused()
    shot(bob, f"lobby-sign-out-ask-{size}")
    bob.click("#sign-out-cancel")
    expect(bob.locator("#sign-out-ask")).to_be_hidden()
    expect(bob.locator("#sign-out")).to_be_focused()
    expect(bob.locator(".whoami")).to_contain_text(f"bob_{size}")
    bob.click("#sign-out")
    bob.click("#sign-out-confirm")
    expect(bob.locator("form.name-form")).to_be_visible()


@pytest.mark.parametrize("size", SIZES)
def test_a_rated_lobby_offers_no_bots(server: Server, open_page: PageOpener, size: str) -> None:
    """A rated room takes no bots, so its host is offered none; the host (an
    account) sits at once and the lobby asks for players with an account."""
    ann = page_at(open_page, "ann", size)
    claim(ann, server.url, "Ann", f"ann_{size}")
    ann.goto(server.url + "/")
    # The rules arrive after the page (GET /api/options) and go in above the rated box, moving it
    # down: tick it once they are in, or the click lands where the box was.
    expect(ann.locator("#opt-preset")).to_be_visible()
    ann.check("#rated-input")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url("**/r/*")
    expect(ann.locator(".seat[data-seat='0'] .seat-name")).to_have_text("Ann (you)")
    empty = ann.locator(".seat[data-seat='1']")
    expect(empty.locator(".seat-name")).to_have_text("empty")
    expect(ann.get_by_role("button", name="Add bot")).to_have_count(0)
    expect(empty.locator("select")).to_have_count(0)
    expect(ann.locator(".lobby")).to_contain_text("Fill every seat (invite players with an account) to start.")
    expect(ann.locator("#room-summary")).to_contain_text("no hints (rated)")
    shot(ann, f"lobby-rated-no-bots-{size}")


def overlaps(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    assert a and b
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


@pytest.mark.parametrize("size", SIZES)
def test_an_achievement_toast_leaves_the_results_buttons_free(server: Server, open_page: PageOpener,
                                                              size: str) -> None:
    """The hand's winner earns "Off the mark" while the result dialog is up; its
    toast sits clear of the dialog's buttons."""
    ann, bob = page_at(open_page, "ann", size), page_at(open_page, "bob", size)
    seated_game(server.url, ann, bob, seed="e2e-14")
    play_until_hand_ends([(ann, ["click"]), (bob, ["click"])])
    winner = next(p for p in (ann, bob) if "Off the mark" in " ".join(p.evaluate("window.__toasts")))
    toast = winner.locator("#toast.award")
    expect(toast).to_be_visible()
    buttons = winner.locator(".result .actions button")
    expect(buttons.first).to_be_visible()
    for i in range(buttons.count()):
        assert not overlaps(toast.bounding_box(), buttons.nth(i).bounding_box()), buttons.nth(i).text_content()
    winner.screenshot(path=str(SHOTS / f"lobby-award-toast-{size}.png"))


@pytest.mark.parametrize("size", SIZES)
def test_a_click_held_while_the_same_room_comes_again_still_adds_the_bot(server: Server, open_page: PageOpener,
                                                                         size: str) -> None:
    """The room comes again unchanged whenever presence moves (here: the host opens a second
    socket). Drawing the lobby again for it replaced the button under a press, so the click
    never happened (seen as a test that failed by chance): the same room is not drawn again."""
    ann = page_at(open_page, "ann", size)
    room_sockets: list[WebSocket] = []
    ann.on("websocket", lambda ws: room_sockets.append(ws) if "/ws/rooms/" in ws.url else None)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    code = create_room(ann, server.url)
    sit(ann, 0)  # the host sits at once
    add = ann.locator(".seat[data-seat='1']").get_by_role("button", name="Add bot")
    box = add.bounding_box()
    assert box is not None and room_sockets
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    token = ann.evaluate("JSON.parse(localStorage.getItem('spite.identity')).token")
    with room_sockets[-1].expect_event("framereceived", lambda p: str(p).startswith('{"type":"room"')), \
            connect(server.url.replace("http", "ws", 1) + f"/ws/rooms/{code}") as second:
        second.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(second.recv(timeout=10))["type"] == "welcome"
    ann.mouse.up()
    expect(ann.locator(".seat[data-seat='1'] .seat-name")).to_contain_text("bot")
