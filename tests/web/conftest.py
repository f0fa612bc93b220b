"""Server fixtures: the app over ASGI (REST tests), real uvicorn servers (socket tests), and real
uvicorn servers in the test's own loop whose rooms run on a clock the test moves on (timing tests)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from app.web.app import create_app
from tests.rooms.fakes import FakeClock

from .helpers import LoopServer, ServerThread, make_settings
from .jump_clock import JumpClock


@pytest.fixture
async def api(db_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client on the ASGI app, with the app's lifespan run (migrations included)."""
    app = create_app(make_settings(db_url))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


@pytest.fixture
async def start_server(db_url: str) -> AsyncIterator[Callable[..., ServerThread]]:
    """Start real servers on free ports (settings overridable); all stopped at the end."""
    started: list[ServerThread] = []

    def start(**overrides: Any) -> ServerThread:
        bus = overrides.pop("bus", None)
        server = ServerThread(create_app(make_settings(overrides.pop("db_url", db_url), **overrides), bus=bus))
        started.append(server.start())
        return server

    yield start
    for server in reversed(started):
        server.stop()


@pytest.fixture
async def server(start_server: Callable[..., ServerThread]) -> ServerThread:
    return start_server()


@pytest.fixture
async def http(server: ServerThread) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as client:
        yield client


@pytest.fixture
def clock() -> JumpClock:
    """The rooms' time for `start_clocked`: the machine's, plus the jumps the test makes."""
    return JumpClock()


@pytest.fixture
def still_clock() -> FakeClock:
    """A clock that stands still until the test moves it (for `start_clocked(on=...)`): rates
    and buckets refill only when the test says."""
    return FakeClock(datetime.now(UTC))


@pytest.fixture
async def start_clocked(db_url: str, clock: JumpClock) -> AsyncIterator[Callable[..., Awaitable[LoopServer]]]:
    """Start real servers whose rooms run on the test's `clock` (settings overridable; several
    servers in a row share the clock and the database); all stopped at the end."""
    started: list[LoopServer] = []

    async def start(*, on: Any = None, **overrides: Any) -> LoopServer:
        """`on`: another clock than the test's `clock` (`still_clock`)."""
        url = overrides.pop("db_url", db_url)
        server = LoopServer(create_app(make_settings(url, **overrides), clock=on or clock))
        started.append(await server.start())
        return server

    yield start
    for server in reversed(started):
        await server.stop()
