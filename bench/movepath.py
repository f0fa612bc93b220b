"""The engine's work per move on the room's real path, by stage, with no sockets and no store.

    python bench/movepath.py [--games 60] [--seed 1] [--tree PATH]
    python bench/movepath.py --ab [-n 3] [--games 60] TREE_A TREE_B

Plays random two-player matches (standard preset; each player picks uniformly among the legal
moves its own view lists, as bench/load.py's players do) through the room core exactly as the
pump drives it, and times each stage of every move in CPU time (`time.process_time_ns`):

- decide: `room_core.handle` for the move (the legality check, the preview, the move's write
  record and, at a hand's end, its result and achievements);
- commit: `room_core.committed` once the store would have committed it (the match advances in
  memory, the notice to other instances, who is at the table);
- shared: the shared part of the view, built once per version (`observer.shared_view`);
- own: each seat's own part (`observer.own_view`: hand, legal moves), for both seats;
- encode: orjson of the shared part and of each own part, as a split socket is sent them.

Prints µs per move for each stage and their sum. `--tree` runs another worktree's code (its
`app`), so two builds can be compared on the same games; `--ab` does that, interleaved
(A, B, A, B, ...) in fresh processes, and prints every run and each stage's median by tree.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = ("decide", "commit", "shared", "own", "encode")


def run(games: int, seed: int) -> dict[str, float]:
    """Play `games` matches; µs of CPU per move by stage (and `moves`)."""
    import orjson

    from app.domain.records import RoomStatus
    from app.engine import MatchStatus, Move, own_view, shared_view
    from app.platform.settings import Settings
    from app.rooms.core import commands as C
    from app.rooms.core.effects import Committed
    from app.rooms.core.lobby import Actor, decide_lobby
    from app.rooms.core.match_rules import Fresh, decide_start
    from app.rooms.core.model import Moment, Room, RoomState
    from app.rooms.core.room_core import committed, handle
    from app.rooms.core.steps import apply_steps

    start = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    rules = Settings(database_url="sqlite://", absent_grace=30.0)
    players = (Actor("h", "Hana"), Actor("g", "Gus"))
    rng = random.Random(seed)
    clock = time.process_time_ns
    spent = dict.fromkeys(STAGES, 0)
    moves = 0

    def new_room(number: int) -> Room:
        st = RoomState("ROOM", "h", "standard", {}, 2, True, None, False, None, RoomStatus.WAITING,
                       [None, None], 0, None, 0)
        room = Room(st, None, loaded_at=start)
        for who in players:
            patch = decide_lobby(room, who, C.Sit(None), start, rules)
            assert patch is not None
            room.state = patch.applied(room.state, room.state.rev + 1)
        fresh = Fresh(f"m{number}", f"{rng.getrandbits(128):032x}")
        begin = decide_start(room, players[0], rematch=False, now=start, fresh=fresh, settings=rules)
        room.state = replace(begin.room.applied(room.state, room.state.rev + 1))
        room.match = begin.match
        apply_steps(begin.match, [begin.deal], begin.deadline)
        room.here.update({p.player_id: 1 for p in players})
        return room

    def fresh_ids() -> Fresh:
        return Fresh("x", "00" * 16)

    for number in range(games):
        room = new_room(number)
        m = room.match
        assert m is not None
        own = [own_view(m.engine, s) for s in (0, 1)]
        at = Moment(start, 100.0)
        while m.engine.status == MatchStatus.PLAYING:
            seat = m.engine.game.turn
            move = Move.from_wire(rng.choice(own[seat]["legal_moves"]))
            t0 = clock()
            decided = handle(room, players[seat], C.MakeMove(move, f"c{moves}"), at, rules, fresh_ids)
            t1 = clock()
            committed(room, decided, Committed(), at, rules)  # type: ignore[arg-type]
            t2 = clock()
            m = room.match
            assert m is not None
            shared = shared_view(m.engine, room.connected_flags(m.seats))
            t3 = clock()
            own = [own_view(m.engine, s) for s in (0, 1)]
            t4 = clock()
            orjson.dumps(shared)
            for part in own:
                orjson.dumps(part)
            t5 = clock()
            spent["decide"] += t1 - t0
            spent["commit"] += t2 - t1
            spent["shared"] += t3 - t2
            spent["own"] += t4 - t3
            spent["encode"] += t5 - t4
            moves += 1
    out: dict[str, float] = {k: v / moves / 1000 for k, v in spent.items()}
    out["total"] = sum(out[k] for k in STAGES)
    out["moves"] = moves
    return out


def line(name: str, r: dict[str, float]) -> str:
    parts = "  ".join(f"{k} {r[k]:6.1f}" for k in STAGES)
    return f"{name}: {parts}  = {r['total']:6.1f} µs per move ({int(r['moves'])} moves)"


def ab(trees: list[str], pairs: int, games: int, seed: int) -> None:
    results: dict[str, list[dict[str, float]]] = {t: [] for t in trees}
    for i in range(1, pairs + 1):
        for t in trees:
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--tree", t, "--games", str(games),
                                  "--seed", str(seed), "--json"], check=True, capture_output=True, text=True)
            r = json.loads(out.stdout.strip().splitlines()[-1])
            results[t].append(r)
            print(line(f"{os.path.basename(t)} run {i}", r), flush=True)
    first: dict[str, float] | None = None
    for t in trees:
        med = {k: statistics.median(r[k] for r in results[t]) for k in (*STAGES, "total", "moves")}
        print(line(f"median {os.path.basename(t)}", med)
              + (f"  ({med['total'] / first['total']:.2f}× the first)" if first else ""))
        first = first or med


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tree", default=HERE, help="the worktree whose app/ to run")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    parser.add_argument("--ab", action="store_true", help="compare TREES, interleaved, in fresh processes")
    parser.add_argument("-n", type=int, default=3, help="--ab: runs of each tree")
    parser.add_argument("trees", nargs="*")
    args = parser.parse_args()
    if args.ab:
        ab([os.path.abspath(t) for t in args.trees] or [HERE], args.n, args.games, args.seed)
        return
    sys.path.insert(0, os.path.abspath(args.tree))
    r = run(args.games, args.seed)
    print(json.dumps(r) if args.json else line(os.path.basename(os.path.abspath(args.tree)), r))


if __name__ == "__main__":
    main()
