"""Floor: the least CPU a durable move can cost in this design, with no sockets and no framework.

    python bench/floor.py [--seconds 10] [--batch 20]

Plays random two-player games in one process and, for every move, does only what the server
cannot skip: the engine applies the move, builds the view of each of the two players and
serialises each `state` message with orjson, and the move row is inserted and its match
advanced in SQLite (the standard-library driver, WAL, `synchronous=NORMAL`; the move writer's
own statements and bind processors, compiled once as on the server's fast path) in transactions
of `--batch` moves (the server's group commit). No websocket frames, no ASGI, no SQLAlchemy
session or engine, no asyncio: the server's real cost per move is this floor plus those.
Prints each part and, as its last line,

    floor: <us> us per move (engine <a>, views <b>, encode <c>, sqlite <d>) = at most <m> moves/s on one core
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import sys
import tempfile
import time

import orjson
from sqlalchemy import create_engine

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.engine import Match, make_options, view  # noqa: E402
from app.store.moves.writer import _FastPath  # noqa: E402
from app.store.tables import utcnow  # noqa: E402

SCHEMA = """
CREATE TABLE matches (id TEXT PRIMARY KEY, v INTEGER NOT NULL, status TEXT NOT NULL,
                      totals TEXT NOT NULL, turn_deadline TEXT);
CREATE TABLE moves (id INTEGER PRIMARY KEY, match_id TEXT NOT NULL REFERENCES matches(id),
                    seq INTEGER NOT NULL, hand_number INTEGER NOT NULL, seat INTEGER NOT NULL,
                    actor TEXT NOT NULL, client_id TEXT, payload JSON NOT NULL, created_at DATETIME NOT NULL,
                    UNIQUE (match_id, seq), UNIQUE (match_id, seat, client_id));
"""
# The move writer's own statements, compiled for SQLite as the server compiles them.
STATEMENTS = _FastPath(create_engine(
    "sqlite://", json_serializer=lambda v: orjson.dumps(v, option=orjson.OPT_NON_STR_KEYS).decode()).dialect)


def connect(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "wal_autocheckpoint=10000"):
        db.execute(f"PRAGMA {pragma}")
    db.executescript(SCHEMA)
    return db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--batch", type=int, default=20, help="moves per transaction (group commit)")
    args = parser.parse_args()
    opts = make_options("standard", {"players": 2})
    rng = random.Random(2026)
    spent = {"engine": 0.0, "views": 0.0, "encode": 0.0, "sqlite": 0.0}
    clock = time.perf_counter
    with tempfile.TemporaryDirectory() as tmp:
        db = connect(os.path.join(tmp, "floor.db"))
        pending: list[tuple[tuple[object, ...], tuple[object, ...]]] = []
        moves = games = 0
        start = clock()
        deadline = start + args.seconds
        while clock() < deadline:
            match_id = f"m{games}"
            db.execute("INSERT INTO matches (id, v, status, totals) VALUES (?, 0, 'playing', '[0,0]')", (match_id,))
            m = Match(opts)
            m.deal(f"floor-{games}")
            while m.status == "playing":
                t0 = clock()
                seat = m.game.turn
                mv = rng.choice(m.game.legal_moves())
                expect = m.v
                events = m.apply(mv, seat)
                t1 = clock()
                seen = [view(m, s, [0, 1]) for s in (0, 1)]
                t2 = clock()
                for s in (0, 1):
                    orjson.dumps({"type": "state", "v": m.v, "view": seen[s], "events": events,
                                  "match_id": match_id, "clock": None, "autoplay": []}).decode()
                t3 = clock()
                pending.append(({"match_id": match_id, "seq": m.v, "hand_number": len(m.hands), "seat": seat,
                                 "actor": "person", "client_id": f"c{moves}", "payload": mv.to_wire(),
                                 "created_at": utcnow()},
                                {"b_id": match_id, "b_expect": expect, "b_v": m.v, "b_status": m.status,
                                 "b_totals": list(m.totals), "b_deadline": None}))
                if len(pending) >= args.batch:
                    db.execute("BEGIN")
                    db.executemany(STATEMENTS.insert.sql, STATEMENTS.insert.rows([row for row, _ in pending]))
                    db.executemany(STATEMENTS.advance.sql, STATEMENTS.advance.rows([adv for _, adv in pending]))
                    db.execute("COMMIT")
                    pending.clear()
                t4 = clock()
                spent["engine"] += t1 - t0
                spent["views"] += t2 - t1
                spent["encode"] += t3 - t2
                spent["sqlite"] += t4 - t3
                moves += 1
            games += 1
        db.close()
    per = {k: v / moves * 1e6 for k, v in spent.items()}
    total = sum(per.values())
    print(f"{moves} moves in {games} games, {args.batch} moves a transaction")
    for k, v in per.items():
        print(f"  {k}: {v:.1f} us per move")
    print(f"floor: {total:.0f} us per move (engine {per['engine']:.0f}, views {per['views']:.0f}, "
          f"encode {per['encode']:.0f}, sqlite {per['sqlite']:.0f}) = at most {1e6 / total:,.0f} moves/s on one core")


if __name__ == "__main__":
    main()
