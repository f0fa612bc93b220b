"""Child processes that die with the test run: a server a killed pytest leaves behind keeps
its port and a core busy (the machine's load once reached 65 from orphaned uvicorns). A child
server is handed a socket this process already listens on, so its port is never raced for."""

from __future__ import annotations

import ctypes
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import IO

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """`preexec_fn` for Popen: on Linux the child gets SIGTERM when the process that started it
    dies, however it dies (kill -9 included). Elsewhere it does nothing."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)


def listening_socket() -> socket.socket:
    """A TCP socket on 127.0.0.1, on a port the kernel chose, already listening: handed to a
    child server, no other process (another pytest-xdist worker included) can take its port."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(2048)
    return s


def spawn_uvicorn(app: str, sock: socket.socket, *, env: dict[str, str], cwd: Path,
                  stdout: IO[bytes] | None = None, stderr: IO[bytes] | int | None = None) -> subprocess.Popen[bytes]:
    """`uvicorn app` in a child that serves `sock` (passed by descriptor) and dies with this process."""
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", app, "--fd", str(sock.fileno()), "--log-level", "warning"],
        cwd=cwd, env=env, stdout=stdout, stderr=stderr, pass_fds=[sock.fileno()], preexec_fn=die_with_parent)
