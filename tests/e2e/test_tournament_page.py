"""The tournament pages at 1280×800 and 390×844: a player creates a Swiss tournament through the
form on `/#tournaments` (the Cat and Mouse preset with one of its rules changed: the room's
options form, without what the tournament sets itself) and joins it from its page; two more join
through the REST API (the page hears of it on the lobby socket); the organiser starts it, and the
page shows the standings (a real table with its caption, Buchholz named) and round 1's tables with
their Watch links and the bye; a player with a table is told on another page that it is ready; the
history and a profile list the tournament. One run in French through the invite link `/t/{code}`.
No catalogue key on any of them, nothing wider than the screen. Screenshots in
test-artifacts/screenshots/tournament-*."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.web.helpers import Person, new_person

from .conftest import PageOpener, Server, running_server, shot
from .test_daily_pages import not_wider_than_the_screen
from .test_history_pages import as_person, in_thread, person
from .test_honest_table import SIZES, page_at
from .test_no_keys import keys_shown
from .test_room_words import page_as
from .test_room_words import person as room_person

QUICK = {"preset": "short", "options": {"payoff_size": 5}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """As conftest's, with the tournament runner passing every 0.2 s (a round's tables are made
    at once)."""
    with running_server(tmp_path_factory.mktemp("server"), SPITE_TOURNAMENT_INTERVAL="0.2",
                        SPITE_RATE_PER_SECOND="200", SPITE_RATE_BURST="400") as srv:
        yield srv


def people(server: Server, *names: str) -> list[dict[str, str]]:
    async def make(http: httpx.AsyncClient) -> dict[str, Any]:
        return {n: person(await new_person(http, n)) for n in names}

    made = in_thread(make, server.url)
    return [made[n] for n in names]


def join(server: Server, tid: str, *who: dict[str, str]) -> None:
    async def go(http: httpx.AsyncClient) -> dict[str, Any]:
        for p in who:
            r = await http.post(f"/api/tournaments/{tid}/players", headers=Person(**p).auth)
            assert r.status_code == 201, r.text
        return {"ok": True}

    in_thread(go, server.url)


def made_settings(server: Server, tid: str) -> dict[str, Any]:
    """The tournament's settings as GET /api/tournaments/{id} gives them."""
    async def read(http: httpx.AsyncClient) -> dict[str, Any]:
        r = await http.get(f"/api/tournaments/{tid}")
        assert r.status_code == 200, r.text
        return dict(r.json()["settings"])

    return in_thread(read, server.url)


def no_keys(page: Page) -> None:
    assert keys_shown(page) == [], keys_shown(page)


