"""Graceful shutdown on SIGTERM (and SIGINT): drain the room service first, then let uvicorn stop.

uvicorn, on SIGTERM, closes every socket at once and then waits for the handlers. We step in
front of its signal handler: the room service drains (moves in flight commit and their states
are sent, every socket is closed with 1012 "restart" so its client reconnects, to another
instance behind a proxy; our rooms' leases lapse so another instance drives them), and only
then is uvicorn's own handler called. Only possible in the main thread (a real server
process); servers run in test threads stop the plain way.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from app.rooms.shell.service import RoomService

log = logging.getLogger(__name__)
SIGNALS = (signal.SIGTERM, signal.SIGINT)


def install(service: RoomService, timeout: float) -> Callable[[], None]:
    """Wrap the current SIGTERM/SIGINT handlers (uvicorn's) with a drain of `service`; returns
    a function that puts them back."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    loop = asyncio.get_running_loop()
    previous: dict[int, Any] = {sig: signal.getsignal(sig) for sig in SIGNALS}
    started: list[asyncio.Task[None]] = []

    def pass_on(sig: int, frame: FrameType | None) -> None:
        handler = previous.get(sig)
        if callable(handler):
            handler(sig, frame)
        elif handler == signal.SIG_DFL:
            signal.default_int_handler(sig, frame) if sig == signal.SIGINT else signal.raise_signal(sig)

    async def drain_then(sig: int, frame: FrameType | None) -> None:
        log.info("signal %s: draining before shutdown", signal.Signals(sig).name)
        try:
            await asyncio.wait_for(service.drain(), timeout)
        except Exception:
            log.exception("draining before shutdown failed")
        finally:
            for s, h in previous.items():
                with contextlib.suppress(Exception):
                    signal.signal(s, h)
            pass_on(sig, frame)

    def on_signal(sig: int, frame: FrameType | None) -> None:
        if started:  # a second signal: stop at once
            pass_on(sig, frame)
            return
        # A fresh context: the signal interrupts whichever task runs, and its room is not ours.
        started.append(loop.create_task(drain_then(sig, frame), context=contextvars.Context()))

    for sig in SIGNALS:
        signal.signal(sig, on_signal)

    def restore() -> None:
        for sig, handler in previous.items():
            if signal.getsignal(sig) is on_signal:
                signal.signal(sig, handler)

    return restore
