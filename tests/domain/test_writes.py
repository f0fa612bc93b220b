"""A move's write record (`app.domain.writes.MoveWrite`): which records are plain (the writer's
inline and lean path), and that a record cannot be changed on its way to the store."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from app.domain.records import HandEnd
from app.domain.writes import MatchChange, MoveWrite

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PLAYING = MatchChange("playing", [3, 0], None, None, NOW, 1)


def _move(**changes: object) -> MoveWrite:
    write = MoveWrite("m1", 4, 5, 1, 0, "player", "a", {"kind": "end_turn"}, PLAYING, "ROOM0001")
    return dataclasses.replace(write, **changes)  # type: ignore[arg-type]


def test_a_move_that_only_advances_its_match_is_plain() -> None:
    assert _move().plain


def test_a_hand_end_a_room_change_or_winners_make_a_move_not_plain() -> None:
    end = HandEnd(1, {"reason": "payoff_out"}, [25, 4], [25, 4], [0, 7])
    over = MatchChange("match_over", [25, 4], None, None, NOW, None, [0], NOW)
    assert not _move(hand_end=end).plain
    assert not _move(room_values={"status": "over"}).plain
    assert not _move(match=over).plain


def test_a_record_is_frozen_and_has_no_room_for_anything_else() -> None:
    write = _move()
    with pytest.raises(dataclasses.FrozenInstanceError):
        write.seq = 6  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        write.match.status = "match_over"  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        object.__setattr__(write, "done", None)  # slots: a future has no place on the shared record
