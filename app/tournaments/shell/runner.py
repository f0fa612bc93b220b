"""The round runner: tournaments run themselves, on exactly one instance at a time.

Every instance runs the loop; each pass first takes the lease `~tournaments` (the lease table
that says which instance drives a room), so one instance at a time runs rounds, and another
takes over within a lease period if it dies, is deployed or killed. Everything the runner does is
read back from the store on each pass, so a pass cut short anywhere is finished by the next one:

1. an open tournament whose start time came starts (or ends, with fewer than 2 players);
2. a table whose match ended gets its scores; a table with no room yet (a pass cut short) gets
   one;
3. Swiss and round-robin: when every table of the round is over, the round ends (with duplicate
   deals its seed is published) and the next is paired, or the tournament ends;
   arena: players with no table are paired as they come free, until the end time, and the
   tournament ends when its last table does.

Pairing a round is one transaction that also moves the tournament's round counter from r−1 to
r (`tournaments.pair_round`): even two runners racing (a lapsed lease) pair a round once.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.platform.settings import Settings
from app.rooms.shell.leased import run_leased
from app.rooms.shell.service import RoomService
from app.store.repositories import tournaments as store
from app.store.tables import Tournament, TournamentRound, TournamentTable
from app.tournaments.core.model import Entrant
from app.tournaments.shell import plan
from app.tournaments.shell.notices import Notices
from app.tournaments.shell.pairing_pool import PairingPool
from app.tournaments.shell.tables import make_room, seat_scores

log = logging.getLogger(__name__)
LEASE = "~tournaments"


class TournamentRunner:
    def __init__(self, service: RoomService, notices: Notices, sessions: async_sessionmaker[AsyncSession],
                 settings: Settings) -> None:
        self.service = service
        self.notices = notices
        self.sessions = sessions
        self.settings = settings
        self._task: asyncio.Task[None] | None = None
        self._pass = asyncio.Lock()
        self._wake = asyncio.Event()
        self.pairing = PairingPool()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop())

    def poke(self) -> None:
        """Run the next pass now (a tournament was started or changed here)."""
        self._wake.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self.pairing.close()

    async def _loop(self) -> None:
        await run_leased(LEASE, self.service, self.sessions, self.settings.tournament_interval, self.run_once,
                         self._wake)

    async def run_once(self, now: datetime | None = None) -> None:
        """One pass over every tournament that needs the runner."""
        async with self._pass:
            now = now or self.service.clock.now()
            async with self.sessions() as s:
                due = list(await store.due(s, now))
            for t in due:
                try:
                    await self._advance(t, now)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("tournament %s: a pass failed", t.id)

    async def _advance(self, t: Tournament, now: datetime) -> None:
        if t.status == store.OPEN and not await self.begin(t, now):
            return
        async with self.sessions() as s:
            t = await store.get(s, t.id) or t
            rounds = list(await store.rounds(s, t.id))
            tables = list(await store.tables(s, t.id))
        changed = await self._collect(t, tables, now)
        if t.format == "arena":
            await self._arena(t, rounds, tables, now, changed)
        else:
            await self._rounds(t, rounds, tables, now, changed)
        await self._make_tables(t.id)

    async def begin(self, t: Tournament, now: datetime) -> bool:
        """Start an open tournament (the organiser's button, or its start time): pair round 1, or
        end it at once with fewer than 2 players. False if it was started already."""
        async with self.sessions() as s:
            entrants = plan.entrants_of(await store.players(s, t.id))
        if len([e for e in entrants if not e.withdrawn]) < 2:
            async with self.sessions() as s:
                ended = await store.finish(s, t.id, now)
            if ended:
                await self.notices.standings(t.id, [e.player_id for e in entrants])
            return ended
        minutes = t.settings.get("minutes")
        ends_at = now + timedelta(minutes=minutes) if t.format == "arena" and minutes else None
        fixed = dict(t.settings)
        if t.format == "swiss" and not fixed.get("rounds"):  # fixed now: latecomers do not change it
            fixed["rounds"] = plan.total_rounds(t, len([e for e in entrants if not e.withdrawn]))
        async with self.sessions() as s:
            if not await store.start(s, t.id, now, ends_at, fixed):
                return False
            t = await store.get(s, t.id) or t
        if t.format != "arena":
            await self._pair_next(t, [], [], now)
        return True

    async def _collect(self, t: Tournament, tables: Sequence[TournamentTable], now: datetime) -> bool:
        """Score the tables whose match ended, and end the ones nobody plays any more (no move
        for `idle_seconds`: both seats score 0); whether any table ended."""
        running = [tb for tb in tables if not tb.finished and tb.match_id is not None]
        ids = [tb.match_id for tb in running if tb.match_id]
        async with self.sessions() as s:
            over = await store.match_results(s, ids)
            idle = set(await store.stalled(s, ids, now - timedelta(seconds=self.idle_seconds(t))))
            for tb in running:
                if tb.match_id in over:
                    winners, totals = over[tb.match_id]
                    scores = seat_scores(len(tb.seats), winners, tb.forfeits)
                elif tb.match_id in idle:
                    log.info("tournament %s round %s table %s: nobody plays it any more", t.id, tb.round, tb.table)
                    winners, totals, scores = [], [0] * len(tb.seats), [0.0] * len(tb.seats)
                else:
                    continue
                await store.end_table(s, tb, scores, totals)
                tb.finished, tb.scores, tb.totals = True, scores, totals
        return any(tb.match_id in over or tb.match_id in idle for tb in running)

    def idle_seconds(self, t: Tournament) -> float:
        """How long a table may go without a move before the runner ends it: live,
        `SPITE_TOURNAMENT_IDLE_SECONDS` (the turn clock moves for an absent player only while
        someone is at the table); turn-based, also past the deadlines that would have played
        for its players (a room where every seat was handed to a bot waits for a person)."""
        turn = t.settings.get("turn_seconds") or 0
        if t.settings.get("pace") == "turn_based":
            return max(self.settings.tournament_idle_seconds, turn * (self.settings.missed_turns + 2))
        return float(self.settings.tournament_idle_seconds)

    async def _rounds(self, t: Tournament, rounds: list[TournamentRound], tables: list[TournamentTable],
                      now: datetime, changed: bool) -> None:
        current = [tb for tb in tables if tb.round == t.round]
        if changed:
            await self.notices.standings(t.id, await self._player_ids(t))
        if any(not tb.finished for tb in current):
            return
        if t.round:
            async with self.sessions() as s:
                await store.end_round(s, t.id, t.round, now)
        await self._pair_next(t, rounds, tables, now)

    async def _pair_next(self, t: Tournament, rounds: list[TournamentRound], tables: list[TournamentTable],
                         now: datetime) -> None:
        async with self.sessions() as s:
            entrants = plan.entrants_of(await store.players(s, t.id))
        ask = plan.round_ask(t, entrants, rounds, tables)
        pairing = None if ask is None else await self.pairing.pair(ask)
        if pairing is None:
            await self._finish(t, entrants, rounds, tables, now)
            return
        seed = commitment = None
        if t.settings.get("duplicate"):
            seed = plan.duplicate_seed(secrets.token_hex(16), t.id, t.round + 1)
            commitment = plan.seed_commitment(seed)
        async with self.sessions() as s:
            paired = await store.pair_round(s, t.id, t.round + 1, tables_seats=[list(x) for x in pairing.tables],
                                            byes=list(pairing.byes), seed=seed, commitment=commitment, now=now)
        if not paired:
            return  # another runner (or the organiser's start) paired it

    async def _arena(self, t: Tournament, rounds: list[TournamentRound], tables: list[TournamentTable],
                     now: datetime, changed: bool) -> None:
        if changed:
            await self.notices.standings(t.id, await self._player_ids(t))
        running = [tb for tb in tables if not tb.finished]
        busy = {tb.round for tb in running}
        for r in rounds:  # a wave of arena tables is over when its last table is
            if r.status == "playing" and r.round not in busy:
                async with self.sessions() as s:
                    await store.end_round(s, t.id, r.round, now)
        if t.ends_at is not None and now >= t.ends_at:
            if not running:
                async with self.sessions() as s:
                    entrants = plan.entrants_of(await store.players(s, t.id))
                await self._finish(t, entrants, rounds, tables, now)
            return
        async with self.sessions() as s:
            entrants = plan.entrants_of(await store.players(s, t.id))
        wave = plan.arena_wave(t, entrants, tables)
        if not wave:
            return
        async with self.sessions() as s:
            await store.pair_round(s, t.id, t.round + 1, tables_seats=[list(x) for x in wave], byes=[],
                                   seed=None, commitment=None, now=now)  # False: another runner paired them

    async def _make_tables(self, tournament_id: str) -> None:
        """Make the rooms of the tables that have none: each table is claimed first (one
        conditional update), so two runners racing never make two rooms for one table."""
        async with self.sessions() as s:
            t = await store.get(s, tournament_id)
            rounds = {r.round: r for r in await store.rounds(s, tournament_id)}
            tables = [tb for tb in await store.tables(s, tournament_id) if tb.match_id is None]
        if t is None or t.status == store.OVER:
            return
        made = False
        for table in tables:
            async with self.sessions() as s:
                if not await store.claim_table(s, table, self.service.clock.now()):
                    continue
            code = await make_room(self.service, self.sessions, t, rounds[table.round], table)
            if code is not None:
                made = True
                await self.notices.table_ready(t, table.round, table.seats, code)
        if made:
            await self.notices.standings(t.id, await self._player_ids(t))

    async def _finish(self, t: Tournament, entrants: list[Entrant], rounds: Sequence[TournamentRound],
                      tables: Sequence[TournamentTable], now: datetime) -> None:
        """The last table is over: the achievements, then the tournament is over, then its
        players hear the standings' last change."""
        await self.notices.award(t, entrants, rounds, tables)
        async with self.sessions() as s:
            ended = await store.finish(s, t.id, now)
        if ended:
            await self.notices.standings(t.id, [e.player_id for e in entrants])

    async def _player_ids(self, t: Tournament) -> list[str]:
        async with self.sessions() as s:
            return [p.player_id for p in await store.players(s, t.id)]
