"""The lobby, its words and its signals (issue 25, items 6, 12, 16), in the browser at 1280×800
and 390×844: Play a bot now reaches the table without a refusal, the room summary and the form
say what the room plays, the host sits at once and may remove a person, the others hear of a
change of rules, sign-out asks first."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, WebSocket, expect

from .conftest import PageOpener, Server, shot
from .play import register
from .test_accounts import sized

SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True)}

# Every toast the page shows, kept as it appears (a toast lasts seconds: a test that looks
# later must still see it). Installed before any script of the page runs.
TOASTS = """
window.__toasts = [];
new MutationObserver(() => {
  const t = document.getElementById("toast");
  if (t && !t.hidden && t.textContent && window.__toasts[window.__toasts.length - 1] !== t.textContent) {
    window.__toasts.push(t.textContent);
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""


def page_at(open_page: PageOpener, who: str, size: str) -> Page:
    width, height, phone = SIZES[size]
    page = sized(open_page, who, width, height, phone)
    page.add_init_script(TOASTS)
    return page


def errors_received(page: Page) -> list[dict[str, object]]:
    """The `error` messages the page's sockets receive, from now on."""
    got: list[dict[str, object]] = []

    def on_socket(ws: WebSocket) -> None:
        def frame(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "error":
                got.append(msg)
        ws.on("framereceived", frame)

    page.on("websocket", on_socket)
    return got


@pytest.mark.parametrize("size", SIZES)
def test_play_a_bot_now_shows_no_refusal(server: Server, open_page: PageOpener, size: str) -> None:
    """Issue 25.6: the one-click game reaches the table with no error toast, no `error` from the
    server and no console error (the fixture fails the test on one)."""
    ann = page_at(open_page, "ann", size)
    errors = errors_received(ann)
    ann.goto(server.url + "/")
    register(ann, "Ann")
    ann.click("#quick-bot")
    expect(ann.locator(".table")).to_be_visible(timeout=15_000)
    expect(ann.locator(".player .bot-badge")).to_have_count(1)
    ann.wait_for_timeout(500)  # a late refusal would arrive by now
    shot(ann, f"lobby-quick-bot-{size}")
    assert errors == [], errors
    assert ann.evaluate("window.__toasts") == []
    expect(ann.locator("#toast")).to_be_hidden()
