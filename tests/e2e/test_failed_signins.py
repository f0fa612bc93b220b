"""The account page tells its holder of failed sign-in attempts on their username, on a
desktop (1280x800) and a phone (390x844)."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from .conftest import PageOpener, Server, shot
from .test_accounts import claim, sized


def test_the_account_page_shows_failed_sign_in_attempts(server: Server, open_page: PageOpener) -> None:
    ann = sized(open_page, "ann", 1280, 800, phone=False)
    claim(ann, server.url, "Ann", "ann_fails")
    ann.goto(server.url + "/#account")
    expect(ann.locator(".failed-sign-ins")).to_have_text(
        "No failed sign-in attempts on your username since your password was set.")
    for _ in range(2):  # someone else guesses Ann's password
        r = httpx.post(server.url + "/api/sessions", json={"username": "ann_fails", "password": "guess guess"})
        assert r.status_code == 401, r.text
    for page in (ann, sized(open_page, "ann-phone", 390, 844, phone=True)):
        if page is not ann:
            page.goto(server.url + "/")
            page.evaluate("(id) => localStorage.setItem('spite.identity', id)",
                          ann.evaluate("localStorage.getItem('spite.identity')"))
        page.goto(server.url + "/#account")
        page.reload()
        expect(page.locator(".failed-sign-ins")).to_contain_text("2 failed sign-in attempts on your username")
        expect(page.locator(".failed-sign-ins")).to_contain_text("If it was not you")
    shot(ann, "account-failed-sign-ins-desktop")
    shot(page, "account-failed-sign-ins-phone")
