"""Two people play a seeded short game to its end through the pages alone: one on a desktop
(mouse clicks, drags, double-clicks and some moves by keyboard only), one on a phone (taps).
Then both see the result with a verified fair deal, and the replay viewer steps through it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import PageOpener, Server, shot
from .play import create_room, make_move, my_turn, play_until_hand_ends, register, sit, version

SEED = "e2e-14"  # with payoff piles of 5 this deal ends in a few dozen moves


def test_two_players_play_a_seeded_game_to_its_end(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann")
    bob = open_page("bob", phone=True)

    ann.goto(server.url + "/")
    shot(ann, "home-new")
    register(ann, "Ann")
    code = create_room(ann, server.url, preset="short", payoff_size=5, seed=SEED)
    shot(ann, "home-created-lobby")
    sit(ann, 0)

    bob.goto(f"{server.url}/r/{code}")
    register(bob, "Bob")
    sit(bob, 1)
    expect(ann.locator("#start-button")).to_be_enabled()
    shot(ann, "lobby-full")
    ann.click("#start-button")
    expect(ann.locator(".table")).to_be_visible()
    expect(bob.locator(".table")).to_be_visible()
    expect(ann.locator(".me .hand-row .card")).to_have_count(5)
    expect(bob.locator(".me .hand-row .card")).to_have_count(5)
    # Nobody sees another player's hand: the opponent's cards are drawn face down.
    expect(ann.locator(".opponents .hand-count .card.back")).to_have_count(5)
    shot(ann, "table-desktop")
    shot(bob, "table-phone")

    made = play_until_hand_ends([(ann, ["keys", "click", "drag", "dblclick", "keys", "rightclick"]), (bob, ["tap"])])
    assert made[0] >= 6 and made[1] >= 3, made
    assert version(ann) == version(bob)
    for page, who in ((ann, "desktop"), (bob, "phone")):
        result = page.locator(".result")
        expect(result).to_be_visible()
        expect(result.locator(".seed code")).to_have_text(SEED)
        expect(result.locator(".verdict")).to_have_attribute("data-verdict", "ok")
        shot(page, f"result-{who}")
    winner_rows = ann.locator(".scores tr.winner")
    expect(winner_rows).to_have_count(1)

    # History and the replay viewer.
    ann.goto(server.url + "/#history")
    expect(ann.locator(".match-item")).to_have_count(1)
    shot(ann, "history")
    ann.click(".match-item >> text=Replay")
    expect(ann.locator("#replay-pos")).to_have_text(re.compile(r"Move 0 of \d+"))
    total = int(ann.locator("#replay-pos").inner_text().rsplit(" ", 1)[1])
    assert total >= 10
    # Titled by the players and the date; every move names its player, card and places.
    expect(ann.locator(".replay h1")).to_have_text(re.compile(r"^Ann vs Bob · \w+"))
    assert re.match(r"^Replay: Ann vs Bob", ann.title())
    deal, *lines = ann.locator(".replay-moves li[data-at] button").all_inner_texts()
    assert deal == "Deal" and len(lines) == total  # the deal is a step too (0), then one per move
    card = r"(\d+|[AJQK])[♠♥♦♣]( \(wild\))?|Joker"
    for line in lines:
        assert re.fullmatch(rf"(Ann|Bob) (played ({card}) from their (hand|pay-off pile|side stack \d) to centre \d"
                            rf"|discarded ({card}) to their side stack \d)", line), line
    assert "your" not in " ".join(lines)
    # Every card face up: both hands are shown.
    expect(ann.locator(".replay-stage .hand-row .card.face")).to_have_count(10)
    ann.click("#replay-next")
    expect(ann.locator("#replay-pos")).to_have_text(f"Move 1 of {total}")
    ann.click("#replay-next")
    expect(ann.locator("#replay-pos")).to_have_text(f"Move 2 of {total}")
    ann.click("#replay-prev")
    expect(ann.locator("#replay-pos")).to_have_text(f"Move 1 of {total}")
    ann.keyboard.press("End")
    expect(ann.locator("#replay-pos")).to_have_text(f"Move {total} of {total}")
    ann.locator(".replay-moves li[data-at='3'] button").click()
    expect(ann.locator("#replay-pos")).to_have_text(f"Move 3 of {total}")
    ann.click("#replay-play")
    expect(ann.locator("#replay-pos")).to_have_text(f"Move 5 of {total}", timeout=5000)
    ann.click("#replay-play")
    # The whole of a pay-off pile can be spread out: Bob still had 5 cards at the end.
    ann.keyboard.press("End")
    peek = ann.locator(".replay-stage [data-pile='payoff:1'] ~ .spread-box .peek")
    expect(peek).to_have_text("5")
    peek.click()
    expect(ann.locator(".replay-stage .spread li .card.face")).to_have_count(5)
    shot(ann, "replay")


def test_keyboard_alone_can_play_a_card(server: Server, open_page: PageOpener) -> None:
    """From a fresh table, the keyboard alone picks a hand card and discards it."""
    ann = open_page("ann")
    bob = open_page("bob")
    ann.goto(server.url + "/")
    register(ann, "Ann")
    code = create_room(ann, server.url, preset="short", seed=SEED)
    sit(ann, 0)
    bob.goto(f"{server.url}/r/{code}")
    register(bob, "Bob")
    sit(bob, 1)
    ann.click("#start-button")
    expect(ann.locator(".table")).to_be_visible()
    page = ann if my_turn(ann) else bob
    hand_before = page.locator(".me .hand-row .card").count()
    make_move(page, (page.locator(".me .hand-row .card").first.get_attribute("data-card") or "",
                     "hand", f"side:{0 if page is ann else 1}:0"), "keys")
    # The discard ended the turn: the card now lies on the side stack.
    expect(page.locator(f".me [data-pile='side:{0 if page is ann else 1}:0'] .card.face")).to_have_count(1)
    assert page.locator(".me .hand-row .card").count() == hand_before - 1
