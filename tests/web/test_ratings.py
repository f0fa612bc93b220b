"""Rated rooms: accounts only, no bots; at a rated match's end every seat is rated (Weng-Lin)
in the transaction of the last move, the result shows the change, and the profile, history
and leaderboard show the ratings."""

from __future__ import annotations

import random
from typing import Any

import httpx

from .helpers import Person, ServerThread, Sock, new_account, new_person, new_room, pick, seat_everyone

SHORT = {"preset": "short", "options": {"payoff_size": 5}}
FRESH = {"leaderboard_min_age_hours": 0}  # the board lists accounts made by the test a moment ago


async def play_to_result(socks: list[Sock], rng: random.Random, loser: int | None = None) -> dict[str, Any]:
    """Drive the current match to its end; the `loser` seat never plays from its pay-off pile
    (so the others win). Returns the last state."""
    await socks[0].wait(lambda m: m["type"] == "state")
    match_id = socks[0].last_state()["match_id"]  # type: ignore[index]
    v = max(st["v"] for s in socks for st in s.states() if st["match_id"] == match_id)
    for _ in range(5000):
        latest = [await s.state_at(v, match_id=match_id) for s in socks]
        view = latest[0]["view"]
        if view["status"] == "match_over":
            return latest[0]
        if view["status"] == "hand_over":
            await socks[0].send({"type": "next_hand"})
            v += 1
            continue
        mover = next((i for i, st in enumerate(latest) if st["view"]["legal_moves"]), None)
        if mover is None:  # a bot's turn
            v += 1
            continue
        moves = latest[mover]["view"]["legal_moves"]
        if mover == loser:  # never from its pay-off pile: its pile stays full, the others empty theirs
            move = pick([m for m in moves if not m.get("from", "").startswith("payoff")] or moves, rng)
        else:
            move = pick(moves, rng)
        await socks[mover].send({"type": "move", "id": socks[mover].next_id(), "move": move})
        v += 1
    raise AssertionError("the match did not end")


async def rated_pair(server: ServerThread, http: httpx.AsyncClient, a: Person, b: Person,
                     seed: str) -> tuple[str, list[Sock]]:
    room = await new_room(http, a, rated=True, seed=seed, **SHORT)
    assert room["rated"] is True
    socks = [await Sock.open(server.base, room["code"], p) for p in (a, b)]
    await seat_everyone(socks[0], socks)
    await socks[0].send({"type": "start"})
    return room["code"], socks


async def test_a_rated_room_takes_accounts_only_and_no_bots(server: ServerThread, http: httpx.AsyncClient) -> None:
    guest = await new_person(http, "Gus")
    r = await http.post("/api/rooms", json={"rated": True}, headers=guest.auth)
    assert r.status_code == 403 and "account" in r.json()["message"]
    ann = await new_account(http, "Ann")
    room = await new_room(http, ann, rated=True, public=True, **SHORT)
    listed = (await http.get("/api/rooms")).json()["items"]
    assert [x["rated"] for x in listed if x["code"] == room["code"]] == [True]
    assert (await new_room(http, ann, **SHORT))["rated"] is False
    host = await Sock.open(server.base, room["code"], ann)
    err = await host.error({"type": "add_bot", "seat": 1, "level": "easy"})
    assert err["code"] == "rated_room" and "bot" in err["message"]
    visitor = await Sock.open(server.base, room["code"], guest)
    assert visitor.messages[0]["you"]["account"] is False
    err = await visitor.error({"type": "sit", "seat": 1})
    assert err["code"] == "rated_room" and "account" in err["message"]
    await host.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
    err = await host.error({"type": "start"})
    assert err["code"] == "not_allowed_now"
    assert (await http.get(f"/api/rooms/{room['code']}")).json()["seats"][1]["player_id"] is None


