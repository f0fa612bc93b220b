"""The table as a new player meets it (issue 39), at 1280×800 and 390×844: the keyboard (H picks
the hinted card and Enter plays it there; after picking a name the focus goes to the next useful
control; the keys help closes with Close and Esc), a screen reader (spoken card names, every pile
named while browsing, no sentence said twice in German, no old error left in the assertive
region), a spectator told they watch, and the cosmetic fixes (a pile's count clear of its
label, an achievement's toast clear of the result's title, readable cards with four players, a
double-clicked card that fits no centre stack saying why, calmly)."""

from __future__ import annotations

import re
from typing import Any

import pytest
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
    version,
    wait_version_above,
)

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
              "has_touch": True},
}
SUITS = re.compile("[♠♥♦♣]")
SPOKEN = re.compile(r"(Ace|King|Queen|Jack|\d+) of (spades|hearts|diamonds|clubs)")
# Every sentence the polite live region is given, in order (each time its text is set).
SAID_SPY = """
window.__said = [];
new MutationObserver((ms) => {
  const r = document.getElementById("announce");
  if (r && r.textContent && ms.some((m) => m.target === r)) window.__said.push(r.textContent);
}).observe(document, {childList: true, subtree: true});
"""
# Where the achievement's toast and the result's title are, the first time both are on screen.
CLEAR_SPY = """
window.__clear = null;
new MutationObserver(() => {
  const toast = document.getElementById("toast"), title = document.getElementById("result-title");
  if (window.__clear !== null || !toast || !title || toast.hidden || !toast.classList.contains("award")) return;
  window.__clear = "pending";
  requestAnimationFrame(() => {
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return {x: r.x, y: r.y, width: r.width, height: r.height};
    };
    window.__clear = {toast: box(toast), title: box(document.getElementById("result-title"))};
  });
}).observe(document, {childList: true, subtree: true, attributes: true});
"""
# Each pile's count against the labels under the same pile: the boxes that meet.
COUNTS_OVER_LABELS = """() => {
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const out = [];
  for (const wrap of document.querySelectorAll(".table .pile-wrap, .table .stock-wrap")) {
    const count = wrap.querySelector(":scope > .pile > .count");
    if (!count) continue;
    for (const label of wrap.querySelectorAll(":scope > .pile-label")) {
      if (meet(count.getBoundingClientRect(), label.getBoundingClientRect())) out.push(label.textContent);
    }
  }
  return out;
}"""


def at(open_page: PageOpener, who: str, size: str, **kw: Any) -> Page:
    return open_page(who, **{**SIZES[size], **kw})


def meet(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def against_a_bot(page: Page, base: str, seed: str = "e2e-14", name: str = "Ann") -> str:
    """`name` makes a seeded short room (it sits in seat 0), adds a bot and starts; the page
    waits until it is its turn. Only ids and values are used: the page may be in any language.
    Returns the room's code."""
    page.goto(base + "/")
    register(page, name)
    page.goto(f"{base}/?seed={seed}")
    page.select_option("#opt-preset", "short")
    page.click("form.create-form button[type=submit]")
    page.wait_for_url(re.compile(r"/r/[^/]+$"))
    seat = page.locator(".seat[data-seat='1']")
    seat.locator("select").select_option("normal")
    seat.locator("button").last.click()  # add the bot
    expect(page.locator("#start-button")).to_be_enabled()
    page.click("#start-button")
    expect(page.locator(".table")).to_be_visible()
    page.wait_for_selector(".turn-text.mine", timeout=15_000)
    page.wait_for_selector(".card.movable")
    return page.url.rsplit("/", 1)[1]


# ---- the keyboard ---------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_h_picks_the_hinted_card_and_enter_plays_it_there(server: Server, open_page: PageOpener,
                                                          size: str) -> None:
    ann = at(open_page, "ann", size)
    against_a_bot(ann, server.url)
    ann.keyboard.press("h")
    hinted = ann.locator(".card.hint")
    expect(hinted).to_have_count(1)
    expect(hinted).to_be_focused()  # the hinted card has the focus: Enter acts on it
    expect(hinted).to_have_class(re.compile(r"\bpicked\b"))
    card = hinted.get_attribute("data-card")
    to = ann.locator(".pile.hint").get_attribute("data-pile")
    shot(ann, f"access-hint-focused-{size}")
    v = version(ann)
    ann.keyboard.press("Enter")  # plays it where the hint says, not a cancel
    wait_version_above(ann, v)
    expect(ann.locator(f"[data-pile='{to}'] .card[data-card='{card}']")).to_have_count(1)
    expect(ann.locator(".move-lines li").filter(has_text=re.compile(r"^You (played|discarded)"))).to_have_count(1)


