"""The host removes a person from the room: `remove_player` frees their seat,
connected or not, before the first match or between matches; only the host may (not a
seated player standing in for an absent host), and every other case is refused by name."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from app.domain.records import RoomStatus, Seen
from app.rooms.core import commands as C
from app.rooms.core import errors as E
from app.rooms.core.errors import RoomError
from app.rooms.core.lobby import decide_lobby
from app.rooms.core.model import Room

from .fakes import START
from .test_core import GUEST, HOST, OTHER, RULES, lobby, playing, sit


def refusal(room: Room, who: object, seat: int, at: object = START) -> RoomError:
    with pytest.raises(RoomError) as refused:
        decide_lobby(room, who, C.RemovePlayer(seat), at, RULES)  # type: ignore[arg-type]
    return refused.value


def test_the_host_removes_a_person_who_is_here() -> None:
    room = lobby(3)
    sit(room, HOST)
    sit(room, GUEST)
    room.here.update({HOST.player_id: 1, GUEST.player_id: 1})
    patch = decide_lobby(room, HOST, C.RemovePlayer(1), START, RULES)
    assert patch is not None and not isinstance(patch.seating, C.Unset)
    assert patch.seating[1] is None and patch.seating[0] is not None and patch.seating[0].player_id == HOST.player_id


def test_only_the_host_removes_a_person_not_a_stand_in() -> None:
    room = lobby(3)
    sit(room, HOST)
    sit(room, GUEST)
    sit(room, OTHER)
    refused = refusal(room, OTHER, 1)
    assert (refused.code, refused.reason, refused.params) == (E.NOT_HOST, "not_host", {"action": "remove_player"})
    assert refused.message == "only the host can remove a person from the room"
    # The host away past the grace: a seated player may free an absent player's seat, but not remove a person.
    del room.here[HOST.player_id]
    room.presence = {HOST.player_id: Seen(False, START)}
    later = START + timedelta(seconds=RULES.absent_grace + 1)
    assert refusal(room, OTHER, 1, later).code == E.NOT_HOST


def test_what_cannot_be_removed_is_refused_by_name() -> None:
    room = lobby(3)
    sit(room, HOST)
    patch = decide_lobby(room, HOST, C.AddBot(1, "easy"), START, RULES)
    assert patch is not None
    room.state = patch.applied(room.state, room.state.rev + 1)
    assert refusal(room, HOST, 1).reason == "bot_in_seat"
    assert refusal(room, HOST, 2).reason == "seat_empty"
    assert refusal(room, HOST, 0).reason == "own_seat"
    nowhere = refusal(room, HOST, 7)
    assert (nowhere.code, nowhere.reason) == (E.BAD_MESSAGE, "no_such_seat")


def test_nobody_is_removed_during_a_match_but_between_matches_they_may_be() -> None:
    room = playing(lobby())
    during = refusal(room, HOST, 1)
    assert (during.code, during.reason) == (E.NOT_ALLOWED_NOW, "lobby_only")
    assert during.params == {"action": "remove_player"}
    room.state = replace(room.state, status=RoomStatus.OVER)
    patch = decide_lobby(room, HOST, C.RemovePlayer(1), START, RULES)
    assert patch is not None and not isinstance(patch.seating, C.Unset) and patch.seating[1] is None


async def test_a_room_made_with_sit_has_its_host_in_the_first_seat() -> None:
    from app.rooms.shell.directory import create_room
    from app.store.tables import Player

    from .fakes import MemoryStorage, settings

    store = MemoryStorage()
    host = Player(id="h", name="Hana")
    kw: dict[str, object] = {"preset": "short", "options": None, "seats": 3, "public": False, "turn_seconds": None,
                             "hints": True, "seed": None}
    code = await create_room(store, settings(), host, START, sit=True, **kw)  # type: ignore[arg-type]
    assert [s and s.player_id for s in store.rooms[code].seating] == ["h", None, None]
    assert store.rooms[code].seating[0] is not None and store.rooms[code].seating[0].name == "Hana"
    other = await create_room(store, settings(), host, START, **kw)  # type: ignore[arg-type]
    assert store.rooms[other].seating == [None, None, None]
