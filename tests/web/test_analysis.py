"""The analysis board over HTTP, on a real database and the board's real process pool: the
position as one seat saw it, what-if moves and their branches, the cache, every refusal by name,
and the player's rate."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from app.engine import Match, Move, options_from_json, view
from tests.conftest import SQLITE_ONLY

from .helpers import ServerThread, Sock, new_person, new_room, seat_everyone
from .review_helpers import finished_match

BOARD = {"analysis_ms": 0, "analysis_samples": 12}  # the samples alone: the same answer every time


def _ask(match_id: str) -> str:
    return f"/api/matches/{match_id}/analysis"


async def _replay(http: httpx.AsyncClient, match_id: str) -> dict[str, Any]:
    r = await http.get(f"/api/matches/{match_id}/replay")
    assert r.status_code == 200, r.text
    return dict(r.json())


def _mover(replay: dict[str, Any]) -> tuple[int, int]:
    """A version at which a seat is to move (the seat of the next move)."""
    move = replay["moves"][2]
    return move["seq"] - 1, move["seat"]


def _match_at(replay: dict[str, Any], v: int) -> Match:
    return Match.replay(options_from_json(replay["options"]), replay["names"],
                        [_hand(replay)], upto=v)


def _hand(replay: dict[str, Any]) -> Any:
    from app.engine import HandRecord
    h = replay["hands"][0]
    return HandRecord(h["seed"], [Move.from_wire(m["move"]) for m in replay["moves"] if m["hand"] == h["number"]],
                      h["deal_order"])


async def test_the_board_answers_the_seats_view_and_its_what_ifs(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(**BOARD)
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        ann, bob, match_id = await finished_match(server.base, http)
        carol = await new_person(http, "Carol")  # anyone with a token may analyse a finished match
        replay = await _replay(http, match_id)
        v, seat = _mover(replay)
        r = await http.post(_ask(match_id), json={"v": v, "seat": seat, "moves": []}, headers=carol.auth)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["position"] == view(_match_at(replay, v), seat)  # that seat's view, nothing more
        assert body["v"] == v and body["seat"] == seat and body["reason"] is None and not body["cached"]
        assert body["legal_moves"] and 1 <= len(body["lines"]) <= 4
        assert all(0 <= line["chance"] <= 1 and line["move"] in body["legal_moves"] for line in body["lines"])
        # asked again: the same answer, from the cache
        again = (await http.post(_ask(match_id), json={"v": v, "seat": seat}, headers=ann.auth)).json()
        assert again["cached"] and {**again, "cached": False} == body
        # a what-if move, then a branch from the same position
        first, second = body["legal_moves"][0], body["legal_moves"][-1]
        one = await http.post(_ask(match_id), json={"v": v, "seat": seat, "moves": [first]}, headers=ann.auth)
        assert one.status_code == 200, one.text
        m = _match_at(replay, v)
        m.apply(Move.from_wire(first), seat)
        assert one.json()["position"] == view(m, seat) and one.json()["moves"] == [first]
        two = await http.post(_ask(match_id), json={"v": v, "seat": seat, "moves": [second]}, headers=bob.auth)
        assert two.status_code == 200 and two.json()["moves"] == [second]
        # the other seat at that version: its view, no lines (not its turn)
        other = (await http.post(_ask(match_id), json={"v": v, "seat": 1 - seat}, headers=ann.auth)).json()
        assert other["reason"] == "not_your_turn" and other["lines"] == [] and other["legal_moves"] == []
        assert other["position"]["hand"] != body["position"]["hand"]


@SQLITE_ONLY
async def test_bad_questions_are_refused_by_name(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(**BOARD)
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        ann, _bob, match_id = await finished_match(server.base, http)
        replay = await _replay(http, match_id)
        v, seat = _mover(replay)

        async def refused(body: Any, status: int, reason: str | None, who: dict[str, str] | None = None,
                          match: str = match_id) -> dict[str, Any]:
            r = await http.post(_ask(match), json=body, headers=ann.auth if who is None else who)
            assert r.status_code == status, r.text
            out = dict(r.json())
            if reason is not None:
                assert out["reason"] == reason and out["message"], out
            return out

        await refused({"v": v, "seat": seat}, 401, "no_token", who={})
        await refused({"v": v, "seat": seat}, 404, "no_match", match="nosuchmatch")
        await refused({"v": v, "seat": seat}, 404, "no_match", match="bad%27id;drop")
        out = await refused({"v": replay["total"] + 1, "seat": seat}, 422, "analysis_v_range")
        assert out["params"] == {"total": replay["total"]}
        await refused({"v": v, "seat": 2}, 422, "analysis_seat_range")
        await refused({"v": "three", "seat": seat}, 422, None)  # malformed body
        await refused({"seat": seat}, 422, None)
        await refused({"v": v, "seat": seat, "moves": [{"kind": "fly"}]}, 422, "bad_move")
        held = {c["id"] for c in view(_match_at(replay, v), seat)["hand"]}
        stranger = next(c for c in range(104) if c not in held)
        out = await refused({"v": v, "seat": seat, "moves": [{"kind": "discard", "card": stranger,
                                                              "to": f"side:{seat}:0"}]}, 422, "illegal_move")
        assert out["move_reason"] == "discard_from_hand" and out["index"] == 0
        legal = view(_match_at(replay, v), seat)["legal_moves"][0]
        out = await refused({"v": v, "seat": 1 - seat, "moves": [legal]}, 422, "illegal_move")
        assert out["move_reason"] == "not_your_turn"

        # a live match: 409, its cards stay hidden
        room = await new_room(http, ann, preset="short", seats=2)
        dan = await new_person(http, "Dan")
        a, d = await Sock.open(server.base, room["code"], ann), await Sock.open(server.base, room["code"], dan)
        try:
            await seat_everyone(a, [a, d])
            await a.send({"type": "start"})
            live = (await a.state_at(0))["match_id"]
            await refused({"v": 0, "seat": 1}, 409, "replay_not_over", match=live)
        finally:
            await a.close()
            await d.close()


@SQLITE_ONLY
async def test_a_player_has_a_rate_and_one_question_in_flight(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(**BOARD, analysis_per_minute=3)
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        ann, bob, match_id = await finished_match(server.base, http)
        codes = []
        for v in range(5):
            r = await http.post(_ask(match_id), json={"v": v, "seat": 0}, headers=ann.auth)
            codes.append(r.status_code)
            if r.status_code == 429:
                assert r.json()["reason"] == "analysis_rate_limited" and int(r.headers["Retry-After"]) >= 1
        assert codes == [200, 200, 200, 429, 429], codes
        assert (await http.post(_ask(match_id), json={"v": 1, "seat": 0}, headers=ann.auth)).status_code == 200
        # cached: free
        assert (await http.post(_ask(match_id), json={"v": 4, "seat": 0}, headers=bob.auth)).status_code == 200


@SQLITE_ONLY
async def test_one_in_flight_and_a_bounded_queue(start_server: Callable[..., ServerThread]) -> None:
    import asyncio
    server = start_server(analysis_ms=0, analysis_samples=400, analysis_queue=1)
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        ann, bob, match_id = await finished_match(server.base, http)
        replay = await _replay(http, match_id)
        v, seat = _mover(replay)
        first = asyncio.ensure_future(http.post(_ask(match_id), json={"v": v, "seat": seat}, headers=ann.auth))
        await asyncio.sleep(0.3)  # the first question is being answered (the pool starts with it)
        r = await http.post(_ask(match_id), json={"v": v - 1, "seat": seat}, headers=ann.auth)
        assert r.status_code == 429 and r.json()["reason"] == "analysis_in_flight", r.text
        r = await http.post(_ask(match_id), json={"v": v - 2, "seat": seat}, headers=bob.auth)
        assert r.status_code == 503 and r.json()["reason"] == "analysis_busy", r.text
        assert (await first).status_code == 200
        r = await http.post(_ask(match_id), json={"v": v - 2, "seat": seat}, headers=bob.auth)
        assert r.status_code == 200, r.text


@SQLITE_ONLY
async def test_an_answer_past_its_time_is_a_named_503(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(analysis_ms=50, analysis_samples=100000, analysis_timeout=0.1)  # the pool's start
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        ann, _bob, match_id = await finished_match(server.base, http)
        v, seat = _mover(await _replay(http, match_id))
        r = await http.post(_ask(match_id), json={"v": v, "seat": seat}, headers=ann.auth)
        assert r.status_code == 503 and r.json()["reason"] == "analysis_timeout" and r.json()["message"], r.text
