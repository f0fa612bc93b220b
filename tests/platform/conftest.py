"""Bus fixtures: the real Redis of SPITE_TEST_REDIS_URL (CI sets it) and a channel prefix no
other test uses, so suites sharing the server never hear each other."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest

REDIS = os.environ.get("SPITE_TEST_REDIS_URL")
Msg = dict[str, Any]


@pytest.fixture
def redis_url() -> str:
    if not REDIS:
        pytest.skip("needs Redis: set SPITE_TEST_REDIS_URL")
    return REDIS


@pytest.fixture
def prefix() -> str:
    return f"spite-test-{uuid.uuid4().hex[:12]}:"


class Inbox:
    """A bus handler that keeps what it is given."""

    def __init__(self) -> None:
        self.got: list[Msg] = []

    async def __call__(self, msg: Msg) -> None:
        self.got.append(msg)

    async def until(self, pred: Callable[[list[Msg]], bool], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not pred(self.got):
            assert time.monotonic() < deadline, f"timed out; got {self.got[-5:]}"
            await asyncio.sleep(0.01)
