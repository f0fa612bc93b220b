"""Resign over real sockets (docs/protocol.md, "Resign (v1.4)"): a seated player gives the match
up on any turn; a spectator cannot (a clear error, nothing changes), nor anyone once the match is
over; the move log and the replay show who resigned; in a rated room it is rated as a loss."""

from __future__ import annotations

from typing import Any

import httpx

from .helpers import ServerThread, Sock, new_account, new_person, new_room, seat_everyone
from .test_rated_clock import play_turn
from .test_ratings import SHORT
from .wire_check import wire_problems


def _over(m: dict[str, Any]) -> bool:
    return m["type"] == "state" and m["view"]["status"] == "match_over"


async def test_a_player_resigns_off_their_turn_and_a_spectator_cannot(server: ServerThread,
                                                                      http: httpx.AsyncClient) -> None:
    ann, bob, cal = [await new_person(http, n) for n in ("Ann", "Bob", "Cal")]
    room = await new_room(http, ann, seed="resign", **SHORT)
    socks = [await Sock.open(server.base, room["code"], p) for p in (ann, bob)]
    watcher = await Sock.open(server.base, room["code"], cal)
    await seat_everyone(socks[0], socks)
    early = await socks[1].error({"type": "resign"})
    assert (early["code"], early["reason"]) == ("game_not_started", "not_started")
    await socks[0].send({"type": "start"})
    st = await socks[0].state_at(0)
    v, match_id = st["v"], st["match_id"]
    turn = st["view"]["turn"]
    quitter = 1 - turn  # not the seat to move
    refused = await watcher.error({"type": "resign"})
    assert (refused["code"], refused["reason"]) == ("not_allowed_now", "resign_players")
    assert refused["message"] == "only a player of this match can resign it"

    over = await socks[quitter].request({"type": "resign"}, _over)
    assert over["v"] == v + 1, "the spectator's resign changed nothing"
    assert over["events"] == [{"type": "resign", "seat": quitter},
                              {"type": "hand_over", "reason": "resign", "winners": [turn], "scores": [0, 0]}]
    result = over["view"]["result"]
    assert result["reason"] == "resign" and result["match_winners"] == [turn] and result["match_over"]
    assert not wire_problems(over)
    seen = await watcher.wait(_over)
    assert seen["v"] == v + 1 and {"type": "resign", "seat": quitter} in seen["events"]

    for s in socks:  # once the match is over nobody can resign it
        late = await s.error({"type": "resign"})
        assert (late["code"], late["reason"]) == ("not_allowed_now", "resign_over")
    replay = (await http.get(f"/api/matches/{match_id}/replay")).json()
    last = replay["moves"][-1]
    assert (last["move"], last["actor"], last["seat"]) == ({"kind": "forfeit", "from": f"payoff:{quitter}"},
                                                           "player", quitter)
    assert replay["hands"][-1]["result"]["reason"] == "resign" and replay["total"] == v + 1
    for s in (*socks, watcher):
        await s.close()


async def test_a_rated_resign_counts_as_a_loss(start_server: Any) -> None:
    server: ServerThread = start_server(absent_grace=600, rated_forfeit_min_moves=1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_account(http, "Ann", "ann"), await new_account(http, "Bob", "bob")
        room = await new_room(http, ann, rated=True, seed="resign-rated", turn_seconds=3600, **SHORT)
        socks = [await Sock.open(server.base, room["code"], p) for p in (ann, bob)]
        await seat_everyone(socks[0], socks)
        await socks[0].send({"type": "start"})
        st = await socks[0].state_at(0)
        v = st["v"]
        for _ in range(2):  # each plays a turn of their own (a match nobody played is not rated)
            v = await play_turn(socks[st["view"]["turn"]], v)
            st = await socks[0].state_at(v)
        quitter = st["view"]["turn"]  # on their own turn this time
        over = await socks[quitter].request({"type": "resign"}, _over)
        assert over["view"]["result"]["match_winners"] == [1 - quitter]
        ratings = over["awards"]["ratings"]
        assert ratings, "a rated resign is rated"
        for s in socks:
            await s.close()
        people = (ann, bob)
        lost = (await http.get(f"/api/players/{people[quitter].id}")).json()["rating"]
        won = (await http.get(f"/api/players/{people[1 - quitter].id}")).json()["rating"]
        assert lost["games"] == won["games"] == 1
        assert won["mu"] > lost["mu"] and won["ordinal"] > lost["ordinal"]
