"""The ASGI app: `app.main:app`, built by `create_app(settings)`.

On startup the database is upgraded to the latest schema (safe with several instances),
live matches are resumed (their timers and bots too), and the API, the room sockets and
the client pages are served from one process.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.bus import Bus, make_bus
from app.rooms.pool import BotPool
from app.rooms.service import RoomService
from app.settings import Settings, get_settings
from app.store import migrate
from app.store.db import make_engine, make_sessions

from .server import errors, matches, meta, players, rooms, socket
from .server.pages import mount_pages, static_dir


def create_app(settings: Settings | None = None, *, bus: Bus | None = None) -> FastAPI:
    """The app for `settings` (default: from the environment). `bus` lets several app
    instances in one process share an in-process bus (tests of several instances)."""
    settings = settings or get_settings()
    logging.getLogger("app").setLevel(settings.log_level.upper())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url)
        try:
            if settings.auto_migrate:
                await migrate.upgrade(engine)
            sessions = make_sessions(engine)
            service = RoomService(settings, sessions, bus or make_bus(settings.redis_url),
                                  BotPool(settings.bot_workers))
            app.state.settings = settings
            app.state.engine = engine
            app.state.sessions = sessions
            app.state.rooms = service
            await service.start()
            try:
                yield
            finally:
                await service.close()
        finally:
            await engine.dispose()

    app = FastAPI(title="Spite and Malice", version="1", lifespan=lifespan,
                  description="Rooms, matches and history for Spite and Malice. See docs/protocol.md.")
    app.state.settings = settings
    errors.install(app)
    app.add_middleware(errors.BodyLimit, limit=settings.max_body_bytes)
    for router in (meta.router, players.router, rooms.router, matches.router, socket.router):
        app.include_router(router)
    mount_pages(app, static_dir(settings.static_dir))
    return app


app = create_app()
