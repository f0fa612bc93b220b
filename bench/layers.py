"""Where the server's CPU goes, by layer, from a py-spy profile (`bench/load.py --profile FILE`).

    python bench/layers.py FILE [--per-move-us US]

FILE holds py-spy's raw ("collapsed") stacks: one line per distinct stack, frames from the
thread's root to the leaf separated by ';', then the number of samples. Each sample's *self*
time goes to the layer of its leaf frame (the code that was running), so the shares add up to
100 % of the samples; idle samples (the event loop waiting in `select`/`epoll`, threads waiting
on a lock or a queue) are counted apart. With `--per-move-us` (the server CPU per move that
load.py printed) the table also gives microseconds per move.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

# The first pattern that matches a frame's file decides its layer (py-spy prints
# "function (path/to/file.py:line)").
LAYERS: list[tuple[str, str]] = [
    ("engine: views (observer.py)", r"\bapp/engine/observer\.py"),
    ("engine: rules (legal moves, apply, the copy a move is decided on)", r"\bapp/engine/"),
    ("bots", r"\bapp/bots/"),
    ("room core (decisions)", r"\bapp/rooms/core/"),
    ("room fan-out (views, encoding)", r"\bapp/rooms/shell/fanout\.py"),
    ("room shell and ports", r"\bapp/rooms/"),
    ("SQLite (inline commits: sqlite3 runs under app/store/moves/inline.py)", r"\bapp/store/moves/inline\.py"),
    ("store (our code)", r"\bapp/store/"),
    ("server (our socket and REST code)", r"\bapp/(web|platform)/"),
    ("metrics and logging", r"prometheus_client|/logging/"),
    ("SQLAlchemy", r"sqlalchemy"),
    ("SQLite driver (aiosqlite, sqlite3)", r"aiosqlite|sqlite3"),
    ("JSON (orjson, json, pydantic)", r"orjson|/json/|pydantic"),
    ("websocket protocol (websockets, wsproto)", r"websockets|wsproto"),
    ("ASGI server and framework (uvicorn, starlette, fastapi)", r"uvicorn|starlette|fastapi|h11|httptools"),
    ("asyncio and the event loop", r"asyncio|uvloop|selectors"),
    ("other", r""),
]


def _idle_patterns() -> re.Pattern[str]:
    """Leaf frames where a thread waits rather than works: the event loop inside its poll (C code
    under `Runner.run` or `select`), aiosqlite's worker at `tx.get()`, waits on locks and queues.
    py-spy's --nonblocking sampling cannot tell idle threads apart, so we do."""
    waits = [r"Runner\.run \(asyncio/runners\.py", r"\bselect \(selectors\.py", r"\b(wait|acquire|get) \(threading\.py",
             r"\bget \(queue\.py", r"_worker \(concurrent/"]
    try:
        import aiosqlite.core

        with open(aiosqlite.core.__file__) as f:
            for number, text in enumerate(f, 1):
                if "tx.get()" in text:
                    waits.append(rf"_connection_worker_thread \(aiosqlite/core\.py:{number}\)")
    except ImportError:
        pass
    return re.compile("|".join(waits))


IDLE = _idle_patterns()


def layer_of(frame: str) -> str:
    for name, pattern in LAYERS:
        if re.search(pattern, frame):
            return name
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--per-move-us", type=float, default=None)
    args = parser.parse_args()
    busy: Counter[str] = Counter()
    idle = 0
    with open(args.file) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack or not count.isdigit():
                continue
            leaf = stack.split(";")[-1]
            if not leaf.strip() or IDLE.search(leaf):
                idle += int(count)
            else:
                busy[layer_of(leaf)] += int(count)
    total = sum(busy.values())
    if not total:
        raise SystemExit("no busy samples in the profile")
    print(f"{total} busy samples, {idle} idle ({idle / (total + idle) * 100:.0f} % of all)")
    per_move = args.per_move_us
    for name, n in busy.most_common():
        share = n / total
        us = f"  {share * per_move:6.0f} µs/move" if per_move else ""
        print(f"  {share * 100:5.1f} %{us}  {name}")


if __name__ == "__main__":
    main()
