"""A daily deal's room, the pure rules: no hints whatever its row says (asked, configured, in
the room object), and no watcher while its day lasts."""

from __future__ import annotations

import pytest

from app.rooms.core import commands as C
from app.rooms.core import errors as E
from app.rooms.core.daily_room import check_watch, is_daily, today
from app.rooms.core.errors import RoomError
from app.rooms.core.lobby import decide_lobby
from app.rooms.core.match_rules import decide_hint
from app.rooms.core.messages import room_info

from .fakes import START
from .test_core import HOST, RULES, lobby, playing, to_move

SEED = "daily-2026-12-01-" + "ab" * 16


def test_a_daily_room_gives_no_hints_even_if_its_row_says_so() -> None:
    room = playing(lobby(seed=SEED, hints=True))
    assert is_daily(room.state) and not is_daily(lobby().state)
    assert room_info(room)["hints"] is False
    with pytest.raises(RoomError) as off:
        decide_hint(room, to_move(room))
    assert (off.value.code, off.value.reason) == (E.HINTS_OFF, "daily_no_hints")
    with pytest.raises(RoomError) as configured:
        decide_lobby(lobby(seed=SEED, hints=False), HOST, C.Configure(hints=True), START, RULES)
    assert (configured.value.code, configured.value.option, configured.value.reason) == (
        E.BAD_OPTIONS, "hints", "daily_no_hints")


def test_nobody_without_a_seat_watches_a_daily_room_until_its_day_is_over() -> None:
    state = lobby(seed=SEED).state
    for day in ("2026-11-30", "2026-12-01"):
        with pytest.raises(RoomError) as sealed:
            check_watch(state, None, day)
        assert (sealed.value.code, sealed.value.reason, sealed.value.params) == (
            E.NOT_ALLOWED_NOW, "daily_sealed", {"day": "2026-12-01"})
        check_watch(state, 0, day)  # its player
    check_watch(state, None, "2026-12-02")  # the day is over
    check_watch(lobby().state, None, "2026-12-01")  # any other room
    assert today(START, "2020-01-01") == "2020-01-01" and today(START) == START.date().isoformat()
