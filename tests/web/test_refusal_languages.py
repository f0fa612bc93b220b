"""REST refusals over real HTTP (a uvicorn server): each carries a stable `reason` and its
`params`, `message` in the caller's language (`?lang=`, else the signed-in player's, else
Accept-Language), and `detail` the English it always had (docs/protocol.md, "Errors over HTTP").
The sockets' refusals of a frame carry them too, in the socket's language."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from tests.conftest import SQLITE_ONLY

from .helpers import ServerThread, Sock, new_person, new_room
from .social_helpers import lobby

pytestmark = SQLITE_ONLY  # the database is not what this module is about (tests/conftest.py)


async def test_a_refusal_in_french_and_german_keeps_its_english_detail(http: httpx.AsyncClient) -> None:
    r = await http.get("/api/rooms/ZZZZZZ", headers={"Accept-Language": "fr-CH, de;q=0.5"})
    assert r.status_code == 404
    assert r.json() == {"message": "aucune table n'a ce code", "detail": "no room has that code",
                        "reason": "no_room", "params": {}}
    r = await http.get("/api/rooms/ZZZZZZ", params={"lang": "de"}, headers={"Accept-Language": "fr"})
    assert r.json()["message"] == "kein Tisch hat diesen Code" and r.json()["detail"] == "no room has that code"
    r = await http.get("/api/rooms/ZZZZZZ")  # nobody asked for a language: English, as before
    assert r.json()["message"] == r.json()["detail"] == "no room has that code"
    r = await http.get("/api/players/me", headers={"Accept-Language": "de"})
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    assert r.json()["reason"] == "no_token" and r.json()["detail"] == "send Authorization: Bearer <token>"
    assert r.json()["message"] == "sende den Header Authorization: Bearer <token>"


async def test_the_signed_in_players_language_comes_before_the_browsers(http: httpx.AsyncClient) -> None:
    kai = await new_person(http, "Kai")
    assert (await http.patch("/api/players/me", json={"lang": "de"}, headers=kai.auth)).status_code == 200
    r = await http.put(f"/api/players/me/friends/{kai.id}", headers={**kai.auth, "Accept-Language": "fr"})
    assert r.status_code == 422
    assert r.json() == {"message": "du kannst dich nicht mit dir selbst anfreunden",
                        "detail": "you cannot befriend yourself", "reason": "self_befriend", "params": {}}
    r = await http.put(f"/api/players/me/blocks/{kai.id}", params={"lang": "fr"}, headers=kai.auth)
    assert r.json()["message"] == "vous ne pouvez pas vous bloquer vous-même"  # ?lang= first
    r = await http.get("/api/players/nobody/stats", headers=kai.auth)  # no token needed: German all the same
    assert r.status_code == 404 and r.json()["message"] == "kein Spieler hat diese ID"
    assert r.json()["detail"] == "no player has that id"


async def test_a_refusal_with_params_is_said_with_them(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(limit_new_players="2/minute")
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        for name in ("Ann", "Bob"):
            await new_person(http, name)
        r = await http.post("/api/players", json={"name": "Cleo"}, headers={"Accept-Language": "fr"})
        assert r.status_code == 429
        wait = int(r.headers["retry-after"])
        body = r.json()
        assert body["reason"] == "too_many" and body["params"] == {"what": "new_players", "wait": wait}
        assert body["detail"] == f"too many new players from your address; try again in {wait} s"
        assert body["message"] == f"trop de nouveaux joueurs depuis votre adresse ; réessayez dans {wait} s"
        r = await http.post("/api/players", json={"name": "Cleo"}, headers={"Accept-Language": "de"})
        assert r.json()["message"] == f"zu viele neue Spieler von deiner Adresse; versuch es in {wait} s noch einmal"


async def test_bad_input_is_still_a_422_with_fastapis_detail(http: httpx.AsyncClient) -> None:
    r = await http.post("/api/players", json={"name": 3}, headers={"Accept-Language": "de"})
    assert r.status_code == 422 and isinstance(r.json()["detail"], list) and r.json()["message"]
    kai = await new_person(http, "Kai")
    r = await http.patch("/api/players/me", json={}, headers={**kai.auth, "Accept-Language": "es"})
    assert r.status_code == 422
    assert r.json()["reason"] == "name_or_lang" and r.json()["message"] == "indica un nombre, un idioma o ambos"
    r = await http.get("/api/daily/2026-13-99/results", headers={"Accept-Language": "de"})
    assert r.status_code == 422 and r.json()["message"] == "ein Tag wird JJJJ-MM-TT geschrieben"
    r = await http.post("/api/players", content=b"{" + b" " * 70000 + b"}",
                        headers={"Content-Type": "application/json", "Accept-Language": "de"})
    assert r.status_code == 413 and r.json()["detail"] == "too large"  # as it always was
    assert r.json()["reason"] == "body_too_large" and r.json()["params"] == {"n": 65536}
    assert r.json()["message"] == "der Inhalt der Anfrage ist größer als 65.536 Bytes"


async def _error_after(sock: Sock, frame: str | bytes) -> dict[str, object]:
    start = len(sock.messages)
    await sock.ws.send(frame)
    return await sock.wait(lambda m: m["type"] == "error", start=start)


async def test_the_lobby_socket_refuses_in_the_sockets_language(server: ServerThread, http: httpx.AsyncClient) -> None:
    zoe = await new_person(http, "Zoé")
    await http.patch("/api/players/me", json={"lang": "fr"}, headers=zoe.auth)
    fr = await lobby(server.base, zoe)  # no lang in hello: the player's
    err = await _error_after(fr, b"\x00")
    assert err == {"type": "error", "code": "bad_message", "reason": "binary_message", "params": {},
                   "message": "les messages doivent être du texte JSON, pas du binaire"}
    err = await _error_after(fr, '{"type": "dance"}')
    assert err["reason"] == "unknown_type" and err["params"] == {"types": "hello, ping"}
    assert err["message"] == "type de message inconnu ; types connus : hello, ping"
    de = await lobby(server.base, zoe, hello=False)
    await de.send({"type": "hello", "token": zoe.token, "lang": "de"})  # said in hello: first
    await de.wait(lambda m: m["type"] == "welcome")
    err = await _error_after(de, '{"type": "hello", "token": "x"}')
    assert err["reason"] == "second_hello" and err["message"] == "du hast auf dieser Verbindung schon Hallo gesagt"
    err = await _error_after(de, '{"type": "ping", "pad": "' + "x" * 9000 + '"}')
    assert err["reason"] == "message_too_long" and err["params"] == {"n": 8192}
    assert err["message"] == "eine Nachricht hat höchstens 8.192 Bytes"
    for sock in (fr, de):
        await sock.close()


async def test_the_room_socket_refuses_a_frame_in_its_language(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    room = await new_room(http, ann)
    sock = await Sock.open(server.base, room["code"], ann, hello=False)
    await sock.send({"type": "hello", "token": ann.token, "lang": "es"})
    await sock.wait(lambda m: m["type"] == "welcome")
    err = await _error_after(sock, "[1")
    assert err["reason"] == "not_json_object" and err["message"] == "un mensaje debe ser un objeto JSON"
    err = await _error_after(sock, b"\x00")
    assert err["reason"] == "binary_message" and err["message"] == "los mensajes deben ser texto JSON, no binario"
    err = await _error_after(sock, '{"type": "chat", "text": 5}')  # a field of the wrong type: named, in Spanish
    assert err["reason"] == "bad_field" and err["params"] == {"field": "text"}, err
    assert err["message"] == "el campo text de este mensaje no es válido"
    await sock.close()


async def test_a_refused_handshake_is_a_rest_refusal_in_the_browsers_language(
        start_server: Callable[..., ServerThread]) -> None:
    import json

    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    server = start_server(limit_connects="1/minute")
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann = await new_person(http, "Ann")
        room = await new_room(http, ann)
    first = await Sock.open(server.base, room["code"], ann)
    ws_base = server.base.replace("http", "ws", 1)
    for path, lang in ((f"/ws/rooms/{room['code']}", "de"), ("/ws/lobby", "fr")):
        try:
            async with connect(ws_base + path, additional_headers={"Accept-Language": lang}, open_timeout=10):
                raise AssertionError("the handshake was taken")
        except InvalidStatus as e:
            assert e.response.status_code == 429
            body = json.loads(e.response.body or b"{}")
            wait = body["params"]["wait"]
            assert body["reason"] == "too_many" and body["params"] == {"what": "connects", "wait": wait}
            assert body["detail"] == f"too many connections; try again in {wait} s"
            assert body["message"] == {"de": f"zu viele Verbindungen; versuch es in {wait} s noch einmal",
                                       "fr": f"trop de connexions au serveur ; réessayez dans {wait} s"}[lang]
    await first.close()


async def test_a_chat_line_past_the_players_rate_is_refused_in_the_sockets_language(
        server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    await http.patch("/api/players/me", json={"lang": "de"}, headers=ann.auth)
    sock = await Sock.open(server.base, (await new_room(http, ann))["code"], ann)
    for i in range(8):  # SPITE_CHAT_BURST: 5 at once, then 1 a second
        await sock.send({"type": "chat", "text": f"line {i}"})
    err = await sock.wait(lambda m: m["type"] == "error")
    assert err["code"] == "rate_limited" and err["reason"] == "chat_slow_down" and err["params"] == {"n": 1}
    assert err["message"] == "langsamer: höchstens 1 Chatnachricht pro Sekunde"
    await sock.close()
