"""Languages over HTTP and the socket: the first paint honours Accept-Language, the catalogue
the browser loads, the option form's words, the player's language kept, and refusals and hints
said in the receiver's language with a stable `reason` key beside them."""

from __future__ import annotations

import httpx

from tests.conftest import SQLITE_ONLY

from .helpers import ServerThread, Sock, new_person, new_room, seat_everyone

pytestmark = SQLITE_ONLY  # the database is not what this module is about (tests/conftest.py)


async def test_first_paint_honours_accept_language(api: httpx.AsyncClient) -> None:
    for path in ("/", "/r/ABCDEFGH"):
        r = await api.get(path, headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
        assert r.status_code == 200 and '<html lang="fr" data-langs="de en es fr">' in r.text, path
        assert "accept-language" in r.headers["vary"].lower()
        assert '<a class="skip" href="#app" data-i18n="ix.skip">Aller au jeu</a>' in r.text
        r = await api.get(path, headers={"Accept-Language": "de"})
        assert '<html lang="de" ' in r.text and "Dieses Spiel braucht JavaScript." in r.text
        r = await api.get(path, headers={"Accept-Language": "ja, pt"})
        assert '<html lang="en" ' in r.text
        r = await api.get(path)
        assert '<html lang="en" ' in r.text
        again = await api.get(path, headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304
    fr = await api.get("/", headers={"Accept-Language": "fr"})
    en = await api.get("/")
    assert fr.headers["etag"] != en.headers["etag"]


async def test_the_browser_loads_one_language_without_the_servers_texts(api: httpx.AsyncClient) -> None:
    r = await api.get("/i18n/de.json")
    assert r.status_code == 200
    texts = r.json()
    assert texts["lang.name"] == "Deutsch"
    assert not [k for k in texts if k.startswith(("reason.", "hint.", "help.", "option."))]
    later = (await api.get("/i18n/de.later.json")).json()
    assert later["rs.next_hand"] == "Nächstes Spiel" and "rs.next_hand" not in texts
    assert not set(later) & set(texts)
    home = (await api.get("/i18n/de.home.json")).json()  # the home page's own words, fetched beside
    assert home["hm.new_room"] == "Neuer Tisch" and "hm.new_room" not in texts
    assert "hm.your_name" in texts and "hm.your_name" not in home  # the name form: the room page asks too
    assert not set(home) & (set(texts) | set(later))
    assert (await api.get("/i18n/de.other.json")).status_code == 404
    assert (await api.get("/i18n/xx.json")).status_code == 404
    assert (await api.get("/i18n/..%2Fsecret.json")).status_code == 404


async def test_the_option_form_speaks_the_askers_language(api: httpx.AsyncClient) -> None:
    de = (await api.get("/api/options", params={"lang": "de"})).json()
    assert de["options"]["teams"]["label"] == "Partnerschaften"
    assert de["options"]["discard_rule"]["choice_labels"]["same_or_one_lower"] == "Nur derselbe Rang oder einer tiefer"
    assert de["presets"]["cat_and_mouse"]["label"] == "Katz und Maus"
    es = (await api.get("/api/options", headers={"Accept-Language": "es-ES"})).json()
    assert es["options"]["kings_wild"]["label"] == "Los reyes son comodines"
    en = (await api.get("/api/options", params={"lang": "xx"})).json()
    assert en["options"]["teams"]["label"] == "Teams"
    assert en["options"]["teams"]["choices"] == de["options"]["teams"]["choices"]  # codes stay the wire's


async def test_the_player_keeps_a_language(api: httpx.AsyncClient) -> None:
    r = await api.post("/api/players", json={"name": "Zoé"})
    auth = {"Authorization": f"Bearer {r.json()['token']}"}
    assert (await api.get("/api/players/me", headers=auth)).json()["lang"] is None
    r = await api.patch("/api/players/me", json={"lang": "fr"}, headers=auth)
    assert r.status_code == 200 and r.json()["lang"] == "fr" and r.json()["name"] == "Zoé"
    r = await api.patch("/api/players/me", json={"name": "Zoé B"}, headers=auth)
    assert r.json() == {"id": r.json()["id"], "name": "Zoé B", "lang": "fr", "quiet_requests": False}
    me = (await api.get("/api/players/me", headers=auth)).json()
    assert me["lang"] == "fr" and me["name"] == "Zoé B"
    for bad in ({"lang": "xx"}, {"lang": 3}, {"lang": "f" * 100}, {}):
        r = await api.patch("/api/players/me", json=bad, headers=auth)
        assert r.status_code == 422 and r.json()["message"], bad
    assert (await api.get("/api/players/me", headers=auth)).json()["lang"] == "fr"


async def test_refusals_come_in_the_receivers_language(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob, cat = [await new_person(http, n) for n in ("Ann", "Bob", "Cat")]
    await http.patch("/api/players/me", json={"lang": "de"}, headers=bob.auth)
    room = await new_room(http, ann, preset="short", seats=2, seed="languages")
    a = await Sock.open(server.base, room["code"], ann)
    b = await Sock.open(server.base, room["code"], bob)  # German: kept on the player
    c = await Sock.open(server.base, room["code"], cat, hello=False)
    await c.send({"type": "hello", "token": cat.token, "lang": "fr"})  # French: said in hello
    await c.wait(lambda m: m["type"] == "welcome")
    err = await b.error({"type": "start"})
    assert err["code"] == "not_host" and err["reason"] == "not_host" and err["params"] == {"action": "start_game"}
    assert err["message"] == "nur der Gastgeber kann das Spiel starten"
    err = await c.error({"type": "start"})
    assert err["message"] == "seul l'hôte peut lancer la partie"
    err = await a.error({"type": "sit", "seat": 7})
    assert err["reason"] == "no_such_seat" and err["message"] == "there is no seat 7: seats are 0 to 1"
    await seat_everyone(a, [a, b])
    await a.send({"type": "start"})
    sa, sb = await a.state_at(0), await b.state_at(0)
    mover, waiter = (a, b) if sa["view"]["legal_moves"] else (b, a)
    legal = (sa if mover is a else sb)["view"]["legal_moves"]
    err = await waiter.error({"type": "move", "id": "w", "move": legal[0]})
    assert err["reason"] == "not_your_turn"
    assert err["message"] == ("du bist nicht am Zug" if waiter is b else "it is not your turn")
    err = await c.error({"type": "move", "id": "c", "move": legal[0]})
    assert err["reason"] == "watching" and err["message"] == "vous regardez cette partie, vous n'y jouez pas"
    err = await mover.error({"type": "move", "id": "x", "move": {"kind": "play", "card": 9999, "from": "hand",
                                                                 "to": "centre:0"}})
    assert err["code"] == "illegal_move" and err["reason"] == "no_such_card"
    assert err["message"] == ("diese Karte gibt es nicht" if mover is b else "there is no such card")
    hint = await mover.request({"type": "hint"}, lambda m: m["type"] in ("hint", "error"), timeout=30)
    assert hint["type"] == "hint" and hint["reason_key"] and isinstance(hint["params"], dict)
    if mover is b:
        assert not hint["reason"].startswith(("Play", "Discard", "Move", "Nothing")), hint


async def test_rest_refusals_carry_a_reason_in_the_askers_language(api: httpx.AsyncClient) -> None:
    r = await api.post("/api/players", json={"name": "Kai"})
    auth = {"Authorization": f"Bearer {r.json()['token']}"}
    body = {"preset": "standard", "options": {"teams": "pairs"}, "seats": 3}
    r = await api.post("/api/rooms", json=body, headers={**auth, "Accept-Language": "es"})
    assert r.status_code == 422
    err = r.json()
    assert err["reason"] == "pairs_players" and err["option"] == "teams"
    assert err["message"] == "las parejas necesitan 4 o 6 jugadores"
    await api.patch("/api/players/me", json={"lang": "de"}, headers=auth)
    r = await api.post("/api/rooms", json=body, headers={**auth, "Accept-Language": "es"})
    assert r.json()["message"] == "Partnerschaften brauchen 4 oder 6 Spieler"  # the player's choice first
    r = await api.post("/api/rooms", json={"seats": 9}, headers=auth)
    assert r.json()["reason"] == "seats_range" and r.json()["params"] == {"min": 2, "max": 6}
    assert r.json()["message"] == "ein Tisch hat 2 bis 6 Plätze"
