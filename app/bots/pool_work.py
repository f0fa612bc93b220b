"""Work done in the bot process pool: top-level functions of picklable arguments.

Kept apart from the rest of the room service so a worker process imports only this module,
the bots and the engine.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any


def choose(view: dict[str, Any], level: str, think_ms: int = 1000) -> dict[str, Any]:
    """A bot's move for the seat whose view this is (Hard thinks at most `think_ms`)."""
    from app.bots import choose_move

    return dict(choose_move(view, level, budget_ms=think_ms))


def hint(view: dict[str, Any], level: str,
         think_ms: int = 1000) -> tuple[dict[str, Any], tuple[str, str, dict[str, Any]]]:
    """A suggested move and why (the Normal or Hard choice): in English, and as a key of
    `app.bots.reasons.HINTS` with its parameters."""
    from app.bots import suggest
    from app.bots.reasons import english

    move, (key, params) = suggest(view, level if level in ("normal", "hard") else "normal", budget_ms=think_ms)
    return dict(move), (english((key, params)), key, params)


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
