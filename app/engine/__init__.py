"""The pure rules engine: no I/O, no asyncio, no clock, no global random.

A hand is options + seed + ordered moves; a match is a sequence of hands. Public API:

- `make_options(preset, overrides)` -> `Options` (raises `OptionsError` naming the option)
- `Game.deal(options, seed)`; `Game.legal_moves()`; `Game.apply(move)`; `Game.copy()`
- `Match(options, names)`; `match.deal(seed)`; `match.apply(move, seat)`; `Match.replay(...)`
- `view(match, seat)` / `omniscient_view(match)`, `events_for(events, seat)`, `seed_revealed`,
  `replay_open`, `hand_summary(match)`: hidden information, all decided in `observer`
- `Move.from_wire(obj)` / `Move.to_wire()`; `commitment(seed)`
"""

from .cards import Deck
from .errors import BadMove, EngineError, HandOver, IllegalMove, NotYourTurn, OptionsError
from .game import Game
from .match import HandRecord, Match, NotDealtYet
from .moves import END, Move
from .observer import (
    HandSummary,
    UnknownEvent,
    daily_seed_day,
    events_for,
    events_same_for_all,
    hand_summary,
    join_view,
    omniscient_view,
    own_view,
    replay_open,
    room_code_visible,
    sealed_result,
    seed_if_over,
    seed_revealed,
    seed_sealed,
    shared_view,
    view,
)
from .options import OPTION_HELP, OPTION_NAMES, PRESET_HELP, PRESETS, Options, make_options, options_from_json
from .shuffle import ShuffleStream, commitment
from .state import Outcome
from .status import MatchStatus

__all__ = [
    "BadMove", "Deck", "END", "EngineError", "Game", "HandOver", "HandRecord", "HandSummary",
    "IllegalMove", "Match", "MatchStatus", "Move", "NotDealtYet", "NotYourTurn", "OPTION_HELP",
    "OPTION_NAMES", "Options", "OptionsError", "Outcome", "PRESETS", "PRESET_HELP",
    "ShuffleStream", "UnknownEvent", "commitment", "events_for", "events_same_for_all", "hand_summary",
    "room_code_visible", "daily_seed_day",
    "make_options", "omniscient_view", "options_from_json", "replay_open", "seed_if_over",
    "seed_revealed", "view", "shared_view", "own_view", "join_view", "sealed_result", "seed_sealed",
]
