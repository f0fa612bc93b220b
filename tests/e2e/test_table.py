"""How the table behaves: it fits a phone, it speaks to screen readers, it animates only when
motion is welcome, hints, bots, and the next hand of a match."""

from __future__ import annotations

import re

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
COUNT_ANIMATIONS = """
window.__animations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.__animations += 1; return animate.apply(this, args); };
"""


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"  # type: ignore[index]


def both_turns(ann: Page, bob: Page) -> Page:
    page = ann if my_turn(ann) else bob
    assert my_turn(page)
    return page


def test_phone_layout_announcements_and_motion(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann", reduced_motion="reduce")
    bob = open_page("bob", phone=True)
    for page in (ann, bob):
        page.add_init_script(COUNT_ANIMATIONS)
    bob.goto(server.url + "/")
    no_sideways_scroll(bob)
    seated_game(server.url, ann, bob, seed=SEED)
    no_sideways_scroll(bob)
    # Cards on the phone are big enough to touch.
    box = bob.locator(".me .hand-row .card").first.bounding_box()
    assert box and box["width"] >= 38 and box["height"] >= 52, box

    for _ in range(4):
        page = both_turns(ann, bob)
        other = bob if page is ann else ann
        v = version(page)
        make_move(page, choose_move(page), "click" if page is ann else "tap")
        other.wait_for_function("v => Number(document.getElementById('stage').dataset.v) > v", arg=v)
        # The other player hears what happened, by name.
        mover = "Ann" if page is ann else "Bob"
        expect(other.locator("#announce")).to_contain_text(mover)
    no_sideways_scroll(bob)
    # Moves animate on the phone, never for the player who asked for reduced motion.
    assert bob.evaluate("window.__animations") > 0
    assert ann.evaluate("window.__animations") == 0
    # Whose turn it is, in words: once a turn ends, the next player hears it is theirs.
    page = both_turns(ann, bob)
    other = bob if page is ann else ann
    while my_turn(page):
        make_move(page, choose_move(page), "click" if page is ann else "tap")
    expect(other.locator("#announce")).to_contain_text("Your turn")


def test_hint_and_turn_clock(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann")
    bob = open_page("bob")
    seated_game(server.url, ann, bob, seed=SEED, clock="30")
    page = both_turns(ann, bob)
    # The turn clock counts down from 30 seconds.
    expect(page.locator(".status-bar .clock")).to_have_text(re.compile(r"^0:(30|2\d)$"))
    first = page.locator(".status-bar .clock").inner_text()
    page.wait_for_timeout(1600)
    assert page.locator(".status-bar .clock").inner_text() < first
    page.click("#hint-button")
    expect(page.locator(".hint-line")).to_contain_text("Hint")
    hinted = page.locator(".card.hint")
    expect(hinted).to_have_count(1)
    expect(hinted).to_have_class(re.compile(r"\bmovable\b"))
    expect(page.locator(".pile.hint")).to_have_count(1)
    shot(page, "table-hint")


def test_against_a_bot(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann")
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.goto(server.url + f"/?seed={SEED}")
    ann.select_option("#opt-preset", "short")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_selector(".lobby .seat")
    sit(ann, 0)
    seat = ann.locator(".seat[data-seat='1']")
    seat.locator("select").select_option("easy")
    seat.locator("text=Add bot").click()
    expect(seat.locator(".badge")).to_have_text("bot · Easy")
    seat.locator("text=Remove bot").click()
    expect(seat.locator(".seat-name")).to_have_text("empty")
    seat.locator("text=Add bot").click()
    expect(seat.locator(".badge")).to_contain_text("bot")
    ann.click("#start-button")
    expect(ann.locator(".table")).to_be_visible()
    # Whoever starts, the bot answers: each time Ann ends her turn with a discard, the bot
    # plays its own turn and it is Ann's turn again.
    for _ in range(3):
        ann.wait_for_selector(".turn-text.mine", timeout=15_000)
        ann.wait_for_selector(".card.movable")
        before = version(ann)
        make_move(ann, discard_move(ann), "click")
        # Ann's discard is version before + 1; the bot's turn adds at least one more.
        ann.wait_for_function(
            "v => document.querySelector('.turn-text.mine') && Number(document.getElementById('stage').dataset.v) >= v",
            arg=before + 2, timeout=15_000)
        expect(ann.locator("#announce")).to_contain_text("bot")
        if ann.get_attribute("#stage", "data-status") != "playing":
            break


def test_next_hand_of_a_match(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann")
    bob = open_page("bob", phone=True)
    seated_game(server.url, ann, bob, seed=SEED, target="25")
    expect(ann.locator(".hand-info")).to_contain_text("match to 25")
    play_until_hand_ends([(ann, ["click"]), (bob, ["tap"])])
    for page in (ann, bob):
        expect(page.locator(".result h2")).to_have_text("Hand 1 over")
        expect(page.locator(".result .verdict")).to_have_attribute("data-verdict", "ok")
    # The next hand waits until both are ready: Ann's click marks her ready, Bob still reads.
    ann.click("#next-hand")
    expect(ann.locator("#next-hand")).to_have_text("Ready ✓")
    expect(bob.locator("#ready-line")).to_contain_text("Waiting for you")
    expect(bob.locator(".result h2")).to_have_text("Hand 1 over")
    shot(bob, "result-waiting-phone")
    bob.click("#next-hand")
    for page in (ann, bob):
        expect(page.locator(".hand-info")).to_contain_text("Hand 2")
        expect(page.locator(".me .hand-row .card")).to_have_count(5)
        expect(page.locator(".result")).to_have_count(0)
    # The winner of hand 1 carries 10 points into hand 2.
    expect(ann.locator(".player .score").filter(has_text="10 pts")).to_have_count(1)


def test_four_players_in_pairs_on_a_phone(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann", phone=True)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.goto(server.url + f"/?seed={SEED}")
    ann.select_option("#opt-preset", "short")
    ann.select_option("#opt-seats", "4")
    ann.select_option("#opt-teams", "pairs")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_selector(".lobby .seat")
    expect(ann.locator(".lobby .seat")).to_have_count(4)
    sit(ann, 0)
    for seat in (1, 2, 3):
        row = ann.locator(f".seat[data-seat='{seat}']")
        row.locator("text=Add bot").click()
        expect(row.locator(".badge")).to_contain_text("bot")
    shot(ann, "lobby-four-phone")
    ann.click("#start-button")
    expect(ann.locator(".table .player")).to_have_count(4)
    # Team marks: Ann and her partner opposite (seat 2) are team A, the bots beside her team B.
    expect(ann.locator(".me .team")).to_have_text("A")
    expect(ann.locator(".player[data-seat='2'] .team")).to_have_text("A")
    expect(ann.locator(".player[data-seat='2']")).to_have_class(re.compile(r"\bpartner\b"))
    expect(ann.locator(".player[data-seat='1'] .team")).to_have_text("B")
    no_sideways_scroll(ann)
    shot(ann, "table-four-phone")


MOVE_SIDE = """async () => {
  const { movesBySource, movesFor } = await import("/moves.js");
  const card = (id, rank) => ({ id, rank, suit: "S" });
  const player = (side) => ({ seat: 0, name: "Ann", team: null, hand_count: 0, payoff_count: 1,
    payoff_top: card(1, "9"), side, connected: true, score: 0 });
  const view = { you: 0, turn: 0, centre: [[]], hand: [], players: [player([[card(7, "4"), card(8, "5")], [], [], []])],
    legal_moves: [{ kind: "move_side", from: "side:0:0", to: "side:0:1" }, { kind: "end_turn" }] };
  return { keys: [...movesBySource(view).keys()], top: movesFor(view, 8, "side:0:0").length,
    under: movesFor(view, 7, "side:0:0").length };
}"""


def test_a_move_side_takes_the_top_card_of_its_stack(server: Server, open_page: PageOpener) -> None:
    """move_side moves name only piles (protocol.md): the card they move is the top of `from`,
    so that card is the one marked movable."""
    page = open_page("ann")
    page.goto(server.url + "/")
    assert page.evaluate(MOVE_SIDE) == {"keys": ["8@side:0:0"], "top": 1, "under": 0}
