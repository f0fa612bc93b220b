"""Errors the engine raises. Every message is fit to show to a player."""

from __future__ import annotations

from typing import Any


class EngineError(ValueError):
    """Base of every engine error; a `ValueError` so callers may catch either.

    `key` and `params`, where given, name the reason (a key of `reasons.REASONS`, or for an
    `OptionsError` of the catalogues' `reason.*`), so it can be said in any language."""

    def __init__(self, message: str = "", *, key: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.params = dict(params or {})


class OptionsError(EngineError):
    """An option value or a combination of options is impossible.

    `option` names the offending option, so a form can point at it.
    """

    def __init__(self, option: str, message: str, *, key: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(f"{option}: {message}", key=key, params=params)
        self.option = option
        self.reason = message


class BadMove(EngineError):
    """A move object that is malformed (not a move at all), as opposed to illegal."""


class IllegalMove(EngineError):
    """A well-formed move that the rules do not allow now. The game is unchanged."""


class NotYourTurn(IllegalMove):
    """A move sent by a seat that is not the one to move."""


class HandOver(IllegalMove):
    """A move sent after the hand (or match) has ended."""
