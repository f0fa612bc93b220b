"""The lobby's rules: sitting and standing, bots, the host's settings, and chat.

Pure: each `decide_*` looks at the room as this instance knows it and returns the
`RoomPatch` to write to the room row (None: nothing changes) or raises `RoomError`. The shell
writes it only if the row's revision has not moved meanwhile, and asks again on a fresh room
if it has.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime

from app.domain.names import skeleton
from app.domain.records import ChatSender
from app.rooms.core import commands as C
from app.rooms.core import errors as E
from app.rooms.core.commands import UNSET
from app.rooms.core.config import BOT_LEVELS, RoomRules, resolve
from app.rooms.core.daily_room import NO_HINTS as NO_HINTS_DAILY
from app.rooms.core.daily_room import is_daily
from app.rooms.core.errors import ConfigError, RoomError
from app.rooms.core.model import Room, RoomPatch, RoomState, SeatInfo


@dataclass(frozen=True, slots=True)
class Actor:
    """Who asks: a player connected to the room."""

    player_id: str
    name: str
    account: bool = False  # signed in to an account (not a guest): may play rated matches
    avoid: frozenset[str] = frozenset()  # players kept apart from this one by a block, either way


def _in_lobby(st: RoomState, action: str) -> None:
    """`action` is a key of `errors.ACTIONS`."""
    if not st.lobby_open:
        raise RoomError(E.NOT_ALLOWED_NOW,
                        f"you can {E.ACTIONS[action]} only before the game starts (or after it ends)",
                        reason="lobby_only", params={"action": action})


def may_host(room: Room, who: Actor, now: datetime, grace: float) -> bool:
    """The host, or, once the host has been away longer than `grace`, any seated player."""
    st = room.state
    if who.player_id == st.host_id:
        return True
    if room.lobby_seat(who.player_id) is None or room.is_connected(st.host_id):
        return False
    return (now - room.away_since(st.host_id)).total_seconds() >= grace


def check_host(room: Room, who: Actor, now: datetime, grace: float, action: str) -> None:
    """`action` is a key of `errors.ACTIONS`."""
    if not may_host(room, who, now, grace):
        raise RoomError(E.NOT_HOST, f"only the host can {E.ACTIONS[action]}", reason="not_host",
                        params={"action": action})


def _seat_in_range(st: RoomState, seat: int) -> None:
    if not 0 <= seat < st.seats:
        raise RoomError(E.BAD_MESSAGE, f"there is no seat {seat}: seats are 0 to {st.seats - 1}",
                        reason="no_such_seat", params={"seat": seat, "last": st.seats - 1})


def decide_lobby(room: Room, who: Actor, cmd: C.LobbyCommand, now: datetime,
                 settings: RoomRules) -> RoomPatch | None:
    """What `cmd` changes on the room row, or None if it changes nothing."""
    match cmd:
        case C.Sit(seat=seat):
            return _sit(room, who, seat)
        case C.Stand():
            return _stand(room, who)
        case C.AddBot(seat=seat, level=level):
            return _add_bot(room, who, seat, level, now, settings)
        case C.RemoveBot(seat=seat):
            return _remove_bot(room, who, seat, now, settings)
        case C.FreeSeat(seat=seat):
            return _free_seat(room, who, seat, now, settings)
        case C.RemovePlayer(seat=seat):
            return _remove_player(room, who, seat)
        case C.Configure():
            return _configure(room, who, cmd, now, settings)
    raise AssertionError(f"not a lobby command: {cmd!r}")


def _sit(room: Room, who: Actor, seat: int | None) -> RoomPatch | None:
    st = room.state
    _in_lobby(st, "take_seat")
    if st.rated and not who.account:
        raise RoomError(E.RATED_ROOM, "this room is rated: only players with an account can sit; "
                        "claim an account for your guest identity, or watch", reason="rated_sit")
    seating = list(st.seating)
    mine = room.lobby_seat(who.player_id)
    if who.avoid and (st.host_id in who.avoid or any(s is not None and s.player_id in who.avoid for s in seating)):
        raise RoomError(E.SEAT_REFUSED, "you cannot sit at this table; you can watch", reason="seat_refused")
    target = seat
    if target is None:
        if mine is not None:
            return None
        free = [i for i, s in enumerate(seating) if s is None]
        if not free:
            raise RoomError(E.ROOM_FULL, "every seat is taken; you can watch", reason="room_full_watch")
        target = free[0]
    _seat_in_range(st, target)
    if target == mine:
        return None
    if seating[target] is not None:
        if all(s is not None for s in seating) and mine is None:
            raise RoomError(E.ROOM_FULL, "every seat is taken; you can watch", reason="room_full_watch")
        raise RoomError(E.SEAT_TAKEN, f"seat {target} is taken", reason="seat_taken", params={"seat": target})
    if mine is not None:
        seating[mine] = None
    taken = {skeleton(x.name) for x in seating if x is not None}
    seating[target] = SeatInfo(name=distinct_name(who.name, taken), player_id=who.player_id)
    return RoomPatch(seating=seating)


def distinct_name(name: str, taken: set[str]) -> str:
    """`name`, or `name (2)`, `name (3)`… if someone at the table already goes by a name that
    looks the same (`taken` holds skeletons): nobody can pass for another player at the table."""
    if skeleton(name) not in taken:
        return name
    n = 2
    while skeleton(f"{name} ({n})") in taken:
        n += 1
    return f"{name} ({n})"


def _stand(room: Room, who: Actor) -> RoomPatch | None:
    st = room.state
    _in_lobby(st, "leave_seat")
    mine = room.lobby_seat(who.player_id)
    return None if mine is None else _emptied(st, mine)


def _add_bot(room: Room, who: Actor, seat: int | None, level: str, now: datetime,
             settings: RoomRules) -> RoomPatch | None:
    if level not in BOT_LEVELS:
        raise RoomError(E.BAD_MESSAGE, f"bot level must be one of {', '.join(BOT_LEVELS)}", reason="bot_level")
    st = room.state
    check_host(room, who, now, settings.absent_grace, "add_bots")
    _in_lobby(st, "add_bots")
    if st.rated:
        raise RoomError(E.RATED_ROOM, "bots cannot play in a rated room", reason="rated_no_bots")
    seating = list(st.seating)
    target = seat
    if target is None:
        free = [i for i, s in enumerate(seating) if s is None]
        if not free:
            raise RoomError(E.ROOM_FULL, "every seat is taken", reason="room_full")
        target = free[0]
    _seat_in_range(st, target)
    if seating[target] is not None:
        raise RoomError(E.SEAT_TAKEN, f"seat {target} is taken", reason="seat_taken", params={"seat": target})
    seating[target] = SeatInfo(name=f"{level.capitalize()} bot {target + 1}", bot=level)
    return RoomPatch(seating=seating)


def _hosts_seat(room: Room, who: Actor, seat: int, now: datetime, settings: RoomRules, what: str) -> SeatInfo | None:
    """Who sits in `seat`, once the host's right to change it in the lobby is checked."""
    st = room.state
    check_host(room, who, now, settings.absent_grace, what)
    _in_lobby(st, what)
    return st.seating[seat] if 0 <= seat < st.seats else None


