"""The room core is pure: importing any of its modules, in a fresh interpreter, loads no
database driver, no event loop, no store, no bus and no settings (pydantic); the shell holds
the core's room by composition."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import pytest

from app.rooms.live import LiveRoom
from app.rooms.model import Room, RoomState
from app.rooms.records import RoomStatus

CORE = ("lobby", "match_rules", "timers", "steps", "model", "effects", "achievements", "messages", "notices",
        "records", "config", "commands", "errors", "matcher", "daily_rules", "pace", "reminders", "handlog", "rematch")
FORBIDDEN = ("sqlalchemy", "asyncio", "app.store", "app.bus", "app.settings", "pydantic", "pydantic_settings",
             "openskill", "aiosqlite", "redis")
PROBE = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("module", CORE)
def test_a_core_module_loads_no_io(module: str) -> None:
    out = subprocess.run([sys.executable, "-c", PROBE, f"app.rooms.{module}"], capture_output=True, text=True,
                         check=True).stdout
    loaded = set(__import__("json").loads(out))
    found = sorted(m for m in loaded if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))
    assert found == [], f"app.rooms.{module} loads {found}"


def test_the_live_room_holds_the_core_room_rather_than_being_one() -> None:
    state = RoomState("ROOM", "h", "standard", {}, 2, True, None, True, None, RoomStatus.WAITING, [None, None], 0,
                      None, 0)
    room = Room(state, None, loaded_at=datetime(2026, 12, 1, tzinfo=UTC))
    live = LiveRoom(room)
    assert not isinstance(live, Room) and live.room is room and live.code == "ROOM"
