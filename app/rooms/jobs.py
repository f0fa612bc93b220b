"""Work done in the bot process pool: top-level functions of picklable arguments.

Kept apart from the rest of the room service so a worker process imports only this module,
the bots and the engine.
"""

from __future__ import annotations

import os
import threading
import time
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
        try:
            move, reason = fn(view, level)
            return dict(move), str(reason)
        except ValueError:
            pass  # the bots do not hint at this level: fall back to their easy choice
    return dict(bots.choose_move(view, "easy")), "suggested"


def warm() -> bool:
    """Import the bots in a fresh worker so the first real move is quick."""
    import app.bots  # noqa: F401

    return True


def watch_parent(parent: int) -> None:
    """Worker initializer: exit as soon as the server process that started us is gone (even
    killed with SIGKILL), instead of lingering as an orphan."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
