"""Test helpers: real servers (uvicorn on a free port), players, rooms, and a socket client
that records every message it receives."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.platform.settings import Settings
from tests.children import listening_socket, spawn_uvicorn

ROOT = Path(__file__).resolve().parents[2]
Msg = dict[str, Any]


# The tests' players all come from 127.0.0.1: one address standing for a crowd, so the limits
# per address are those of a busy site, not of one stranger (tests/web/test_hardening.py
# checks the limits themselves at their defaults).
CROWD = {"limit_new_players": "100000/minute", "limit_new_rooms": "100000/minute",
         "limit_player_rooms": "10000/minute", "limit_replays": "100000/minute", "limit_connects": "100000/minute",
         "limit_new_accounts": "100000/minute", "limit_public_rooms": "100000/minute",
         "max_public_rooms_per_player": 1000}
CROWD_ENV = {f"SPITE_{k.upper()}": str(v) for k, v in CROWD.items()}


def make_settings(db_url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": db_url, "seeded_rooms": True, "seed_secret": "test-secret", "bot_delay": 0.02, "bot_workers": 1,
        "absent_grace": 60.0, "heartbeat_seconds": 5.0, "hello_timeout": 5.0, "rate_per_second": 200.0,
        "rate_burst": 400, "redis_url": None, **CROWD,
    }
    values.update(overrides)
    return Settings(**values)


def free_socket() -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    return s


class _Uvicorn:
    """A real uvicorn server for an app, on a socket bound here to a free port."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.sock = free_socket()
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class ServerThread(_Uvicorn):
    """A real uvicorn server for an app, in a thread of this process."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


class LoopServer(_Uvicorn):
    """A real uvicorn server for an app, in the test's own event loop: with the test's clock
    given to `create_app`, the test moves the rooms' time on itself (`clock.advance`) and the
    server's timers wake when it does."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> LoopServer:
        self.task = asyncio.get_running_loop().create_task(self.server.serve(sockets=[self.sock]))
        while not self.server.started:
            if self.task.done():
                self.task.result()
                raise RuntimeError("the test server did not start")
            await asyncio.sleep(0.01)
        return self

    async def stop(self) -> None:
        """Stop serving (again: nothing)."""
        self.server.should_exit = True
        if self.task is not None:
            await self.task
        self.sock.close()


async def on_the_clock(clock: Any, sock: Sock, pred: Callable[[Msg], bool], *, start: int = 0,
                       step: float = 0.05, steps: int = 2000) -> Msg:
    """Move the test's `clock` on, `step` seconds at a time, until `sock` has a message that matches
    `pred` (from index `start`): the server's timers act only when their time has come, and each
    act (a commit, then a message) takes the machine's time, which the loop waits for between steps."""
    for _ in range(steps):
        found = sock.find(pred, start)
        if found is not None:
            return found
        await clock.advance(step)
        sock.arrived.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(sock.arrived.wait(), 0.02)
    raise AssertionError(f"nothing matched after {steps * step:.0f} s on the clock; last: {sock.summary()}")


