"""Room configuration: a preset, option overrides, seats, the turn clock; resolved by the engine.
And `RoomRules`, the settings the core's decisions read.

`seats` and `options.players` are the same thing: given both and different, the request is
refused. Overrides are stored without `players` (the seat count is kept on its own).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.engine import PRESETS, Options, OptionsError, make_options
from app.rooms.core.errors import ConfigError
from app.rooms.core.pace import DEFAULT_TURN_BASED_SECONDS, PACES, TURN_BASED, turn_bounds

RATED_TURN_SECONDS = 60  # the turn clock of a rated room that names none (no stalling)

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # 32 symbols: no I, O, 0, 1
CODE_LENGTH = 10  # 50 bits
BOT_LEVELS = ("random", "easy", "normal", "hard")


class RoomRules(Protocol):
    """The settings the core's decisions read, and nothing else of them (the server's
    `app.platform.settings.Settings` is one; the core never imports it, or pydantic)."""

    @property
    def absent_grace(self) -> float: ...  # seconds away before the server plays for a player

    @property
    def bot_delay(self) -> float: ...  # the pause before a bot's or an automatic move

    @property
    def clock_level(self) -> str: ...  # the bot that plays when the turn clock runs out

    @property
    def takeover_level(self) -> str: ...  # the bot that plays for an absent player

    @property
    def min_turn_seconds(self) -> int: ...

    @property
    def max_turn_seconds(self) -> int: ...

    @property
    def max_chat_chars(self) -> int: ...

    @property
    def turn_based_min_seconds(self) -> int: ...  # the shortest turn of a turn-based room

    @property
    def missed_turns(self) -> int: ...  # deadlines missed in a row before a bot plays the seat

    @property
    def deadline_horizon(self) -> float: ...  # a turn-based deadline further off waits in the store

    @property
    def timeouts_to_forfeit(self) -> int: ...  # turns in a row the clock ends before a rated live seat forfeits

    @property
    def rated_min_turn_seconds(self) -> int: ...  # the shortest turn clock of a rated live room

    @property
    def rated_forfeit_min_moves(self) -> int: ...  # own moves before a seat's forfeit is rated


def new_room_code() -> str:
    """A room code: 10 symbols of an unambiguous 32-letter alphabet (50 random bits)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(code: str) -> str | None:
    """Room codes are read aloud and typed: case and dashes or spaces do not matter. None if
    what is left cannot be a code (only ASCII letters and digits, at most 16, ever reach the
    store)."""
    code = code.strip().upper().replace("-", "").replace(" ", "")
    return code if 0 < len(code) <= 16 and code.isascii() and code.isalnum() else None


@dataclass
class RoomConfig:
    """What a host chooses for a room."""

    preset: str = "standard"
    overrides: dict[str, Any] = field(default_factory=dict)
    seats: int = 2
    turn_seconds: int | None = None

    def options(self) -> Options:
        return make_options(self.preset, {**self.overrides, "players": self.seats})


def rated_turn_bounds(min_turn: int, max_turn: int, rated_min_turn: int) -> tuple[int, int]:
    """A rated live room's turn clock: the shortest it may be, and the one it gets when the host
    names none (it always has one: nobody stalls a loss away)."""
    least = min(max(min_turn, rated_min_turn), max_turn)
    return least, min(max(least, RATED_TURN_SECONDS), max_turn)


