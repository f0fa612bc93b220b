"""The analysis board's service: one per app instance.

A question goes: cache (an answer already made for that match, version, seat and what-if moves
is given again, not counted) → the player's rate (one question in flight, `per_minute` a minute)
→ the queue (at most `queue` questions waiting or running on this instance) → the finished
match's record (from the store, kept in a small LRU: finished matches never change) → the board's
own process pool (spawned workers at nice 19, apart from the bots', so an analyst never delays a
bot's move), which replays, checks the what-if moves and estimates within `ms` of CPU time, waited for
at most `timeout` seconds. The cache and the rates are per instance (docs/operations.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import multiprocessing
import os
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.analysis.core import Question, Record, run
from app.bots.estimate import Budget
from app.bots.pool_work import idle_child
from app.engine import BadMove, Move, replay_open
from app.platform.lru import Lru
from app.store.repositories import matches as match_store
from app.store.repositories.matches import MatchRecord

log = logging.getLogger(__name__)


class Refusal(Exception):
    """A question refused: the HTTP status, the English, a reason key, its params and more fields."""

    def __init__(self, status: int, english: str, reason: str, params: dict[str, Any] | None = None,
                 fields: dict[str, Any] | None = None) -> None:
        super().__init__(english)
        self.status, self.reason = status, reason
        self.params, self.fields = dict(params or {}), dict(fields or {})


@dataclass(frozen=True)
class Limits:
    """The board's settings (SPITE_ANALYSIS_*)."""

    workers: int = 1
    ms: float = 400.0  # 0: no time budget (the samples alone: the same answer on any machine)
    samples: int = 200
    lines: int = 4
    timeout: float = 10.0
    per_minute: int = 20
    queue: int = 8
    cache: int = 256

    def budget(self) -> Budget:
        return Budget(samples=self.samples, ms=self.ms or None)


def record_of(found: MatchRecord) -> Record:
    """The core's record of a stored finished match."""
    moves: dict[int, list[Move]] = {}
    for m in found.moves:
        moves.setdefault(m.hand_number, []).append(Move.from_wire(m.payload))
    hands = tuple((h.seed, tuple(h.deal_order) if h.deal_order else None, tuple(moves.get(h.number, [])))
                  for h in found.hands)
    return Record(dict(found.match.options), tuple(found.match.names), hands, found.match.v)


class Analyst:
    """Answers the board's questions (see the module's docstring)."""

    def __init__(self, limits: Limits, clock: Any = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.answers = Lru(limits.cache)
        self.records = Lru(32)
        self.asked: dict[str, deque[float]] = {}
        self.in_flight: set[str] = set()
        self.pending = 0
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.limits.workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=idle_child, initargs=(os.getpid(),))
        return self._pool

    def close(self) -> None:
        """Stop the pool and its workers now: an answer under way is not worth waiting for."""
        if self._pool is not None:
            workers = list((getattr(self._pool, "_processes", None) or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for proc in workers:
                with contextlib.suppress(Exception):
                    proc.terminate()
            self._pool = None

    def _rate(self, player: str) -> None:
        """One question in flight per player, then room in the queue, then the player's minute
        (a question refused for the first two is not counted)."""
        if player in self.in_flight:
            raise Refusal(429, "wait for the answer to your last question first", "analysis_in_flight")
        if self.pending >= self.limits.queue:
            raise Refusal(503, "the analysis board is busy; try again shortly", "analysis_busy")
        now = self.clock()
        if len(self.asked) > 10_000:  # forget the players who asked nothing this last minute
            self.asked = {p: q for p, q in self.asked.items() if q and q[-1] > now - 60.0}
        times = self.asked.setdefault(player, deque())
        while times and times[0] <= now - 60.0:
            times.popleft()
        if len(times) >= self.limits.per_minute:
            wait = max(1, math.ceil(times[0] + 60.0 - now))
            raise Refusal(429, f"too many questions to the board; try again in {wait} s", "analysis_rate_limited",
                          {"wait": wait}, fields={"retry_after": wait})
        times.append(now)

    async def _record(self, sessions: async_sessionmaker[AsyncSession], match_id: str) -> Record:
        record: Record | None = self.records.get(match_id)
        if record is not None:
            return record
        async with sessions() as s:
            found = await match_store.load_match(s, match_id)
        if found is None:
            raise Refusal(404, "no match has that id", "no_match")
        if not replay_open(found.match.status):
            raise Refusal(409, "the match is still being played; its replay opens once it is over", "replay_not_over")
        record = record_of(found)
        self.records.put(match_id, record)
        return record

    async def ask(self, sessions: async_sessionmaker[AsyncSession], player: str, match_id: str, v: int, seat: int,
                  moves: list[dict[str, Any]]) -> dict[str, Any]:
        """The answer to one question (raises `Refusal`)."""
        tried: list[Move] = []
        for i, wire in enumerate(moves):
            try:
                tried.append(Move.from_wire(wire))
            except BadMove as e:
                raise Refusal(422, str(e), "bad_move", fields={"index": i}) from e
        key = (match_id, v, seat, json.dumps([m.to_wire() for m in tried], sort_keys=True))
        kept: dict[str, Any] | None = self.answers.get(key)
        if kept is not None:
            return {**kept, "cached": True}
        record = await self._record(sessions, match_id)
        self._rate(player)
        self.pending += 1
        self.in_flight.add(player)
        try:
            loop = asyncio.get_running_loop()
            work = loop.run_in_executor(self._executor(), run, record, Question(v, seat, tuple(tried)),
                                        self.limits.budget(), self.limits.lines)
            out = await asyncio.wait_for(work, self.limits.timeout)
        except TimeoutError as e:
            raise Refusal(503, "the analysis took too long; try again shortly", "analysis_timeout") from e
        except Exception as e:  # a worker that died: the pool is made anew for the next question
            log.exception("analysis of match %s failed", match_id)
            self.close()
            raise Refusal(503, "the analysis board is busy; try again shortly", "analysis_busy") from e
        finally:
            self.pending -= 1
            self.in_flight.discard(player)
        if "refused" in out:
            r = out["refused"]
            fields = {k: r[k] for k in ("index", "move_reason", "move_params") if r.get(k) is not None}
            raise Refusal(422, r["english"], r["reason"], r["params"], fields)
        answer: dict[str, Any] = out["answer"]
        self.answers.put(key, answer)
        return {**answer, "cached": False}
