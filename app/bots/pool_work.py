"""Work done in the bot process pool: top-level functions of picklable arguments.

Kept apart from the rest of the room service so a worker process imports only this module,
the bots and the engine.
"""

from __future__ import annotations

import contextlib
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


def idle_child(parent: int, nice: int = 19) -> None:
    """Initializer of a worker that must never slow the live rooms (the review's children, the
    analysis board's pool): gone with its parent (`watch_parent`), niced, and (Linux) under
    SCHED_IDLE, so it runs only on CPU time nothing else wants: a web process sharing its core
    preempts it on every wake-up, and a core busy with it still counts as idle when the scheduler
    places a woken task. Threads it starts later inherit both."""
    with contextlib.suppress(OSError):
        os.nice(nice)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    watch_parent(parent)
