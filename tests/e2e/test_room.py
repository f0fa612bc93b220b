"""The room around the table: the invite link, joining by code, watching, chat, and coming
back (a page reload mid-game, a server restart) to the same table."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, WebSocketRoute, expect

from .conftest import PageOpener, Server, shot
from .play import choose_move, create_room, make_move, my_turn, register, sit, version

SEED = "e2e-14"


def test_invite_link_join_by_code_spectator_and_chat(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann", permissions=["clipboard-read", "clipboard-write"])
    bob = open_page("bob", phone=True)
    carol = open_page("carol")

    ann.goto(server.url + "/")
    register(ann, "Ann")
    code = create_room(ann, server.url, preset="standard")
    sit(ann, 0)
    invite = ann.locator("#invite-url").input_value()
    assert re.search(rf"/r/{re.escape(code)}$", invite), invite
    ann.click("#copy-invite")
    expect(ann.locator(".copy-status")).to_have_text("Copied!")
    assert ann.evaluate("navigator.clipboard.readText()") == invite
    expect(ann.locator("#start-button")).to_be_disabled()

    # Bob opens the link on his phone, picks a name, and sits down.
    bob.goto(invite)
    expect(bob.locator("form.name-form")).to_contain_text(code)
    register(bob, "Bob")
    sit(bob, 1)
    shot(bob, "lobby-phone")
    expect(ann.locator(".seat[data-seat='1'] .seat-name")).to_have_text("Bob")
    expect(ann.locator(".seat[data-seat='1'] .conn")).to_have_text("online")
    ann.click("#start-button")
    expect(bob.locator(".table")).to_be_visible()

    # Carol types the code on the home page; the room is full, so she watches. (She first
    # renames herself: the identity, and so her history, stays the same.)
    carol.goto(server.url + "/")
    register(carol, "Caro")
    ident = carol.evaluate("JSON.parse(localStorage.getItem('spite.identity'))")
    carol.click(".whoami >> text=Change name")
    carol.fill("#rename-input", "Carol")
    carol.click(".rename-form button[type=submit]")
    expect(carol.locator(".whoami strong")).to_have_text("Carol")
    after = carol.evaluate("JSON.parse(localStorage.getItem('spite.identity'))")
    assert after == {**ident, "name": "Carol"}
    carol.fill("#join-code", code)
    carol.click("form.join-form button[type=submit]")
    expect(carol.locator(".table")).to_be_visible()
    expect(carol.locator(".table .me")).to_have_count(0)  # no seat, no hand
    expect(carol.locator(".table .player")).to_have_count(2)
    expect(carol.locator(".table .card.back")).to_have_count(11)  # two hands face down, and the stock
    expect(carol.locator(".table .card.movable")).to_have_count(0)
    shot(carol, "table-spectator")

    # Chat reaches everyone in the room.
    bob.fill("#chat-input", "good luck!")
    bob.press("#chat-input", "Enter")
    for page in (ann, bob, carol):
        expect(page.locator(".chat-log")).to_contain_text("good luck!")
        expect(page.locator(".chat-log")).to_contain_text("Bob")


def _seated_game(server: Server, open_page: PageOpener, seed: str = SEED) -> tuple[Page, Page]:
    ann = open_page("ann")
    bob = open_page("bob", phone=True)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    code = create_room(ann, server.url, preset="short", payoff_size=5, seed=seed)
    sit(ann, 0)
    bob.goto(f"{server.url}/r/{code}")
    register(bob, "Bob")
    sit(bob, 1)
    ann.click("#start-button")
    expect(ann.locator(".table")).to_be_visible()
    expect(bob.locator(".table")).to_be_visible()
    return ann, bob


def _one_move(ann: Page, bob: Page) -> int:
    """The player whose turn it is makes a move; returns the version once both pages show it (the
    mover's page has it first: the other may still be drawing the one before)."""
    page = ann if my_turn(ann) else bob
    assert my_turn(page)
    make_move(page, choose_move(page), "tap" if page is bob else "click")
    v = version(page)
    for p in (ann, bob):
        expect(p.locator("#stage")).to_have_attribute("data-v", str(v))
    return v


def _hand(page: Page) -> list[str]:
    return page.eval_on_selector_all(".me .hand-row .card", "els => els.map(e => e.dataset.card)")


def test_reload_mid_game_resumes_the_same_table(server: Server, open_page: PageOpener) -> None:
    ann, bob = _seated_game(server, open_page)
    for _ in range(3):
        v = _one_move(ann, bob)
    hand = _hand(bob)
    bob.reload()
    expect(bob.locator(".table")).to_be_visible()
    bob.wait_for_function("v => Number(document.getElementById('stage').dataset.v) === v", arg=v)
    assert _hand(bob) == hand
    # The game goes on from where it was, for both.
    _one_move(ann, bob)
    expect(bob.locator("#stage")).to_have_attribute("data-v", str(v + 1))
    expect(ann.locator("#stage")).to_have_attribute("data-v", str(v + 1))


def test_a_picked_card_stays_picked_when_the_table_is_redrawn(server: Server, open_page: PageOpener) -> None:
    """Presence redraws the table at the same version: the card a player has picked stays picked,
    and the next tap places it."""
    ann, bob = _seated_game(server, open_page)
    page, other = (ann, bob) if my_turn(ann) else (bob, ann)
    card_id, src, dst = choose_move(page)
    page.locator(f".card[data-card='{card_id}'][data-from='{src}']").click()
    expect(page.locator(".card.picked")).to_have_count(1)
    v = version(page)
    other.close()  # the other player goes: the table is drawn again with one seat away
    expect(page.locator(".table .conn.off")).to_have_count(1)
    expect(page.locator(f".card.picked[data-card='{card_id}'][data-from='{src}']")).to_have_count(1)
    target = page.locator(f"[data-pile='{dst}']")
    expect(target).to_have_class(re.compile(r"\btarget\b"))
    target.click()
    expect(page.locator("#stage")).to_have_attribute("data-v", str(v + 1))


def test_a_server_restart_shows_the_banner_then_reconnects(server: Server, open_page: PageOpener) -> None:
    # While the server is down, Chromium reports each refused socket as a console error.
    open_page.watch.allowed.append("WebSocket connection to")
    ann, bob = _seated_game(server, open_page)
    v = _one_move(ann, bob)
    server.stop()
    for page in (ann, bob):
        expect(page.locator("#banner")).to_be_visible()
        expect(page.locator("#banner")).to_contain_text("Reconnecting")
    shot(bob, "reconnect-banner-phone")
    server.start()
    for page in (ann, bob):
        expect(page.locator("#banner")).to_be_hidden(timeout=20_000)
        expect(page.locator("#stage")).to_have_attribute("data-v", str(v))
    for page in (ann, bob):  # each has heard the other come back: no table redrawn under a pick
        expect(page.locator(".table .conn.off")).to_have_count(0)
        expect(page.locator(".table .conn.on")).to_have_count(2)
    _one_move(ann, bob)
    expect(ann.locator("#stage")).to_have_attribute("data-v", str(v + 1))


def test_an_unknown_message_type_is_logged_and_the_room_goes_on(server: Server, open_page: PageOpener) -> None:
    """A message type newer than the client is named in a console warning, not dropped
    silently, and changes nothing: the lobby still works."""
    ann = open_page("ann")
    warnings: list[str] = []
    ann.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    sockets: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:  # every message passes; the test may add its own
        ws.connect_to_server()
        sockets.append(ws)

    ann.route_web_socket(re.compile(r"/ws/rooms/"), through)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    create_room(ann, server.url)
    expect(ann.locator(".conn-state")).to_have_text("online")
    sockets[-1].send(json.dumps({"type": "surprise", "detail": 1}))
    for _ in range(50):  # the page handles it in its own time
        if any("surprise" in w for w in warnings):
            break
        ann.wait_for_timeout(100)
    assert any("unknown message type" in w and "surprise" in w for w in warnings), warnings
    sit(ann, 0)