class ServerProcess:
    """`uvicorn app.web.app:app` in a subprocess (so it can be killed with SIGKILL), serving a socket
    this process bound (each start gets a new port)."""

    def __init__(self, env: dict[str, str], stderr: Path | None = None) -> None:
        self.port = 0
        self.env = {**os.environ, **env}
        self.stderr = stderr
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        sock = listening_socket()
        self.port = sock.getsockname()[1]
        err = open(self.stderr, "ab") if self.stderr is not None else None  # noqa: SIM115 (the child keeps it)
        with sock:
            self.proc = spawn_uvicorn("app.web.app:app", sock, env=self.env, cwd=ROOT, stderr=err)
        if err is not None:
            err.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the server process exited")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server process did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def terminate(self) -> None:
        """Send SIGTERM (a graceful stop) without waiting."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class Person:
    id: str
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def new_person(http: httpx.AsyncClient, name: str) -> Person:
    r = await http.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    body = r.json()
    return Person(body["id"], body["name"], body["token"])


async def new_room(http: httpx.AsyncClient, host: Person, **body: Any) -> Msg:
    r = await http.post("/api/rooms", json=body, headers=host.auth)
    assert r.status_code == 201, r.text
    return r.json()


class Sock:
    """A real websocket client that keeps every message it receives, in order."""

    def __init__(self, ws: ClientConnection, person: Person | None) -> None:
        self.ws = ws
        self.person = person
        self.messages: list[Msg] = []
        self.closed: tuple[int | None, str] | None = None
        self.arrived = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self._read())
        self.counter = 0
        self.tag = uuid.uuid4().hex[:8]  # move ids are unique per socket, as a client makes them

    @classmethod
    async def open(cls, base: str, code: str, person: Person | None = None, *, last_v: int | None = None,
                   hello: bool = True) -> Sock:
        ws = await connect(base.replace("http", "ws", 1) + f"/ws/rooms/{code}", max_size=2**22, open_timeout=10)
        sock = cls(ws, person)
        if hello and person is not None:
            await sock.send({"type": "hello", "token": person.token, "last_v": last_v})
            await sock.wait(lambda m: m["type"] == "welcome")
        return sock

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self.messages.append(json.loads(raw))
                self.arrived.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed = (self.ws.close_code, self.ws.close_reason or "")
            self.arrived.set()

    async def send(self, obj: Msg | str) -> None:
        await self.ws.send(obj if isinstance(obj, str) else json.dumps(obj))

    async def wait(self, pred: Callable[[Msg], bool], timeout: float = 10.0, start: int = 0) -> Msg:
        """The first message (from index `start`) that matches, waiting for it if needed."""
        deadline = time.monotonic() + timeout
        i = start
        while True:
            while i < len(self.messages):
                if pred(self.messages[i]):
                    return self.messages[i]
                i += 1
            if self.closed is not None:
                raise AssertionError(f"socket closed {self.closed} while waiting; last: {self.summary()}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting; last messages: {self.summary()}")
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), left)

    def find(self, pred: Callable[[Msg], bool], start: int = 0) -> Msg | None:
        """The first message (from index `start`) that matches, if one has come."""
        return next((m for m in self.messages[start:] if pred(m)), None)

    def summary(self, n: int = 4) -> list[Any]:
        """The last messages, short: type, version and error codes."""
        return [{k: m[k] for k in ("type", "v", "code", "message", "events") if k in m} for m in self.messages[-n:]]

    async def request(self, obj: Msg, answer: Callable[[Msg], bool], timeout: float = 10.0) -> Msg:
        """Send `obj` and wait for the first later message that matches `answer`."""
        start = len(self.messages)
        await self.send(obj)
        return await self.wait(answer, timeout, start)

    async def error(self, obj: Msg, timeout: float = 10.0) -> Msg:
        return await self.request(obj, lambda m: m["type"] == "error", timeout)

    async def room(self, obj: Msg, pred: Callable[[Msg], bool] = lambda r: True) -> Msg:
        msg = await self.request(obj, lambda m: m["type"] in ("room", "error") and (m["type"] == "error"
                                                                                   or pred(m["room"])))
        assert msg["type"] == "room", msg
        return msg["room"]

    def states(self) -> list[Msg]:
        return [m for m in self.messages if m["type"] == "state"]

    def last_state(self) -> Msg | None:
        states = self.states()
        return states[-1] if states else None

    async def state_at(self, v: int, timeout: float = 10.0, match_id: str | None = None) -> Msg:
        return await self.wait(lambda m: m["type"] == "state" and m["v"] >= v
                               and (match_id is None or m["match_id"] == match_id), timeout)

    def next_id(self) -> str:
        self.counter += 1
        return f"{self.tag}-{self.counter}"

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


def pick(moves: list[Msg], rng: random.Random) -> Msg:
    """A quick-finishing policy: payoff plays first, then other centre plays, else anything."""
    payoff = [m for m in moves if m["kind"] == "play" and m.get("from", "").startswith("payoff")]
    plays = [m for m in moves if m["kind"] == "play"]
    for group in (payoff, plays):
        if group and (group is payoff or rng.random() < 0.7):
            return rng.choice(group)
    rest = [m for m in moves if m["kind"] in ("discard", "end_turn")] or moves
    return rng.choice(rest)


async def match_with_bot(base: str, http: httpx.AsyncClient, host: Person, **room: Any) -> tuple[str, str, Sock]:
    """A two-seat room of `host` and an easy bot, its match started: (room code, match id, the
    host's socket, still open)."""
    made = await new_room(http, host, seats=2, **room)
    sock = await Sock.open(base, made["code"], host)
    await sock.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == host.id)
    await sock.room({"type": "add_bot", "seat": 1, "level": "easy"}, lambda r: r["seats"][1]["bot"] == "easy")
    await sock.send({"type": "start"})
    return made["code"], (await sock.state_at(0))["match_id"], sock


