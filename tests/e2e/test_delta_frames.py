"""The browser speaks delta frames (docs/protocol.md, "View formats"): its hello asks for them, it
is sent deltas, and a delta whose base is not the version it holds (one tampered with on the way
here) is ignored and the whole table asked for with `sync`, after which the game goes on to its
end with both pages at the same version."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import WebSocketRoute

from .conftest import PageOpener, Server
from .play import play_until_hand_ends, seated_game, version

SEED = "e2e-14"


def test_the_page_applies_deltas_and_asks_sync_for_one_that_does_not_follow(server: Server,
                                                                             open_page: PageOpener) -> None:
    ann = open_page("ann")
    bob = open_page("bob")
    sent: list[dict[str, Any]] = []
    got: list[dict[str, Any]] = []

    def route(ws: WebSocketRoute) -> None:
        real = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            msg = json.loads(message)
            got.append(msg)
            if msg["type"] == "delta" and sum(1 for m in got if m["type"] == "delta") == 3:
                msg["base"] -= 1  # not the version the page holds
                message = json.dumps(msg)
            ws.send(message)

        def up(message: str | bytes) -> None:
            sent.append(json.loads(message))
            real.send(message)

        real.on_message(down)
        ws.on_message(up)

    ann.route_web_socket(re.compile(r"/ws/rooms/"), route)
    seated_game(server.url, ann, bob, seed=SEED)
    play_until_hand_ends([(ann, ["click"]), (bob, ["click"])])
    assert version(ann) == version(bob)
    assert sent[0]["type"] == "hello" and sent[0]["format"] == "delta"
    deltas = [m for m in got if m["type"] == "delta"]
    assert len(deltas) >= 10
    syncs = [m for m in sent if m["type"] == "sync"]
    assert 1 <= len(syncs) <= 3  # the tampered delta (and any sent before the whole table came back)
