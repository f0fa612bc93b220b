"""Every refusal names the rule, in the browser at 1280×800 and 390×844: a card that
can go nowhere, tapped, says why (the server's reason in the catalogue's words, not "cannot move
now"), and a card put where it may not go says which rule refuses it; each as a sentence, with
a capital."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import PageOpener, Server, shot
from .test_honest_table import SIZES, page_at, server  # noqa: F401  (the fixture)
from .test_take_backs import room_against_a_bot


@pytest.mark.parametrize("size", SIZES)
def test_a_refused_card_names_the_rule(server: Server, open_page: PageOpener, size: str) -> None:  # noqa: F811
    ann = page_at(open_page, "ann", size)
    room_against_a_bot(ann, server.url)
    toast = ann.locator("#toast")
    stuck = ann.locator(".me .card[data-from]:not(.movable)").first  # the seed's pay-off top fits no stack
    expect(stuck).to_be_visible()
    stuck.click()
    # a sentence of its own: the catalogue's refusal starts with a capital on screen
    expect(toast).to_have_text(re.compile(r"^An? \S+ fits no centre stack now \(they need: .*\)"))
    expect(toast).not_to_contain_text("cannot move now")
    shot(ann, f"refusal-stuck-{size}")
    # a hand card that may not start a stack, put on an empty centre slot: the rule is named
    for card in ann.locator(".me .hand-row .card.movable").all():
        card.click()
        empty = ann.locator(".centre [data-pile^='centre:']:not(.target)").first
        if empty.count():
            empty.click()
            break
        ann.keyboard.press("Escape")
    expect(toast).to_have_text(re.compile(
        r"^(Only an Ace can start a centre stack|An? \S+ cannot go on a stack that needs)"))
    shot(ann, f"refusal-wrong-place-{size}")
    expect(ann.locator("#stage")).to_have_attribute("data-status", "playing")  # nothing moved
