"""A tournament's settings, the pure part: whether a create request is acceptable, whether a
tournament may start with the players it has, how many Swiss rounds it plays by default, and
whether a player may still join. No I/O and no clock: the shell parses `starts_at` from ISO 8601,
reads the time and passes `now`; it checks `preset`, `options` and `turn_seconds` against the
engine and the room rules (`app/rooms/core/config.py`) itself.

Every refusal is a `Refusal` with a stable `reason` key and its `params` (docs/tournaments.md).
The reason keys used here:

- `tournament_field`: a field has the wrong type (`params`: `field`, `expected`);
- `tournament_name`: the name is empty or longer than 60 characters once trimmed (`max`);
- `tournament_format`: the format is not swiss, round_robin or arena (`format`);
- `tournament_pace`: the pace is not live or turn_based (`pace`);
- `tournament_seats`: seats other than 2 for swiss and round_robin, or outside 2..4 for arena
  (`format`, `min`, `max`);
- `tournament_rounds`: Swiss rounds outside 1..20, rounds given for a format that derives them,
  or more Swiss rounds than players − 1 at the start (`format`, `min`, `max`);
- `tournament_minutes`: an arena's length outside 10..180 live or 10..10080 turn-based, or minutes
  given to a format that has rounds (`format`, `min`, `max`);
- `tournament_double_format`: `double` on a format other than round_robin (`format`);
- `tournament_duplicate_format`: `duplicate` on an arena (`format`);
- `tournament_turn_seconds`: a turn clock that is not a positive number of seconds;
- `tournament_max_players`: `max_players` outside 2..1000 (round_robin 2..20), or more players
  than that at the start (`format`, `min`, `max`);
- `tournament_starts_at`: a start time in the past or without a time zone;
- `tournament_players`: too few players to start (`min`, `players`);
- `tournament_full`: joining a tournament that has `max_players` already (`max`);
- `tournament_closed`: joining too late for the format (`format`, and `round` or `minutes`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from app.tournaments.core.model import Format, Pace
from app.tournaments.core.round_robin import round_robin_rounds

Status = Literal["open", "running", "over"]

FORMATS: tuple[Format, ...] = ("swiss", "round_robin", "arena")
PACES: tuple[Pace, ...] = ("live", "turn_based")
NAME_MAX = 60
SWISS_ROUNDS_MAX = 20
PLAYERS_MAX = 1000
ROUND_ROBIN_PLAYERS_MAX = 20
ARENA_MINUTES_MIN = 10
ARENA_MINUTES_MAX = {"live": 180, "turn_based": 7 * 24 * 60}
ARENA_SEATS = (2, 4)
ARENA_LAST_JOIN_MINUTES = 5  # an arena takes new players until 5 minutes (or 10 % of it) before its end


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a request is refused: a stable snake_case key and what the message needs."""

    reason: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """A validated create request. `rounds`: the Swiss rounds asked for (None: `swiss_rounds` of
    the players at the start); None for round_robin (`round_robin_rounds` at the start) and arena.
    `minutes`: an arena's length, None otherwise."""

    name: str
    format: Format
    seats: int = 2
    rounds: int | None = None
    double: bool = False
    minutes: int | None = None
    preset: str | None = None
    options: dict[str, Any] | None = None
    pace: Pace = "live"
    turn_seconds: int | None = None
    duplicate: bool = False
    rated: bool = False
    public: bool = False
    max_players: int = PLAYERS_MAX
    starts_at: datetime | None = None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _typed(raw: dict[str, Any]) -> Refusal | None:
    """The first field of the wrong type, if any (absent and null fields take their default)."""
    kinds: dict[str, tuple[str, Any]] = {
        "name": ("string", str), "format": ("string", str), "pace": ("string", str),
        "preset": ("string", str), "options": ("object", dict), "starts_at": ("datetime", datetime),
        "double": ("boolean", bool), "duplicate": ("boolean", bool), "rated": ("boolean", bool),
        "public": ("boolean", bool),
    }
    for name, (expected, kind) in kinds.items():
        value = raw.get(name)
        if value is not None and not isinstance(value, kind):
            return Refusal("tournament_field", {"field": name, "expected": expected})
    for name in ("seats", "rounds", "minutes", "turn_seconds", "max_players"):
        value = raw.get(name)
        if value is not None and not _is_int(value):
            return Refusal("tournament_field", {"field": name, "expected": "integer"})
    return None


def _ranges(s: TournamentSettings, raw: dict[str, Any]) -> Refusal | None:
    """The first setting outside what its format allows, if any."""
    fmt = s.format
    if fmt == "arena":
        if not ARENA_SEATS[0] <= s.seats <= ARENA_SEATS[1]:
            return Refusal("tournament_seats", {"format": fmt, "min": ARENA_SEATS[0], "max": ARENA_SEATS[1]})
    elif s.seats != 2:
        return Refusal("tournament_seats", {"format": fmt, "min": 2, "max": 2})
    if fmt == "swiss" and s.rounds is not None and not 1 <= s.rounds <= SWISS_ROUNDS_MAX:
        return Refusal("tournament_rounds", {"format": fmt, "min": 1, "max": SWISS_ROUNDS_MAX})
    if fmt != "swiss" and raw.get("rounds") is not None:
        return Refusal("tournament_rounds", {"format": fmt, "min": 0, "max": 0})
    if fmt == "arena":
        top = ARENA_MINUTES_MAX[s.pace]
        if s.minutes is None or not ARENA_MINUTES_MIN <= s.minutes <= top:
            return Refusal("tournament_minutes", {"format": fmt, "min": ARENA_MINUTES_MIN, "max": top})
    elif s.minutes is not None:
        return Refusal("tournament_minutes", {"format": fmt, "min": 0, "max": 0})
    if s.double and fmt != "round_robin":
        return Refusal("tournament_double_format", {"format": fmt})
    if s.duplicate and fmt == "arena":
        return Refusal("tournament_duplicate_format", {"format": fmt})
    if s.turn_seconds is not None and s.turn_seconds <= 0:
        return Refusal("tournament_turn_seconds", {})
    top_players = ROUND_ROBIN_PLAYERS_MAX if fmt == "round_robin" else PLAYERS_MAX
    if not 2 <= s.max_players <= top_players:
        return Refusal("tournament_max_players", {"format": fmt, "min": 2, "max": top_players})
    return None


