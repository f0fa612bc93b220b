"""Accounts in the browser: a guest claims an account, signs in on a second browser (same
player), plays a rated match (the lobby and the open-room list mark it; the result shows the
rating change and achievements), then the leaderboard and the profile (rating chart, stats,
achievements, recent matches), at phone and desktop size."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from .conftest import PageOpener, Server, running_server, shot
from .play import play_until_hand_ends, register, sit

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """As conftest's, with the leaderboard open from the first rated match."""
    folder = tmp_path_factory.mktemp("server")
    with running_server(folder, SPITE_LEADERBOARD_MIN_GAMES="1", SPITE_LEADERBOARD_MIN_OPPONENTS="1",
                        SPITE_LEADERBOARD_MIN_AGE_HOURS="0") as srv:
        yield srv


def sized(open_page: PageOpener, who: str, width: int, height: int, phone: bool) -> Page:
    """A page at the sizes people use: a 390×844 phone, a 1280×800 laptop."""
    ctx = open_page.browser.new_context(viewport={"width": width, "height": height},
                                        device_scale_factor=2 if phone else 1, is_mobile=phone, has_touch=phone,
                                        bypass_csp=True)
    ctx.set_default_timeout(10_000)
    open_page.contexts.append(ctx)
    return open_page.watch.page(ctx.new_page(), who)


def claim(page: Page, base: str, name: str, username: str) -> str:
    """Register a guest, claim an account for it; returns its player id."""
    page.goto(base + "/")
    register(page, name)
    page.click("#account-link")
    page.fill("#claim-username", username)
    page.fill("#claim-password", PASSWORD)
    page.click("#claim-submit")
    page.wait_for_url("**/#player/*")
    me = page.evaluate("JSON.parse(localStorage.getItem('spite.identity'))")
    assert me["username"] == username
    return str(me["id"])