@pytest.mark.parametrize("size", SIZES)
def test_after_the_name_the_focus_goes_to_the_next_useful_control(server: Server, open_page: PageOpener,
                                                                  size: str) -> None:
    ann = at(open_page, "ann", size)
    ann.goto(server.url + "/")
    ann.fill("#name-input", "Ann")
    ann.keyboard.press("Enter")
    expect(ann.locator("#quick-bot")).to_be_focused()  # Play a bot now, not the page's body
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url(re.compile(r"/r/[^/]+$"))
    code = ann.url.rsplit("/", 1)[1]
    # An invited player names themselves with the keyboard: the focus is on the seat to take,
    # and stays there when the room is drawn again (the host's news), so Enter sits.
    bob = at(open_page, "bob", size)
    bob.goto(f"{server.url}/r/{code}")
    bob.fill("#name-input", "Bob")
    bob.keyboard.press("Enter")
    expect(bob.locator("#sit-1")).to_be_focused()
    shot(bob, f"access-name-then-seat-{size}")
    bob.keyboard.press("Enter")
    expect(bob.locator(".seat[data-seat='1'] .seat-name")).to_have_text("Bob (you)")
    # With every seat taken, someone new is a spectator: the focus goes to the chat.
    cleo = at(open_page, "cleo", size)
    cleo.goto(f"{server.url}/r/{code}")
    cleo.fill("#name-input", "Cleo")
    cleo.keyboard.press("Enter")
    expect(cleo.locator("#chat-input")).to_be_focused()


@pytest.mark.parametrize("size", SIZES)
def test_the_keys_help_closes_with_close_and_esc(server: Server, open_page: PageOpener, size: str) -> None:
    ann = at(open_page, "ann", size)
    against_a_bot(ann, server.url)
    help_box = ann.locator(".keys-help")
    if size == "desktop":
        ann.click(".keys-button")
    else:
        ann.keyboard.press("?")  # no Keys button on a phone; a keyboard still has ?
    expect(help_box).to_be_visible()
    expect(help_box.locator("h2")).to_have_text("Keyboard")  # its words, not a key of the catalogue
    expect(help_box).to_contain_text("Enter then plays it there")
    close = help_box.get_by_role("button", name="Close")
    expect(close).to_be_visible()
    shot(ann, f"access-keys-help-{size}")
    close.focus()
    ann.keyboard.press("Enter")  # Close, from the keyboard
    expect(help_box).to_be_hidden()
    assert ann.evaluate("document.activeElement !== document.body"), "the focus fell to the body"
    if size == "desktop":
        expect(ann.locator(".keys-button")).to_be_focused()
        expect(ann.locator(".keys-button")).to_have_attribute("aria-expanded", "false")
    ann.keyboard.press("?")
    expect(help_box).to_be_visible()
    ann.keyboard.press("Escape")
    expect(help_box).to_be_hidden()
    ann.keyboard.press("?")
    expect(help_box).to_be_visible()
    close.click()
    expect(help_box).to_be_hidden()