def validate(raw: dict[str, Any], now: datetime) -> TournamentSettings | Refusal:
    """A create request's settings, or why they are refused. `raw` is the request body with
    `starts_at` already parsed to a datetime by the shell; `now` is the current (aware) time."""
    if (wrong := _typed(raw)) is not None:
        return wrong
    name = (raw.get("name") or "").strip()
    if not 1 <= len(name) <= NAME_MAX:
        return Refusal("tournament_name", {"max": NAME_MAX})
    fmt = raw.get("format")
    if fmt not in FORMATS:
        return Refusal("tournament_format", {"format": fmt})
    pace = raw.get("pace") or "live"
    if pace not in PACES:
        return Refusal("tournament_pace", {"pace": pace})
    starts_at = raw.get("starts_at")
    if starts_at is not None and (starts_at.tzinfo is None or starts_at < now):
        return Refusal("tournament_starts_at", {})
    default_max = ROUND_ROBIN_PLAYERS_MAX if fmt == "round_robin" else PLAYERS_MAX
    settings = TournamentSettings(
        name=name, format=fmt, seats=raw.get("seats") or 2,
        rounds=raw.get("rounds") if fmt == "swiss" else None, double=bool(raw.get("double")),
        minutes=raw.get("minutes"), preset=raw.get("preset"), options=raw.get("options"), pace=pace,
        turn_seconds=raw.get("turn_seconds"), duplicate=bool(raw.get("duplicate")),
        rated=bool(raw.get("rated")), public=bool(raw.get("public")),
        max_players=raw.get("max_players") or default_max, starts_at=starts_at,
    )
    return _ranges(settings, raw) or settings


def swiss_rounds(players: int) -> int:
    """The default number of Swiss rounds: enough to find a single winner, ceil(log2 players),
    at least 1."""
    return max(1, math.ceil(math.log2(max(players, 1))))


def rounds_to_play(settings: TournamentSettings, players: int) -> int | None:
    """How many rounds the tournament plays with these players (None: an arena, timed)."""
    if settings.format == "swiss":
        return settings.rounds if settings.rounds is not None else swiss_rounds(players)
    if settings.format == "round_robin":
        return round_robin_rounds(players, settings.double)
    return None


def check_start(settings: TournamentSettings, players: int) -> Refusal | None:
    """Why the tournament cannot start with `players` players (not withdrawn), or None.

    A table needs its seats filled (2; an arena's `seats`); a Swiss of more rounds than
    players − 1 would have to pair someone with the same opponent twice."""
    least = settings.seats if settings.format == "arena" else 2
    if players < least:
        return Refusal("tournament_players", {"min": least, "players": players})
    if players > settings.max_players:
        return Refusal("tournament_max_players",
                       {"format": settings.format, "min": 2, "max": settings.max_players})
    if settings.format == "swiss":
        rounds = rounds_to_play(settings, players) or 0
        if rounds > players - 1:
            return Refusal("tournament_rounds", {"format": "swiss", "min": 1, "max": players - 1})
    return None


def swiss_last_join_round(settings: TournamentSettings, players: int) -> int:
    """The last Swiss round a newcomer may join before: they may join until the round that is
    half the rounds (rounded up) has started; so while rounds 1..this one have not all started."""
    rounds = rounds_to_play(settings, players) or 1
    return max(1, math.ceil(rounds / 2))


def may_join(settings: TournamentSettings, status: Status, current_round: int, now: datetime,
             ends_at: datetime | None, *, players: int = 0) -> Refusal | None:
    """Why a player may not join now, or None (docs/tournaments.md, "Late joining").

    `current_round`: the last round that has started (0 before the start); `players`: how many
    have joined already; `ends_at`: an arena's end once it runs.
    - open: anyone, until `max_players`;
    - Swiss: until the round that is half the rounds (rounded up) has started: a latecomer scores
      0 for the rounds they missed, without a bye;
    - round-robin: only before the start (the Berger tables are drawn for the players there are);
    - arena: until 5 minutes before the end, or 10 % of its length if that is shorter;
    - over: nobody."""
    if players >= settings.max_players:
        return Refusal("tournament_full", {"max": settings.max_players})
    if status == "open":
        return None
    fmt = settings.format
    if status == "over" or fmt == "round_robin":
        return Refusal("tournament_closed", {"format": fmt, "round": current_round})
    if fmt == "swiss":
        last = swiss_last_join_round(settings, players)
        if current_round >= last:
            return Refusal("tournament_closed", {"format": fmt, "round": last})
        return None
    minutes = min(ARENA_LAST_JOIN_MINUTES, (settings.minutes or 0) / 10)
    if ends_at is not None and now >= ends_at - timedelta(minutes=minutes):
        return Refusal("tournament_closed", {"format": fmt, "minutes": minutes})
    return None
