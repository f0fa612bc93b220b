"""Scale-out fixtures: app instances as real uvicorn processes on a fresh PostgreSQL database
and a Redis channel prefix of their own (several test suites may share the servers).

The tests here that need PostgreSQL and Redis run when SPITE_TEST_POSTGRES_URL and
SPITE_TEST_REDIS_URL are set (CI sets both) and are skipped, saying so, otherwise.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import drop_database, fresh_database_url

from .cluster import Cluster

POSTGRES = os.environ.get("SPITE_TEST_POSTGRES_URL")
REDIS = os.environ.get("SPITE_TEST_REDIS_URL")
needs_services = pytest.mark.skipif(
    not (POSTGRES and REDIS),
    reason="needs PostgreSQL and Redis: set SPITE_TEST_POSTGRES_URL and SPITE_TEST_REDIS_URL (CI does)")


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    """A fresh, empty PostgreSQL database (dropped afterwards)."""
    if not POSTGRES:
        pytest.skip("needs PostgreSQL: set SPITE_TEST_POSTGRES_URL")
    url = fresh_database_url("postgres", str(tmp_path))
    try:
        yield url
    finally:
        drop_database(url)


@pytest.fixture
def redis_url() -> str:
    if not REDIS:
        pytest.skip("needs Redis: set SPITE_TEST_REDIS_URL")
    return REDIS


@pytest.fixture
def prefix() -> str:
    """A Redis channel prefix no other test uses."""
    return f"spite-test-{uuid.uuid4().hex[:12]}:"


@pytest.fixture
def cluster(pg_url: str, redis_url: str, prefix: str, tmp_path: Path) -> Iterator[Cluster]:
    """Start app instances with `cluster.start(n)`; all stopped (or killed) at the end."""
    c = Cluster(pg_url, redis_url, prefix, tmp_path)
    try:
        yield c
    finally:
        c.stop_all()