# ---- a screen reader ------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_what_a_screen_reader_hears_and_finds(server: Server, open_page: PageOpener, size: str) -> None:
    ann = at(open_page, "ann", size)
    bob = at(open_page, "bob", size)
    seated_game(server.url, ann, bob, seed="e2e-14")
    mover, other = (ann, bob) if my_turn(ann) else (bob, ann)

    # Every pile is a group with its name while browsing, before and after a pick.
    for page in (mover, other):
        expect(page.get_by_role("group", name="Centre stack 1: empty", exact=True)).to_be_visible()
        expect(page.get_by_role("group", name=re.compile(r"^Your pay-off pile, \d+ cards$"))).to_be_visible()
        expect(page.get_by_role("group", name="Your side stack 1: empty", exact=True)).to_be_visible()
        expect(page.get_by_role("group", name=re.compile(r"^Stock: \d+ cards"))).to_be_visible()
    expect(other.get_by_role("group", name=re.compile(r"^(Ann|Bob)'s pay-off pile, \d+ cards$"))).to_be_visible()
    mover.locator(".me .hand-row .card.movable").first.click()
    expect(mover.locator(".pile.target").first).to_have_attribute("role", "button")
    mover.keyboard.press("Escape")
    expect(mover.get_by_role("group", name="Your side stack 1: empty", exact=True)).to_be_visible()
    expect(mover.locator(".pile[role=button]")).to_have_count(0)

    # A refusal is said assertively, and no longer there once the next move is said.
    stuck = mover.locator(".opponents .pile.payoff .card[data-from]")  # not the mover's: cannot move
    stuck.click()
    urgent = mover.locator("#announce-urgent")
    expect(urgent).not_to_be_empty()
    v = version(mover)
    card, src, dst = choose_move(mover)
    make_move(mover, (card, src, dst), "click")
    wait_version_above(other, v)
    expect(urgent).to_be_empty()

    # The other player hears the move with the card's spoken name, as the table names it.
    said = other.locator("#announce")
    expect(said).to_contain_text(SPOKEN)
    expect(said).not_to_contain_text(SUITS)
    assert SUITS.search(other.locator(".move-lines li").last.inner_text()), "the log keeps its short form"
    shot(other, f"access-said-{size}")


def test_german_says_your_turn_once(server: Server, open_page: PageOpener) -> None:
    """The turn was said twice in German (an English-only test for 'turn.' in the sentence)."""
    bob = open_page("bob", **SIZES["phone"], locale="de-DE")
    bob.add_init_script(SAID_SPY)
    against_a_bot(bob, server.url, name="Bob")
    expect(bob.locator("#turn-text")).to_have_text("Du bist am Zug.")
    v = version(bob)
    make_move(bob, discard_move(bob), "click")  # ends the turn; the bot plays, then it is Bob's again
    bob.wait_for_function(
        "v => document.querySelector('.turn-text.mine') && Number(document.getElementById('stage').dataset.v) > v + 1",
        arg=v, timeout=15_000)
    expect(bob.locator("#announce")).to_contain_text("Du bist am Zug.")
    text = bob.locator("#announce").inner_text()
    assert text.count("Du bist am Zug.") == 1, text
    assert not any(s.count("Du bist am Zug.") > 1 for s in bob.evaluate("window.__said")), bob.evaluate("window.__said")
    shot(bob, "access-german-turn-phone")


@pytest.mark.parametrize("size", SIZES)
def test_a_spectator_is_told_they_watch(server: Server, open_page: PageOpener, size: str) -> None:
    ann = at(open_page, "ann", size)
    code = against_a_bot(ann, server.url)
    cleo = at(open_page, "cleo", size)
    cleo.add_init_script(SAID_SPY)
    cleo.goto(f"{server.url}/r/{code}")
    register(cleo, "Cleo")
    line = cleo.locator(".status-bar .watching-you")
    expect(line).to_have_text(re.compile(
        r"^You are watching Ann and \S.*: a watcher's view, with every hand face down\.$"))
    expect(cleo.locator("#announce")).to_contain_text("You are watching Ann and")
    shot(cleo, f"access-spectator-{size}")
    # Said once: Ann's next moves are told, the watching is not told again.
    v = version(cleo)
    make_move(ann, discard_move(ann), "click")
    wait_version_above(cleo, v)
    expect(cleo.locator("#announce")).not_to_contain_text("You are watching")
    expect(line).to_be_visible()  # still on screen
    said = cleo.evaluate("window.__said")
    assert sum("You are watching" in s for s in said) == 1, said
    expect(ann.locator(".watching-you")).to_have_count(0)  # a player is not watching


