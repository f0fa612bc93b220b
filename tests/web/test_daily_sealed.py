"""Every read path of a finished daily deal's match, read by a stranger while the day lasts:
none of them shows a card the day's other players have yet to meet (the replay, its steps, the
review, watching the room with its states and hand log answer `daily_sealed`; the match and the
history show no seed), and once the day is over they open."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import httpx
import pytest

from .helpers import Person, ServerThread, Sock, new_person
from .test_daily import QUICK, play_alone


@dataclass
class Finished:
    """A daily deal Ann played to the end (and asked the review of), and a stranger."""

    server: ServerThread
    http: httpx.AsyncClient
    ann: Person
    stranger: Person
    code: str
    match_id: str


async def finish_daily(server: ServerThread, http: httpx.AsyncClient) -> Finished:
    ann, stranger = await new_person(http, "Ann"), await new_person(http, "Mallory")
    code = (await http.post("/api/daily", headers=ann.auth)).json()["room"]
    sock = await Sock.open(server.base, code, ann)
    last = await play_alone(sock, random.Random(3))
    await sock.close()
    asked = await http.post(f"/api/matches/{last['match_id']}/review", headers=ann.auth)
    assert asked.status_code == 202, asked.text
    return Finished(server, http, ann, stranger, code, last["match_id"])


async def sealed_replay(f: Finished) -> httpx.Response:
    r = await f.http.get(f"/api/matches/{f.match_id}/replay", headers=f.stranger.auth)
    assert r.status_code == 403 and r.json()["reason"] == "daily_sealed", r.text
    return r


async def read_detail(f: Finished) -> None:
    r = await f.http.get(f"/api/matches/{f.match_id}", headers=f.stranger.auth)
    assert r.status_code == 200 and "daily-" not in r.text and r.json()["room"] is None, r.text


async def read_history(f: Finished) -> None:
    r = await f.http.get(f"/api/players/{f.ann.id}/matches", headers=f.stranger.auth)
    assert r.status_code == 200 and f.match_id in r.text and "daily-" not in r.text, r.text
    assert all(m["room"] is None for m in r.json()["items"])


async def read_replay(f: Finished) -> None:
    await sealed_replay(f)


async def read_replay_step(f: Finished) -> None:
    r = await f.http.get(f"/api/matches/{f.match_id}/replay", params={"at": 1}, headers=f.stranger.auth)
    assert (r.status_code, r.json()) == (403, (await sealed_replay(f)).json()), r.text


async def read_review(f: Finished) -> None:
    expected = (await sealed_replay(f)).json()
    for who in ({}, f.stranger.auth, f.ann.auth):  # nobody, a stranger, the player herself
        r = await f.http.get(f"/api/matches/{f.match_id}/review", headers=who)
        assert (r.status_code, r.json()) == (403, expected), r.text


async def read_analysis(f: Finished) -> None:
    expected = (await sealed_replay(f)).json()
    for who in (f.stranger.auth, f.ann.auth):  # a stranger, the player herself: the analysis board
        r = await f.http.post(f"/api/matches/{f.match_id}/analysis", json={"v": 1, "seat": 0}, headers=who)
        assert (r.status_code, r.json()) == (403, expected), r.text


async def watch_room(f: Finished) -> None:
    sock = await Sock.open(f.server.base, f.code, f.stranger, hello=False)
    await sock.send({"type": "hello", "token": f.stranger.token, "last_v": None})
    error = await sock.wait(lambda m: m["type"] in ("error", "welcome", "state", "log"))
    assert error["type"] == "error", sock.summary()
    assert (error["code"], error["reason"], error["params"]) == ("not_allowed_now", "daily_sealed",
                                                                 (await sealed_replay(f)).json()["params"])
    await sock.reader
    assert sock.closed is not None and sock.closed[0] == 4403  # protocol.md: may not be watched now
    assert [m["type"] for m in sock.messages] == ["error"]  # no welcome, room, state or log


READS: dict[str, Callable[[Finished], Awaitable[None]]] = {
    "match": read_detail, "history": read_history, "replay": read_replay, "replay_step": read_replay_step,
    "review": read_review, "watch": watch_room, "analysis": read_analysis,
}


@pytest.mark.parametrize("path", sorted(READS))
async def test_no_read_path_shows_a_daily_deal_while_its_day_lasts(start_server, path: str) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(**QUICK)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        await READS[path](await finish_daily(server, http))


async def test_every_read_path_opens_once_the_day_is_over(start_server, db_url: str) -> None:  # type: ignore[no-untyped-def]
    day: ServerThread = start_server(daily_day="2020-01-01", **QUICK)
    async with httpx.AsyncClient(base_url=day.base, timeout=30) as http:
        f = await finish_daily(day, http)
        await sealed_replay(f)
    after: ServerThread = start_server(daily_day="2020-01-02", **QUICK)
    async with httpx.AsyncClient(base_url=after.base, timeout=30) as http:
        assert (await http.get(f"/api/matches/{f.match_id}/replay")).status_code == 200
        assert (await http.get(f"/api/matches/{f.match_id}/review")).status_code == 200
        detail = (await http.get(f"/api/matches/{f.match_id}")).json()
        assert detail["hands"][0]["seed"].startswith("daily-2020-01-01-")
        sock = await Sock.open(after.base, f.code, f.stranger)
        assert (await sock.wait(lambda m: m["type"] == "state"))["match_id"] == f.match_id
        await sock.close()
