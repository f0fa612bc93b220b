"""A NUL character (U+0000) in anything a client sends is a 422 `nul_character`, never a 5xx:
PostgreSQL cannot hold one, and a query carrying one failed in the driver (503
`database_away`, the SQL in the log). Walked over every route of the app's OpenAPI schema (each
string in its path, its query and its JSON body) and every client message of both sockets (each
string field of the wire models), on every database the tests run on, so a new endpoint or message
is covered the day it is added."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx
from websockets.asyncio.client import connect

from app.web.wire.lobby import LOBBY_CLIENT
from app.web.wire.room import CLIENT_MESSAGE

from .helpers import Person, ServerThread, Sock, new_person, new_room

NUL = "a\u0000b"


def _resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = spec.get("components", {}).get("schemas", {}).get(name) or spec["$defs"][name]
    return schema


def _is_string(schema: dict[str, Any], spec: dict[str, Any]) -> bool:
    schema = _resolve(schema, spec)
    options = schema.get("anyOf", []) + schema.get("oneOf", []) + [schema]
    return any(_resolve(s, spec).get("type") == "string" for s in options)


def _string_fields(schema: dict[str, Any], spec: dict[str, Any]) -> list[list[str]]:
    """The paths to every string field of an object schema (nested objects too)."""
    out: list[list[str]] = []
    for name, prop in _resolve(schema, spec).get("properties", {}).items():
        if _is_string(prop, spec):
            out.append([name])
        for option in [prop, *prop.get("anyOf", [])]:
            option = _resolve(option, spec)
            if option.get("type") == "object" and "properties" in option:
                out.extend([name, *rest] for rest in _string_fields(option, spec))
    return out


def _nested(path: list[str], value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {path[-1]: value}
    for key in reversed(path[:-1]):
        out = {key: out}
    return out


def _requests(spec: dict[str, Any], room: str) -> list[tuple[str, str, dict[str, Any], dict[str, Any] | None]]:
    """(method, url, query, body): one request per string of each operation, carrying a NUL there."""
    out: list[tuple[str, str, dict[str, Any], dict[str, Any] | None]] = []
    for template, operations in spec["paths"].items():
        for method, op in operations.items():
            params = op.get("parameters", [])
            plain = {p["name"]: room if p["name"] == "code" else "1" for p in params if p["in"] == "path"}

            def url(values: dict[str, str], template: str = template) -> str:
                return template.format(**{k: quote(v, safe="") for k, v in values.items()})

            for p in params:
                if not _is_string(p.get("schema", {}), spec):
                    continue
                if p["in"] == "path":
                    out.append((method, url({**plain, p["name"]: NUL}), {}, None))
                elif p["in"] == "query":
                    out.append((method, url(plain), {p["name"]: NUL}, None))
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body is not None:
                for field in _string_fields(body, spec):
                    out.append((method, url(plain), {}, _nested(field, NUL)))
                out.append((method, url(plain), {}, {NUL: 1}))  # a key, too
    return out


async def test_every_route_refuses_a_nul_in_any_string(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    room = (await new_room(http, ann))["code"]
    spec = server.app.openapi()
    requests = _requests(spec, room)
    assert len(requests) > 40  # the walk found the app's routes
    assert ("delete", "/api/players/me/push", {}, {"endpoint": NUL}) in requests
    for method, url, query, body in requests:
        r = await http.request(method.upper(), url, params=query, json=body, headers=ann.auth)
        assert r.status_code == 422, (method, url, query, body, r.status_code, r.text)
        assert r.json()["reason"] == "nul_character", r.text
    # the NUL refused, the same requests work: the push subscription is still the caller's to forget
    r = await http.request("DELETE", "/api/players/me/push", json={"endpoint": "https://push.example/x"},
                           headers=ann.auth)
    assert r.status_code == 204, r.text
    # a body that only spells a backslash and "u0000" carries no NUL
    r = await http.patch("/api/players/me", json={"name": "Ann\\u0000"}, headers=ann.auth)
    assert r.status_code == 200, r.text


def _socket_messages(adapter: Any) -> list[dict[str, Any]]:
    """Every client message of a socket's union with a NUL in one of its string fields."""
    spec = adapter.json_schema()
    out = []
    for member in spec.get("oneOf", spec.get("anyOf", [])):
        schema = _resolve(member, spec)
        kind = schema["properties"]["type"]["const"]
        for field in _string_fields(schema, spec):
            if field != ["type"]:
                out.append({"type": kind, **_nested(field, NUL)})
        out.append({"type": kind, NUL: 1})
    return out


async def _hello_closes(server: ServerThread, path: str, person: Person) -> None:
    async with connect(server.base.replace("http", "ws", 1) + path, open_timeout=10) as ws:
        await ws.send(f'{{"type": "hello", "token": "{person.token}\\u0000"}}')
        await ws.wait_closed()
        assert ws.close_code == 4401, ws.close_code


async def test_every_socket_message_refuses_a_nul_in_any_string(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    room = (await new_room(http, ann))["code"]
    messages = [m for m in _socket_messages(CLIENT_MESSAGE) if m["type"] != "hello"]
    assert {"chat", "move", "configure"} <= {m["type"] for m in messages}
    sock = await Sock.open(server.base, room, ann)
    for msg in messages:
        answer = await sock.error(msg)
        assert answer.get("reason") == "nul_character", (msg, answer)
    pong = await sock.request({"type": "ping"}, lambda m: m["type"] == "pong")
    assert pong and sock.closed is None
    await sock.close()
    assert {m["type"] for m in _socket_messages(LOBBY_CLIENT)} == {"hello", "ping"}
    await _hello_closes(server, f"/ws/rooms/{room}", ann)
    await _hello_closes(server, "/ws/lobby", ann)
