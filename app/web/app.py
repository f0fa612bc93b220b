"""The ASGI app: `app.web.app:app`, built by `create_app(settings)`.

On startup the database is upgraded to the latest schema (safe with several instances), the
bus connects (Redis when `SPITE_REDIS_URL` is set), rooms whose driver is gone are adopted
(their timers and bots resume here), and the API, the room sockets, `/metrics` and the client
pages are served from one process. SIGTERM drains first (see `app.web.http.shutdown`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.gzip import GZipMiddleware
from limits import parse_many

from app.analysis.shell import Analyst, Limits
from app.domain.reminder import YOUR_TURN, Reminder
from app.lessons.shell.service import LessonService
from app.platform import logs, move_trace
from app.platform.bus import Bus, make_bus
from app.platform.jobs import make_queue
from app.platform.notify.mailing import Mailer, load_signer
from app.platform.notify.worker import Outbox, load_vapid
from app.platform.settings import Settings, get_settings
from app.rooms.ports import Clock, Storage, SystemClock
from app.rooms.shell.bot_pool import BotPool
from app.rooms.shell.service import RoomService
from app.rooms.shell.sql_storage import SqlRooms
from app.social.core.lobby_messages import LobbyYourTurn
from app.social.shell.hidden_chat import HiddenChat
from app.social.shell.player_channels import Channels
from app.social.shell.quick_match import QuickMatch
from app.store import migrate
from app.store.db import WalCheckpointer, make_engine, make_sessions, sqlite_file
from app.store.moves.writer import MoveWriter
from app.store.repositories.awards import Repeats
from app.tournaments.shell.notices import Notices
from app.tournaments.shell.runner import TournamentRunner
from app.web.http import errors, shutdown
from app.web.http.admission import Admission
from app.web.http.chatlimit import ChatLimits
from app.web.http.nul import RefuseNul
from app.web.http.open_sockets import OpenSockets
from app.web.http.passwords import HashGate
from app.web.http.proxies import TrustedProxies
from app.web.http.ratelimit import Limiter
from app.web.http.services import Services, services
from app.web.http.signin import SignInGuard
from app.web.routes import (
    accounts,
    analysis,
    daily,
    email,
    games,
    invitations,
    lessons,
    matches,
    meta,
    metrics,
    players,
    push,
    quick,
    reviews,
    rooms,
    sessions,
    social,
    tournaments,
    vacation,
)
from app.web.routes.pages import mount_pages, static_dir
from app.web.sockets import lobby as lobby_socket
from app.web.sockets import room as socket


def create_app(settings: Settings | None = None, *, clock: Clock | None = None, bus: Bus | None = None,
               storage: Storage | None = None) -> FastAPI:
    """The one composition root: the app for `settings` (default: from the environment).

    What stands behind the room service's ports may be given instead of the real ones: `clock`
    (the rooms' time: timers, deadlines, the turn clock, bots' pauses; default the system's),
    `bus` (several app instances in one process share an in-process bus) and `storage` (the
    rooms' store; default the SQL store on `settings.database_url`)."""
    settings = settings or get_settings()
    logs.configure(settings)
    move_trace.enable(settings.trace_stages)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        svc = services(app)  # what needs the database or the bus is set on it here
        engine = make_engine(settings.database_url, timeout=settings.db_timeout)
        try:
            if settings.auto_migrate:
                await migrate.upgrade(engine)
            sessions = make_sessions(engine)
            repeats = Repeats(settings.rated_repeat_full, settings.rated_repeat_hours)
            rooms_store = storage or SqlRooms(sessions, MoveWriter(engine, repeats=repeats),
                                              presence_ttl=settings.presence_ttl,
                                              notify_per_hour=settings.notify_player_hour)
            service = RoomService(settings, rooms_store, bus or make_bus(settings.redis_url, settings.redis_prefix),
                                  BotPool(settings.bot_workers, think_ms=settings.bot_think_ms), clock=svc.clock)
            logs.configure(settings, service.instance)
            svc.engine = engine
            svc.sessions = sessions
            svc.rooms = service
            svc.hash_gate = HashGate(settings.hash_workers, settings.hash_queue, settings.hash_nice)
            svc.jobs = make_queue(settings, sessions)  # reviews: never on the move path
            await svc.jobs.start()
            probe = metrics.start_probe()
            metrics.watch_gc()
            path = sqlite_file(settings.database_url)
            checkpointer = WalCheckpointer(path) if path else None
            if checkpointer is not None:
                checkpointer.start()
            await service.start()
            # Life outside rooms: each player's channel (the lobby socket), the quick-match loop,
            # chat hidden by blocks made on any instance.
            channels = svc.channels = Channels(service.bus, sessions, service.instance,
                                               ttl=settings.presence_ttl, heartbeat=settings.heartbeat_seconds)
            channels.start()
            matcher = svc.quick_match = QuickMatch(service, channels, sessions, settings)
            matcher.start()
            runner = svc.tournaments = TournamentRunner(
                service, Notices(service, channels, sessions, settings.presence_ttl), sessions, settings)
            runner.start()
            svc.lessons = LessonService(sessions, service.bots, bot_pause=settings.bot_delay)
            hidden = svc.hidden_chat
            block_watch = asyncio.get_running_loop().create_task(hidden.watch(sessions, settings.heartbeat_seconds))
            blocks = await hidden.listen(service.bus, sessions)
            service.reminding.listeners.append(_lobby_hears_turns(channels))
            svc.vapid = await load_vapid(settings, sessions)
            notifier = Outbox(settings, sessions, svc.vapid)
            notifier.start()
            svc.notifier = notifier  # invitations are queued on the outbox too
            if settings.smtp_url:  # the optional email channel, on the same outbox
                mailer = svc.mailer = Mailer(settings, sessions, await load_signer(sessions), poke=notifier.poke)
                notifier.channels["email"] = mailer
                service.reminding.listeners.append(mailer.reminded)
            watcher = asyncio.get_running_loop().create_task(
                svc.open_sockets.watch(sessions, settings.heartbeat_seconds))
            restore = shutdown.install(service, settings.drain_seconds)
            collector = metrics.tune_gc(settings.gc_threshold, settings.gc_full_seconds, settings.gc_freeze_seconds)
            try:
                yield
            finally:
                block_watch.cancel()
                blocks.close()
                await matcher.close()
                await runner.close()
                await channels.close()
                restore()
                watcher.cancel()
                if collector is not None:
                    collector.cancel()
                await service.close()
                await notifier.close()
                svc.hash_gate.close()
                await svc.jobs.close()
                svc.analysis.close()
                await metrics.stop_probe(probe)
                if checkpointer is not None:
                    await checkpointer.stop()
        finally:
            await engine.dispose()

    docs = settings.api_docs
    app = FastAPI(title="Spite and Malice", version="1", lifespan=lifespan,
                  description="Rooms, matches and history for Spite and Malice. See docs/protocol.md.",
                  openapi_url="/openapi.json" if docs else None, docs_url="/docs" if docs else None,
                  redoc_url="/redoc" if docs else None)
    clock = clock or SystemClock()  # the health probe's pace and the message rates read it too
    svc = app.state.services = Services(
        settings=settings, clock=clock, limiter=Limiter(settings), signin_guard=SignInGuard(settings),
        chat_limits=ChatLimits(settings, clock=clock.monotonic), open_sockets=OpenSockets(),
        admission=Admission(settings.handshake_concurrency, settings.handshake_wait), hidden_chat=HiddenChat())
    svc.analysis = Analyst(Limits(  # the analysis board: its own pool, started on the first question
        workers=settings.analysis_workers, ms=settings.analysis_ms, samples=settings.analysis_samples,
        lines=settings.analysis_lines, timeout=settings.analysis_timeout, per_minute=settings.analysis_per_minute,
        queue=settings.analysis_queue, cache=settings.analysis_cache))
    svc.limiter.rules["invitations"] = parse_many(settings.limit_invitations)  # per player
    svc.limiter.rules["social"] = parse_many(settings.limit_social)
    svc.limiter.rules["friend_requests_received"] = parse_many(settings.limit_friend_requests_received)  # per target
    errors.install(app)
    app.add_middleware(RefuseNul)  # inside BodyLimit: it reads bodies already capped
    app.add_middleware(errors.BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(errors.SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=512)  # static files and JSON; sockets pass through
    app.add_middleware(TrustedProxies, trusted=settings.trusted_proxies)  # outermost: the client's address
    for router in (meta.router, metrics.router, players.router, players.leaders, accounts.router, sessions.router,
                   rooms.router, matches.router, analysis.router, reviews.router, socket.router, games.router,
                   social.router, invitations.router, quick.router, daily.router, lobby_socket.router, push.router,
                   vacation.router, email.router, tournaments.router, lessons.router):  # email: 404 without SMTP
        app.include_router(router)
    mount_pages(app, static_dir(settings.static_dir))
    return app


def _lobby_hears_turns(channels: Channels) -> Callable[[list[Reminder]], Awaitable[None]]:
    """A listener of the reminders the rooms decide: a player's lobby sockets hear of their turns
    (`your_turn` only) as the outbox does."""
    async def your_turn(found: list[Reminder]) -> None:
        for r in found:
            if r.kind == YOUR_TURN:
                await channels.tell(r.player_id, LobbyYourTurn(
                    room=r.room, deadline=r.deadline.isoformat() if r.deadline else None))
    return your_turn


app = create_app()
