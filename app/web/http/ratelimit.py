"""Rate limits: a token bucket for the messages of one socket, and `Limiter` for what a
stranger can do over REST and by connecting (per client address, per player), in the `limits`
library's notation ("20/minute;200/day"). A refusal is `429` with `Retry-After`."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from app.platform.settings import Settings
from app.web.http.refused import too_many

KINDS = ("new_players", "new_rooms", "player_rooms", "replays", "connects", "new_accounts",
         "reviews", "public_rooms", "email_changes", "email_recipients", "email_clients")  # sign-in: `signin`


class TokenBucket:
    """`rate` tokens a second up to `burst`, on `clock` (seconds, monotonic)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def peek(self) -> bool:
        """Whether there is a token (without taking it)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens >= 1.0

    def take(self) -> bool:
        """Take a token if there is one."""
        if self.peek():
            self.tokens -= 1.0
            return True
        return False


class Limiter:
    """Moving-window limits kept in this process's memory (each instance counts its own)."""

    def __init__(self, settings: Settings) -> None:
        self.window = MovingWindowRateLimiter(MemoryStorage())
        self.rules: dict[str, list[RateLimitItem]] = {
            kind: parse_many(getattr(settings, f"limit_{kind}")) for kind in KINDS}

    def hit(self, kind: str, key: str) -> int | None:
        """Count one `kind` for `key`: None if allowed, else the seconds until it would be."""
        rules = self.rules[kind]
        refused = [rule for rule in rules if not self.window.test(rule, kind, key)]
        if not refused:
            for rule in rules:
                self.window.hit(rule, kind, key)
            return None
        reset = max(self.window.get_window_stats(rule, kind, key).reset_time for rule in refused)
        return max(1, math.ceil(reset - time.time()))

    def used_up(self, kind: str, key: str) -> int | None:
        """Without counting: None if `key` has some `kind` left, else the seconds until it has."""
        rules = self.rules[kind]
        refused = [rule for rule in rules if not self.window.test(rule, kind, key)]
        if not refused:
            return None
        reset = max(self.window.get_window_stats(rule, kind, key).reset_time for rule in refused)
        return max(1, math.ceil(reset - time.time()))

    def count(self, kind: str, key: str) -> None:
        """Count one `kind` for `key` (a failure), whether or not any is left."""
        for rule in self.rules[kind]:
            self.window.hit(rule, kind, key)

    def check(self, kind: str, key: str) -> None:
        """Raise 429 (with Retry-After) if `key` has used up its `kind` (refused.LIMITS names it)."""
        wait = self.hit(kind, key)
        if wait is not None:
            raise too_many(kind, wait)
