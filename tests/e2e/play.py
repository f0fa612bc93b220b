"""Driving the client through its pages, as a person would: names, rooms, seats and moves.

A move is chosen by looking at the table only: cards the page marks as movable, and the places
it lights up once a card is picked. Moves are made by mouse clicks, drags, taps, double-clicks
or the keyboard alone.
"""

from __future__ import annotations

import re
import time
from typing import Literal

from playwright.sync_api import Locator, Page, expect

Style = Literal["click", "drag", "tap", "keys", "dblclick", "rightclick"]


def register(page: Page, name: str) -> None:
    page.fill("#name-input", name)
    page.click("form.name-form button[type=submit]")
    page.wait_for_selector("form.name-form", state="detached")


def create_room(page: Page, base: str, *, preset: str = "short", payoff_size: int | None = None,
                seed: str | None = None, public: bool = False) -> str:
    """Create a room from the home page; returns its code (the page is then in the room)."""
    page.goto(base + "/" + (f"?seed={seed}" if seed else ""))
    page.wait_for_selector("#opt-preset")
    page.select_option("#opt-preset", preset)
    if payoff_size is not None:
        page.click(".more-options summary")
        page.fill("#opt-payoff_size", str(payoff_size))
    if public:
        page.check("#opt-public")
    page.click("form.create-form button[type=submit]")
    page.wait_for_url(re.compile(r"/r/[^/]+$"))
    page.wait_for_selector(".lobby .seat")
    return page.url.rsplit("/", 1)[1]


def sit(page: Page, seat: int) -> None:
    """Sit in `seat`; the host of a room made on the home page already sits in the first seat
    (the room is created with it: the lobby's first drawing shows it)."""
    page.wait_for_selector(".lobby .seat")
    name = page.locator(f".seat[data-seat='{seat}'] .seat-name")
    if "(you)" not in (name.text_content() or ""):
        page.click(f".seat[data-seat='{seat}'] >> text=Sit here")
    expect(name).to_contain_text("(you)")


def version(page: Page) -> int:
    v = page.get_attribute("#stage", "data-v")
    return int(v) if v and v != "null" else -1


def my_turn(page: Page) -> bool:
    return page.locator(".turn-text.mine").count() > 0 and page.locator(".card.movable").count() > 0


def status(page: Page) -> str:
    return page.get_attribute("#stage", "data-status") or ""


def wait_version_above(page: Page, v: int, timeout: float = 10.0) -> None:
    page.wait_for_function(
        "v => { const s = document.getElementById('stage'); return s && Number(s.dataset.v) > v; }",
        arg=v, timeout=timeout * 1000)


def _center(loc: Locator) -> tuple[float, float]:
    box = loc.bounding_box()
    assert box is not None, "element is not visible"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _card(page: Page, card_id: str, source: str) -> Locator:
    return page.locator(f".card[data-card='{card_id}'][data-from='{source}']")


def _pick_by_click(page: Page, card: Locator, tap: bool) -> None:
    if tap:
        card.tap()
    else:
        card.click()


# Picks each movable card in turn (a mouse click on it: `detail` 1), reads the places it lights
# up, and puts it back (Escape on the card): the pay-off pile first, then side stacks, then the
# hand. One call into the page for the whole look, so the page draws once, not once per card.
# The first play to the centre, else (or with `discardOnly`) the first discard from the hand.
_LOOK = """(discardOnly) => {
  const rank = {payoff: 0, side: 1, hand: 2};
  const kind = (from) => rank[from.split(':')[0]] ?? 3;
  const cards = [...document.querySelectorAll('.card.movable[data-from]')]
    .map((e) => [e.dataset.card, e.dataset.from])
    .sort((a, b) => kind(a[1]) - kind(b[1]));
  const lit = (prefix) => [...document.querySelectorAll(`.pile.target[data-pile^='${prefix}']`)]
    .map((e) => e.dataset.pile);
  let discard = null;
  for (const [id, from] of cards) {
    const el = document.querySelector(`.card[data-card='${id}'][data-from='${from}']`);
    el.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, detail: 1}));
    const centre = lit('centre:'), side = lit('side:');
    el.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true, cancelable: true}));
    if (centre.length && !discardOnly) return [id, from, centre[0]];
    if (side.length && from === 'hand' && discard === null) discard = [id, from, side[0]];
  }
  return discard;
}"""


def choose_move(page: Page) -> tuple[str, str, str]:
    """Find a good move by picking cards with the mouse: (card id, from pile, to pile).
    Prefers plays to the centre (pay-off card first), else a discard. Leaves nothing picked."""
    return _look(page, discard_only=False)


def discard_move(page: Page) -> tuple[str, str, str]:
    """A discard from the hand to a side stack (it ends the turn)."""
    return _look(page, discard_only=True)


def _look(page: Page, *, discard_only: bool) -> tuple[str, str, str]:
    found = page.evaluate(_LOOK, discard_only)
    if found is None:
        raise AssertionError("no move found although the page says it is my turn")
    card_id, src, dst = found
    return str(card_id), str(src), str(dst)


