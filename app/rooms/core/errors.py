"""Errors the room service reports to one socket. Codes are those of docs/protocol.md."""

from __future__ import annotations

from typing import Any

BAD_MESSAGE = "bad_message"
UNAUTHORIZED = "unauthorized"
NOT_YOUR_TURN = "not_your_turn"
ILLEGAL_MOVE = "illegal_move"
NOT_HOST = "not_host"
SEAT_TAKEN = "seat_taken"
ROOM_FULL = "room_full"
GAME_NOT_STARTED = "game_not_started"
RATE_LIMITED = "rate_limited"
NOT_ALLOWED_NOW = "not_allowed_now"
BAD_OPTIONS = "bad_options"
CONFLICT = "conflict"
HINTS_OFF = "hints_off"
UNAVAILABLE = "unavailable"
RATED_ROOM = "rated_room"  # a rated room: accounts only, no bots
SEAT_REFUSED = "seat_refused"  # a block keeps two players from one table (either may have blocked the other)


class RoomError(Exception):
    """A refused request: nothing changed. `message` is fit to show a person (in English);
    `reason` and `params` name it for the catalogues (`reason.<reason>`), so the socket can say
    it in the receiver's language (docs/protocol.md, "Languages")."""

    def __init__(self, code: str, message: str, *, move_id: str | None = None,
                 option: str | None = None, reason: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.move_id = move_id
        self.option = option
        self.reason = reason
        self.params = dict(params or {})


class ConfigError(ValueError):
    """A room configuration the rules refuse; `option` names the culprit (`reason`, `params`
    as in RoomError)."""

    def __init__(self, option: str, message: str, *, reason: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.option = option
        self.message = message
        self.reason = reason
        self.params = dict(params or {})


# What a lobby refusal names the player asked to do (reason `not_host`, `lobby_only`):
# the catalogues say each as `action.<key>`.
ACTIONS: dict[str, str] = {
    "start_game": "start the game", "take_seat": "take a seat", "leave_seat": "leave your seat",
    "add_bots": "add bots", "remove_bots": "remove bots", "free_seat": "free a seat",
    "change_settings": "change the settings", "remove_player": "remove a person from the room",
}