@pytest.mark.parametrize("size", SIZES)
def test_a_swiss_tournament_made_joined_and_started_on_its_page(server: Server, open_page: PageOpener,
                                                                size: str) -> None:
    ann_d, bob_d, cat_d = people(server, "Ann", "Bob", "Cat")
    ann = page_at(open_page, "ann", size)
    as_person(ann, ann_d)
    ann.goto(server.url + "/")
    ann.get_by_role("link", name="Tournaments").click()
    expect(ann.get_by_role("heading", name="Create a tournament")).to_be_visible()
    no_keys(ann)
    # The form: each field by its label; an arena's fields hidden for a Swiss tournament.
    ann.get_by_label("Name of the tournament").fill(f"Club night {size}")
    ann.get_by_label("Format").select_option("swiss")
    expect(ann.get_by_label("Length, in minutes")).to_be_hidden()
    ann.get_by_label("Format").select_option("arena")
    expect(ann.get_by_label("Length, in minutes")).to_be_visible()
    expect(ann.get_by_label("Rounds")).to_be_hidden()
    ann.get_by_label("Format").select_option("swiss")
    ann.get_by_label("Rounds").fill("2")
    # The preset and its rules: the room's options form, without the seats, clock, hints, partners
    # and listing (the tournament's own); the rules load with the option catalog.
    ann.locator("#opt-preset").select_option(label="Cat and Mouse")
    expect(ann.locator("#opt-preset-help")).to_contain_text("One pack for pay-off piles")
    for own in ("seats", "clock", "hints", "teams", "public"):
        expect(ann.locator(f"#opt-{own}")).to_have_count(0)
    ann.get_by_label("Pay-off pile size").fill("20")
    expect(ann.locator("#opt-preset-changed")).to_contain_text("Pay-off pile size")
    no_keys(ann)
    not_wider_than_the_screen(ann)
    shot(ann, f"tournament-form-{size}")
    ann.locator(".more-options summary").click()  # the preset's other rules, folded
    expect(ann.get_by_label("Aces must be played at once")).to_be_checked()
    not_wider_than_the_screen(ann)
    shot(ann, f"tournament-form-more-{size}")
    ann.locator(".more-options summary").click()
    # A refusal is said next to the form: too many players.
    open_page.watch.allowed.append("status of 422")  # the refusal asked for here
    ann.get_by_label("Most players").fill("1000000")
    ann.get_by_role("button", name="Create the tournament").click()
    expect(ann.locator("#create-tournament-error")).not_to_be_empty()
    ann.get_by_label("Most players").fill("8")
    ann.get_by_role("button", name="Create the tournament").click()
    expect(ann).to_have_url(re.compile(r"/#tournament/[\w-]+$"))
    expect(ann.get_by_role("heading", level=1, name=f"Club night {size}")).to_be_visible()
    tid = ann.url.split("#tournament/")[1]
    expect(ann.locator("#tournament-invite")).to_have_value(re.compile(re.escape(f"{server.url}/t/") + r"[\w-]+$"))
    settings = ann.locator(".tournament-settings")
    expect(settings).to_contain_text("2 rounds")
    expect(settings).to_contain_text("Cat and Mouse")  # the preset by its name, never its key
    expect(settings.locator(".rules-changed")).to_have_text(
        "Changed from Cat and Mouse: Pay-off pile size: 20 (not 26).")
    expect(settings).not_to_contain_text("cat_and_mouse")
    made = made_settings(server, tid)
    assert made["preset"] == "cat_and_mouse"
    assert made["options"] == {"payoff_size": 20}
    assert "players" not in made["options"] and made["seats"] == 2
    expect(settings).to_contain_text("When the organiser starts it")
    expect(ann.locator(".standings-title")).to_have_text("Players entered")
    expect(ann.locator(".tournament-page")).to_contain_text("Nobody has joined yet.")
    no_keys(ann)
    not_wider_than_the_screen(ann)
    shot(ann, f"tournament-open-{size}")

    # Ann joins on the page; Bob and Cat through the API: Ann's page hears it on the lobby socket.
    ann.get_by_role("button", name="Join the tournament").click()
    expect(ann.locator("#tournament-said")).to_have_text("You are in the tournament.")
    bob = cat = None
    if size == "desktop":  # the table-ready toast, on another page of each of them
        bob, cat = page_at(open_page, "bob", size), page_at(open_page, "cat", size)
        for page, d in ((bob, bob_d), (cat, cat_d)):
            as_person(page, d)
            page.goto(server.url + "/#how")
            expect(page.locator(".rules-text")).to_be_visible()
    join(server, tid, bob_d, cat_d)
    expect(ann.locator("#standings tbody tr")).to_have_count(3)
    expect(ann.locator("#standings caption")).to_have_text("Players entered")

    ann.get_by_role("button", name="Start now").click()
    expect(ann.locator(".tournament-head")).to_contain_text("Under way")
    round1 = ann.locator(".round[data-round='1']")
    expect(round1.get_by_role("heading", name="Round 1")).to_be_visible()
    links = round1.locator("a.watch")
    expect(links).to_have_count(1)  # three players: one table, one bye
    assert (links.get_attribute("href") or "").startswith("/r/")
    expect(round1.locator(".byes")).to_contain_text("Bye")
    expect(ann.locator("#standings caption")).to_have_text("Standings")
    expect(ann.locator("#standings thead")).to_have_text(re.compile(r"Rank\s*Player\s*Points\s*Buchholz"))
    seated = [s.strip() for s in (round1.locator(".round-table .who").text_content() or "").split(" vs ")]
    if "Ann" in seated:  # her unfinished table, first on the page
        expect(ann.locator("#my-table")).to_have_attribute("href", links.get_attribute("href") or "")
    no_keys(ann)
    not_wider_than_the_screen(ann)
    shot(ann, f"tournament-running-{size}")

    if bob is not None and cat is not None:
        for page, name in ((bob, "Bob"), (cat, "Cat")):
            if name not in seated:
                continue
            toast = page.locator(".lobby-toast.table-ready")
            expect(toast).to_contain_text(f"Your table in Club night {size}, round 1, is ready.")
            expect(toast.get_by_role("link", name="Go to the table")).to_have_attribute(
                "href", links.get_attribute("href") or "")
            expect(page.locator("#lobby-toasts")).to_have_attribute("aria-live", "polite")
            shot(page, f"tournament-toast-{name.lower()}")

    # Withdraw asks first; Cancel keeps her in.
    ann.get_by_role("button", name="Withdraw").click()
    expect(ann.get_by_role("group")).to_contain_text(f"Withdraw from Club night {size}?")
    expect(ann.get_by_role("button", name="Yes, withdraw")).to_be_focused()
    ann.get_by_role("button", name="Stay in").click()
    expect(ann.get_by_role("button", name="Withdraw")).to_be_focused()

    # Her history lists the tournament, with its status and a link.
    ann.goto(server.url + "/#history")
    item = ann.locator(".player-tournaments .tournament-item")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("Under way")
    expect(item.get_by_role("link", name=f"Club night {size}")).to_have_attribute("href", f"/#tournament/{tid}")
    no_keys(ann)
    shot(ann, f"tournament-history-{size}")
    ann.goto(f"{server.url}/#player/{bob_d['id']}")  # and Bob's profile
    expect(ann.locator(".player-tournaments .tournament-item")).to_contain_text(f"Club night {size}")
    no_keys(ann)


