"""static/types.js is generated from the server's schemas (scripts/gen_types.py): the committed
file is what the script writes now, so a schema changed without regenerating fails here."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_types", ROOT / "scripts" / "gen_types.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_types_js_is_what_the_schemas_make() -> None:
    written = (ROOT / "static" / "types.js").read_text()
    assert written == _generator().render(), "static/types.js is out of date: run python scripts/gen_types.py"


def _properties(text: str, name: str) -> list[str]:
    block = text.split(f"@typedef {{object}} {name}\n", 1)[1].split(" */", 1)[0]
    return [line.split("} ", 1)[1].split()[0].strip("[]") for line in block.splitlines() if "@property" in line]


def test_each_message_has_exactly_its_schemas_fields() -> None:
    from app.rooms.core import messages
    from app.web.wire import room as wire

    text = _generator().render()
    assert _properties(text, "Room") == list(messages.RoomInfo.__annotations__)
    assert set(_properties(text, "StateMessage")) == set(wire.SplitState.__annotations__)
    assert _properties(text, "ChatMessage") == ["type", "from", "text", "at"]
    assert '"rated_room"' in text.split("} ErrorCode", 1)[0].rsplit("@typedef", 1)[1]
