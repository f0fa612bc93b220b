"""The review job: load a finished match, review it step by step (writing progress), keep the
result. The same coroutine runs in a `python -m app.worker` process (Redis queue) and in a
child process of the local queue; it never runs in the web process's event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.bots.estimate import Budget
from app.engine import Move, options_from_json, replay_open
from app.review import HandInput, MatchInput, MoveInput, Review, ReviewSettings
from app.review.analysis import LUCK
from app.store.db import make_engine, make_sessions
from app.store.repositories import matches as match_store
from app.store.repositories import reviews as review_store
from app.store.repositories.matches import MatchRecord
from app.store.repositories.review_failures import failure

log = logging.getLogger(__name__)

PROGRESS_SECONDS = 0.5  # how often a running review writes its progress


class NotReviewable(Exception):
    """The match cannot be reviewed (gone, or not over): retrying will not help."""


@dataclass(frozen=True)
class JobConfig:
    """What a job needs besides the match id (plain values: it crosses process boundaries)."""

    database_url: str
    review_ms: float | None = 150.0
    review_samples: int = 400
    graph_share: float = 0.25
    turns: int = 4  # turn ends each rollout plays before the leaf judges it
    luck_samples: int = LUCK.samples
    seed: int = 0
    db_timeout: float = 5.0

    def review_settings(self) -> ReviewSettings:
        ms = self.review_ms
        def share(part: float) -> Budget:
            return Budget(samples=max(4, int(self.review_samples * part)), ms=None if ms is None else ms * part,
                          turns=self.turns)

        return ReviewSettings(decision=Budget(samples=self.review_samples, ms=ms, turns=self.turns),
                              graph=share(self.graph_share),
                              luck=Budget(samples=self.luck_samples, turns=LUCK.turns), seed=self.seed)


def match_input(record: MatchRecord) -> MatchInput:
    """The review's input from a stored match."""
    moves: dict[int, list[MoveInput]] = {}
    for m in record.moves:
        moves.setdefault(m.hand_number, []).append(MoveInput(m.seq, m.seat, Move.from_wire(m.payload), m.actor))
    hands = tuple(HandInput(h.number, h.seed, tuple(h.deal_order) if h.deal_order else None,
                            tuple(moves.get(h.number, []))) for h in record.hands)
    people = frozenset(s.seat for s in record.seats if s.bot_level is None)
    return MatchInput(options_from_json(record.match.options), tuple(record.match.names), hands, people)


async def run_review(sessions: async_sessionmaker[AsyncSession], match_id: str, config: JobConfig, *,
                     claimed: bool = False) -> str:
    """Make the review of `match_id` unless it is done; returns its final status (`claimed`: the
    try that `reviews.claim_next` just counted). Raises `NotReviewable` (after marking it failed)
    for a match that cannot be reviewed."""
    async with sessions() as s:
        if not await review_store.begin(s, match_id, counted=claimed):
            row = await review_store.get(s, match_id)
            return row.status if row is not None else "missing"
        record = await match_store.load_match(s, match_id)
    if record is None or not replay_open(record.match.status):
        why = failure(reason="review_match_gone") if record is None else failure(reason="review_match_live")
        async with sessions() as s:
            await review_store.fail(s, match_id, why)
        raise NotReviewable(why)
    settings = config.review_settings()
    review = Review(match_input(record), settings)
    started = time.perf_counter()
    last = started
    steps = review.steps()
    while True:
        # one move at a time in a thread: the worker's own loop keeps beating (heartbeats, cancellation)
        share = await asyncio.to_thread(next, steps, None)
        if share is None:
            break
        now = time.perf_counter()
        if now - last >= PROGRESS_SECONDS:
            last = now
            async with sessions() as s:
                await review_store.set_progress(s, match_id, share)
    async with sessions() as s:
        await review_store.finish(s, match_id, review.result(), settings.level)
    log.info("review of match %s done in %.1f s (%d moves)", match_id, time.perf_counter() - started, review.total)
    return review_store.DONE


async def fail_review(sessions: async_sessionmaker[AsyncSession], match_id: str, why: str) -> None:
    async with sessions() as s:
        await review_store.fail(s, match_id, why)


async def run_with_own_engine(config: JobConfig, match_id: str, claimed: bool = False) -> str:
    """`run_review` on a database engine of its own (a child process or a worker)."""
    engine = make_engine(config.database_url, timeout=config.db_timeout)
    try:
        return await run_review(make_sessions(engine), match_id, config, claimed=claimed)
    finally:
        await engine.dispose()


def run_in_child(config: JobConfig, match_id: str, claimed: bool = False) -> str:
    """The local queue's entry point in a child process."""
    return asyncio.run(run_with_own_engine(config, match_id, claimed))
