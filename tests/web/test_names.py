"""Look-alike and invisible names: names are compared by their confusable
skeleton (Unicode TR 39), so a Cyrillic `Аnn` beside `Ann` sits as `Аnn (2)` and `Hard bοt 2`
(Greek ο) is a bot's name; a name with no visible letter is refused."""

from __future__ import annotations

import httpx

from app.domain.names import skeleton

from .helpers import ServerThread, Sock, new_person, new_room


def test_look_alikes_share_a_skeleton() -> None:
    assert skeleton("\u0410nn") == skeleton("Ann") == skeleton("ANN") == skeleton("  ann ")
    assert skeleton("Hard b\u03bft 2") == "hard bot 2"
    assert skeleton("Ｅａｓｙ") == "easy"  # full-width, by NFKC
    assert skeleton("Anna") != skeleton("Ann")


async def test_bot_and_invisible_names_are_refused(api: httpx.AsyncClient) -> None:
    for name in ("\u0415asy bot 2", "Hard b\u03bft 2", "\u041dard bot", "\u3164", "\u2800\u2800", "\u115f",
                 "\u3164\u3164x"[:2], "Ann\u3164"):
        r = await api.post("/api/players", json={"name": name})
        assert r.status_code == 422, (name, r.text)
    for name in ("Ann", "Zoë", "Łukasz", "李雷", "Ω", "7"):
        assert (await api.post("/api/players", json={"name": name})).status_code == 201, name
    ann = await new_person(api, "Ann")
    assert (await api.patch("/api/players/me", json={"name": "\u3164"}, headers=ann.auth)).status_code == 422


async def test_a_look_alike_sits_as_name_2(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, fake = await new_person(http, "Ann"), await new_person(http, "\u0410nn")
    room = await new_room(http, ann, seats=3)
    a = await Sock.open(server.base, room["code"], ann)
    f = await Sock.open(server.base, room["code"], fake)
    await a.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
    seated = await f.room({"type": "sit", "seat": 1}, lambda r: r["seats"][1]["player_id"] == fake.id)
    assert seated["seats"][0]["name"] == "Ann" and seated["seats"][1]["name"] == "\u0410nn (2)"


INVISIBLE_MARKS = ("\u034f", "\ufe0f", "\u180b", "\U000e0100")  # combining grapheme joiner, variation selectors


async def test_marks_that_draw_nothing_hide_no_bot_name(api: httpx.AsyncClient) -> None:
    for mark in INVISIBLE_MARKS:
        r = await api.post("/api/players", json={"name": f"H{mark}ard bot 2"})
        assert r.status_code == 422 and "kept for the bots" in r.json()["message"], (hex(ord(mark)), r.text)
        r = await api.post("/api/players", json={"name": f"A{mark}nn{mark}"})
        assert r.status_code == 201 and r.json()["name"] == "Ann", hex(ord(mark))  # kept as it is seen
    ann = await new_person(api, "Ann")
    r = await api.patch("/api/players/me", json={"name": "Zo\u034f\u00eb\ufe0f"}, headers=ann.auth)
    assert r.status_code == 200 and r.json()["name"] == "Zo\u00eb"
    for name in ("\u034f", "\ufe0f\ufe0f", "Ann\u200b"):  # only marks; a format control (as before)
        assert (await api.post("/api/players", json={"name": name})).status_code == 422, hex(ord(name[-1]))


async def test_a_name_with_a_hidden_mark_sits_as_name_2(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, fake = await new_person(http, "Ann"), await new_person(http, "A\u034fnn")
    room = await new_room(http, ann, seats=3)
    a = await Sock.open(server.base, room["code"], ann)
    f = await Sock.open(server.base, room["code"], fake)
    await a.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
    seated = await f.room({"type": "sit", "seat": 1}, lambda r: r["seats"][1]["player_id"] == fake.id)
    assert seated["seats"][0]["name"] == "Ann" and seated["seats"][1]["name"] == "Ann (2)"
