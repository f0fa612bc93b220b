"""A look at the store every so often, for what other instances did since the last look (the
bus is at-most-once: this is the backstop). Clocks of instances differ, so each look reaches back
one period more than the last; what it finds twice must be harmless to apply twice."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


async def poll_since(sessions: Any, every: float, read: Callable[[Any, datetime], Awaitable[Iterable[T]]],
                     act: Callable[[T], object], what: str) -> None:
    """Forever: every `every` seconds, `read(session, since)` what changed since the last look
    (less a period of overlap) and `act` on each; a failed look is logged ("could not look for
    `what`") and the next one reaches back to the last that worked."""
    since = datetime.now(UTC)
    while True:
        await asyncio.sleep(every)
        try:
            now = datetime.now(UTC)
            async with sessions() as s:
                found = await read(s, since - timedelta(seconds=every))
            since = now
            for item in found:
                act(item)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not look for %s", what)
