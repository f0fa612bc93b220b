"""Lesson rooms, the I/O: a player's run of a lesson kept in the store (`lesson_runs`), played in
a solo room over the room socket.

`LessonService.start` gives the player's run of a lesson a room code (the unfinished run they
have, else a fresh one). A socket that joins the code gets the run rebuilt from its record
(`LessonRun.resume`) once per instance (`LiveLesson`, shared by the learner's sockets there). A
move is decided by the pure core (`LessonRun.attempt`: refused with a reason, nothing changed;
or played), written (`lessons.save`, guarded by the record's length) and only then sent. When
the lesson has a bot and the other seat is to move, the bot pool chooses off the event loop
(`BotPool.choose`), and the move is played, written and sent the same way. A failed or lost
write reloads the run from the store: the store is the truth.

Lesson room codes start with `1`, a symbol room codes never use (`CODE_ALPHABET`), so the two
never collide and the room socket tells them apart by their first character.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.engine import Move
from app.i18n import DEFAULT, render
from app.lessons.core import Lesson, LessonRun, find
from app.lessons.core.model import Why
from app.rooms.core.config import CODE_ALPHABET
from app.store.repositories import lessons as store

log = logging.getLogger(__name__)

PREFIX = "1"  # never a symbol of a room code
CODE_LENGTH = 12

# Refusal codes (docs/protocol.md): the room socket's, and the lesson's own.
ILLEGAL_MOVE = "illegal_move"
NOT_YOUR_TURN = "not_your_turn"
NOT_ALLOWED_NOW = "not_allowed_now"
LESSON_GOAL = "lesson_goal"
UNAVAILABLE = "unavailable"
CONFLICT = "conflict"
TURN_KEY = "lesson.miss.not_your_turn"  # the lessons' catalogue keys (lesson.*), said in full


def title(lesson: Lesson, lang: str) -> str:
    """A lesson's title in `lang`."""
    return render(lang, lesson.title_key)


def about(lesson: Lesson, lang: str) -> str:
    """What a lesson teaches, in one sentence, in `lang`."""
    return render(lang, f"lesson.{lesson.id}.about")


def new_code() -> str:
    return PREFIX + "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH - 1))


def is_lesson_code(code: str) -> bool:
    return code.startswith(PREFIX)


class Learner(Protocol):
    """A socket of the learner, as the lesson service talks to it."""

    player_id: str

    def send_lesson(self, run: LessonRun) -> None: ...

    def send_table(self, v: int, view: dict[str, Any], events: list[dict[str, Any]]) -> None: ...

    def send_refusal(self, code: str, english: str, *, reason: str | None, params: dict[str, Any] | None = None,
                     move_id: str | None = None) -> None: ...

    def send_lesson_hint(self, v: int, move: dict[str, Any], run: LessonRun) -> None: ...


class Chooser(Protocol):
    async def choose(self, view: dict[str, Any], level: str) -> dict[str, Any]: ...


@dataclass
class LiveLesson:
    """A run loaded on this instance: the core's run, the length of the record the store holds,
    the learner's sockets here, and the bots' task while the other seat is to move."""

    code: str
    player_id: str
    run: LessonRun
    stored: int
    peers: set[Learner] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None

    @property
    def v(self) -> int:
        return len(self.run.record)


def refusal_of(why: Why) -> tuple[str, str, dict[str, Any]]:
    """The error code, the reason key and its params of a refused move: an engine refusal is
    `illegal_move` with the engine's reason (the catalogues' `reason.<key>`), a goal missed
    `lesson_goal` with the lesson's `lesson.miss.<name>`."""
    key, params = why
    if key.startswith("reason."):
        return ILLEGAL_MOVE, key.removeprefix("reason."), params
    if key == "lesson.miss.not_your_turn":
        return NOT_YOUR_TURN, key, params
    if key == "lesson.miss.finished":
        return NOT_ALLOWED_NOW, key, params
    return LESSON_GOAL, key, params


