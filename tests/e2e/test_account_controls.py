"""The account, friends and notification controls a new player meets (issue 39), at 1280x800 and
390x844: the account page changes the password and lists the devices signed in (this one
marked; sign out one, or all the others); a guest is not offered a vacation; each control shows
only when it applies (End it now, Turn off) and a failed push sign-up says in words what failed;
the home page counts what waits on the Friends page, also after a reload; adding a friend says
whether the request was sent or accepted. Screenshots in test-artifacts/screenshots/account-*."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from .conftest import PageOpener, Server, shot
from .play import register
from .test_accounts import PASSWORD, claim, sized

SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True)}
FOUND = "They will find it on their Friends page."


def page_at(open_page: PageOpener, who: str, size: str) -> Page:
    w, h, phone = SIZES[size]
    return sized(open_page, who, w, h, phone)


def sign_in(base: str, username: str, password: str = PASSWORD) -> str:
    """Another device signs in: its token."""
    r = httpx.post(base + "/api/sessions", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def works(base: str, token: str) -> bool:
    r = httpx.get(base + "/api/players/me", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code in (200, 401), r.text
    return r.status_code == 200


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways ({width}px)"  # type: ignore[index]


@pytest.mark.parametrize("size", SIZES)
def test_the_account_page_changes_the_password_and_signs_devices_out(server: Server, open_page: PageOpener,
                                                                      size: str) -> None:
    open_page.watch.allowed.append("status of 403")  # the wrong current password below, on purpose
    ann = page_at(open_page, "ann", size)
    user = f"ann_pw_{size}"
    claim(ann, server.url, "Ann", user)
    phone_token = sign_in(server.url, user)
    ann.goto(server.url + "/#account")
    devices = ann.locator("#devices .device-row")
    expect(devices).to_have_count(2)
    expect(ann.locator("#devices .device-row.current")).to_contain_text("this device")
    expect(ann.locator("#devices .device-row.current .device-name")).to_have_text("Chrome on Linux")
    expect(ann.locator("#devices .device-row:not(.current) .device-name")).to_have_text("A browser")  # httpx's
    expect(devices.first).to_contain_text(re.compile(r"Signed in .+ · last used around .+"))
    shot(ann, f"account-devices-{size}")
    # Sign out the other device: its token stops working, the list says one device.
    ann.locator("#devices .device-row:not(.current)").get_by_role("button", name="Sign out").click()
    expect(devices).to_have_count(1)
    expect(ann.locator("#devices-out")).to_be_hidden()  # no other device: no "all others"
    assert not works(server.url, phone_token)
    # All the others at once.
    others = [sign_in(server.url, user) for _ in range(2)]
    ann.reload()
    expect(devices).to_have_count(3)
    ann.click("#devices-out")
    expect(ann.locator("#devices-done")).to_have_text("Every other device was signed out.")
    expect(devices).to_have_count(1)
    assert not any(works(server.url, t) for t in others)
    # The password: a wrong current one is said in words and changes nothing.
    laptop = sign_in(server.url, user)
    ann.reload()
    expect(devices).to_have_count(2)
    ann.fill("#password-old", "not my password")
    ann.fill("#password-new", "a new horse battery")
    ann.click("#password-submit")
    expect(ann.locator("#password-error")).to_have_text("that is not your password")
    assert works(server.url, laptop)
    ann.fill("#password-old", PASSWORD)
    ann.fill("#password-new", "a new horse battery")
    ann.click("#password-submit")
    expect(ann.locator("#password-done")).to_have_text(
        "Password changed. Every other device was signed out; this one stays signed in.")
    expect(devices).to_have_count(1)
    assert not works(server.url, laptop)
    assert works(server.url, str(ann.evaluate("JSON.parse(localStorage.getItem('spite.identity')).token")))
    sign_in(server.url, user, "a new horse battery")  # the new password signs in
    ann.locator("#password-form").scroll_into_view_if_needed()
    shot(ann, f"account-password-{size}")
    no_sideways_scroll(ann)


@pytest.mark.parametrize("size", SIZES)
def test_a_guest_is_not_offered_a_vacation_and_controls_show_only_when_they_apply(
        server: Server, open_page: PageOpener, size: str) -> None:
    guest = page_at(open_page, "guest", size)
    guest.goto(server.url + "/")
    register(guest, "Gus")
    guest.goto(server.url + "/#games")
    panel = guest.locator("#away-panel")
    expect(panel).to_contain_text("Email reminders and vacations are for accounts")
    expect(panel.locator("#away-claim")).to_have_attribute("href", "/#account")
    expect(guest.locator("#vacation-take")).to_have_count(0)
    expect(guest.locator("#vacation-days")).to_have_count(0)
    shot(guest, f"account-guest-away-{size}")

    # An account: End it now only while on vacation.
    ann = page_at(open_page, "ann", size)
    claim(ann, server.url, "Ann", f"ann_vac_{size}")
    ann.goto(server.url + "/#games")
    expect(ann.locator("#vacation-state")).to_contain_text("Not on vacation")
    expect(ann.locator("#vacation-end")).to_be_hidden()
    ann.fill("#vacation-days", "2")
    ann.click("#vacation-take")
    expect(ann.locator("#vacation-state")).to_contain_text("On vacation until")
    expect(ann.locator("#vacation-end")).to_be_visible()
    ann.reload()
    expect(ann.locator("#vacation-end")).to_be_visible()  # the server's state, after a reload too
    ann.click("#vacation-end")
    expect(ann.locator("#vacation-state")).to_contain_text("Not on vacation")
    expect(ann.locator("#vacation-end")).to_be_hidden()
    # Notifications: this device has no subscription, so no Turn off.
    expect(ann.locator("#push-on")).to_be_visible()
    expect(ann.locator("#push-off")).to_be_hidden()
    no_sideways_scroll(ann)


def test_a_failed_push_sign_up_says_in_words_what_failed(server: Server, open_page: PageOpener) -> None:
    # Debian's Chromium has no push service: subscribing fails there, and the page must say so in
    # its own words (the browser logs its error; the page must not show it).
    open_page.watch.allowed += ["push service", "Push API"]
    ann = sized(open_page, "ann", 1280, 800, phone=False)
    ann.context.grant_permissions(["notifications"], origin=server.url)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.goto(server.url + "/#games")
    expect(ann.locator("#push-off")).to_be_hidden()
    ann.click("#push-on")
    state = ann.locator("#push-state")
    expect(state).to_have_text(re.compile(r"^(On: |Could not turn them on: )"), timeout=15_000)
    text = state.text_content() or ""
    if text.startswith("On: "):  # a browser with a push service: Turn off is the control now
        expect(ann.locator("#push-off")).to_be_visible()
        expect(ann.locator("#push-on")).to_be_hidden()
    else:
        assert text == ("Could not turn them on: this browser's push service refused or is not available. "
                        "Try again later, or use another browser on this device."), text
        expect(ann.locator("#push-off")).to_be_hidden()
    shot(ann, "account-push-failed-desktop")


def player_id(page: Page) -> str:
    return str(page.evaluate("JSON.parse(localStorage.getItem('spite.identity')).id"))


def guest(base: str, name: str) -> tuple[str, dict[str, str]]:
    r = httpx.post(base + "/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    return str(r.json()["id"]), {"Authorization": f"Bearer {r.json()['token']}"}


@pytest.mark.parametrize("size", SIZES)
def test_the_home_page_counts_what_waits_and_adding_a_friend_says_what_happened(
        server: Server, open_page: PageOpener, size: str) -> None:
    ann = page_at(open_page, "ann", size)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann_id = player_id(ann)
    badge = ann.locator("#friends-link #friends-waiting")
    expect(ann.locator("#friends-link")).to_be_visible()
    expect(badge).to_be_hidden()  # nothing waits
    # Bob, a friend, invites Ann to his room; Cat asks Ann to be friends.
    bob_id, bob = guest(server.url, "Bob")
    assert httpx.put(f"{server.url}/api/players/me/friends/{ann_id}", headers=bob).status_code == 204
    token = str(ann.evaluate("JSON.parse(localStorage.getItem('spite.identity')).token"))
    ann_auth = {"Authorization": f"Bearer {token}"}
    assert httpx.put(f"{server.url}/api/players/me/friends/{bob_id}", headers=ann_auth).status_code == 204
    code = httpx.post(server.url + "/api/rooms", json={"preset": "short"}, headers=bob).json()["code"]
    r = httpx.post(f"{server.url}/api/rooms/{code}/invitations", json={"player_id": ann_id}, headers=bob)
    assert r.status_code == 201, r.text
    expect(badge).to_have_text("1 waiting")  # told live on the lobby socket
    cat_id, cat = guest(server.url, "Cat")
    assert httpx.put(f"{server.url}/api/players/me/friends/{ann_id}", headers=cat).status_code == 204
    expect(badge).to_have_text("2 waiting")
    ann.reload()
    expect(badge).to_have_text("2 waiting")  # kept after a reload: the server's count
    shot(ann, f"account-friends-badge-{size}")
    # Quiet requests still count (they only come without a pop-up naming the sender).
    r = httpx.patch(server.url + "/api/players/me", json={"quiet_requests": True}, headers=ann_auth)
    assert r.status_code == 200, r.text
    _, dan = guest(server.url, "Dan")
    assert httpx.put(f"{server.url}/api/players/me/friends/{ann_id}", headers=dan).status_code == 204
    expect(badge).to_have_text("3 waiting")
    expect(ann.locator("#lobby-toasts")).not_to_contain_text("Dan")
    ann.reload()
    expect(badge).to_have_text("3 waiting")
    # Adding a friend says what the server did: Cat had asked, so it is accepted; Eve is asked.
    ann.goto(f"{server.url}/#player/{cat_id}")
    ann.click("#add-friend")
    expect(ann.locator(".befriend")).to_contain_text("You and Cat are friends now: they had asked you.")
    eve_id, _ = guest(server.url, "Eve")
    ann.goto(f"{server.url}/#player/{eve_id}")
    ann.click("#add-friend")
    expect(ann.locator(".befriend")).to_contain_text(f"Friend request sent to Eve. {FOUND}")
    ann.goto(server.url + "/")
    expect(badge).to_have_text("2 waiting")  # Cat's request is answered
    # The Friends page's form says it too.
    fay_id, _ = guest(server.url, "Fay")
    ann.goto(server.url + "/#friends")
    ann.fill("#friend-id", f"{server.url}/#player/{fay_id}")
    ann.get_by_role("button", name="Send request").click()
    expect(ann.locator("#add-friend-done")).to_have_text(f"Friend request sent to Fay. {FOUND}")
    no_sideways_scroll(ann)


def test_my_history_stays_on_one_line_on_a_phone(server: Server, open_page: PageOpener) -> None:
    phone = sized(open_page, "ann-phone", 390, 844, phone=True)
    phone.goto(server.url + "/")
    register(phone, "Annabelle")
    links = phone.locator(".whoami a")
    expect(links.first).to_be_visible()
    broken = phone.evaluate("""() => [...document.querySelectorAll('.whoami a, .whoami button')]
        .filter((a) => a.getClientRects().length > 1).map((a) => a.textContent)""")
    assert broken == [], f"links broken across lines: {broken}"
    shot(phone, "account-home-links-phone")
