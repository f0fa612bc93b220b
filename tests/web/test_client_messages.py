"""The room socket's client messages (`app.web.wire.room.CLIENT_MESSAGE`): a frame is validated
straight into the room command it asks for (`app.rooms.core.commands`, the one schema), its move
parsed into the engine's `Move`; strict types, unknown fields ignored, unknown types refused."""

from __future__ import annotations

import dataclasses
from typing import Any, get_args

import orjson
import pytest
from pydantic import ValidationError

from app.engine.moves import Move
from app.rooms.core import commands as C
from app.web.sockets.frames import refused_frame
from app.web.wire import room as wire

SMALLEST: dict[str, dict[str, Any]] = {  # each room command with its required fields
    "remove_bot": {"seat": 1}, "free_seat": {"seat": 1}, "remove_player": {"seat": 1},
    "move": {"move": {"kind": "end_turn"}}, "chat": {"text": "hi"},
}


def type_of(cls: type) -> str:
    return str(next(f.default for f in dataclasses.fields(cls) if f.name == "type"))


def parse(msg: dict[str, Any]) -> Any:
    return wire.CLIENT_MESSAGE.validate_json(orjson.dumps(msg))


def refused(msg: dict[str, Any]) -> tuple[str, str | None, dict[str, Any]]:
    with pytest.raises(ValidationError) as e:
        parse(msg)
    return refused_frame(e.value, wire.CLIENT_TYPES)


def test_every_room_message_is_its_core_command_with_no_second_class() -> None:
    commands = get_args(C.Command)
    assert ("hello", *(type_of(c) for c in commands), "ping") == wire.CLIENT_TYPES
    for cls in commands:
        got = parse({"type": type_of(cls), **SMALLEST.get(type_of(cls), {})})
        assert type(got) is cls and dataclasses.is_dataclass(got), (cls, got)
        assert not hasattr(wire, cls.__name__) or getattr(wire, cls.__name__) is cls  # no wire twin
    assert not hasattr(wire, "to_command") and not hasattr(wire, "MoveRequest")
    assert isinstance(parse({"type": "hello", "token": "t"}), wire.Hello)
    assert isinstance(parse({"type": "ping"}), wire.Ping)


def test_fields_arrive_as_the_core_types_them() -> None:
    assert parse({"type": "sit", "seat": 2}) == C.Sit(2)
    assert parse({"type": "add_bot", "level": "hard"}) == C.AddBot(None, "hard")
    assert parse({"type": "rematch", "accept": False}) == C.Rematch(False)
    move = parse({"type": "move", "id": "m-1", "move": {"kind": "play", "card": 7, "from": "hand", "to": "centre:0"}})
    assert move == C.MakeMove(Move("play", 7, "hand", "centre:0"), "m-1") and isinstance(move.move, Move)
    assert parse({"type": "move", "id": 12, "move": {"kind": "end_turn"}}).id == "12"  # the core sees a string
    assert parse({"type": "move", "id": -(2**53), "move": {"kind": "end_turn"}}).id == str(-(2**53))
    assert parse({"type": "move", "move": {"kind": "end_turn", "card": 3}}) == C.MakeMove(Move("end_turn"))
    # a resign names nobody: the room takes the sender's seat (a seat sent along is ignored)
    assert parse({"type": "resign"}) == parse({"type": "resign", "seat": 1}) == C.Resign()


def test_strict_types_are_refused_with_the_field_named() -> None:
    for msg, field in [({"type": "sit", "seat": "1"}, "seat"), ({"type": "sit", "seat": True}, "seat"),
                       ({"type": "chat", "text": 5}, "text"), ({"type": "rematch", "accept": 1}, "accept"),
                       ({"type": "configure", "turn_seconds": "30"}, "turn_seconds"),
                       ({"type": "configure", "turn_seconds": 1.5}, "turn_seconds"),
                       ({"type": "move", "id": 1.5, "move": {"kind": "end_turn"}}, "id"),
                       ({"type": "move", "id": True, "move": {"kind": "end_turn"}}, "id"),
                       ({"type": "move", "id": 2**53 + 1, "move": {"kind": "end_turn"}}, "id"),
                       ({"type": "move", "id": "x" * 65, "move": {"kind": "end_turn"}}, "id"),
                       ({"type": "move", "id": "", "move": {"kind": "end_turn"}}, "id"),
                       ({"type": "move", "id": "evil\x00x", "move": {"kind": "end_turn"}}, "id"),
                       ({"type": "move", "id": "é", "move": {"kind": "end_turn"}}, "id"),
                       ({"type": "move", "id": "a"}, "move"),
                       ({"type": "move", "move": "play"}, "move"),
                       ({"type": "add_bot", "level": "x" * 17}, "level"),
                       ({"type": "configure", "preset": "x" * 33}, "preset"),
                       ({"type": "chat", "text": "x" * 4001}, "text"),
                       ({"type": "remove_bot"}, "seat")]:
        english, reason, params = refused(msg)
        assert (reason, params) == ("bad_field", {"field": field}), (msg, english)
        assert english.startswith(f"{field}: "), english


def test_unknown_fields_are_ignored_and_unknown_types_refused() -> None:
    assert parse({"type": "sit", "seat": 1, "colour": "red"}) == C.Sit(1)
    assert parse({"type": "stand", "seat": 4}) == C.Stand(4)  # stand's seat is read, and ignored by the room
    assert refused({"type": "dance"})[1] == "unknown_type"
    assert refused({"seat": 1})[1] == "unknown_type"
    with pytest.raises(ValidationError):
        parse({"type": "sit", "seat": 1} | {"type": "Sit"})


def test_configure_tells_turn_seconds_left_out_from_null() -> None:
    assert parse({"type": "configure", "seats": 3}).turn_seconds is C.UNSET
    assert parse({"type": "configure", "turn_seconds": None}).turn_seconds is None
    assert parse({"type": "configure", "turn_seconds": 30}).turn_seconds == 30
    assert C.Configure().turn_seconds is C.UNSET and C.Configure(turn_seconds=None).turn_seconds is None
    with pytest.raises(ValidationError):  # the sentinel is never something a client can send
        parse({"type": "configure", "turn_seconds": "UNSET"})


def test_a_malformed_move_is_refused_at_the_edge_with_the_engines_words() -> None:
    for bad, words in [({"kind": "fly"}, "a move's kind must be one of"),
                       ({"kind": "play", "card": "x", "from": "hand", "to": "centre:0"}, "a move's card"),
                       ({"kind": "play", "card": 3, "to": "centre:0"}, "a move needs 'from'"),
                       ({"kind": "discard", "card": 3, "to": "x" * 33}, "a move needs 'to'")]:
        english, reason, params = refused({"type": "move", "id": "m-9", "move": bad})
        assert (reason, params) == ("bad_move", {}) and english.startswith(words), english


def test_the_schema_keeps_type_required_and_shows_no_sentinel() -> None:
    schema = wire.CLIENT_MESSAGE.json_schema()
    for name in (c.__name__ for c in get_args(C.Command)):
        assert "type" in schema["$defs"][name]["required"], name
    configure = schema["$defs"]["Configure"]["properties"]
    assert "default" not in configure["turn_seconds"] and "turn_seconds" not in schema["$defs"]["Configure"]["required"]
    assert schema["$defs"]["MakeMove"]["properties"]["move"]["x-js"] == "Move"