def resolve(preset: str | None, options: dict[str, Any] | None, seats: int | None,
            turn_seconds: int | None, *, min_turn: int, max_turn: int, rated: bool = False,
            pace: str = "live", turn_based_min: int = 3600, rated_min_turn: int = 1) -> RoomConfig:
    """Check a configuration and normalise it; raises ConfigError naming the option. A rated
    room refuses take-backs (docs/rules.md, "Take-backs"). A turn-based room's turn is from
    `turn_based_min` to 14 days, one day if not given (`pace.turn_bounds`). A live rated room
    without a turn clock gets `RATED_TURN_SECONDS`; its clock is at least `rated_min_turn`
    (`SPITE_RATED_MIN_TURN_SECONDS`: a clock of a few seconds lets puppets forfeit in a minute)."""
    if pace not in PACES:
        raise ConfigError("pace", f"pace must be one of {', '.join(PACES)}", reason="pace_unknown",
                          params={"choices": ", ".join(PACES)})
    min_turn, max_turn = turn_bounds(pace, min_turn, max_turn, turn_based_min)
    if rated and pace != TURN_BASED:
        min_turn = rated_turn_bounds(min_turn, max_turn, rated_min_turn)[0]
    if pace == TURN_BASED and turn_seconds is None:
        turn_seconds = max(min_turn, DEFAULT_TURN_BASED_SECONDS)
    if rated and turn_seconds is None:  # a rated match always has a clock: nobody stalls a loss away
        turn_seconds = min(max(min_turn, RATED_TURN_SECONDS), max_turn)
    preset = preset or "standard"
    if preset not in PRESETS:
        raise ConfigError("preset", f"preset must be one of {', '.join(PRESETS)}", reason="preset_unknown")
    overrides = dict(options or {})
    if len(overrides) > 64:
        raise ConfigError("options", "too many options", reason="too_many_options")
    given = overrides.pop("players", None)
    if seats is not None and given is not None and seats != given:
        raise ConfigError("seats", f"seats ({seats}) and options.players ({given}) differ", reason="seats_differ")
    count = seats if seats is not None else given
    if count is None:
        count = PRESETS[preset].get("players", 2)
    if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= 6:
        raise ConfigError("seats", "seats must be a whole number from 2 to 6", reason="seats_range",
                          params={"min": 2, "max": 6})
    if turn_seconds is not None and (isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int)
                                     or not min_turn <= turn_seconds <= max_turn):
        raise ConfigError("turn_seconds", f"turn_seconds must be empty or from {min_turn} to {max_turn}",
                          reason="turn_range", params={"min": min_turn, "max": max_turn})
    config = RoomConfig(preset, overrides, count, turn_seconds)
    try:
        resolved = config.options()
    except OptionsError as e:
        raise ConfigError(e.option, str(e), reason=e.key or "options_invalid",
                          params={**e.params, "option": e.option}) from e
    if rated and resolved.take_backs:
        raise ConfigError("take_backs", "take_backs: a rated room does not allow take-backs", reason="rated_take_backs")
    return config


def catalog() -> dict[str, Any]:
    """What a create-room form needs: presets (with their resolved options and help), every
    option with its default, kind and help, bot levels and the match targets people use."""
    from app.engine import OPTION_HELP, OPTION_NAMES, PRESET_HELP
    from app.engine.options import BOOLS, CENTRE_RANGE, CHOICES, INT_RANGES, PLAYERS_PLUS_ONE, UNLIMITED
    from app.rooms.core.wording import CHOICE_LABEL, HELP, OPTION_LABEL, PRESET_LABEL

    defaults = make_options("standard").to_json()
    options: dict[str, Any] = {}
    for name in OPTION_NAMES:
        entry: dict[str, Any] = {"default": defaults[name], "help": HELP.get(name) or OPTION_HELP.get(name, ""),
                                 "label": OPTION_LABEL.get(name, name.replace("_", " ").capitalize())}
        if name in CHOICE_LABEL:
            entry["choice_labels"] = CHOICE_LABEL[name]
        if name in BOOLS:
            entry["kind"] = "bool"
        elif name in CHOICES:
            entry.update(kind="choice", choices=list(CHOICES[name]))
        elif name in INT_RANGES:
            entry.update(kind="int", min=INT_RANGES[name][0], max=INT_RANGES[name][1])
        elif name == "centre_stacks":
            entry.update(kind="int_or_unlimited", min=CENTRE_RANGE[0], max=CENTRE_RANGE[1], unlimited=UNLIMITED,
                         also=[PLAYERS_PLUS_ONE])
        elif name == "jokers_per_deck":
            entry.update(kind="choice", choices=[0, 2])
        elif name == "match_target":
            entry.update(kind="int_or_none", min=1, suggested=[None, 25, 50, 100])
        elif name == "wild_cannot_be":
            entry.update(kind="ranks", suggested=[[], ["A"], ["A", "7"]])
        options[name] = entry
    presets = {name: {"help": PRESET_HELP.get(name, ""), "label": PRESET_LABEL.get(name, name.capitalize()),
                      "changes": PRESETS[name],
                      "options": make_options(name).to_json()} for name in PRESETS}
    return {"presets": presets, "options": options, "defaults": defaults, "bot_levels": list(BOT_LEVELS[1:]),
            "match_targets": [None, 25, 50, 100], "seats": {"min": 2, "max": 6}}