async def seat_everyone(host_sock: Sock, socks: list[Sock]) -> None:
    def seated(seat: int, player_id: str) -> Callable[[Msg], bool]:
        return lambda r: r["seats"][seat]["player_id"] == player_id

    for i, s in enumerate(socks):
        assert s.person is not None
        await s.room({"type": "sit", "seat": i}, seated(i, s.person.id))


async def play_to_end(socks: list[Sock], rng: random.Random, match_id: str | None = None,
                      max_moves: int = 5000, watchers: list[Sock] = ()) -> Msg:  # type: ignore[assignment]
    """Drive a match to its end through the sockets, always moving from view.legal_moves.
    Deals the next hand when a hand ends. Returns the last state."""
    if match_id is None:
        match_id = (await socks[0].state_at(0))["match_id"]
    for s in socks:
        await s.state_at(0, match_id=match_id)
    v = max(st["v"] for s in socks for st in s.states() if st["match_id"] == match_id)
    for _ in range(max_moves):
        latest = [await s.state_at(v, match_id=match_id) for s in socks]
        for w in watchers:
            await w.state_at(v, match_id=match_id)
        view = latest[0]["view"]
        if view["status"] == "match_over":
            return latest[0]
        if view["status"] == "hand_over":
            for s in socks:  # the next hand is dealt once every seated person is ready
                await s.send({"type": "next_hand"})
            v += 1
            continue
        mover = next((i for i, st in enumerate(latest) if st["view"]["legal_moves"]), None)
        assert mover is not None, "nobody may move in a playing hand"
        sock = socks[mover]
        await sock.send({"type": "move", "id": sock.next_id(), "move": pick(latest[mover]["view"]["legal_moves"], rng)})
        v += 1
    raise AssertionError("the match did not end")


WEIRD = [None, True, False, 0, -1, 1, 2, 6, 7, 2**31, 2**63, -(2**70), 0.5, 1e308, "", " ", "x" * 300, "standard",
         "pairs", "unlimited", "\u0000", "a\u0000b", "standard\u0000", "\ud7ff\u202e", "A", [], {}, [1, "a"],
         {"a": None}, {"a\u0000": 1}]
KEYS = ["name", "preset", "options", "seats", "public", "turn_seconds", "seed", "hints", "players", "teams",
        "payoff_size", "match_target", "centre_stacks", "type", "seat", "level", "id", "move", "kind", "card", "from",
        "to", "text", "last_v", "token", "wild_cannot_be", "decks", "jokers_per_deck", "name\u0000", "\u0000"]


def random_json(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value biased towards the names and values this server cares about."""
    roll = rng.random()
    if depth < 3 and roll < 0.35:
        return {rng.choice(KEYS): random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))}
    if depth < 3 and roll < 0.45:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return rng.choice(WEIRD)


async def new_account(http: httpx.AsyncClient, name: str, username: str | None = None,
                      password: str = "correct horse") -> Person:
    """A guest who has claimed an account (username: the name, unless given)."""
    person = await new_person(http, name)
    r = await http.post("/api/account", json={"username": username or name, "password": password},
                        headers=person.auth)
    assert r.status_code == 201, r.text
    return person
