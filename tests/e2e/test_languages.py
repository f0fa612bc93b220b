"""A hand played in French and German: Ann's browser speaks French, Bob's (a phone) German;
neither finds a word of English on the table (its text, its screen-reader labels and titles),
before, during and after the hand. Screenshots at 1280x800 and 390x844."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect

from app.i18n.catalog import PLACEHOLDER
from app.web.routes.pages import PARTS, client_catalogue

from .conftest import PageOpener, Server, shot
from .play import play_until_hand_ends, version

SEED = "e2e-14"  # with pay-off piles of 5 this deal ends in a few dozen moves
WORD = re.compile(r"[A-Za-z][a-z]{2,}")
# A run of letters and digits is data (a deal's commitment "9add1ace…", a code, an id): its hex
# letters spell "add" or "ace" by chance, once in a few hundred daily deals; no text has one.
DATA = re.compile(r"[A-Za-z0-9]*[0-9][A-Za-z0-9]*")
NAMES = {"ann", "bob", "spite", "malice"}


def words(text: str) -> set[str]:
    """The words of a page's `text`, lowercase, its data left out."""
    return {w.lower() for w in WORD.findall(DATA.sub(" ", text))}


def _words(lang: str) -> set[str]:
    texts: dict[str, str] = {}
    for part in (None, *PARTS):
        texts |= json.loads(client_catalogue(lang, part) or b"{}")
    return {w.lower() for v in texts.values() for w in WORD.findall(PLACEHOLDER.sub(" ", v))}


def english_only(lang: str) -> set[str]:
    """Words of the English catalogue that the other language never uses."""
    return _words("en") - _words(lang) - NAMES


TABLE_TEXT = """() => {
  const parts = [];
  for (const root of document.querySelectorAll("#stage, .table-actions, .move-log, .topbar, .result")) {
    parts.push(root.innerText);
    for (const e of [root, ...root.querySelectorAll("*")]) {
      for (const a of ["aria-label", "title", "placeholder"]) if (e.getAttribute(a)) parts.push(e.getAttribute(a));
    }
  }
  return parts.join("\\n");
}"""


def assert_no_english(page: Page, lang: str, where: str) -> None:
    text = page.evaluate(TABLE_TEXT)
    assert text.strip(), f"{where}: nothing on the table"
    found = words(text) & english_only(lang)
    assert not found, f"{where}: English on the {lang} table: {sorted(found)}\n{text[:2000]}"


def register(page: Page, name: str) -> None:
    page.fill("#name-input", name)
    page.click("form.name-form button[type=submit]")
    page.wait_for_selector("form.name-form", state="detached")


def sit(page: Page, seat: int) -> None:
    """Sit in `seat` (a host who made the room on the home page already sits in the first)."""
    page.wait_for_selector(".lobby .seat")
    if page.locator(f".seat[data-seat='{seat}'] button.primary").count():
        page.click(f".seat[data-seat='{seat}'] button.primary")
    expect(page.locator(f".seat[data-seat='{seat}'] button")).to_have_count(1)  # now "stand up"


def test_a_hand_in_french_and_german_has_no_english_on_the_table(server: Server, open_page: PageOpener) -> None:
    ann = open_page("ann", locale="fr-FR", viewport={"width": 1280, "height": 800})
    bob = open_page("bob", phone=True, locale="de-DE", viewport={"width": 390, "height": 844})

    ann.goto(server.url + "/")
    expect(ann.locator("html")).to_have_attribute("lang", "fr")
    expect(ann.locator("h1")).to_have_text("Spite & Malice")
    expect(ann.locator(".tagline")).to_contain_text("Videz votre réserve")
    register(ann, "Ann")
    ann.goto(server.url + f"/?seed={SEED}")
    ann.wait_for_selector("#opt-preset")
    ann.select_option("#opt-preset", "short")
    ann.click(".more-options summary")
    ann.fill("#opt-payoff_size", "5")
    shot(ann, "fr-home-desktop")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url(re.compile(r"/r/[^/]+$"))
    code = ann.url.rsplit("/", 1)[1]
    sit(ann, 0)

    bob.goto(f"{server.url}/r/{code}")
    expect(bob.locator("html")).to_have_attribute("lang", "de")
    register(bob, "Bob")
    sit(bob, 1)
    expect(bob.locator(".lobby")).to_contain_text("Warten, bis der Gastgeber das Spiel startet.")
    shot(bob, "de-lobby-phone")
    ann.click("#start-button")
    for page, lang in ((ann, "fr"), (bob, "de")):
        expect(page.locator(".table")).to_be_visible()
        expect(page.locator(".me .hand-row .card")).to_have_count(5)
        assert_no_english(page, lang, "the deal")
    expect(ann.locator(".stock-wrap .pile-label").first).to_have_text("Pioche")
    expect(bob.locator(".stock-wrap .pile-label").first).to_have_text("Talon")
    shot(ann, "fr-table-desktop")
    shot(bob, "de-table-phone")

    # Mid-hand: a few turns each, then the table (with its move log) again.
    start = version(ann)
    waiter = bob if ann.locator(".turn-text.mine").count() else ann
    refused = waiter.locator(".me .hand-row .card").first
    refused.click()
    said = "Du bist nicht am Zug." if waiter is bob else "Ce n'est pas votre tour."
    expect(waiter.locator("#toast")).to_have_text(said)
    # The toast is words only: a press where it shows reaches the table under it (a drag that
    # starts on a hand card beneath it once the turn comes must pick that card).
    under = waiter.locator("#toast").evaluate(
        "t => { const r = t.getBoundingClientRect();"
        " return t.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }")
    assert under is False, "the toast swallows presses on the table under it"
    made = play_until_hand_ends([(ann, ["click", "drag", "dblclick"]), (bob, ["tap"])])
    assert version(ann) > start and made[0] + made[1] > 5, made
    for page, lang in ((ann, "fr"), (bob, "de")):
        result = page.locator(".result")
        expect(result).to_be_visible()
        expect(result.locator(".verdict")).to_have_attribute("data-verdict", "ok")
        assert_no_english(page, lang, "the hand's end")
    expect(ann.locator(".move-log h2")).to_have_text("Coups")
    expect(bob.locator(".move-log h2")).to_have_text("Züge")
    shot(ann, "fr-result-desktop")
    shot(bob, "de-result-phone")
