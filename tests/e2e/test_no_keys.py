"""No catalogue key is ever on screen: every page (home, a room's lobby and its table with the
rules box open, history, a match, account, leaderboard, a profile, How to play, a replay,
friends, the daily results, your games) in each of the four languages, for an account holder (the
home page's Rated box is theirs: it showed `rs.rated`, a key of a part the home page never
loads). Text that is a key (any key of the catalogues) or looks like one (`ab.some_key`) in a
visible text node, a visible control's placeholder, label or title, a visible list's options or
the page's title fails. One server for the module, one browser context per language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.i18n import CATALOGUES, LANGS
from tests.web.helpers import Sock, match_with_bot, new_account, new_person, new_room

from .conftest import PageOpener, Server, running_server, shot
from .test_history_pages import finished, in_thread

KEYS = sorted({key.partition("#")[0] for lang in LANGS for key in CATALOGUES[lang].texts})

# What is on screen that reads as a key: (where, text). Text nodes of visible elements, the
# placeholder, aria-label, title and alt of visible elements, the options of visible lists, the
# page's title; a text, or any word of it (punctuation around it dropped), that is a key of the
# catalogues or has a key's shape.
KEYS_SHOWN = r"""(keys) => {
  const known = new Set(keys);
  const shape = /^[a-z]{2,5}\.[a-z0-9_]+(\.[a-z0-9_]+)*$/;
  const found = [];
  const look = (where, text) => {
    const s = (text || "").trim();
    if (!s) return;
    const words = [s, ...s.split(/\s+/).map((w) => w.replace(/^[(«"'¡¿]+|[)»"':,.;!?…]+$/g, ""))];
    if (words.some((w) => known.has(w) || shape.test(w))) found.push([where, s]);
  };
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    if (e && !e.closest("script, style, noscript") && e.checkVisibility()) look(e.tagName.toLowerCase(), n.data);
  }
  for (const e of document.querySelectorAll("[placeholder], [aria-label], [title], [alt]")) {
    if (!e.checkVisibility()) continue;
    for (const a of ["placeholder", "aria-label", "title", "alt"]) look(a, e.getAttribute(a));
  }
  for (const s of document.querySelectorAll("select")) {
    if (s.checkVisibility()) for (const o of s.options) look("option", o.textContent);
  }
  look("document.title", document.title);
  return found;
}"""

# Each page, and what shows it is drawn (its data have come).
PAGES: dict[str, tuple[str, str]] = {
    "home": ("/", "#create-title"),
    "lobby": ("/r/{lobby}", ".lobby .seat"),
    "table": ("/r/{table}", "#stage[data-status='playing']"),
    "history": ("/#history", ".match-item"),
    "match": ("/#match/{match}", ".hand-item"),
    "account": ("/#account", "#app h1, #app h2"),
    "leaderboard": ("/#leaderboard", "#app h1, #app h2"),
    "profile": ("/#player/{ann}", ".match-item"),
    "how": ("/#how", ".rules-text"),
    "replay": ("/#replay/{match}", ".replay-stage > *"),
    "friends": ("/#friends", "#app h1, #app h2"),
    "daily": ("/#daily/{day}", "#app h1, #app h2"),
    "games": ("/#games", "#app h1, #app h2"),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """As conftest's, with the socket rate the server tests use (a script plays a match to its
    end faster than a person may send)."""
    with running_server(tmp_path_factory.mktemp("server"), SPITE_RATE_PER_SECOND="200",
                        SPITE_RATE_BURST="400") as srv:
        yield srv


def keys_shown(page: Page) -> list[list[str]]:
    return list(page.evaluate(KEYS_SHOWN, KEYS))


def test_the_finder_sees_a_key(server: Server, open_page: PageOpener) -> None:
    """The check above finds a key put on a page, whole or inside a sentence, and a key's shape."""
    page = open_page("finder")
    page.goto(server.url + "/#how")
    expect(page.locator(".rules-text")).to_be_visible()
    assert keys_shown(page) == []
    page.evaluate("""() => {
      const p = (text) => Object.assign(document.createElement("p"), {textContent: text});
      document.querySelector(".rules-text").append(p("rs.rated"), p("Play (hm.create)."), p("zz.not_a_key_at_all"));
      document.querySelector("#how-preset").setAttribute("aria-label", "op.rules");
    }""")
    found = {text for _, text in keys_shown(page)}
    assert found == {"rs.rated", "Play (hm.create).", "zz.not_a_key_at_all", "op.rules"}, found


def test_no_page_shows_a_catalogue_key_in_any_language(server: Server, open_page: PageOpener) -> None:
    async def make(http: httpx.AsyncClient) -> dict[str, Any]:
        ann = await new_account(http, "Ann", username="ann_keys")
        bob = await new_person(http, "Bob")
        match = await finished(server.url, http, [ann, bob], preset="short", options={"payoff_size": 5}, seats=2,
                               seed="no-keys")
        table, _, sock = await match_with_bot(server.url, http, ann, preset="short")
        await sock.close()
        lobby = await new_room(http, ann, seats=3, public=True)
        s = await Sock.open(server.url, lobby["code"], ann)
        await s.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
        await s.room({"type": "add_bot", "seat": 1, "level": "normal"}, lambda r: r["seats"][1]["bot"] == "normal")
        await s.send({"type": "chat", "text": "hello"})
        await s.close()
        day = (await http.get("/api/daily")).json()["date"]
        return {"ann": {"id": ann.id, "name": ann.name, "token": ann.token, "username": "ann_keys"},
                "match": match, "table": table, "lobby": lobby["code"], "day": day}

    got = in_thread(make, server.url)
    where = {"ann": got["ann"]["id"], "match": got["match"], "table": got["table"], "lobby": got["lobby"],
             "day": got["day"]}
    shown: dict[str, list[list[str]]] = {}
    for lang in LANGS:
        page = open_page(f"keys-{lang}", locale=lang)
        identity = json.dumps(json.dumps(got["ann"]))
        page.context.add_init_script(f"localStorage.setItem('spite.identity', {identity});"
                                     f"localStorage.setItem('spite.lang', {json.dumps(lang)});")
        for name, (path, ready) in PAGES.items():
            page.goto(server.url + path.format(**where))
            expect(page.locator(ready).first).to_be_visible()
            if name in ("lobby", "table"):  # the room's rules, opened
                page.click("#room-rules summary")
                expect(page.locator("#room-rules .rules-text")).to_be_visible()
            page.wait_for_load_state("networkidle")
            assert page.evaluate("document.documentElement.lang") == lang
            found = keys_shown(page)
            if found:
                shown[f"{lang} {name}"] = found
                shot(page, f"keys-{lang}-{name}")
        shot(page, f"keys-{lang}-games")
    assert not shown, "catalogue keys on screen:\n" + "\n".join(f"{k}: {v}" for k, v in shown.items())

