"""The public list cannot be filled by one person: public rooms are limited
per address, not only per player (many guests from one address count together, also when they
ask at once), and rooms left untouched fall off the list."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta

import httpx
from sqlalchemy import update

from app.platform.settings import Settings
from app.store.tables import Room, utcnow
from app.web.app import create_app

from .helpers import make_settings, new_person


async def test_public_rooms_are_limited_per_address_even_at_once(db_url: str) -> None:
    shipped = Settings.model_fields["limit_public_rooms"].default
    assert shipped == "4/hour;20/day"
    app = create_app(make_settings(db_url, limit_public_rooms=shipped))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("198.51.100.7", 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            guests = [await new_person(http, f"G{i}") for i in range(8)]
            made = await asyncio.gather(*(http.post("/api/rooms", json={"public": True}, headers=g.auth)
                                          for g in guests))
            assert Counter(r.status_code for r in made) == {201: 4, 429: 4}
            assert len((await http.get("/api/rooms")).json()["items"]) == 4
            assert (await http.post("/api/rooms", json={}, headers=guests[0].auth)).status_code == 201  # private
        other = httpx.ASGITransport(app=app, client=("198.51.100.8", 4000))
        async with httpx.AsyncClient(transport=other, base_url="http://testserver") as http:
            ann = await new_person(http, "Ann")
            assert (await http.post("/api/rooms", json={"public": True}, headers=ann.auth)).status_code == 201


async def test_rooms_left_untouched_fall_off_the_list(api: httpx.AsyncClient, db_url: str) -> None:
    ann, bob = await new_person(api, "Ann"), await new_person(api, "Bob")
    old = (await api.post("/api/rooms", json={"public": True}, headers=ann.auth)).json()["code"]
    new = (await api.post("/api/rooms", json={"public": True}, headers=bob.auth)).json()["code"]
    from app.store.db import make_engine, make_sessions

    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s:
            await s.execute(update(Room).where(Room.code == old).values(updated_at=utcnow() - timedelta(hours=2),
                                                                         created_at=utcnow() - timedelta(hours=2)))
            await s.commit()
    finally:
        await engine.dispose()
    assert [r["code"] for r in (await api.get("/api/rooms")).json()["items"]] == [new]