class LessonService:
    """Lesson rooms on this instance (composed in `create_app`)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], bots: Chooser, *,
                 lessons: Callable[[str], Lesson | None] = find, bot_pause: float = 0.0) -> None:
        self.sessions = sessions
        self.bots = bots
        self.lessons = lessons
        self.bot_pause = bot_pause
        self.live: dict[str, LiveLesson] = {}

    async def start(self, player_id: str, lesson_id: str) -> str | None:
        """The room code of the player's run of the lesson (None: no such lesson)."""
        if self.lessons(lesson_id) is None:
            return None
        async with self.sessions() as s:
            return await store.start(s, player_id, lesson_id, new_code())

    async def read(self, code: str) -> store.Run | None:
        """The run a code names, if any (and if its lesson still exists)."""
        async with self.sessions() as s:
            row = await store.get(s, code)
        return row if row is not None and self.lessons(row.lesson_id) is not None else None

    def _rebuild(self, row: store.Run) -> LessonRun:
        lesson = self.lessons(row.lesson_id)
        assert lesson is not None
        try:
            return LessonRun.resume(lesson, row.record)
        except ValueError:  # the lesson changed under a stored run: start it over
            log.warning("lesson run %s no longer replays; starting it over", row.code)
            return LessonRun.begin(lesson)

    async def join(self, row: store.Run, peer: Learner) -> LiveLesson:
        """The learner's socket joins the run: it is sent the step and the table."""
        live = self.live.get(row.code)
        if live is None:
            run = self._rebuild(row)
            live = self.live[row.code] = LiveLesson(row.code, row.player_id, run, len(row.record))
        async with live.lock:
            live.peers.add(peer)
            peer.send_lesson(live.run)
            peer.send_table(live.v, live.run.view(), [])
        self._wake_bots(live)
        return live

    def leave(self, live: LiveLesson, peer: Learner) -> None:
        live.peers.discard(peer)
        if not live.peers:
            if live.bot_task is not None:
                live.bot_task.cancel()
            if self.live.get(live.code) is live:
                del self.live[live.code]

    async def move(self, live: LiveLesson, peer: Learner, move_id: str | None, move: Move) -> None:
        """The learner's move: refused (to this socket only, nothing changed), or played, written
        and sent to every socket of the learner here."""
        async with live.lock:
            attempt = live.run.attempt(move)
            if attempt.why is not None:
                code, reason, params = refusal_of(attempt.why)
                english = render(DEFAULT, attempt.why[0], params)
                peer.send_refusal(code, english, reason=reason, params=params, move_id=move_id)
                return
            if not await self._commit(live, peer, move_id):
                return
            self._send(live, attempt.events, attempt.advanced)
        self._wake_bots(live)

    async def hint(self, live: LiveLesson, peer: Learner) -> None:
        """The step's solution, to this socket."""
        async with live.lock:
            move = live.run.hint()
            if move is None:
                peer.send_refusal(NOT_YOUR_TURN, "it is not your turn", reason=TURN_KEY, params={})
                return
            peer.send_lesson_hint(live.v, move.to_wire(), live.run)

    async def sync(self, live: LiveLesson, peer: Learner) -> None:
        """The table as it is now, to this socket (it asked: `sync`)."""
        async with live.lock:
            peer.send_table(live.v, live.run.view(), [])

    def _send(self, live: LiveLesson, events: list[dict[str, Any]], advanced: bool) -> None:
        view = live.run.view()
        for peer in list(live.peers):  # the step first: once the table comes, the step it is in has come
            if advanced:
                peer.send_lesson(live.run)
            peer.send_table(live.v, view, events)

    async def _commit(self, live: LiveLesson, peer: Learner | None, move_id: str | None) -> bool:
        """Write the run's record; on a lost race or a failure, reload the run from the store."""
        run = live.run
        row = store.Run(live.code, live.player_id, run.lesson.id, list(run.record), run.finished)
        ok: bool | None
        try:
            async with self.sessions() as s:
                ok = await store.save(s, row, live.stored)
        except Exception:
            log.exception("could not write lesson run %s", live.code)
            ok = None
        if ok:
            live.stored = len(run.record)
            return True
        if peer is not None:
            if ok is None:
                peer.send_refusal(UNAVAILABLE, "the server could not do that just now", reason="not_done_now",
                                  params={}, move_id=move_id)
            else:
                peer.send_refusal(CONFLICT, "another move was made first", reason=None, move_id=move_id)
        await self._reload(live)
        self._send(live, [], True)  # the table as the store has it
        return False

    async def _reload(self, live: LiveLesson) -> None:
        """The run as the store holds it; if the store cannot be read, as it was last written here."""
        with contextlib.suppress(Exception):
            async with self.sessions() as s:
                row = await store.get(s, live.code)
            if row is not None:
                live.run, live.stored = self._rebuild(row), len(row.record)
                return
        kept = live.run.record[:live.stored]
        live.run = self._rebuild(store.Run(live.code, live.player_id, live.run.lesson.id, kept, False))

    def _wake_bots(self, live: LiveLesson) -> None:
        if live.run.bot_seat() is None or (live.bot_task is not None and not live.bot_task.done()):
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._bots(live))

    async def _bots(self, live: LiveLesson) -> None:
        """The other seat's turns: the bot pool chooses (off the event loop), the move is written
        and sent, until it is the learner's turn again or the hand is over."""
        try:
            while True:
                async with live.lock:
                    seat = live.run.bot_seat()
                    if seat is None:
                        return
                    view, before, level = live.run.bot_view(), live.v, live.run.lesson.bot or "easy"
                if self.bot_pause:
                    await asyncio.sleep(self.bot_pause)
                chosen = await self.bots.choose(view, level)
                async with live.lock:
                    if live.v != before or live.run.bot_seat() is None:
                        continue
                    attempt = live.run.play_bot(Move.from_wire(chosen))
                    if attempt.why is not None:  # the pool's fallback is a legal move; anything else is a bug
                        log.error("lesson %s: the bot's move %s was refused: %s", live.code, chosen, attempt.why)
                        return
                    if not await self._commit(live, None, None):
                        return  # the store's run is sent; its bot turn waits for the next join or move
                    self._send(live, attempt.events, attempt.advanced)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("lesson %s: the bot's turn failed", live.code)
