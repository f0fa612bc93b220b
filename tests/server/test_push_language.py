"""Issue 29 outside the page: a push message is said in the recipient's language (the one the
player chose, `PATCH /api/players/me {"lang"}`), over a real push endpoint on 127.0.0.1 and
decrypted with the device's keys; the payload keeps no catalogue keys. Also the texts
themselves: every kind of reminder, in every language, says the names it was given."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.i18n import LANGS
from app.notify.texts import localized
from app.rooms.reminders import MATCH_OVER, YOUR_TURN, Reminder

from .helpers import ServerThread, new_person, new_room
from .pushsink import Device, PushSink
from .social_helpers import befriend
from .test_push import PUSH, eventually


async def test_an_invitation_is_pushed_in_the_invitees_language(start_server: Any) -> None:
    sink = PushSink()
    endpoint = ServerThread(sink).start()
    try:
        server = start_server(**PUSH)
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
            await befriend(http, ann, bob)
            assert (await http.patch("/api/players/me", json={"lang": "de"}, headers=bob.auth)).status_code == 200
            phone = Device()
            r = await http.post("/api/players/me/push", headers=bob.auth,
                                json={"endpoint": endpoint.base + "/bob/1", "keys": phone.keys})
            assert r.status_code == 201, r.text
            room = await new_room(http, ann)
            r = await http.post(f"/api/rooms/{room['code']}/invitations", json={"player_id": bob.id},
                                headers=ann.auth)
            assert r.status_code == 201
            got = await eventually(lambda: asyncio.sleep(0, sink.at("/bob/")))
            body = phone.decrypt(got[0].body)
            assert body == {"type": "invitation", "room": room["code"], "url": f"/r/{room['code']}",
                            "title": "Eine Einladung", "body": "Ann lädt dich zu einer Partie Spite and Malice ein."}
    finally:
        endpoint.stop()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", [YOUR_TURN, MATCH_OVER])
def test_every_reminder_is_said_in_every_language(kind: str, lang: str) -> None:
    english = "It is your move in the game with Ann and Bob." if kind == YOUR_TURN \
        else "Your game with Ann and Bob is over: see how it ended."
    r = Reminder(kind, "p", "ROOM", "k", "Your turn" if kind == YOUR_TURN else "Game over", english,
                 names=("Ann", "Bob"))
    said = localized(r.payload(), lang)
    assert "i18n" not in said and said["room"] == "ROOM"
    assert "Ann" in said["body"] and "Bob" in said["body"]
    if lang == "en":
        assert (said["title"], said["body"]) == (r.title, r.body)
    else:
        assert said["title"] != r.title and said["body"] != r.body and "push." not in said["body"]
    alone = localized(Reminder(kind, "p", "ROOM", "k", r.title, r.body).payload(), lang)
    assert "push." not in alone["body"] and alone["body"].strip()
