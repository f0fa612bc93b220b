"""What operators see: /metrics in Prometheus text format, and JSON log lines naming the room
and the match they are about."""

from __future__ import annotations

import io
import json
import logging
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.platform.logctx import about
from app.platform.logs import JsonFormatter
from app.web.app import create_app
from tests.web.helpers import ServerThread, Sock, make_settings, new_person, new_room, pick, seat_everyone

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _parse(body: str) -> Samples:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(body) for s in family.samples}


def _sum(samples: Samples, name: str, **labels: str) -> float:
    return sum(v for (n, ls), v in samples.items() if n == name and set(labels.items()) <= set(ls))


@pytest.fixture
def server(db_url: str) -> Iterator[ServerThread]:
    s = ServerThread(create_app(make_settings(db_url))).start()
    try:
        yield s
    finally:
        s.stop()


async def test_metrics_count_what_happens(server: ServerThread) -> None:
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        before = _parse((await http.get("/metrics")).text)
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        code = (await new_room(http, ann, preset="short", seats=2, seed="metrics"))["code"]
        socks = [await Sock.open(server.base, code, p) for p in (ann, bob)]
        await seat_everyone(socks[0], socks)
        await socks[0].send({"type": "start"})
        rng = random.Random(3)
        v = (await socks[0].state_at(0))["v"]
        for _ in range(5):
            latest = [await s.state_at(v) for s in socks]
            mover = next(i for i, st in enumerate(latest) if st["view"]["legal_moves"])
            await socks[mover].send({"type": "move", "id": socks[mover].next_id(),
                                     "move": pick(latest[mover]["view"]["legal_moves"], rng)})
            v += 1
        for s in socks:
            await s.state_at(v)
        waiting = next(s for s in socks if not s.last_state()["view"]["legal_moves"])  # type: ignore[index]
        err = await waiting.error({"type": "move", "id": "x", "move": {"kind": "end_turn"}})
        assert err["code"] == "not_your_turn"
        response = await http.get("/metrics")
        assert response.headers["content-type"].startswith("text/plain")
        after = _parse(response.text)
        for s in socks:
            await s.close()

    def grew(name: str, **labels: str) -> float:
        return _sum(after, name, **labels) - _sum(before, name, **labels)

    assert grew("spite_moves_committed_total", actor="player") == 5
    assert grew("spite_move_latency_seconds_count", stage="committed") == 5
    assert grew("spite_move_latency_seconds_count", stage="sent") == 5
    assert grew("spite_errors_total", code="not_your_turn") == 1
    assert grew("spite_commit_batch_moves_sum") >= 5
    assert _sum(after, "spite_sockets") >= 2 and _sum(after, "spite_rooms_loaded") >= 1
    assert _sum(after, "spite_event_loop_lag_seconds_count") > 0
    for name in ("spite_bot_think_seconds", "spite_leases_held", "spite_automatic_moves"):
        assert f"# HELP {name}" in response.text


def test_json_log_lines_name_the_room_and_match() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter("inst1"))
    logger = logging.getLogger("app.tests.json")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        about("ROOMCODE", "MATCHID")
        logger.info("moved %s", "on")
        about(None)
        try:
            raise ValueError("bad")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["message"] == "moved on" and first["level"] == "info" and first["logger"] == "app.tests.json"
    assert first["room"] == "ROOMCODE" and first["match"] == "MATCHID" and first["instance"] == "inst1"
    assert "room" not in second and "ValueError: bad" in second["error"]


async def test_a_server_logs_json_with_room_and_match(db_url: str, tmp_path: Path) -> None:
    """A real server process with SPITE_LOG_FORMAT=json writes one JSON object per line."""
    from tests.web.helpers import ServerProcess

    log = tmp_path / "server.log"
    server = ServerProcess({"SPITE_DATABASE_URL": db_url, "SPITE_LOG_FORMAT": "json", "SPITE_LOG_LEVEL": "info",
                            "SPITE_STATIC_DIR": str(tmp_path), "SPITE_SEEDED_ROOMS": "true"}, stderr=log).start()
    try:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
            code = (await new_room(http, ann, preset="short", seats=2, seed="logs"))["code"]
            socks = [await Sock.open(server.base, code, p) for p in (ann, bob)]
            await seat_everyone(socks[0], socks)
            await socks[0].send({"type": "start"})
            match_id = (await socks[0].state_at(0))["match_id"]
            for s in socks:
                await s.close()
    finally:
        server.stop()
    app_lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    started = [line for line in app_lines if "started" in line["message"]]
    assert started and started[0]["room"] == code and started[0]["match"] == match_id
    assert all({"time", "level", "logger", "message", "instance"} <= set(line) for line in app_lines)