# ---- how it looks ---------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_readable_cards_with_four_players_and_counts_clear_of_labels(server: Server, open_page: PageOpener,
                                                                     size: str) -> None:
    ann = at(open_page, "ann", size)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.goto(server.url + "/?seed=e2e-14")
    ann.select_option("#opt-preset", "short")
    ann.select_option("#opt-seats", "4")
    ann.select_option("#opt-teams", "pairs")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url(re.compile(r"/r/[^/]+$"))
    for seat in (1, 2, 3):
        row = ann.locator(f".seat[data-seat='{seat}']")
        row.locator("button").last.click()
        expect(row.locator(".badge")).to_contain_text("bot")
    ann.click("#start-button")
    expect(ann.locator(".table .player")).to_have_count(4)
    # One call into the page: eval_on_selector_all finds the cards, then measures them in a second
    # call, and a bot's move drawn in between leaves them detached (width 0).
    widths = ann.evaluate("() => [...document.querySelectorAll('.opponents .pile .card')]"
                          ".map(e => e.getBoundingClientRect().width)")
    assert len(widths) == 15 and min(widths) >= 32, widths  # each opponent's pay-off pile and side stacks
    assert ann.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["viewport"]["width"]
    assert ann.evaluate(COUNTS_OVER_LABELS) == []
    shot(ann, f"access-four-players-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_a_double_clicked_card_that_fits_no_centre_stack_says_why_calmly(server: Server, open_page: PageOpener,
                                                                         size: str) -> None:
    ann = at(open_page, "ann", size)
    against_a_bot(ann, server.url)
    assert ann.evaluate(COUNTS_OVER_LABELS) == []  # the pay-off pile's count clear of "Pay-off"
    only_discard = ann.locator(".me .hand-row .card.discard-only").first
    expect(only_discard).to_be_visible()
    v = version(ann)
    only_discard.dblclick()
    toast = ann.locator("#toast")
    expect(toast).to_have_class(re.compile(r"\bnotice\b"))  # calm, not an alert
    expect(toast).to_have_attribute("role", "status")
    expect(toast).to_have_text(re.compile(r"^(An? \S+ fits no centre stack now \(they need: .*\)|You must first play)"))
    expect(ann.locator("#announce")).to_have_text(toast.inner_text())  # read out politely
    expect(ann.locator("#announce-urgent")).to_be_empty()
    expect(only_discard).to_have_class(re.compile(r"\bpicked\b"))  # still picked: its places are lit
    assert version(ann) == v  # nothing moved
    shot(ann, f"access-why-not-centre-{size}")


# The smallest phone the client is made for: there the result's box reaches the top of the screen.
SMALL_PHONE: dict[str, Any] = {**SIZES["phone"], "viewport": {"width": 360, "height": 640}}


@pytest.mark.parametrize("size", [*SIZES, "small-phone"])
def test_an_achievement_toast_leaves_the_result_title_in_sight(server: Server, open_page: PageOpener,
                                                               size: str) -> None:
    how = SMALL_PHONE if size == "small-phone" else SIZES[size]
    ann = open_page("ann", **how)
    bob = open_page("bob", **how)
    for page in (ann, bob):
        page.add_init_script(CLEAR_SPY)
    seated_game(server.url, ann, bob, seed="e2e-14")
    play_until_hand_ends([(ann, ["click"]), (bob, ["click"])])
    for page in (ann, bob):
        expect(page.locator("#result-title")).to_have_text("Game over")
    winner = ann if ann.locator(".result .scores tr.winner").inner_text().startswith("Ann") else bob
    winner.wait_for_function("() => window.__clear !== null && window.__clear !== 'pending'")
    shot(winner, f"access-award-over-result-{size}")
    clear = winner.evaluate("window.__clear")
    assert not meet(clear["toast"], clear["title"]), clear
