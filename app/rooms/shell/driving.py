"""Who drives a room: the timers and bots of a room (turn clock, absent players, bot turns) run
on exactly one instance, the holder of the room's lease (a row in the store).

`Driving` keeps this instance's leases: the driver asks for one when a room needs a timer
(`want`), and arms timers only for rooms whose lease it holds (`holds`). A loop renews every
held lease in one statement each `lease_seconds / 3`, drops the ones lost or no longer needed,
retries the wanted ones, and adopts rooms whose driver died (lapsed lease, match still being
played) and turn-based rooms that fall due (`Leases.due`) by loading them here. The holder
trusts its lease only for two thirds of its length
after the last renewal, so two instances never drive the same room at once (with clocks
in sync); the unique move version makes even that harmless. A timer that finds the lease
untrusted (a renewal came late) stands down; the renewal that restores the trust re-arms it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from app.platform.metrics import LEASES_HELD
from app.rooms.ports import Leases

log = logging.getLogger(__name__)


class Driving:
    """This instance's leases. The shell tells it what it needs to know of rooms through
    three callables, so it knows nothing of the shell:
    `needs_driver(code)`: is the room loaded here, played, and waiting on a timer or a bot?
    `reschedule(code)`: the lease was won or lost: re-arm (or drop) the room's timer;
    `adopt(code)`: load a room whose driver is gone (loading asks for its lease)."""

    def __init__(self, leases: Leases, instance: str, seconds: float, *,
                 needs_driver: Callable[[str], bool], reschedule: Callable[[str], None],
                 adopt: Callable[[str], Awaitable[None]], horizon: float = 120.0) -> None:
        """`horizon`: turn-based rooms due within this many seconds are loaded here
        (`Leases.due`), whoever is connected."""
        self.leases = leases
        self.instance = instance
        self.needs_driver = needs_driver
        self.reschedule = reschedule
        self.adopt_room = adopt
        self.seconds = seconds
        self.horizon = horizon
        self.held: dict[str, float] = {}  # room -> monotonic time until which we trust the lease
        self.wanted: dict[str, float] = {}  # room -> monotonic time of the next attempt
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def period(self) -> float:
        return self.seconds / 3

    def holds(self, code: str) -> bool:
        until = self.held.get(code)
        return until is not None and until > time.monotonic()

    def keeps(self, code: str) -> bool:
        """Should this instance keep the room loaded to drive it (held, or about to be taken)?"""
        when = self.wanted.get(code)
        return code in self.held or (when is not None and when <= time.monotonic())

    def want(self, code: str, *, now: bool = False) -> None:
        """The room needs a driver: try to take its lease soon (at once if never tried, or if
        `now`: its holder is known to be gone)."""
        if code in self.held or (code in self.wanted and not now):
            return
        self.wanted[code] = 0.0
        self._wake.set()

    async def start(self) -> None:
        await self._adopt()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Stop driving; our leases lapse now so other instances adopt those rooms at once."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        self.held.clear()
        LEASES_HELD.set(0)
        with contextlib.suppress(Exception):
            await self.leases.lapse_all(self.instance)

    async def _run(self) -> None:
        last_renew = time.monotonic()
        while True:
            now = time.monotonic()
            due = [when for when in self.wanted.values()] + [last_renew + self.period]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(0.0, min(due) - now))
            self._wake.clear()
            try:
                if time.monotonic() >= last_renew + self.period:
                    last_renew = time.monotonic()
                    await self._renew()
                    await self._adopt()
                await self._acquire_wanted()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lease upkeep failed")
                await asyncio.sleep(min(1.0, self.period))

    async def _renew(self) -> None:
        needed: list[str] = []
        idle: list[str] = []
        for code in self.held:
            (needed if self.needs_driver(code) else idle).append(code)
        started = time.monotonic()
        if idle:
            await self.leases.release(idle, self.instance)
        kept = await self.leases.renew(self.instance, needed, self.seconds) if needed else set()
        for code in idle:
            self.held.pop(code, None)
        LEASES_HELD.set(len(self.held))
        trust = started + self.seconds * 2 / 3
        for code in needed:
            if code in kept:
                lapsed = self.held.get(code, 0.0) <= started
                self.held[code] = trust
                if lapsed:  # while we could not trust it, a timer may have stood down: re-arm it
                    self.reschedule(code)
            else:
                log.warning("lost the lease of room %s to another instance", code)
                self.held.pop(code, None)
                self.reschedule(code)  # cancels the timer; asks for the lease again

    async def _acquire_wanted(self) -> None:
        now = time.monotonic()
        for code in [c for c, when in self.wanted.items() if when <= now]:
            if not self.needs_driver(code):
                self.wanted.pop(code, None)
                continue
            started = time.monotonic()
            got = await self.leases.acquire(code, self.instance, self.seconds)
            if got:
                self.wanted.pop(code, None)
                self.held[code] = started + self.seconds * 2 / 3
                LEASES_HELD.set(len(self.held))
                self.reschedule(code)
            else:  # someone else drives it: look again once their lease could have lapsed
                self.wanted[code] = time.monotonic() + self.seconds

    async def _adopt(self) -> None:
        """Load rooms whose driver is gone, and turn-based rooms whose deadline (or bot's turn)
        comes within the horizon; loading them asks for their lease (a room already loaded
        here is armed again: its deadline was beyond the horizon when it was last armed)."""
        orphans = await self.leases.orphans()
        due = [code for code in await self.leases.due(self.horizon) if code not in orphans]
        for code in orphans + due:
            try:
                await self.adopt_room(code)  # loading schedules the room, which asks for its lease
                if code in due:
                    self.reschedule(code)
                if self.needs_driver(code):
                    self.want(code, now=True)
                else:  # nothing to drive now: whoever next needs a timer there takes a fresh lease
                    await self.leases.release_lapsed(code)
            except Exception:
                log.exception("could not adopt room %s", code)
