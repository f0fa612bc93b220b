"""Child processes that die with the test run: a server a killed pytest leaves behind keeps
its port and a core busy (the machine's load once reached 65 from orphaned uvicorns)."""

from __future__ import annotations

import ctypes
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """`preexec_fn` for Popen: on Linux the child gets SIGTERM when the process that started it
    dies, however it dies (kill -9 included). Elsewhere it does nothing."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
