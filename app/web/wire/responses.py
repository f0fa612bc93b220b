"""REST response bodies: exactly what each route sends (docs/protocol.md).

Every field a route sends is declared, since FastAPI drops the undeclared ones (and adds a
declared one that is missing, with its default: so fields have no defaults unless the route
drops unset fields). What the socket sends too (the room object, a rating) is not redeclared
here: those are the room layer's TypedDicts. Only the objects whose shape belongs to the engine (resolved options, a
hand's result, a move, the table view) are open models, passing every field through
(`extra="allow"`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, NotRequired

from pydantic import BaseModel, ConfigDict, Field

from app.domain.records import Rating
from app.engine import MatchStatus
from app.rooms.core.messages import RoomInfo

# Players.


class PlayerOut(BaseModel):
    id: str
    name: str



class PlayerProfile(PlayerOut):
    """A player's public profile: `rating` is null before the first rated match; `account`
    tells an account holder from a guest."""

    account: bool
    rating: Rating | None


class SignInFailures(BaseModel):
    """Failed sign-ins on your username since your password was last set (accounts only)."""

    count: int
    last_at: datetime | None


class PlayerMe(PlayerProfile):
    """The caller's own profile, with the username they sign in with (null for a guest), the
    language they chose (null: the browser's) and whether friend requests arrive quietly."""

    username: str | None
    failed_sign_ins: SignInFailures | None = None
    lang: str | None = None
    quiet_requests: bool = False


class PlayerChanged(PlayerOut):
    """`PATCH /api/players/me`: the name, the chosen language and the quiet requests now."""

    lang: str | None = None
    quiet_requests: bool = False


class AccountOut(PlayerOut):
    username: str


class RatingStep(BaseModel):
    match_id: str
    at: str
    before: Rating
    after: Rating


class RatingPage(BaseModel):
    items: list[RatingStep]
    next: str | None


class LeaderRow(BaseModel):
    rank: int
    player_id: str
    name: str
    rating: Rating


class LeaderStanding(BaseModel):
    """Where the caller stands against the leaderboard's rules."""

    games: int = Field(description="rated matches played")
    opponents: int = Field(description="different opponents in them who had existed min_age_hours at the match")
    old_enough_at: str = Field(description="when the caller will have existed min_age_hours (ISO 8601, UTC)")
    listed: bool = Field(description="meets every rule: on the board")


class Leaderboard(BaseModel):
    items: list[LeaderRow]
    next: str | None
    min_games: int = Field(description="rated matches a player needs to be listed")
    min_opponents: int = Field(description="different opponents those matches need")
    min_age_hours: float = Field(description="hours a player, and an opponent at the match, must have existed")
    you: LeaderStanding | None = Field(description="the caller's standing; null without a token")


class AchievementOut(BaseModel):
    key: str
    name: str
    description: str
    earned_at: str | None = Field(description="null until earned")
    match_id: str | None = Field(description="the match that earned it; null until earned")


class AchievementList(BaseModel):
    items: list[AchievementOut]


class PlayerCreated(PlayerOut):
    """A new guest identity; the token is shown only here (the server keeps its hash)."""

    token: str


# Open shapes: the engine's objects, passed through as they are.


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class EngineOptions(_Open):
    """Open: every option of a game by its rules.md name, resolved by the engine
    (`Options.to_json`: `players`, `payoff_size`, `centre_stacks`, ...)."""


class HandResult(_Open):
    """Open: the engine's result of a finished hand (winners, scores, the revealed seed, ...)."""


class MovePayload(_Open):
    """Open: a move in its wire form (`kind`, and `card`, `from`, `to` as the kind needs)."""


class TableView(_Open):
    """Open: the engine's `omniscient_view` of a match (the view's shape, every card face up)."""


# Rooms.


class RoomLinks(RoomInfo):
    """A room as REST answers it: the room object (`app.rooms.core.messages.RoomInfo`, as the socket
    sends it), with its invite link and its socket's path."""

    invite_url: str
    socket_path: str
    tournament: NotRequired[dict[str, Any]]  # a tournament's table: {"id", "round"} (v1.4)


class RoomList(BaseModel):
    items: list[RoomLinks]


# Matches and history.


class MatchPlayer(BaseModel):
    seat: int
    name: str
    player_id: str | None
    bot: str | None = Field(json_schema_extra={"x-js": "BotLevel | null"})
    team: int | None
    total: int


class MatchSummary(BaseModel):
    id: str
    room: str | None = Field(description="the room's code; null unless the room is public or the caller "
                             "played in the match (a private room's code is its invite)")
    number: int
    preset: str
    status: MatchStatus
    match_target: int | None
    players: list[MatchPlayer]
    totals: list[int]
    winners: list[int] | None = Field(description="null until the match ends")
    started_at: str
    ended_at: str | None
    progress: Literal["over", "resume", "watch", "private", "abandoned"] = Field(description=(
        "where the match stands for the caller (Extension): over (a replay), resume (you "
        "played in it: back to its table), watch (its public table), private (a private room's match "
        "you did not play in), abandoned (nobody moved in a live match for SPITE_ABANDONED_AFTER, or "
        "its room moved on)"))


class MatchItem(MatchSummary):
    """One of a player's matches: which seat they had and whether they won (null while it goes on)."""

    seat: int
    won: bool | None


class Page(BaseModel):
    items: list[MatchItem]
    next: str | None


class HandScore(BaseModel):
    seat: int
    points: int
    total: int
    payoff_left: int


class HandOut(BaseModel):
    number: int
    commitment: str
    seed: str | None = Field(description="null until the hand is over")
    start_v: int
    started_at: str
    ended_at: str | None
    result: HandResult | None
    scores: list[HandScore]


class MatchDetail(MatchSummary):
    options: EngineOptions
    turn_seconds: int | None
    v: int
    hands: list[HandOut]


class ReplayHand(BaseModel):
    number: int
    seed: str
    commitment: str
    start_v: int
    deal_order: list[Any] | None
    result: HandResult | None


class ReplayMove(BaseModel):
    """A move of a replay: `seq` is the version it made; `actor` is `player`, `bot`, `clock` or `absent`."""

    seq: int
    hand: int
    seat: int
    actor: str
    move: MovePayload
    at: str


class Replay(BaseModel):
    """A finished match: every move in order and every seed."""

    match_id: str
    total: int
    options: EngineOptions
    names: list[str]
    started_at: str = Field(description="when the match started (Extension): the time every page dates a match by")
    hands: list[ReplayHand]
    moves: list[ReplayMove]


class ReplayStep(BaseModel):
    """The whole table of a finished match after version `at`, every card face up."""

    at: int
    total: int
    view: TableView


class PlayerStats(BaseModel):
    name: str
    player_id: str
    played: int
    won: int
    points: int
    in_progress: int
    hands_played: int
    hands_won: int
    average_cards_left: float | None = Field(description="null before the player's first hand ends")


# Health and the option catalogue.


class Health(BaseModel):
    ok: bool
    instance: str | None


class OptionInfo(BaseModel):
    """One option of the catalogue. `kind` is `bool`, `choice` (with `choices`), `int` (`min`,
    `max`), `int_or_unlimited` (`min`, `max`, `unlimited`, and `also`: other words it takes, such as
    `players_plus_one`), `int_or_none` (`min`, `suggested`) or
    `ranks` (`suggested`); a key its kind does not have is not sent (the route drops unset fields)."""

    default: Any
    help: str
    label: str = Field(description="the option's name in a player's words")
    kind: str | None = None
    choices: list[Any] | None = None
    choice_labels: dict[str, str] | None = Field(
        default=None, description="each choice in a player's words, by the choice's JSON text")
    min: int | None = None
    max: int | None = None
    unlimited: str | None = None
    also: list[str] | None = None
    suggested: list[Any] | None = None


class PresetInfo(BaseModel):
    help: str
    label: str = Field(description="the preset's name in a player's words")
    changes: dict[str, Any] = Field(description="the options the preset changes from the standard game",
                                    json_schema_extra={"x-js": "Partial<GameOptions>"})
    options: EngineOptions


class Bounds(BaseModel):
    min: int
    max: int


class TurnSecondsBounds(Bounds):
    default: int | None


class HintsDefault(BaseModel):
    default: bool


class AwayRules(BaseModel):
    """What the server does for a player who is away (what the client's Leave warning says)."""

    stand_in_seconds: float = Field(description="live rooms: how long a player is away, while someone else is "
                                                "in the room, before a stand-in plays for them")
    missed_turns: int = Field(description="turn-based rooms: missed turns in a row before a bot plays the seat "
                                          "(a rated match: before the seat forfeits)")


class Catalog(BaseModel):
    """GET /api/options: what the create-room form needs."""

    presets: dict[str, PresetInfo]
    # the client's OptionSpec (scripts/types_handwritten.js) tells the kinds apart
    options: dict[str, OptionInfo] = Field(json_schema_extra={"x-js": "Record<keyof GameOptions, OptionSpec>"})
    defaults: EngineOptions
    bot_levels: list[str] = Field(json_schema_extra={"x-js": "BotLevel[]"})
    match_targets: list[int | None]
    seats: Bounds
    turn_seconds: TurnSecondsBounds
    rated_turn_seconds: TurnSecondsBounds | None = Field(
        default=None, description="a rated live room's turn clock (never none: `default` when the host names none, "
                                  "at least `min`)")
    hints: HintsDefault
    turn_based_seconds: TurnSecondsBounds | None = Field(
        default=None, description="a turn-based room's turn bounds (pace turn_based), default one day")
    away: AwayRules | None = Field(default=None, description="what the server does for a player who is away")


# Your games.


class GameSeat(BaseModel):
    seat: int
    name: str | None = Field(description="null: a free seat of a waiting room")
    bot: str | None
    team: int | None = Field(description="the seat's partnership in a match being played (null without teams, "
                             "and while waiting)")


class GameItem(BaseModel):
    """A room you sit in that is not over."""

    code: str
    url: str = Field(description="the room's page, /r/CODE")
    pace: Literal["live", "turn_based"]
    status: str = Field(description="waiting, playing or hand_over")
    your_turn: bool
    deadline: str | None = Field(description="when the server acts for the seat to move (ISO 8601), if timed")
    turn_seat: int | None
    you: int | None = Field(description="your seat")
    seats: list[GameSeat]
    last_move_at: str | None
    started_at: str | None = Field(description="when the match being played started (ISO 8601); null while waiting")
    match_id: str | None
    turn_seconds: int | None


class GameList(BaseModel):
    items: list[GameItem]
    your_turn: int = Field(description="how many of them wait for your move")
