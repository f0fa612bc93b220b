"""Delta frames (docs/protocol.md, "Delta frames"): what changed between two views a receiver
was sent, at the top level of each part and one level into `players`.

Made from the observer's outputs only (`shared_view`, `own_view`: the parts a `state` carries),
never from the engine's state, so a delta carries nothing the receiver's full view would not:
applying it to the view it was made from gives exactly the new view (`apply_delta`, the tests').
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson


@dataclass(frozen=True, slots=True)
class PartChange:
    """One part's change: the top-level keys that changed (new values), the keys gone, and
    (for the shared part) `players` by seat index when only some seats' keys changed."""

    changed: dict[str, Any]
    gone: list[str]
    players: dict[str, dict[str, Any]]


def _players_patch(old: Any, new: Any) -> dict[str, dict[str, Any]] | None:
    """`new` as changed keys of each seat of `old`; None when the seats or their keys differ
    (then `players` is sent whole)."""
    if not isinstance(old, list) or not isinstance(new, list) or len(old) != len(new):
        return None
    patch: dict[str, dict[str, Any]] = {}
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        if a == b:
            continue
        if not isinstance(a, dict) or not isinstance(b, dict) or a.keys() != b.keys():
            return None
        patch[str(i)] = {k: x for k, x in b.items() if a[k] != x}
    return patch


def part_change(old: dict[str, Any], new: dict[str, Any], *, players: bool = False) -> PartChange:
    """What makes `old` into `new` (`players`: go one level into the `players` list)."""
    changed = {k: x for k, x in new.items() if k not in old or old[k] != x}
    gone = [k for k in old if k not in new]
    patch: dict[str, dict[str, Any]] = {}
    if players and "players" in changed and "players" in old:
        found = _players_patch(old["players"], changed["players"])
        if found is not None:
            del changed["players"]
            patch = found
    return PartChange(changed, gone, patch)


@dataclass(frozen=True, slots=True)
class Delta:
    """A receiver's change from the table at version `base` it holds: the parts of a `delta`
    message, the shared ones encoded once per version for every receiver."""

    base: int
    gone: list[str]
    shared: orjson.Fragment
    players: orjson.Fragment
    own: dict[str, Any]


class SharedChange:
    """The shared part's change of one version, encoded once (every delta receiver takes it)."""

    __slots__ = ("base", "gone", "shared", "players")

    def __init__(self, base: int, old: dict[str, Any], new: dict[str, Any]) -> None:
        change = part_change(old, new, players=True)
        self.base = base
        self.gone = change.gone
        self.shared = orjson.Fragment(orjson.dumps(change.changed))
        self.players = orjson.Fragment(orjson.dumps(change.players))

    def with_own(self, old_own: dict[str, Any], new_own: dict[str, Any]) -> Delta:
        own = part_change(old_own, new_own)
        return Delta(self.base, self.gone + own.gone, self.shared, self.players, own.changed)


def apply_delta(view: dict[str, Any], msg: dict[str, Any]) -> dict[str, Any]:
    """The view a `delta` message makes of `view` (a new object; `view` is not changed)."""
    out = {k: x for k, x in view.items() if k not in msg["gone"]}
    out.update(msg["shared"])
    if msg["players"]:
        seats = list(out["players"])
        for seat, keys in msg["players"].items():
            seats[int(seat)] = {**seats[int(seat)], **keys}
        out["players"] = seats
    out.update(msg["own"])
    return out