def make_move(page: Page, move: tuple[str, str, str], style: Style) -> None:
    """Make `move` on the page the way `style` says, and wait until the server has applied it."""
    card_id, src, dst = move
    before = version(page)
    card = _card(page, card_id, src)
    target = page.locator(f"[data-pile='{dst}']")
    if style in ("click", "tap"):
        _pick_by_click(page, card, style == "tap")
        expect(target).to_have_class(re.compile(r"\btarget\b"))
        if style == "tap":
            target.tap()
        else:
            target.click()
    elif style == "drag":
        # hover() waits, as a click does, until the card stands still (the last move's slide
        # has ended) and nothing covers it, then puts the mouse on it: a press read from a
        # box mid-slide lands where the card no longer is, and picks nothing.
        card.hover()
        x, y = _center(card)
        tx, ty = _center(target)
        page.mouse.down()
        page.mouse.move(x + 10, y - 10, steps=2)
        page.mouse.move(tx, ty, steps=6)
        expect(target).to_have_class(re.compile(r"\bover\b"))
        page.mouse.up()
    elif style == "dblclick":
        card.dblclick()
    elif style == "rightclick":
        card.click(button="right")
    elif style == "keys":
        keys_move(page, card, src, dst)
    wait_version_above(page, before)


def keys_move(page: Page, card: Locator, src: str, dst: str) -> None:
    """The keyboard alone: shortcut or Tab to the card, Enter to pick, arrows to the place, Enter."""
    if src == "hand":
        key = card.get_attribute("data-key")
        assert key
        page.keyboard.press(key)  # picks the card and focuses the first place it may go
    elif src.startswith("payoff"):
        page.keyboard.press("p")
    else:
        _tab_to(page, card)
        page.keyboard.press("Enter")
    for _ in range(20):
        focused = page.evaluate("() => document.activeElement && document.activeElement.dataset.pile")
        if focused == dst:
            break
        page.keyboard.press("ArrowRight")
    else:
        raise AssertionError(f"the keyboard never reached {dst}")
    page.keyboard.press("Enter")


def _tab_to(page: Page, card: Locator) -> None:
    for _ in range(60):
        page.keyboard.press("Tab")
        if card.evaluate("e => e === document.activeElement"):
            return
    raise AssertionError("Tab never reached the card")


def play_turn(page: Page, styles: list[Style], counter: list[int]) -> None:
    """Play moves on `page` until its turn ends or the hand is over. Styles rotate per move."""
    deadline = time.monotonic() + 60
    while my_turn(page) and status(page) == "playing":
        assert time.monotonic() < deadline, "a turn took over a minute"
        move = choose_move(page)
        style = styles[counter[0] % len(styles)]
        counter[0] += 1
        if style in ("dblclick", "rightclick") and not move[2].startswith("centre:"):
            style = "click"
        make_move(page, move, style)


def play_until_hand_ends(players: list[tuple[Page, list[Style]]], limit: float = 240) -> dict[int, int]:
    """Whoever's turn it is plays (each page with its own styles) until the hand is over.
    Returns how many moves each page made (by index)."""
    counters = [[0] for _ in players]
    first = players[0][0]
    for page, _ in players:  # each page draws the hand first (a page still on the lobby says no status)
        page.wait_for_function("() => ['playing', 'hand_over', 'match_over'].includes("
                               "document.getElementById('stage')?.dataset.status)")
    deadline = time.monotonic() + limit
    while status(first) == "playing":
        assert time.monotonic() < deadline, "the hand did not end in time"
        for i, (page, styles) in enumerate(players):
            if my_turn(page):
                play_turn(page, styles, counters[i])
                break
        else:
            first.wait_for_timeout(50)
            continue
        top = max(version(p) for p, _ in players)
        for page, _ in players:
            page.wait_for_function("v => Number(document.getElementById('stage').dataset.v) >= v", arg=top)
    return {i: c[0] for i, c in enumerate(counters)}


def seated_game(server_url: str, ann: Page, bob: Page, *, seed: str, payoff_size: int = 5,
                target: str | None = None, clock: str | None = None) -> str:
    """Ann creates a seeded short room, both sit, Ann starts. Returns the room code."""
    ann.goto(server_url + "/")
    register(ann, "Ann")
    ann.goto(server_url + f"/?seed={seed}")
    ann.wait_for_selector("#opt-preset")
    ann.select_option("#opt-preset", "short")
    ann.click(".more-options summary")
    ann.fill("#opt-payoff_size", str(payoff_size))
    if target:
        ann.select_option("#opt-target", target)
    if clock:
        ann.select_option("#opt-clock", clock)
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url(re.compile(r"/r/[^/]+$"))
    code = ann.url.rsplit("/", 1)[1]
    sit(ann, 0)
    bob.goto(f"{server_url}/r/{code}")
    register(bob, "Bob")
    sit(bob, 1)
    ann.click("#start-button")
    expect(ann.locator(".table")).to_be_visible()
    expect(bob.locator(".table")).to_be_visible()
    return code