def _emptied(st: RoomState, seat: int) -> RoomPatch:
    seating = list(st.seating)
    seating[seat] = None
    return RoomPatch(seating=seating)


def _remove_bot(room: Room, who: Actor, seat: int, now: datetime, settings: RoomRules) -> RoomPatch | None:
    sitting = _hosts_seat(room, who, seat, now, settings, "remove_bots")
    if sitting is None or sitting.bot is None:
        raise RoomError(E.NOT_ALLOWED_NOW, f"there is no bot in seat {seat}", reason="no_bot_there",
                        params={"seat": seat})
    return _emptied(room.state, seat)


def _free_seat(room: Room, who: Actor, seat: int, now: datetime, settings: RoomRules) -> RoomPatch | None:
    sitting = _hosts_seat(room, who, seat, now, settings, "free_seat")
    if sitting is None or sitting.player_id is None:
        raise RoomError(E.NOT_ALLOWED_NOW, f"nobody sits in seat {seat}", reason="seat_empty", params={"seat": seat})
    if sitting.player_id == who.player_id:
        raise RoomError(E.NOT_ALLOWED_NOW, "that is your own seat: stand up instead", reason="own_seat")
    # The host frees anyone's seat between matches (a connected squatter cannot stall the start);
    # a seated player standing in for an absent host frees only the seats of absent players.
    if who.player_id != room.state.host_id and room.is_connected(sitting.player_id):
        raise RoomError(E.NOT_ALLOWED_NOW, f"{sitting.name} is here: only the host frees the seat of someone here",
                        reason="player_here", params={"name": sitting.name})
    return _emptied(room.state, seat)