async def test_a_rated_room_refuses_take_backs(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_account(http, "Ann")
    r = await http.post("/api/rooms", json={"rated": True, "options": {"take_backs": True}}, headers=ann.auth)
    assert r.status_code == 422 and "take-backs" in r.json()["message"], r.text
    assert (await new_room(http, ann, options={"take_backs": True}))["rated"] is False  # unrated: allowed
    room = await new_room(http, ann, rated=True, **SHORT)
    host = await Sock.open(server.base, room["code"], ann)
    err = await host.error({"type": "configure", "options": {"payoff_size": 5, "take_backs": True}})
    assert err["code"] == "bad_options" and err.get("option") == "take_backs"


async def test_a_rated_room_gives_no_hints(server: ServerThread, http: httpx.AsyncClient) -> None:
    """A rated room is made with hints off (whatever was asked), cannot turn them on,
    and refuses a hint with a reason; an unrated room still gives them."""
    ann, bob = await new_account(http, "Ann"), await new_account(http, "Bob")
    room = await new_room(http, ann, rated=True, hints=True, seed="rated-hints", **SHORT)
    assert room["hints"] is False
    host = await Sock.open(server.base, room["code"], ann)
    err = await host.error({"type": "configure", "hints": True})
    assert err["code"] == "bad_options" and err.get("option") == "hints" and "rated" in err["message"]
    assert (await http.get(f"/api/rooms/{room['code']}")).json()["hints"] is False
    await host.close()
    _, socks = await rated_pair(server, http, ann, bob, "rated-hints-2")
    await socks[0].wait(lambda m: m["type"] == "state")
    mover = next(s for s in socks if s.last_state()["view"]["legal_moves"])  # type: ignore[index]
    err = await mover.error({"type": "hint"})
    assert err["code"] == "hints_off" and "rated" in err["message"]
    assert (await new_room(http, ann, **SHORT))["hints"] is True


async def test_a_rated_match_rates_every_seat_once_and_shows_the_change(start_server: Any) -> None:
    server: ServerThread = start_server(**FRESH, leaderboard_min_games=1, leaderboard_min_opponents=1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_account(http, "Ann"), await new_account(http, "Bob")
        _, socks = await rated_pair(server, http, ann, bob, "rated-1")
        last = await play_to_result(socks, random.Random(3), loser=1)
        assert last["view"]["result"]["match_winners"] == [0]
        awards = last["awards"]
        changes = {r["player_id"]: r for r in awards["ratings"]}
        assert set(changes) == {ann.id, bob.id}
        assert changes[ann.id]["after"]["mu"] > changes[ann.id]["before"]["mu"] == 25
        assert changes[bob.id]["after"]["mu"] < 25 and changes[bob.id]["after"]["games"] == 1
        # a first match moves ratings a lot, while they are uncertain: the server says so
        assert changes[ann.id]["before"]["uncertain"] is changes[ann.id]["after"]["uncertain"] is True
        assert "first_win" in {a["key"] for a in awards["achievements"] if a["player_id"] == ann.id}
        b_last = await socks[1].state_at(last["v"])
        assert b_last["awards"] == awards  # everyone at the table sees it
        profile = (await http.get(f"/api/players/{ann.id}")).json()
        assert profile["rating"] == changes[ann.id]["after"]
        history = (await http.get(f"/api/players/{ann.id}/ratings")).json()
        assert history["next"] is None and len(history["items"]) == 1
        item = history["items"][0]
        assert item["match_id"] == last["match_id"] and item["after"] == changes[ann.id]["after"]
        assert item["before"] == changes[ann.id]["before"] and item["before"]["uncertain"] is True
        board = (await http.get("/api/leaderboard")).json()
        assert [row["player_id"] for row in board["items"]] == [ann.id, bob.id]
        assert board["items"][0]["rank"] == 1 and board["items"][0]["name"] == "Ann" and board["min_games"] == 1
        # A socket that comes back later still sees what the match's end awarded.
        again = await Sock.open(server.base, socks[0].messages[1]["room"]["code"], ann)
        assert (await again.state_at(last["v"]))["awards"] == awards


async def test_more_wins_against_the_same_opponent_rate_higher(start_server: Any) -> None:
    server: ServerThread = start_server(**FRESH, leaderboard_min_games=3, leaderboard_min_opponents=1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_account(http, "Ann"), await new_account(http, "Bob")
        winners = []
        for i, loser in enumerate((1, 0, 1)):  # Ann wins two, Bob one
            _, socks = await rated_pair(server, http, ann, bob, f"mono-{i}x")
            last = await play_to_result(socks, random.Random(i), loser=loser)
            winners += last["view"]["result"]["match_winners"]
            for s in socks:
                await s.close()
        assert winners == [0, 1, 0]
        a = (await http.get(f"/api/players/{ann.id}")).json()["rating"]
        b = (await http.get(f"/api/players/{bob.id}")).json()["rating"]
        assert a["games"] == b["games"] == 3
        assert a["ordinal"] > b["ordinal"] and a["mu"] > b["mu"]
        board = (await http.get("/api/leaderboard", params={"limit": 1})).json()
        assert [r["player_id"] for r in board["items"]] == [ann.id] and board["next"]
        rest = (await http.get("/api/leaderboard", params={"limit": 1, "cursor": board["next"]})).json()
        assert [(r["player_id"], r["rank"]) for r in rest["items"]] == [(bob.id, 2)] and rest["next"] is None
        page = (await http.get(f"/api/players/{bob.id}/ratings", params={"limit": 2})).json()
        more = (await http.get(f"/api/players/{bob.id}/ratings", params={"cursor": page["next"]})).json()
        items = page["items"] + more["items"]
        assert len(items) == 3 and more["next"] is None
        assert [it["after"]["games"] for it in items] == [3, 2, 1]  # newest first
        assert items[0]["before"] == items[1]["after"]


async def test_unrated_rooms_and_the_default_leaderboard_rate_nobody(server: ServerThread,
                                                                     http: httpx.AsyncClient) -> None:
    ann, bob = await new_account(http, "Ann"), await new_account(http, "Bob")
    room = await new_room(http, ann, seed="unrated", **SHORT)
    socks = [await Sock.open(server.base, room["code"], p) for p in (ann, bob)]
    await seat_everyone(socks[0], socks)
    await socks[0].send({"type": "start"})
    last = await play_to_result(socks, random.Random(2), loser=1)
    assert last["awards"]["ratings"] == []
    assert (await http.get(f"/api/players/{ann.id}")).json()["rating"] is None
    assert (await http.get(f"/api/players/{ann.id}/ratings")).json() == {"items": [], "next": None}
    board = (await http.get("/api/leaderboard")).json()
    assert board == {"items": [], "next": None, "min_games": 5, "min_opponents": 3, "min_age_hours": 24.0,
                     "you": None}
    mine = (await http.get("/api/leaderboard", headers=ann.auth)).json()["you"]
    assert (mine["games"], mine["opponents"], mine["listed"]) == (0, 0, False)
    assert (await http.get("/api/leaderboard", params={"cursor": "nonsense"})).status_code == 400
    assert (await http.get("/api/players/nobody/ratings")).status_code == 404


async def test_a_stand_in_still_moves_for_an_absent_player_in_a_rated_room(start_server: Any) -> None:
    server: ServerThread = start_server(absent_grace=1.0)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_account(http, "Ann"), await new_account(http, "Bob")
        _, socks = await rated_pair(server, http, ann, bob, "stand-in")
        st = await socks[0].state_at(0)
        away = st["view"]["turn"]
        here = socks[1 - away]
        start = len(here.messages)
        await socks[away].close()
        auto = await here.wait(lambda m: m["type"] == "state" and any(
            e.get("type") == "autoplay" and e.get("by") == "absent" and e.get("seat") == away for e in m["events"]),
            timeout=8, start=start)
        assert auto["v"] > st["v"] and auto["autoplay"] == [away]


async def test_the_leaderboard_needs_different_opponents(start_server: Any, db_url: str) -> None:
    """Rating farming: an account that only ever beats one puppet account is not listed
    (SPITE_LEADERBOARD_MIN_OPPONENTS, 3); the same data with 1 lists both."""
    server: ServerThread = start_server(**FRESH, leaderboard_min_games=1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, puppet = await new_account(http, "Ann"), await new_account(http, "Puppet")
        _, socks = await rated_pair(server, http, ann, puppet, "puppet-1")
        await play_to_result(socks, random.Random(3), loser=1)
        board = (await http.get("/api/leaderboard", headers=ann.auth)).json()
        assert board["items"] == [] and (board["min_games"], board["min_opponents"]) == (1, 3)
        # Where Ann stands, counted as the board counts: one rated match, one opponent of the three.
        assert {k: board["you"][k] for k in ("games", "opponents", "listed")} == {"games": 1, "opponents": 1,
                                                                                  "listed": False}
    lenient: ServerThread = start_server(**FRESH, leaderboard_min_games=1, leaderboard_min_opponents=1)
    async with httpx.AsyncClient(base_url=lenient.base, timeout=30) as http:
        board = (await http.get("/api/leaderboard", headers=ann.auth)).json()
        assert [row["player_id"] for row in board["items"]] == [ann.id, puppet.id]
        assert board["you"]["listed"] is True


async def test_a_match_where_a_seat_never_played_is_not_rated(start_server: Any) -> None:
    """Rating farming: a puppet account that only lets the clock (and then a stand-in) play
    for it hands out no rating: the match ends, nobody's rating moves."""
    server: ServerThread = start_server(**FRESH, leaderboard_min_games=1, leaderboard_min_opponents=1,
                                        next_hand_seconds=1, rated_min_turn_seconds=1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, puppet = await new_account(http, "Ann"), await new_account(http, "Puppet")
        room = await new_room(http, ann, rated=True, turn_seconds=1, **SHORT)
        socks = [await Sock.open(server.base, room["code"], p) for p in (ann, puppet)]
        await seat_everyone(socks[0], socks)
        await socks[0].send({"type": "start"})
        a, rng = socks[0], random.Random(5)
        first = await a.wait(lambda m: m["type"] == "state")
        v, match_id = first["v"], first["match_id"]
        for _ in range(3000):
            st = await a.state_at(v, timeout=30, match_id=match_id)
            view = st["view"]
            if view["status"] == "match_over":
                break
            if view["status"] == "hand_over":
                await a.send({"type": "next_hand"})
            elif view["legal_moves"]:
                await a.send({"type": "move", "id": a.next_id(), "move": pick(view["legal_moves"], rng)})
            v += 1
        else:
            raise AssertionError("the match did not end")
        assert not (st.get("awards") or {}).get("ratings"), st.get("awards")
        for p in (ann, puppet):
            assert (await http.get(f"/api/players/{p.id}")).json()["rating"] is None
        assert (await http.get("/api/leaderboard")).json()["items"] == []


async def test_rematches_against_the_same_opponent_count_less_then_not_at_all(start_server: Any) -> None:
    """Rating farming: with SPITE_RATED_REPEAT_FULL=1 the second rated win over the same account
    moves the rating half as far, the fourth not at all (and is not counted in `games`)."""
    server: ServerThread = start_server(rated_repeat_full=1, **FRESH, leaderboard_min_games=1,
                                        leaderboard_min_opponents=1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, puppet = await new_account(http, "Ann"), await new_account(http, "Puppet")
        gains = []
        for i in range(4):
            _, socks = await rated_pair(server, http, ann, puppet, f"farm-{i}")
            last = await play_to_result(socks, random.Random(i), loser=1)
            assert last["view"]["result"]["match_winners"] == [0]
            for s in socks:
                await s.close()
            items = (await http.get(f"/api/players/{ann.id}/ratings", params={"limit": 1})).json()["items"]
            gains.append(items[0]["after"]["mu"] - items[0]["before"]["mu"])
        assert gains[0] > gains[1] > gains[2] > 0 and gains[3] == 0
        assert gains[1] < 0.75 * gains[0]
        assert (await http.get(f"/api/players/{ann.id}")).json()["rating"]["games"] == 3