def test_claim_sign_in_elsewhere_rated_match_leaderboard_and_profile(server: Server, open_page: PageOpener) -> None:
    open_page.watch.allowed.append("status of 401")  # the wrong password below, on purpose
    ann = sized(open_page, "ann", 1280, 800, phone=False)
    ann_id = claim(ann, server.url, "Ann", "ann_e2e")
    expect(ann.locator(".profile h1")).to_contain_text("Ann")
    expect(ann.locator(".rating-panel")).to_contain_text("No rated match yet")
    shot(ann, "account-profile-new-desktop")

    # A second device: sign in, and it is the same player.
    phone = sized(open_page, "ann-phone", 390, 844, phone=True)
    phone.goto(server.url + "/#account")
    expect(phone.locator("#signin-form")).to_be_visible()
    shot(phone, "account-signin-phone")
    phone.fill("#signin-username", "ANN_E2E")
    phone.fill("#signin-password", "wrong password")
    phone.click("#signin-submit")
    expect(phone.locator("#signin-error")).to_have_text("wrong username or password")
    phone.fill("#signin-password", PASSWORD)
    phone.click("#signin-submit")
    expect(phone.locator(".whoami")).to_contain_text("Playing as Ann")
    assert phone.evaluate("JSON.parse(localStorage.getItem('spite.identity')).id") == ann_id
    shot(phone, "account-home-signed-in-phone")

    bob = open_page("bob")
    claim(bob, server.url, "Bob", "bob_e2e")

    # Ann creates a rated, public room (the checkbox shows only for an account).
    ann.goto(server.url + "/?seed=e2e-rated")
    ann.wait_for_selector("#opt-preset")
    ann.select_option("#opt-preset", "short")
    ann.click(".more-options summary")
    ann.fill("#opt-payoff_size", "5")
    ann.check("#opt-public")
    ann.check("#rated-input")
    ann.click("form.create-form button[type=submit]")
    ann.wait_for_url("**/r/*")
    code = ann.url.rsplit("/", 1)[1]
    expect(ann.locator(".lobby h2 .badge.rated")).to_have_text("rated")
    expect(ann.locator(".seat select")).to_have_count(0)  # no bots in a rated room
    sit(ann, 0)

    # A guest sees the room marked rated in the list, and cannot sit.
    guest = open_page("guest", phone=True)
    guest.goto(server.url + "/")
    register(guest, "Gus")
    expect(guest.locator("#rated-input")).to_have_count(0)
    expect(guest.locator(f".room-list li:has-text('{code}') .badge.rated")).to_have_text("rated")
    shot(guest, "account-open-rooms-phone")
    guest.goto(f"{server.url}/r/{code}")
    expect(guest.locator(".rated-note")).to_contain_text("Claim an account")
    expect(guest.locator(".seat >> text=Sit here")).to_have_count(0)
    shot(guest, "account-rated-lobby-guest-phone")

    bob.goto(f"{server.url}/r/{code}")
    sit(bob, 1)
    shot(ann, "account-rated-lobby-desktop")
    ann.click("#start-button")
    expect(bob.locator(".table")).to_be_visible()
    play_until_hand_ends([(ann, ["click"]), (bob, ["click"])])
    for page in (ann, bob):
        expect(page.locator(".result .rating-change li")).to_have_count(2)
        expect(page.locator(".result .rating-change")).to_contain_text("Your rating")
        expect(page.locator(".result .rating-change")).to_contain_text("Your rating: 1500 → ")  # the 1500 scale
        # a first match moves a rating a lot: the result says why
        expect(page.locator(".result .rating-why")).to_have_text(
            "Your rating moves a lot over your first rated matches, while it is uncertain: each match tells more"
            " about how you play, and the changes get smaller as it settles.")
    winner = ann if ann.locator(".result .rating-change li.up").first.text_content().startswith("Your") else bob
    expect(winner.locator(".result .earned")).to_contain_text("First victory")
    shot(ann, "account-rated-result-desktop")
    phone.goto(f"{server.url}/r/{code}")  # the same result on Ann's phone
    expect(phone.locator(".result .rating-why")).to_contain_text("Your rating moves a lot over your first rated")
    shot(phone, "account-rated-result-phone")

    # The leaderboard lists both; the profile shows the rating chart, stats and achievements.
    phone.goto(server.url + "/#leaderboard")
    expect(phone.locator(".board tbody tr")).to_have_count(2)
    expect(phone.locator(".board tbody")).to_contain_text("Ann")
    shot(phone, "account-leaderboard-phone")
    for page, size in ((ann, "desktop"), (phone, "phone")):
        page.goto(f"{server.url}/#player/{ann_id}")
        expect(page.locator(".rating-chart circle")).to_have_count(2)
        expect(page.locator(".rating-now")).to_contain_text("after 1 rated match")
        expect(page.locator(".rating-now")).to_contain_text("everyone starts at 1500")
        expect(page.locator(".rating-now")).not_to_contain_text("μ")
        expect(page.locator(".rating-why")).to_have_text("Your rating is still uncertain: it moves a lot over your"
                                                         " first rated matches and settles as you play more.")
        expect(page.locator(".achievements .achievement")).to_have_count(15)  # 13 of matches, 2 of tournaments
        expect(page.locator(".stats")).to_contain_text("Matches played")
        expect(page.locator(".profile .match-list .match-item")).to_have_count(1)
        shot(page, f"account-profile-{size}")

    bob.goto(f"{server.url}/#player/{ann_id}")  # on another's profile, the same in other words
    expect(bob.locator(".rating-why")).to_have_text("This rating is still uncertain: it moves a lot over a player's"
                                                    " first rated matches and settles as they play more.")

    # Signing the phone out leaves the laptop signed in.
    phone.goto(server.url + "/#account")
    phone.click("#sign-out")
    phone.click("#sign-out-confirm")  # signing out asks first
    expect(phone.locator("form.name-form")).to_be_visible()
    ann.goto(server.url + "/")
    expect(ann.locator(".whoami")).to_contain_text("Playing as Ann")
