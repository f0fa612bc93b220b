"""`python -m app.worker`: a review worker on the Redis queue (needs SPITE_REDIS_URL and the
same SPITE_DATABASE_URL as the web instances). Run as many as there are cores to spare; each
makes one review at a time. SIGTERM stops it; a review cut short (or a worker killed) is
retried by another worker: its heartbeat stops and the queue's sweep queues it again."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

from saq import Worker

from app.platform.jobs import job_config
from app.platform.jobs.saq_queue import FUNCTION, make_queue, review_match
from app.platform.settings import Settings, get_settings
from app.store import migrate
from app.store.db import make_engine, make_sessions

log = logging.getLogger("app.worker")

SWEEP_SECONDS = 2  # how often (and how long a lock) a worker looks for reviews whose worker died


def build(settings: Settings, *, sweep: int = SWEEP_SECONDS) -> Worker:
    """A saq worker serving the reviews queue of this configuration."""
    assert settings.redis_url
    engine = make_engine(settings.database_url, timeout=settings.db_timeout)

    async def startup(ctx: dict[str, Any]) -> None:
        if settings.auto_migrate:
            await migrate.upgrade(engine)
        ctx["sessions"] = make_sessions(engine)
        ctx["config"] = job_config(settings)

    async def shutdown(ctx: dict[str, Any]) -> None:
        await engine.dispose()

    return Worker(make_queue(settings.redis_url, settings.redis_prefix), functions=[(FUNCTION, review_match)],
                  concurrency=1, startup=startup, shutdown=shutdown,
                  timers={"sweep": sweep, "abort": 1, "schedule": 1, "worker_info": 10})


def main() -> int:
    settings = get_settings()
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if not settings.redis_url:
        print("app.worker serves the review queue on Redis: set SPITE_REDIS_URL (without it the web process "
              "makes reviews itself, in its local queue)", file=sys.stderr)
        return 2
    asyncio.run(build(settings).start())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
