"""A received server message against its one schema (`app.web.wire.room`): exactly the fields the
schema declares, no more and none missing, through every object the server declares (the
engine's open objects, a field with an `x-js` type such as the view, are the engine's tests')."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from app.web.wire import room as wire


def _schema(tp: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    s = TypeAdapter(tp).json_schema(mode="serialization")
    return s, s.get("$defs", {})


FULL, SPLIT, DELTA = _schema(wire.ServerMessage), _schema(wire.SplitServerMessage), _schema(wire.DeltaServerMessage)


def wire_problems(msg: dict[str, Any], *, split: bool = False, delta: bool = False) -> list[str]:
    """What in `msg` its schema does not declare, or declares and `msg` lacks (empty: none)."""
    root, defs = DELTA if delta else SPLIT if split else FULL
    problems: list[str] = []
    _check(msg, root, defs, msg.get("type", "?"), problems)
    return problems


def _check(value: Any, s: dict[str, Any], defs: dict[str, Any], where: str, problems: list[str]) -> None:
    if "x-js" in s:
        return
    if "$ref" in s:
        _check(value, defs[s["$ref"].rsplit("/", 1)[-1]], defs, where, problems)
        return
    if "discriminator" in s:
        ref = s["discriminator"]["mapping"].get(value.get("type"))
        if ref is None:
            problems.append(f"{where}: no message has type {value.get('type')!r}")
        else:
            _check(value, {"$ref": ref}, defs, where, problems)
        return
    if value is None:
        return
    options = s.get("anyOf") or s.get("oneOf")
    if options:
        for option in options:
            if option.get("type") != "null":
                _check(value, option, defs, where, problems)
                return
        return
    if s.get("type") == "object" and "properties" in s:
        declared, required = set(s["properties"]), set(s.get("required", ()))
        extra, missing = sorted(set(value) - declared), sorted(required - set(value))
        if extra or missing:
            problems.append(f"{where}: undeclared {extra}, missing {missing}")
        for key in set(value) & declared:
            _check(value[key], s["properties"][key], defs, f"{where}.{key}", problems)
    elif s.get("type") == "array" and "items" in s:
        for i, item in enumerate(value):
            _check(item, s["items"], defs, f"{where}[{i}]", problems)
