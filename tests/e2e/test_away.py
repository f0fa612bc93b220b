"""Away from the page: on the Your games page an account holder sets an email address
(a real SMTP server on 127.0.0.1 gets the confirmation mail; the link confirms it and the page
says so) and takes a vacation, on a phone (390x844) and a desktop (1280x800). Without
SPITE_SMTP_URL the panel has no email part."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import expect

from tests.web.test_email import Inbox, link_in

from .conftest import PageOpener, Server, free_port, running_server, shot
from .test_accounts import claim, sized

SIZES = {"phone": (390, 844, True), "desktop": (1280, 800, False)}


@pytest.fixture(scope="module")
def mail(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Inbox]]:
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    try:
        with running_server(tmp_path_factory.mktemp("server"), SPITE_SMTP_URL=f"smtp://127.0.0.1:{smtp.port}",
                            SPITE_SMTP_FROM="spite@example.test") as srv:
            yield srv, inbox
    finally:
        smtp.stop()


@pytest.mark.parametrize("size", SIZES)
def test_email_and_vacation_from_your_games(mail: tuple[Server, Inbox], open_page: PageOpener, size: str) -> None:
    server, inbox = mail
    w, h, phone = SIZES[size]
    ann = sized(open_page, "ann", w, h, phone=phone)
    claim(ann, server.url, "Ann", f"ann_away_{size}")
    address = f"ann.{size}@example.test"  # the module's tests share one server and one inbox
    ann.goto(server.url + "/#games")
    panel = ann.locator("#away-panel")
    expect(panel).to_contain_text("While you are away")
    expect(ann.locator("#email-state")).to_have_text("No address: no mail is sent.")
    ann.fill("#email-input", address)
    ann.click("#email-save")
    expect(ann.locator("#email-state")).to_contain_text(f"A confirmation link was sent to {address}")
    ann.wait_for_function("() => true")  # let the outbox run
    for _ in range(100):
        if inbox.to(address):
            break
        ann.wait_for_timeout(100)
    (confirm,) = inbox.to(address)
    ann.goto(server.url + link_in(confirm, "/api/email/confirm"))
    expect(ann.locator("body")).to_contain_text("Your address is confirmed")
    ann.goto(server.url + "/#games")
    expect(ann.locator("#email-state")).to_contain_text(f"{address} is confirmed")

    expect(ann.locator("#vacation-state")).to_contain_text("Not on vacation")
    ann.fill("#vacation-days", "3")
    ann.click("#vacation-take")
    expect(ann.locator("#vacation-state")).to_contain_text(re.compile(r"On vacation until .+ days? left this year"))
    panel.scroll_into_view_if_needed()
    shot(ann, f"away-{size}")
    ann.click("#vacation-end")
    expect(ann.locator("#vacation-state")).to_contain_text("Not on vacation")
    width = ann.evaluate("document.documentElement.scrollWidth")
    assert width <= w, f"the page is wider than the screen: {width}"


def test_without_mail_the_panel_has_no_email_part(server: Server, open_page: PageOpener) -> None:
    ann = sized(open_page, "ann", 1280, 800, phone=False)
    claim(ann, server.url, "Ann", "ann_nomail")
    ann.goto(server.url + "/#games")
    expect(ann.locator("#vacation-state")).to_contain_text("Not on vacation")
    expect(ann.locator("#email-input")).to_have_count(0)
