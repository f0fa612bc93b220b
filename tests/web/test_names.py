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
