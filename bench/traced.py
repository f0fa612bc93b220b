"""The server under tracemalloc, for `bench/load.py --tracemalloc DIR` (memory per idle
player). Runs uvicorn like load.py does, with tracemalloc tracing from the start; each SIGUSR1
writes a snapshot to DIR/<n>.snap, then a full collection and DIR/<n>gc.snap (what is garbage
the raised collector thresholds have not freed yet, against what is live).

    python bench/traced.py DIR -- <uvicorn arguments>
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import tracemalloc
from typing import Any

import uvicorn.main


def main() -> None:
    out = sys.argv[1]
    args = sys.argv[sys.argv.index("--") + 1:]
    os.makedirs(out, exist_ok=True)
    tracemalloc.start(int(os.environ.get("SPITE_TRACE_FRAMES", "1")))
    taken = [0]

    def snapshot(signum: int, frame: Any) -> None:
        n = taken[0]
        taken[0] += 1
        tracemalloc.take_snapshot().dump(os.path.join(out, f"{n}.snap"))
        gc.collect()
        tracemalloc.take_snapshot().dump(os.path.join(out, f"{n}gc.snap"))
        with open(os.path.join(out, f"{n}.done"), "w") as f:
            f.write("ok")

    signal.signal(signal.SIGUSR1, snapshot)
    sys.argv = ["uvicorn", *args]
    uvicorn.main.main()


if __name__ == "__main__":
    main()
