"""Crafted page cursors: every cursor that is not of the shape the server
makes is a 400 before any query, on SQLite and PostgreSQL alike: never a 5xx from a date at the
calendar's end, an integer past the column's range, NaN, or a NUL byte."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx

from .helpers import new_person


def _cursor(parts: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(parts).encode()).decode().rstrip("=")


CRAFTED = {
    "ratings": [["2026-01-01T00:00:00+00:00", 2**63], ["2026-01-01T00:00:00+00:00", -1],
                ["0001-01-01T00:00:00+14:00", 1], ["2026-01-01T00:00:00", 1], ["2026-01-01T00:00:00+00:00", True],
                ["2026-01-01T00:00:00+00:00", 1.5], ["2026-01-01T00:00:00+00:00"], "x", 5],
    "matches": [["0001-01-01T00:00:00+14:00", "abc"], ["9999-12-31T23:59:59-14:00", "abc"],
                ["2026-01-01T00:00:00+00:00", "a\u0000b"], ["2026-01-01T00:00:00+00:00", 12], [None, "abc"]],
    "leaderboard": [[0, "a\u0000b", 0], [float("nan"), "abc", 0], [1e308, "abc", 0], [0, "abc", 2**63],
                    [0, "abc", -1], [0, "abc"], ["0", "abc", 0]],
}


async def test_crafted_cursors_are_400(api: httpx.AsyncClient) -> None:
    ann = await new_person(api, "Ann")
    paths = {"ratings": f"/api/players/{ann.id}/ratings", "matches": f"/api/players/{ann.id}/matches",
             "leaderboard": "/api/leaderboard"}
    for kind, cursors in CRAFTED.items():
        for parts in cursors:
            raw = base64.urlsafe_b64encode(json.dumps(parts, allow_nan=True).encode()).decode().rstrip("=")
            r = await api.get(paths[kind], params={"cursor": raw})
            assert r.status_code == 400, (kind, parts, r.status_code, r.text)
            assert "cursor" in r.json()["message"]
    for kind, path in paths.items():  # and a good cursor still pages
        good = {"ratings": ["2026-01-01T00:00:00+00:00", 7], "matches": ["2026-01-01T00:00:00+00:00", ann.id],
                "leaderboard": [0.5, ann.id, 3]}[kind]
        r = await api.get(path, params={"cursor": _cursor(good)})
        assert r.status_code == 200, (kind, r.text)
