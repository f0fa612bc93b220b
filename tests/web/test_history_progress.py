"""History's `progress`: where a match stands for the caller, in the list of a
player's matches and in the match's detail: resume (you played in it), watch (a public table),
private (a private room's match you did not play in), abandoned (a live match nobody moved in
for SPITE_ABANDONED_AFTER seconds), over."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import httpx

from .helpers import Person, ServerThread, Sock, match_with_bot, new_person, new_room, play_to_end, seat_everyone


async def progress_of(http: httpx.AsyncClient, player: Person, match_id: str, who: Person | None) -> str:
    """The match's `progress` as `who` (None: nobody signed in) reads it, in both answers (they agree)."""
    headers = who.auth if who else {}
    page = (await http.get(f"/api/players/{player.id}/matches", headers=headers)).json()
    listed = next(i for i in page["items"] if i["id"] == match_id)
    detail = (await http.get(f"/api/matches/{match_id}", headers=headers)).json()
    assert listed["progress"] == detail["progress"], (listed, detail)
    return str(detail["progress"])


async def test_progress_says_which_link_a_history_shows(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(abandoned_after=2)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, eve = await new_person(http, "Ann"), await new_person(http, "Eve")
        matches = {}
        for public in (False, True):
            _code, matches[public], a = await match_with_bot(server.base, http, ann, public=public)
            await a.close()  # nobody at the table: the bot does not play on
        for public, match_id in matches.items():
            assert await progress_of(http, ann, match_id, ann) == "resume"
            for who in (eve, None):
                assert await progress_of(http, ann, match_id, who) == ("watch" if public else "private")
        in_progress = lambda: http.get(f"/api/players/{ann.id}/stats")  # noqa: E731
        assert (await in_progress()).json()["in_progress"] == 2
        await asyncio.sleep(2.5)  # no move for longer than abandoned_after
        for match_id in matches.values():
            for who in (ann, eve, None):
                assert await progress_of(http, ann, match_id, who) == "abandoned"
        assert (await in_progress()).json()["in_progress"] == 0  # the profile's count agrees with the history

        bob = await new_person(http, "Bob")
        room = await new_room(http, ann, seats=2, preset="short")
        socks = [await Sock.open(server.base, room["code"], p) for p in (ann, bob)]
        await seat_everyone(socks[0], socks)
        await socks[0].send({"type": "start"})
        last = await play_to_end(socks, random.Random(7))
        for who in (ann, eve, None):
            assert await progress_of(http, ann, last["match_id"], who) == "over"
        for s in socks:
            await s.close()
