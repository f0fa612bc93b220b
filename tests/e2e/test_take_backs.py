"""Take-backs and squared side stacks in the browser: the Undo button and Ctrl+Z take back a
discard made under `side_plays=many`, squared side stacks show one card with the stack's
count, and under `peek` (Hoyle's reading) a player's own stack opens whole. Desktop and phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import PageOpener, Server, shot
from .play import discard_move, make_move, register, sit, version, wait_version_above


def room_against_a_bot(page: Page, base: str, shown: str = "squared") -> None:
    page.goto(base + "/")
    register(page, "Ann")
    page.goto(base + "/?seed=e2e-undo")
    page.select_option("#opt-preset", "short")
    page.click(".more-options summary")
    page.check("#opt-take_backs")
    page.select_option("#opt-side_plays", '"many"')
    page.select_option("#opt-side_stacks_shown", f'"{shown}"')
    page.click("form.create-form button[type=submit]")
    page.wait_for_selector(".lobby .seat")
    sit(page, 0)
    seat = page.locator(".seat[data-seat='1']")
    seat.locator("select").select_option("easy")
    seat.locator("text=Add bot").click()
    page.click("#start-button")
    expect(page.locator(".table")).to_be_visible()
    page.wait_for_selector(".turn-text.mine", timeout=15_000)
    page.wait_for_selector(".card.movable")


def my_hand(page: Page) -> list[str]:
    return page.eval_on_selector_all(".me .hand-row .card", "els => els.map(e => e.dataset.card)")


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_undo_button_and_ctrl_z_take_back_a_discard(server: Server, open_page: PageOpener, phone: bool) -> None:
    ann = open_page("ann", phone=phone)
    room_against_a_bot(ann, server.url)
    hand = my_hand(ann)
    expect(ann.locator("#undo")).to_have_count(0)
    v = version(ann)
    make_move(ann, discard_move(ann), "click")
    wait_version_above(ann, v)
    expect(ann.locator(".turn-text.mine")).to_be_visible()  # many side plays: the turn goes on
    assert len(my_hand(ann)) == len(hand) - 1
    expect(ann.locator("#undo")).to_be_visible()
    shot(ann, f"undo-{'phone' if phone else 'desktop'}")
    v = version(ann)
    ann.click("#undo")
    wait_version_above(ann, v)
    assert sorted(my_hand(ann)) == sorted(hand)
    expect(ann.locator("#undo")).to_have_count(0)
    expect(ann.locator("#announce")).to_contain_text("took back")

    # Ctrl+Z does the same; then two discards on one stack show as one card with a count.
    v = version(ann)
    make_move(ann, discard_move(ann), "click")
    wait_version_above(ann, v)
    v = version(ann)
    ann.keyboard.press("Control+z")
    wait_version_above(ann, v)
    assert sorted(my_hand(ann)) == sorted(hand)

    for _ in range(2):
        v = version(ann)
        card = ann.locator(".me .hand-row .card.movable").first
        card.click()
        ann.locator(".pile.target[data-pile='side:0:0']").click()
        wait_version_above(ann, v)
    stack = ann.locator(".pile[data-pile='side:0:0']")
    expect(stack.locator(".card")).to_have_count(1)
    expect(stack.locator(".count")).to_have_text("2")
    shot(ann, f"squared-{'phone' if phone else 'desktop'}")


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_peek_opens_your_own_squared_stack(server: Server, open_page: PageOpener, phone: bool) -> None:
    ann = open_page("ann", phone=phone)
    room_against_a_bot(ann, server.url, "peek")
    discarded = []
    for _ in range(2):
        v = version(ann)
        card = ann.locator(".me .hand-row .card.movable").first
        discarded.append(card.get_attribute("data-card"))
        card.click()
        ann.locator(".pile.target[data-pile='side:0:0']").click()
        wait_version_above(ann, v)
    stack = ann.locator(".pile[data-pile='side:0:0']")
    expect(stack.locator(".card")).to_have_count(1)
    expect(stack.locator(".count")).to_have_count(0)  # the whole stack is known: no count badge
    peek = ann.locator("button.peek[data-peek='side:0:0']")
    expect(peek).to_have_text("2")
    peek.click()
    expect(ann.locator(".spread li .card")).to_have_count(2)
    shown = ann.eval_on_selector_all(".spread li .card", "els => els.map(e => e.dataset.card)")
    assert shown == discarded  # bottom first
    shot(ann, f"peek-{'phone' if phone else 'desktop'}")