def test_a_rated_tournament_takes_the_rules_a_rated_room_takes(server: Server, open_page: PageOpener) -> None:
    """An account holder ticks Rated: the rules are those of a rated room (no take-backs, said
    under the form with the server's reason); with the Short game preset as it is, only the
    preset is sent, and the page names it."""
    dee = room_person(server, "Dee", username="dee")
    page = page_as(open_page, dee, "desktop")
    page.goto(server.url + "/#tournaments")
    page.get_by_label("Name of the tournament").fill("Rated night")
    page.get_by_label("Rated: the matches count").check()
    page.locator("#opt-preset").select_option(label="Short game")
    page.locator(".more-options summary").click()
    page.get_by_label("Allow undo").check()
    open_page.watch.allowed.append("status of 422")  # the refusal asked for here
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator("#create-tournament-error")).to_contain_text("does not allow take-backs")
    page.get_by_label("Allow undo").uncheck()
    page.get_by_role("button", name="Create the tournament").click()
    expect(page).to_have_url(re.compile(r"/#tournament/[\w-]+$"))
    made = made_settings(server, page.url.split("#tournament/")[1])
    assert (made["rated"], made["preset"], made.get("options")) == (True, "short", None)
    settings = page.locator(".tournament-settings")
    expect(settings).to_contain_text("Short game")
    expect(settings.locator(".rules-changed")).to_have_count(0)
    no_keys(page)


def test_the_invite_link_in_french(server: Server, open_page: PageOpener) -> None:
    """A French player opens a running tournament by its invite link: the page is in French, with
    no key and nothing wider than a phone."""
    async def make(http: httpx.AsyncClient) -> dict[str, Any]:
        ann, bob, cat = [await new_person(http, n) for n in ("Anne", "Benoît", "Chloé")]
        r = await http.post("/api/tournaments", json={"name": "Tournoi du club", "format": "swiss", "public": False,
                                                      **QUICK}, headers=ann.auth)
        assert r.status_code == 201, r.text
        made = r.json()
        for p in (ann, bob, cat):
            assert (await http.post(f"/api/tournaments/{made['code']}/players", headers=p.auth)).status_code == 201
        assert (await http.post(f"/api/tournaments/{made['id']}/start", headers=ann.auth)).status_code == 200
        return {"ann": person(ann), "code": made["code"]}

    got = in_thread(make, server.url)
    page = open_page("fr", phone=True, locale="fr-FR", viewport={"width": 390, "height": 844})
    as_person(page, got["ann"])
    page.goto(f"{server.url}/t/{got['code']}")
    expect(page.get_by_role("heading", level=1, name="Tournoi du club")).to_be_visible()
    expect(page.locator(".round[data-round='1'] a.watch")).to_have_count(1)
    expect(page.locator("#standings caption")).to_have_text("Classement")
    expect(page.locator("#standings thead")).to_contain_text("Buchholz")
    expect(page.locator(".tournament-settings")).to_contain_text("Seulement ceux qui ont le lien d'invitation")
    expect(page.locator(".tournament-settings")).to_contain_text("Partie courte")  # the preset, in French
    expect(page.locator(".tournament-settings .rules-changed")).to_contain_text("5 (au lieu de 13)")
    no_keys(page)
    not_wider_than_the_screen(page)
    shot(page, "tournament-fr-phone")
