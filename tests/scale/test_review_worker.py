"""Reviews on a real queue on Redis: the web instance only enqueues, `python -m app.worker`
processes do the work. A worker killed with SIGKILL mid-review: the job is swept and retried by
another worker and the review finishes, made once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.store.db import make_engine, make_sessions
from app.store.repositories import reviews as review_store
from tests.children import die_with_parent
from tests.web.helpers import ROOT
from tests.web.review_helpers import finished_match, wait_review

from .cluster import Cluster
from .conftest import needs_services

pytestmark = needs_services

# A heartbeat of 5 s: a dead worker's job is swept within seconds, while a worker slowed by a busy
# machine (CI) is not swept while alive (each such sweep spends one of the job's tries).
SLOW_ENOUGH = {"SPITE_REVIEW_MS": "40", "SPITE_REVIEW_SAMPLES": "400", "SPITE_REVIEW_HEARTBEAT": "5",
               "SPITE_REVIEW_RETRIES": "2"}


def start_worker(cluster: Cluster, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "ab") as err:
        return subprocess.Popen([sys.executable, "-m", "app.worker"], cwd=ROOT, stderr=err, preexec_fn=die_with_parent,
                                env={**os.environ, **cluster.env(**SLOW_ENOUGH)})


async def _row(db_url: str, match_id: str) -> review_store.Review | None:
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s:
            return await review_store.get(s, match_id)
    finally:
        await engine.dispose()


async def test_a_worker_killed_mid_review_is_retried_and_the_review_finishes(cluster: Cluster,
                                                                               tmp_path: Path) -> None:
    (web,) = cluster.start(1, **SLOW_ENOUGH)
    workers = [start_worker(cluster, tmp_path / "worker-1.log")]
    try:
        async with httpx.AsyncClient(base_url=web.base, timeout=30) as http:
            ann, bob, match_id = await finished_match(web.base, http, seed="review-worker")
            assert (await http.post(f"/api/matches/{match_id}/review", headers=ann.auth)).status_code == 202
            assert (await http.post(f"/api/matches/{match_id}/review", headers=bob.auth)).status_code == 202
            running = await wait_review(http, match_id, lambda b: b["status"] == "running" and b["progress"] > 0.05,
                                        timeout=90)
            assert running["progress"] < 0.9, "too quick to be killed mid-way: slow the review down"
            workers[0].kill()
            workers[0].wait(10)
            time.sleep(1.0)
            stuck = (await http.get(f"/api/matches/{match_id}/review")).json()
            assert stuck["status"] == "running" and stuck["progress"] < 1  # nobody is working on it
            workers.append(start_worker(cluster, tmp_path / "worker-2.log"))
            try:
                done = await wait_review(http, match_id, lambda b: b["status"] == "done", timeout=180)
            except AssertionError as e:  # say what the workers saw
                logs = "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}"
                                  for p in sorted(tmp_path.glob("worker-*.log")))
                raise AssertionError(f"{e}\n{logs}") from e
            assert done["decisions"] and done["chances"] and done["summary"]
        row = await _row(cluster.db_url, match_id)
        assert row is not None and row.attempts == 2, row.attempts if row else None  # killed once, then made
        log = (tmp_path / "worker-2.log").read_text()
        assert "Sweeping job" in log or "swept" in log.lower(), log[-2000:]
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait(10)

