"""The app's services, one typed object: `create_app` (app/web/app.py, the one composition root)
builds it, keeps it on Starlette's state as app.state.services, and the routes, the sockets and the dependencies read
it with `services(app)`.

What needs only the settings is built with the app. What needs the database or the bus (the
engine, the sessions, the room service, the player channels, the outbox, ...) is set by the app's
lifespan at startup: reading one of those before startup raises AttributeError."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.analysis.shell import Analyst
from app.lessons.shell.service import LessonService
from app.platform.jobs import JobQueue
from app.platform.notify.mailing import Mailer
from app.platform.notify.push import Vapid
from app.platform.notify.worker import Outbox
from app.platform.settings import Settings
from app.rooms.ports import Clock
from app.rooms.shell.service import RoomService
from app.social.shell.hidden_chat import HiddenChat
from app.social.shell.player_channels import Channels
from app.social.shell.quick_match import QuickMatch
from app.tournaments.shell.runner import TournamentRunner
from app.web.http.admission import Admission
from app.web.http.chatlimit import ChatLimits
from app.web.http.open_sockets import OpenSockets
from app.web.http.passwords import HashGate
from app.web.http.ratelimit import Limiter
from app.web.http.signin import SignInGuard


class Services:
    """What the app runs on, each typed with its class."""

    # Built with the app.
    settings: Settings
    clock: Clock  # the rooms' time; the health probe's pace and the message rates read it too
    limiter: Limiter
    signin_guard: SignInGuard
    chat_limits: ChatLimits
    open_sockets: OpenSockets
    admission: Admission  # the handshake gate
    hidden_chat: HiddenChat
    analysis: Analyst  # the analysis board (set by create_app; its pool starts on the first question)
    # Set by the lifespan at startup (no value before).
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    rooms: RoomService
    hash_gate: HashGate
    jobs: JobQueue  # reviews: never on the move path
    channels: Channels
    quick_match: QuickMatch
    tournaments: TournamentRunner  # the round runner (its pass runs where its lease is held)
    lessons: LessonService  # lesson rooms (their runs in the store, the bots in the rooms' pool)
    vapid: Vapid
    notifier: Outbox
    mailer: Mailer | None  # None without SPITE_SMTP_URL
    health_checked: tuple[float, bool] | None  # /healthz's last write probe: when (clock.monotonic), and its answer

    def __init__(self, *, settings: Settings, clock: Clock, limiter: Limiter, signin_guard: SignInGuard,
                 chat_limits: ChatLimits, open_sockets: OpenSockets, admission: Admission,
                 hidden_chat: HiddenChat) -> None:
        self.settings, self.clock, self.limiter, self.signin_guard = settings, clock, limiter, signin_guard
        self.chat_limits, self.open_sockets, self.admission = chat_limits, open_sockets, admission
        self.hidden_chat = hidden_chat
        self.mailer = None
        self.health_checked = None

    @property
    def started(self) -> bool:
        """Has the lifespan set the services of the database (the sessions) yet?"""
        return "sessions" in vars(self)


def services(app: Any) -> Services:
    """The services of `app` (`request.app`, `ws.app`: Starlette types those as Any)."""
    found: Services = app.state.services
    return found
