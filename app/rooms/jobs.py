"""Work done in the bot process pool: top-level functions of picklable arguments.

Kept apart from the rest of the room service so a worker process imports only this module,
the bots and the engine.
"""

from __future__ import annotations

from typing import Any


def choose(view: dict[str, Any], level: str) -> dict[str, Any]:
    """A bot's move for the seat whose view this is."""
    from app.bots import choose_move

    return dict(choose_move(view, level))


def hint(view: dict[str, Any], level: str) -> tuple[dict[str, Any], str]:
    """A suggested move and why: the bots' `hint` if they have one, else their move choice."""
    import app.bots as bots

    fn = getattr(bots, "hint", None)
    if fn is not None:
        move, reason = fn(view, level)
        return dict(move), str(reason)
    return dict(bots.choose_move(view, "easy")), "suggested"


def warm() -> bool:
    """Import the bots in a fresh worker so the first real move is quick."""
    import app.bots  # noqa: F401

    return True
