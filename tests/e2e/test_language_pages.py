"""The player's language beyond the table: a French and a German player see no English on the
home, games, friends, account, leaderboard and history pages, at a phone's size (390x844) and a
desktop's (1280x800); screenshots kept (German is the longest: nothing must overflow)."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from app.i18n import CATALOGUES
from app.i18n.catalog import PLACEHOLDER

from .conftest import PageOpener, Server, shot
from .test_languages import WORD, english_only, register, words

PAGE_TEXT = """() => {
  const parts = [document.querySelector("#app").innerText];
  for (const e of document.querySelectorAll("#app *")) {
    for (const a of ["aria-label", "title", "placeholder"]) if (e.getAttribute(a)) parts.push(e.getAttribute(a));
  }
  return parts.join("\\n");
}"""
PAGES = {"home": "/", "games": "/#games", "friends": "/#friends", "account": "/#account",
         "leaderboard": "/#leaderboard", "history": "/#history"}


def english_on(page: Page, lang: str) -> set[str]:
    """English words on the page that the language's whole catalogue (the server's own texts
    too: option help, refusals) never uses; the picker names English in English, rightly."""
    text = page.evaluate(PAGE_TEXT)
    assert text.strip()
    theirs = {w.lower() for v in CATALOGUES[lang].texts.values() for w in WORD.findall(PLACEHOLDER.sub(" ", v))}
    return words(text) & english_only(lang) - theirs - {"english"}


def overflows(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1"))


@pytest.mark.parametrize(("locale", "lang"), [("fr-FR", "fr"), ("de-DE", "de")])
def test_the_pages_say_no_english(server: Server, open_page: PageOpener, locale: str, lang: str) -> None:
    for size, phone in (({"width": 390, "height": 844}, True), ({"width": 1280, "height": 800}, False)):
        page = open_page(f"{lang}-{size['width']}", phone=phone, locale=locale, viewport=size)
        page.goto(server.url + "/")
        register(page, "Ann")
        expect(page.locator("#quick-match")).to_be_visible()
        for name, path in PAGES.items():
            page.goto(server.url + path)
            expect(page.locator("#app h1, #app h2").first).to_be_visible()
            page.wait_for_load_state("networkidle")
            found = english_on(page, lang)
            assert not found, f"{name} ({lang}, {size['width']}): English {sorted(found)}"
            assert not re.search(r"\b[a-z]{2,3}\.[a-z_]+\b", page.locator("#app").inner_text()), f"{name}: a key shows"
            assert not overflows(page), f"{name} ({lang}, {size['width']}) is wider than the screen"
            shot(page, f"{lang}-{name}-{size['width']}")


def test_a_commitment_that_spells_english_is_not_english(server: Server, open_page: PageOpener) -> None:
    """The daily deal's commitment is random hex: one in a few hundred spells "add" or "ace"
    between digits ("9add1…"), which is no English (the flake of the test above, CI once)."""
    page = open_page("fr-hex", phone=True, locale="fr-FR", viewport={"width": 390, "height": 844})

    def spelled(route: Route) -> None:
        day = route.fetch().json()
        route.fulfill(json={**day, "commitment": "0add1ace2" + day["commitment"][9:]})

    page.route("**/api/daily", spelled)
    page.goto(server.url + "/")
    register(page, "Ann")
    expect(page.locator("#daily .commitment")).to_contain_text("0add1ace2")
    assert not english_on(page, "fr")


def test_the_lobby_toasts_speak_french(server: Server, open_page: PageOpener) -> None:
    """Friend requests and invitations come as toasts on every page (the lobby socket): in the
    page's language, their close button's label too (they were English whatever the page)."""
    page = open_page("fr-toasts", phone=True, locale="fr-FR", viewport={"width": 390, "height": 844})
    page.goto(server.url + "/")
    register(page, "Ann")
    expect(page.locator("#quick-match")).to_be_visible()
    me = page.evaluate("JSON.parse(localStorage.getItem('spite.identity'))")
    ann = {"Authorization": f"Bearer {me['token']}"}

    def guest(name: str) -> tuple[str, dict[str, str]]:
        made = httpx.post(server.url + "/api/players", json={"name": name}).json()
        return made["id"], {"Authorization": f"Bearer {made['token']}"}

    (bob_id, bob), (_, cat) = guest("Bob"), guest("Cat")
    friends = server.url + "/api/players/me/friends/"
    assert httpx.put(friends + bob_id, headers=ann).is_success
    assert httpx.put(friends + me["id"], headers=bob).is_success  # Bob accepts
    assert httpx.put(friends + me["id"], headers=cat).is_success  # Cat asks
    room = httpx.post(server.url + "/api/rooms", json={"preset": "short", "seats": 2, "sit": True}, headers=bob).json()
    assert httpx.post(f"{server.url}/api/rooms/{room['code']}/invitations", json={"player_id": me["id"]},
                      headers=bob).is_success
    toasts = page.locator("#lobby-toasts")
    expect(toasts).to_contain_text("Bob et vous êtes maintenant amis")
    expect(toasts).to_contain_text("Cat vous demande en ami")
    expect(toasts.locator(".invitation")).to_contain_text(f"Bob vous invite à la table {room['code']}")
    expect(toasts.locator(".invitation button.close")).to_have_attribute("aria-label", "Fermer")
    text = page.evaluate("""() => [...document.querySelectorAll("#lobby-toasts, #lobby-toasts *")]
      .map((e) => e === e.closest("#lobby-toasts") ? e.innerText : e.getAttribute("aria-label") || "").join("\\n")""")
    assert not words(text) & english_only("fr"), text
    shot(page, "fr-toasts-390")
