"""A table people enjoy, in a real Chromium at desktop (1280×800) and phone (390×844)
sizes: the move log and just-moved cards, the result overlay and the ready countdown, cards
that reach the centre marked apart, your-turn signals, unread chat, focus and refused clicks."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import PageOpener, Server, shot
from .play import (
    choose_move,
    discard_move,
    make_move,
    my_turn,
    play_until_hand_ends,
    register,
    seated_game,
    sit,
    version,
)

SEED = "e2e-14"
DESK: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                         "has_touch": True}
SPY = """
window.__chimes = 0; window.__vibrations = 0;
const osc = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__chimes += 1; return osc.apply(this, arguments); };
navigator.vibrate = () => { window.__vibrations += 1; return true; };
"""


def pair(open_page: PageOpener) -> tuple[Page, Page]:
    ann = open_page("ann", **DESK)
    bob = open_page("bob", **PHONE)
    for p in (ann, bob):
        p.add_init_script(SPY)
    return ann, bob


def on_screen(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    vp = page.viewport_size
    assert box and vp, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= vp["height"], f"{selector} at y={box['y']}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= vp["width"], f"{selector} at x={box['x']}"


def mover_and_other(ann: Page, bob: Page) -> tuple[Page, Page]:
    return (ann, bob) if my_turn(ann) else (bob, ann)


def test_move_log_highlight_and_turn_signals(server: Server, open_page: PageOpener) -> None:
    ann, bob = pair(open_page)
    seated_game(server.url, ann, bob, seed=SEED)
    page, other = mover_and_other(ann, bob)
    name = "Ann" if page is ann else "Bob"
    chimes = page.evaluate("window.__chimes")
    v = version(page)
    card, src, dst = choose_move(page)
    make_move(page, (card, src, dst), "click")
    other.wait_for_function("v => Number(document.getElementById('stage').dataset.v) > v", arg=v)
    # The other player sees who played which card from where to where, and the card glows.
    line = other.locator(".move-lines li").last
    expect(line).to_contain_text(re.compile(rf"^{name} (played|discarded) (\d+|[AJQK])[♠♥♦♣]"))
    expect(other.locator("#last-move")).to_contain_text(name)
    expect(other.locator(f".card.just-moved[data-card='{card}']")).to_have_count(1)
    # Cards that can reach the centre are marked apart from discard-only ones.
    marks = page.eval_on_selector_all(
        ".me .card.movable", "els => els.map(e => ['playable', 'discard-only'].some(c => e.classList.contains(c)))")
    assert all(marks)
    # End the turn: the other player's turn is signalled outside the page.
    while my_turn(page):
        plays = page.locator(".me .card.playable").count()
        make_move(page, choose_move(page) if plays else discard_move(page), "click")
    expect(other.locator(".turn-text.mine")).to_be_visible()
    assert other.evaluate("document.title") == "● Your turn · Spite & Malice"
    assert other.evaluate("window.__chimes") > 0
    assert page.evaluate("document.title").startswith("Room ")
    assert page.evaluate("window.__chimes") == chimes  # no chime when the turn goes away
    if other is bob:
        assert bob.evaluate("window.__vibrations") > 0
    shot(ann, "enjoy-log-desktop")
    shot(bob, "enjoy-log-phone")
    # The sound is a setting, kept across reloads.
    other.click("#sound-toggle")
    expect(other.locator("#sound-toggle")).to_have_text("Sound: off")
    other.reload()
    expect(other.locator("#sound-toggle")).to_have_text("Sound: off")


def test_focus_returns_to_the_hand_and_a_refused_click_says_why(server: Server, open_page: PageOpener) -> None:
    ann, bob = pair(open_page)
    seated_game(server.url, ann, bob, seed=SEED)
    page, other = mover_and_other(ann, bob)
    # A card of the waiting player cannot move: the click is answered on screen.
    other.locator(".me .hand-row .card").first.click()
    expect(other.locator("#toast")).to_contain_text("not your turn")
    expect(other.locator(".me .hand-row .card.refused")).to_have_count(1)
    # The keyboard alone: after a discard, focus is back on the hand, not on <body>.
    if page is bob:  # keys on the desktop: Bob ends his turn first
        make_move(bob, discard_move(bob), "click")
        page, other = ann, bob
        expect(ann.locator(".turn-text.mine")).to_be_visible()
    while my_turn(page) and page.locator(".me .card.playable").count():
        make_move(page, choose_move(page), "keys")
        assert page.evaluate("document.activeElement.closest('.hand-row, .me') !== null")
    make_move(page, discard_move(page), "keys")
    assert page.evaluate("document.activeElement !== document.body")
    assert page.evaluate("!!document.activeElement.closest('.me .hand-row')")
    # And after the opponent's move too.
    v = version(page)
    make_move(other, choose_move(other), "click")
    page.wait_for_function("v => Number(document.getElementById('stage').dataset.v) > v", arg=v)
    assert page.evaluate("!!document.activeElement.closest('.me .hand-row')")


def test_unread_chat_badge(server: Server, open_page: PageOpener) -> None:
    ann, bob = pair(open_page)
    seated_game(server.url, ann, bob, seed=SEED)
    bob.set_viewport_size({"width": 390, "height": 480})  # the chat below the fold: a line there is unread
    bob.evaluate("window.scrollTo(0, 0)")
    ann.fill("#chat-input", "hello Bob")
    ann.press("#chat-input", "Enter")
    expect(bob.locator("#chat-badge")).to_have_text("Chat · 1 new")
    on_screen(bob, "#chat-badge")
    assert bob.evaluate("document.title").startswith("(1) ")
    expect(ann.locator("#chat-badge")).to_be_hidden()  # one's own line is not unread
    bob.click("#chat-badge")
    expect(bob.locator("#chat-badge")).to_be_hidden()
    assert bob.evaluate("document.activeElement.id") == "chat-input"


def test_result_overlay_ready_and_countdown(server: Server, open_page: PageOpener) -> None:
    ann, bob = pair(open_page)
    seated_game(server.url, ann, bob, seed=SEED, target="25")
    # Leaving a live match asks first (dismissed: we stay).
    dialogs: list[str] = []
    ann.once("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    ann.click(".home-link")
    assert dialogs and "Leave" in dialogs[0]
    expect(ann.locator(".table")).to_be_visible()
    play_until_hand_ends([(ann, ["click"]), (bob, ["click"])])
    for page in (ann, bob):
        expect(page.locator(".result h2")).to_have_text("Hand 1 over")
        on_screen(page, "#next-hand")
        on_screen(page, ".result h2")
        # The fair-deal check is folded away, one click opens it.
        expect(page.locator(".fair .seed")).to_be_hidden()
        expect(page.locator(".verdict-short")).to_have_text("✓ checked")
    shot(ann, "enjoy-result-desktop")
    shot(bob, "enjoy-result-phone")
    ann.click(".fair summary")
    expect(ann.locator(".fair .seed code")).to_be_visible()
    # A countdown runs; Ann's click marks her ready and Bob keeps reading.
    first = bob.locator(".countdown").inner_text()
    assert re.fullmatch(r"0:[0-2]\d", first), first
    ann.click("#next-hand")
    expect(bob.locator("#ready-line")).to_contain_text("Waiting for you")
    expect(ann.locator("#ready-line")).to_contain_text("Waiting for Bob")
    bob.wait_for_timeout(1200)
    assert bob.locator(".countdown").inner_text() < first
    expect(bob.locator(".result h2")).to_have_text("Hand 1 over")
    shot(bob, "enjoy-ready-phone")
    bob.click("#next-hand")
    for page in (ann, bob):
        expect(page.locator(".hand-info")).to_contain_text("Hand 2")
        expect(page.locator(".result")).to_have_count(0)


def test_wild_cards_in_hand_carry_a_mark(server: Server, open_page: PageOpener) -> None:
    page = open_page("ann", **DESK)
    page.goto(server.url + "/")
    got = page.evaluate("""async () => {
      const { cardFace } = await import("/cards.js");
      const wild = cardFace({ id: 1, rank: "K", suit: "C", wild: true });
      const plain = cardFace({ id: 2, rank: "K", suit: "C" });
      const onStack = cardFace({ id: 3, rank: "K", suit: "C", wild: true, as: "7" });
      const tag = (e) => !!e.querySelector(".wild-tag");
      return [tag(wild), tag(plain), tag(onStack), wild.getAttribute("aria-label")];
    }""")
    assert got == [True, False, False, "King of clubs (wild)"]


def test_bots_are_marked_as_bots_and_watching_names_the_others(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann", **DESK)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.goto(server.url + f"/?seed={SEED}")
    ann.select_option("#opt-preset", "short")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_selector(".lobby .seat")
    sit(ann, 0)
    ann.locator(".seat[data-seat='1']").locator("text=Add bot").click()
    expect(ann.locator(".seat[data-seat='1'] .badge")).to_contain_text("bot")
    code = ann.url.rsplit("/", 1)[1]
    cat = open_page("cat", **PHONE)
    cat.goto(f"{server.url}/r/{code}")
    register(cat, "Cat")
    expect(ann.locator(".side .spectators")).to_have_text("Watching: Cat")
    expect(cat.locator(".spectators")).to_have_count(1)  # said once, not in the lobby too
    expect(cat.locator(".spectators")).to_have_text("")  # Cat is the only one watching: nobody else
    ann.click("#start-button")
    bot = ann.locator(".player[data-seat='1'] .player-head")
    expect(bot.locator(".bot-badge")).to_have_text("bot")
    expect(bot.locator(".conn")).to_have_count(0)
    shot(ann, "enjoy-bot-desktop")


def test_chat_survives_a_reload_and_an_unknown_room_is_a_plain_page(server: Server, open_page: PageOpener) -> None:
    ann, bob = pair(open_page)
    seated_game(server.url, ann, bob, seed=SEED)
    for text in ("hi Bob", "ready?"):
        ann.fill("#chat-input", text)
        ann.press("#chat-input", "Enter")
    expect(bob.locator(".chat-log li")).to_have_count(2)
    bob.reload()
    expect(bob.locator(".table")).to_be_visible()
    expect(bob.locator(".chat-log li")).to_have_count(2)  # the history, once, not doubled
    expect(bob.locator(".chat-log li").first).to_contain_text("hi Bob")
    expect(bob.locator("#chat-badge")).to_be_hidden()  # history is not unread news
    shot(bob, "enjoy-chat-after-reload-phone")
    # An unknown room code: one plain page, no invite link, no chat, no "Connecting…".
    ann.goto(server.url + "/r/ZZZZZZZZZZ")
    expect(ann.locator("h1")).to_have_text("No such room")
    expect(ann.locator("#chat-input")).to_have_count(0)
    expect(ann.locator(".invite")).to_have_count(0)
    expect(ann.get_by_text("Connecting")).to_have_count(0)
    expect(ann.locator("a[href='/']")).to_be_visible()
    assert ann.title() == "No such room · Spite & Malice"
    shot(ann, "enjoy-no-such-room-desktop")


def test_partnerships_show_teams_and_partners(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann", **DESK)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.goto(server.url + f"/?seed={SEED}")
    ann.select_option("#opt-preset", "short")
    ann.select_option("#opt-seats", "4")
    ann.select_option("#opt-teams", "pairs")
    ann.click(".more-options summary")
    ann.fill("#opt-payoff_size", "5")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_selector(".lobby .seat")
    sit(ann, 0)
    for seat in (1, 2, 3):
        row = ann.locator(f".seat[data-seat='{seat}']")
        row.locator("text=Add bot").click()
        expect(row.locator(".badge")).to_contain_text("bot")
    # The lobby shows the teams before the game: letters, colours and who is the partner.
    for seat, team in ((0, "A"), (1, "B"), (2, "A"), (3, "B")):
        expect(ann.locator(f".seat[data-seat='{seat}'] .team")).to_have_text(team)
        expect(ann.locator(f".seat[data-seat='{seat}']")).to_have_attribute("data-team", team)
    expect(ann.locator(".seat .partner-tag")).to_have_count(1)
    expect(ann.locator(".seat[data-seat='2'] .partner-tag")).to_have_text("Partner")
    shot(ann, "enjoy-lobby-teams-desktop")
    ann.click("#start-button")
    partner = ann.locator(".player[data-seat='2']")
    expect(partner.locator(".partner-tag")).to_have_text("Partner")
    expect(ann.locator(".player .partner-tag")).to_have_count(1)
    colours = ann.evaluate("() => [...document.querySelectorAll('.player[data-team]')]"  # one call: a bot's move
                           ".map(e => getComputedStyle(e).borderLeftColor)")  # may draw the table again
    assert len(set(colours)) == 2, colours
    shot(ann, "enjoy-table-teams-desktop")
    play_until_hand_ends([(ann, ["click"])], limit=200)
    expect(ann.locator(".result")).to_be_visible()
    expect(ann.locator(".result .result-line").first).to_contain_text(re.compile(r"^Team [AB] \(|draw"))
    expect(ann.locator(".result .scores tbody tr").first).to_contain_text("Team A · Ann (you)")
    shot(ann, "enjoy-result-teams-desktop")


def test_options_in_words_quick_bot_and_how_to_play(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann", **PHONE)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.goto(server.url + f"/?seed={SEED}")
    ann.wait_for_selector("#opt-preset")
    # The form speaks a player's words: presets, option labels and choices; no code names.
    presets = ann.eval_on_selector_all("#opt-preset option", "els => els.map(e => e.textContent)")
    assert "Standard" in presets and "Short game" in presets and "Cat and Mouse" in presets, presets
    expect(ann.locator("#opt-payoff_size")).to_be_visible()  # on the main form, not under More options
    ann.click(".more-options summary")
    text = ann.eval_on_selector("form.create-form", "e => e.textContent")
    for code in ("pairs", "same_or_one_lower", "separate_packs", "wild_cannot_be", "Payoff Size", "payoff size",
                 "shuffle_into_stock", "lowest_deals"):
        assert code not in text, code
    assert "What may go on a side stack" in text and "Only the same rank or one lower" in text
    shot(ann, "enjoy-options-phone")
    # How to play, one click from home.
    ann.goto(server.url + "/")
    ann.click("text=How to play")
    expect(ann.locator("h1")).to_have_text("How to play")
    expect(ann).to_have_title("How to play · Spite & Malice")  # set once the page's words have loaded
    shot(ann, "enjoy-how-to-play-phone")
    # Play a bot now: one click to a running game against a bot.
    ann.goto(server.url + f"/?seed={SEED}")
    ann.click("#quick-bot")
    expect(ann.locator(".table")).to_be_visible(timeout=15_000)
    expect(ann.locator(".player .bot-badge")).to_have_count(1)
    expect(ann.locator(".me .name")).to_contain_text("Ann (you)")
    shot(ann, "enjoy-quick-bot-phone")


def test_a_visit_loads_compressed_files_at_once(server: Server, open_page: PageOpener) -> None:
    page = open_page("ann", **DESK)
    seen: list[tuple[str, str | None]] = []
    page.on("response", lambda r: seen.append((r.url.rsplit("/", 1)[1], r.headers.get("content-encoding"))))
    page.goto(server.url + "/")
    page.wait_for_selector("#name-input")
    files = {name: enc for name, enc in seen if name.endswith((".js", ".css"))}
    assert "types.js" not in files  # JSDoc only: never sent
    assert {"main.js", "table.js", "style.css", "lobby.js"} <= set(files)
    assert all(enc == "gzip" for enc in files.values()), files


MOVE_LOG = """async () => {
  const { MoveLog } = await import("/movelog.js");
  const view = { you: 0, players: [{ name: "Ann" }, { name: "Bob" }] };
  const log = new MoveLog();
  const five = { id: 9, rank: "5", suit: "H" };
  log.add(view, [{ type: "autoplay", seat: 1, by: "clock" },
    { type: "play", seat: 1, card: five, from: "hand", to: "centre:1" },
    { type: "discard", seat: 1, card: { id: 4, rank: "K", suit: "C", wild: true }, to: "side:1:0" }]);
  log.add(view, [{ type: "play", seat: 0, card: { id: 7, rank: "A", suit: "S" }, from: "payoff:0", to: "centre:0" }]);
  return { lines: [...log.list.children].map((li) => li.textContent), recent: [...log.recent], last: log.last() };
}"""


def test_the_move_log_marks_moves_the_server_made(server: Server, open_page: PageOpener) -> None:
    page = open_page("ann", **DESK)
    page.goto(server.url + "/")
    got = page.evaluate(MOVE_LOG)
    assert got["lines"] == ["Bob played 5♥ from their hand to centre 2 server · time ran out",
                            "Bob discarded K♣ (wild) to their side stack 1 server · time ran out",
                            "You played A♠ from your pay-off pile to centre 1"]
    assert got["recent"] == [7] and got["last"] == "You played A♠ from your pay-off pile to centre 1"