def _remove_player(room: Room, who: Actor, seat: int) -> RoomPatch:
    """The host (only the host: a stand-in for an absent host frees seats of absent players
    with `free_seat`) takes a person out of their seat, connected or not, in the lobby."""
    st = room.state
    if who.player_id != st.host_id:
        raise RoomError(E.NOT_HOST, f"only the host can {E.ACTIONS['remove_player']}", reason="not_host",
                        params={"action": "remove_player"})
    _in_lobby(st, "remove_player")
    _seat_in_range(st, seat)
    sitting = st.seating[seat]
    if sitting is None:
        raise RoomError(E.NOT_ALLOWED_NOW, f"nobody sits in seat {seat}", reason="seat_empty", params={"seat": seat})
    if sitting.player_id is None:
        raise RoomError(E.NOT_ALLOWED_NOW, f"a bot sits in seat {seat}: remove the bot instead", reason="bot_in_seat",
                        params={"seat": seat})
    if sitting.player_id == who.player_id:
        raise RoomError(E.NOT_ALLOWED_NOW, "that is your own seat: stand up instead", reason="own_seat")
    return _emptied(st, seat)


def _configure(room: Room, who: Actor, cmd: C.Configure, now: datetime, settings: RoomRules) -> RoomPatch:
    """The host changes the preset, options (replacing the previous overrides), seats, turn
    clock, hints or whether the room is listed; only the fields given change."""
    st = room.state
    check_host(room, who, now, settings.absent_grace, "change_settings")
    _in_lobby(st, "change_settings")
    seats: int | None = cmd.seats
    if seats is None and not (cmd.options is not None and "players" in cmd.options):
        seats = st.seats
    turn = st.turn_seconds if isinstance(cmd.turn_seconds, C.Unset) else cmd.turn_seconds
    try:
        config = resolve(cmd.preset or st.preset, cmd.options if cmd.options is not None else st.overrides,
                         seats, turn, min_turn=settings.min_turn_seconds, max_turn=settings.max_turn_seconds,
                         rated=st.rated, pace=st.pace, turn_based_min=settings.turn_based_min_seconds,
                         rated_min_turn=settings.rated_min_turn_seconds)
    except ConfigError as e:
        raise RoomError(E.BAD_OPTIONS, e.message, option=e.option, reason=e.reason, params=e.params) from e
    if st.rated and cmd.hints:
        raise RoomError(E.BAD_OPTIONS, NO_HINTS_RATED, option="hints", reason="rated_no_hints")
    if is_daily(st) and cmd.hints:
        raise RoomError(E.BAD_OPTIONS, f"hints: {NO_HINTS_DAILY}", option="hints", reason="daily_no_hints")
    seating = list(st.seating[:config.seats]) + [None] * max(0, config.seats - st.seats)
    return RoomPatch(preset=config.preset, overrides=config.overrides, seats=config.seats,
                     turn_seconds=config.turn_seconds, seating=seating,
                     public=UNSET if cmd.public is None else cmd.public,
                     hints=UNSET if cmd.hints is None else cmd.hints)


NO_HINTS_RATED = "hints: a rated match gives no hints (the result changes everyone's rating)"


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A chat line to store with the room and show every socket of the room."""

    sender: ChatSender
    text: str
    at: str


def clean_chat(text: str, limit: int) -> str:
    """A chat line: control characters removed, whitespace trimmed, 1 to `limit` characters."""
    cleaned = "".join(" " if ch in "\t\n\r" else ch for ch in text
                      if ch in "\t\n\r" or unicodedata.category(ch)[0] != "C").strip()
    if not cleaned:
        raise RoomError(E.BAD_MESSAGE, "a chat line needs some text", reason="chat_empty")
    if len(cleaned) > limit:
        raise RoomError(E.BAD_MESSAGE, f"a chat line has at most {limit} characters", reason="chat_long",
                        params={"n": limit})
    return cleaned


def decide_chat(room: Room, who: Actor, text: str, now: datetime, settings: RoomRules) -> ChatLine:
    line = clean_chat(text, settings.max_chat_chars)
    sender: ChatSender = {"player_id": who.player_id, "name": who.name, "seat": room.lobby_seat(who.player_id)}
    return ChatLine(sender, line, now.isoformat())
