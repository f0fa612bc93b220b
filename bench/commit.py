"""The plain-move commit alone: `MoveWriter.record` on a fresh SQLite file, one move at a time
(the inline path the server takes for a plain move), in one process with no sockets.

    python bench/commit.py [--moves 20000] [--database sqlite:///FILE | postgresql://...]
    python bench/commit.py --queued [--matches 20]   # the path of a move that found the lock taken

Prints µs of CPU per move (the process's own time, every thread's: on SQLite the inline commit is
all on this thread). `--queued`: no move is tried inline (`MoveWriter(inline=False)`), and one move
of every match is sent at once, so each transaction commits `--matches` moves: the path a plain
move takes when it finds SQLite's write lock taken (a batch on the loop's thread since the
batched commit; before it, the pooled aiosqlite connection). Run a tree's own code with
PYTHONPATH=TREE (the editable install may point at another tree).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time

from app.domain.writes import MatchChange, MoveWrite
from app.store import migrate
from app.store.db import make_engine, make_sessions
from app.store.moves.writer import MoveWriter
from app.store.repositories import matches as match_store
from app.store.repositories.players import create_player
from app.store.tables import Hand, Match, Room, Seat


async def new_match(sessions: object, match_id: str) -> None:
    async with sessions() as s:  # type: ignore[operator]
        ids = []
        for name in ("Ann", "Bob"):
            player, _ = await create_player(s, name)
            ids.append(player.id)
        code = "R" + match_id[-7:].rjust(7, "0")
        s.add(Room(code=code, host_id=ids[0], preset="standard", overrides={}, seats=2, public=False,
                   hints=True, status="waiting", seating=[None, None], rev=0, match_count=0))
        await s.commit()
        await match_store.start_match(
            s, room_code=code, room_rev=0, room_values={"status": "playing", "match_id": match_id, "match_count": 1},
            match=Match(id=match_id, room_code=code, number=1, preset="standard", options={}, names=["Ann", "Bob"],
                        status="playing", v=0, totals=[0, 0]),
            seats=[Seat(match_id=match_id, seat=0, player_id=ids[0], name="Ann"),
                   Seat(match_id=match_id, seat=1, player_id=ids[1], name="Bob")],
            hand=Hand(match_id=match_id, number=1, seed="s", commitment="c", start_v=0))


def write(match_id: str, v: int) -> MoveWrite:
    from datetime import UTC, datetime, timedelta
    now = datetime.now(UTC)
    return MoveWrite(match_id=match_id, expect_v=v, seq=v + 1, hand_number=1, seat=v % 2, actor="player",
                     client_id=f"m{v + 1}", payload={"kind": "play", "card": 17, "from": "hand", "to": "centre:2"},
                     match=MatchChange(status="playing", totals=[0, 0], turn_deadline=now + timedelta(seconds=60),
                                       wake_at=None, last_move_at=now, turn_seat=(v + 1) % 2))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=20000)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--database", default=None)
    parser.add_argument("--queued", action="store_true", help="every move through the queue, --matches at once")
    args = parser.parse_args()
    url = args.database or f"sqlite:///{os.path.join(tempfile.mkdtemp(prefix='spite-commit-'), 'c.db')}"
    engine = make_engine(url)
    await migrate.upgrade(engine)
    sessions = make_sessions(engine)
    ids = [f"match{i:05d}" for i in range(args.matches)]
    for i in ids:
        await new_match(sessions, i)
    writer = MoveWriter(engine, inline=not args.queued)
    writes = [write(ids[n % len(ids)], n // len(ids)) for n in range(args.moves)]
    group = len(ids) if args.queued else 1
    warm = 10 * group if args.queued else 200

    async def commit(part: list[MoveWrite]) -> None:
        for i in range(0, len(part), group):
            await asyncio.gather(*(writer.record(w) for w in part[i:i + group]))

    await commit(writes[:warm])
    t0, c0 = time.perf_counter(), time.process_time()
    await commit(writes[warm:])
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    n = len(writes) - warm
    how = f"queued, {group} per transaction" if args.queued else "inline"
    print(f"commit: {cpu / n * 1e6:.1f} µs CPU per plain move, {n / wall:,.0f} moves/s ({url.split(':')[0]}, {how})")
    await writer.close()
    await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main())
