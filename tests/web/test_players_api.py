"""Players over REST: guest identities, names, tokens (stored only as hashes)."""

from __future__ import annotations

import httpx
from sqlalchemy import select

from app.store.tables import Token
from app.web.http.services import services


async def test_create_and_me(api: httpx.AsyncClient) -> None:
    r = await api.post("/api/players", json={"name": "  Ann Lee  "})
    assert r.status_code == 201
    body = r.json()
    assert body["name"] == "Ann Lee" and len(body["token"]) >= 43 and body["id"]
    me = await api.get("/api/players/me", headers={"Authorization": f"Bearer {body['token']}"})
    assert me.status_code == 200
    assert me.json() == {"id": body["id"], "name": "Ann Lee", "account": False, "rating": None, "username": None,
                         "failed_sign_ins": None, "lang": None, "quiet_requests": False}
    renamed = await api.patch("/api/players/me", json={"name": "Annie"},
                              headers={"Authorization": f"Bearer {body['token']}"})
    assert renamed.json()["name"] == "Annie"
    assert (await api.get(f"/api/players/{body['id']}")).json()["name"] == "Annie"
    # The token itself is nowhere in the database; only its hash is.
    sessions = services(api._transport.app).sessions  # type: ignore[attr-defined]
    async with sessions() as s:
        row = (await s.execute(select(Token).where(Token.player_id == body["id"]))).scalar_one()
    assert row.token_hash != body["token"] and body["token"] not in row.token_hash and len(row.token_hash) == 64


async def test_bad_names(api: httpx.AsyncClient) -> None:
    for bad in ["", "   ", "x" * 25, "bell\u0007", "tab\there", 5, None, ["Ann"]]:
        r = await api.post("/api/players", json={"name": bad})
        assert r.status_code == 422, bad
        assert r.json()["message"].startswith("name")
    assert (await api.post("/api/players", json={})).status_code == 422
    r = await api.post("/api/players", content=b"{nope", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "JSON" in r.json()["message"]
    r = await api.post("/api/players", content=b"[1, 2]", headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert (await api.post("/api/players", json={"name": "x" * 24})).status_code == 201
    assert (await api.post("/api/players", json={"name": "Zoë 🂡"})).status_code == 201


async def test_auth_refusals(api: httpx.AsyncClient) -> None:
    assert (await api.get("/api/players/me")).status_code == 401
    r = await api.get("/api/players/me", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401 and r.json()["message"]
    assert (await api.get("/api/players/me", headers={"Authorization": "Basic abc"})).status_code == 401
    assert (await api.get("/api/players/me", headers={"Authorization": "Bearer " + "x" * 5000})).status_code == 401
    assert (await api.get("/api/players/nobody")).status_code == 404
    assert (await api.get("/api/players/nobody/matches")).status_code == 404
    assert (await api.get("/api/players/" + "x" * 300 + "/stats")).status_code == 404


async def test_history_of_a_new_player(api: httpx.AsyncClient) -> None:
    body = (await api.post("/api/players", json={"name": "New"})).json()
    page = (await api.get(f"/api/players/{body['id']}/matches")).json()
    assert page == {"items": [], "next": None}
    stats = (await api.get(f"/api/players/{body['id']}/stats")).json()
    assert stats["played"] == 0 and stats["won"] == 0 and stats["average_cards_left"] is None
    r = await api.get(f"/api/players/{body['id']}/matches", params={"cursor": "garbage!"})
    assert r.status_code == 400
    assert (await api.get(f"/api/players/{body['id']}/matches", params={"limit": 0})).status_code == 422
    assert (await api.get("/api/matches/nope")).status_code == 404
    assert (await api.get("/api/matches/nope/replay")).status_code == 404
