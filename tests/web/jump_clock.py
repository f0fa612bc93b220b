"""A clock for the rooms of a whole server under test: the machine's time plus the jumps the test
makes. Time flows as usual (so the store, which stamps rows with the machine's clock, agrees with
the rooms up to the jumps), and `advance(s)` moves it `s` seconds on at once, waking every timer
whose time has come: a test of a 60-second grace period waits for no second of it.

tests/rooms/fakes.FakeClock stands still instead; it serves the room shell's unit tests, where
no store reads the machine's clock."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta


class JumpClock:
    """The rooms' `Clock` port (app.rooms.ports.Clock), as `create_app(clock=...)` takes it."""

    def __init__(self) -> None:
        self.jumped = 0.0  # seconds added by `advance` so far
        self._sleepers: list[asyncio.Future[None]] = []

    def now(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=self.jumped)

    def monotonic(self) -> float:
        return time.monotonic() + self.jumped

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        until = self.monotonic() + seconds
        while (left := until - self.monotonic()) > 0:
            woken: asyncio.Future[None] = loop.create_future()
            self._sleepers.append(woken)
            timer = loop.call_later(left, lambda f=woken: f.done() or f.set_result(None))  # type: ignore[misc]
            try:
                await woken
            finally:
                timer.cancel()
                if woken in self._sleepers:
                    self._sleepers.remove(woken)

    async def advance(self, seconds: float) -> None:
        """Jump `seconds` on; every sleeper looks at the time again, and those due run now."""
        self.jumped += seconds
        for woken in self._sleepers:
            if not woken.done():
                woken.set_result(None)
        self._sleepers.clear()
        for _ in range(30):  # let the woken timers (and what they wake) run what they can
            await asyncio.sleep(0)
