"""Finding a game in the browser, at 1280×800 and 390×844: the Friends page (a
request, its acceptance, blocking), inviting a friend from a room (the toast with Join), quick
match (the waiting state, Cancel, two players into one room), the daily deal card and its
results page. Screenshots in test-artifacts/screenshots/finding-*."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from .conftest import PageOpener, Server, running_server, shot
from .play import create_room, register


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("server"), SPITE_QUICK_MATCH_INTERVAL="0.2", SPITE_BOT_THINK_MS="10",
                        SPITE_DAILY_OPTIONS='{"payoff_size": 5}',
                        SPITE_DAILY_TRIES_PER_ADDRESS="10") as srv:  # every browser here is on 127.0.0.1
        yield srv


def sized(open_page: PageOpener, who: str, phone: bool) -> Page:
    """A 390×844 phone or a 1280×800 laptop."""
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    ctx = open_page.browser.new_context(viewport=size, device_scale_factor=2 if phone else 1, is_mobile=phone,
                                        has_touch=phone, bypass_csp=True)
    ctx.set_default_timeout(15_000)
    open_page.contexts.append(ctx)
    return open_page.watch.page(ctx.new_page(), who)


def player_id(page: Page) -> str:
    return str(page.evaluate("JSON.parse(localStorage.getItem('spite.identity')).id"))


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, f"the page scrolls sideways ({width}px)"  # type: ignore[index]


def test_friends_invite_from_a_room_and_join_from_the_toast(server: Server, open_page: PageOpener) -> None:
    ann, bob = sized(open_page, "ann", phone=False), sized(open_page, "bob", phone=True)
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        page.goto(server.url + "/")
        register(page, name)
        expect(page.locator("#quick-match")).to_be_visible()
    bob_id = player_id(bob)
    ann.goto(f"{server.url}/#player/{bob_id}")  # follow from a profile
    ann.click("#add-friend")
    expect(ann.locator(".befriend")).to_contain_text("Friend request sent to Bob")
    ann.goto(server.url + "/")
    ann.click("#friends-link")
    expect(ann.locator("#friends")).to_contain_text("You asked")
    bob.goto(server.url + "/#friends")
    expect(bob.locator("#friends")).to_contain_text("Asking to be your friend")
    shot(bob, "finding-friends-request-phone")
    bob.get_by_role("button", name="Accept").click()
    expect(bob.locator("#friends")).to_contain_text("online")
    expect(ann.locator("#friends .friend-row")).to_contain_text("Bob")
    shot(ann, "finding-friends-desktop")
    no_sideways_scroll(bob)
    # Ann invites Bob from her room; Bob, on his Friends page, gets the toast and joins.
    code = create_room(ann, server.url)
    ann.click("#invite-friend")
    ann.locator(".invite-list").get_by_role("button", name="Invite").click()
    expect(ann.locator(".invite-friends")).to_contain_text("Invitation sent to Bob")
    shot(ann, "finding-invite-desktop")
    toast = bob.locator(".lobby-toast.invitation")
    expect(toast).to_contain_text(f"Ann invites you to room {code}")
    shot(bob, "finding-invitation-toast-phone")
    toast.get_by_role("button", name="Join").click()
    bob.wait_for_url(f"**/r/{code}")
    expect(bob.locator(".lobby")).to_be_visible()


def test_adding_by_link_and_blocking_on_the_friends_page(server: Server, open_page: PageOpener) -> None:
    open_page.watch.allowed.append("status of 404")  # the unknown id below is refused, as it should be
    ann, cat = sized(open_page, "ann", phone=True), sized(open_page, "cat", phone=False)
    for page, name in ((ann, "Ann"), (cat, "Cat")):
        page.goto(server.url + "/")
        register(page, name)
    ann.goto(server.url + "/#friends")
    ann.fill("#friend-id", "no-such-player")
    ann.press("#friend-id", "Enter")
    expect(ann.locator("#add-friend-error")).to_contain_text("no player has that id")
    ann.fill("#friend-id", f"{server.url}/#player/{player_id(cat)}")
    ann.press("#friend-id", "Enter")
    expect(ann.locator("#friends")).to_contain_text("You asked")
    ann.locator("#friends .friend-row").get_by_role("button", name="Block").click()
    expect(ann.locator("#blocked")).to_contain_text("Cat")
    shot(ann, "finding-blocked-phone")
    ann.locator("#blocked").get_by_role("button", name="Unblock").click()
    expect(ann.locator("#blocked .friend-row")).to_have_count(0)


def test_quiet_friend_requests_show_a_count_not_a_toast(server: Server, open_page: PageOpener) -> None:
    """A player who chose quiet requests sees how many wait (a link to the Friends page), never
    a toast naming the sender; an acceptance still names the new friend. Phone and laptop."""
    ann, bob = sized(open_page, "ann", phone=True), sized(open_page, "bob", phone=False)
    cat = sized(open_page, "cat", phone=True)
    for page, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Ann (admin)")):
        page.goto(server.url + "/")
        register(page, name)
        page.goto(server.url + "/#friends")
    for page in (ann, bob):
        quiet = page.locator("#quiet-requests")
        expect(quiet).to_be_enabled()
        quiet.check()
        expect(quiet).to_be_enabled()  # saved (the box is off while it is)
    bob.reload()  # the choice is kept with the player
    expect(bob.locator("#quiet-requests")).to_be_checked()

    def ask(asker: Page, asked: Page) -> None:
        asker.fill("#friend-id", player_id(asked))
        asker.press("#friend-id", "Enter")
        expect(asker.locator("#friends")).to_contain_text("You asked")

    ask(cat, ann)
    expect(ann.locator("#requests-waiting")).to_have_text("1 friend request waiting")
    expect(ann.locator(".lobby-toast")).to_have_count(1)  # the count alone: no toast with a name
    expect(ann.locator("#friends")).to_contain_text("Ann (admin)")  # the list has the request
    no_sideways_scroll(ann)
    shot(ann, "finding-quiet-requests-phone")
    ask(ann, bob)
    expect(bob.locator("#requests-waiting")).to_have_text("1 friend request waiting")
    expect(bob.locator(".lobby-toast")).to_have_count(1)
    shot(bob, "finding-quiet-requests-desktop")
    bob.locator("#friends .friend-row", has_text="Ann").get_by_role("button", name="Accept").click()
    expect(ann.locator(".lobby-toast", has_text="Bob is now your friend")).to_be_visible()
    ann.click("#requests-waiting")
    expect(ann.locator("#requests-waiting")).to_have_count(0)


def test_quick_match_waits_cancels_and_pairs_two_players(server: Server, open_page: PageOpener) -> None:
    ann, bob = sized(open_page, "ann", phone=True), sized(open_page, "bob", phone=False)
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        page.goto(server.url + "/")
        register(page, name)
        page.uncheck("#qm-bots")
    ann.click("#qm-button")
    expect(ann.locator("#qm-status")).to_contain_text("Looking for a table")
    expect(ann.locator("#qm-cancel")).to_be_focused()
    shot(ann, "finding-quick-match-waiting-phone")
    no_sideways_scroll(ann)
    ann.click("#qm-cancel")
    expect(ann.locator("#qm-button")).to_be_visible()
    ann.click("#qm-button")
    bob.click("#qm-button")
    ann.wait_for_url("**/r/*", timeout=20_000)
    bob.wait_for_url("**/r/*", timeout=20_000)
    assert ann.url == bob.url
    expect(ann.locator("section.table").first).to_be_visible(timeout=20_000)
    shot(bob, "finding-quick-match-room-desktop")


def test_the_daily_deal_card_plays_once_and_shows_the_results(server: Server, open_page: PageOpener) -> None:
    for phone in (False, True):
        page = sized(open_page, f"daily-{phone}", phone=phone)
        page.goto(server.url + "/")
        register(page, "Dee" if phone else "Dan")
        expect(page.locator("#daily")).to_contain_text("everyone plays the same deal")
        shot(page, "finding-home-" + ("phone" if phone else "desktop"))
        no_sideways_scroll(page)
        page.click("#daily-play")
        page.wait_for_url("**/r/*")
        room = page.url
        page.goto(server.url + "/")
        expect(page.locator("#daily")).to_contain_text("Back to your daily game")
        assert page.locator("#daily-play").count() == 0
        page.click("#daily-results-link")
        expect(page.locator(".daily-page")).to_contain_text("The seed is shown once the day is over")
        shot(page, "finding-daily-results-" + ("phone" if phone else "desktop"))
        assert room.split("/r/")[1]
