"""Shared fixtures: a fresh database per test, on SQLite always and on PostgreSQL whenever
SPITE_TEST_POSTGRES_URL is set (each test gets its own uniquely named database).

The schema is migrated once per test process (each pytest-xdist worker is one): a fresh
database is a copy of that migrated one, a file copy on SQLite and `CREATE DATABASE ... TEMPLATE`
on PostgreSQL, never a new run of the migrations. `empty_db_url` gives a database with no schema
at all, for the tests of the migrations themselves.

Markers (docs/testing.md): tests under tests/e2e are `e2e`, under tests/scale `scale`, and a test
that asks for PostgreSQL or Redis is `services`; `-m "not e2e"` and the like pick a part.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
POSTGRES = os.environ.get("SPITE_TEST_POSTGRES_URL")
BACKENDS = ["sqlite"] + (["postgres"] if POSTGRES else [])
# This process's name among pytest-xdist's workers ("gw0", ...), "main" without xdist.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
# Fixtures whose test needs a service beside the app: marked `services`.
_SERVICE_FIXTURES = {"pg_url", "redis_url"}


def _sync(coro: Coroutine[Any, Any, None]) -> None:
    """Run `coro` to its end on a loop of its own, in a thread of its own: a test's loop (or
    Playwright's, which the browser tests run) may be running in this one."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coro).result()


async def _admin(sql: str) -> None:
    import asyncpg

    assert POSTGRES is not None
    u = make_url(POSTGRES)
    conn = await asyncpg.connect(user=u.username, password=u.password, host=u.host or "127.0.0.1",
                                 port=u.port or 5432, database=u.database or "postgres")
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _postgres_url(name: str) -> str:
    assert POSTGRES is not None
    return make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)


class _Templates:
    """The migrated databases of this test process, made on first use and dropped at its end."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self.sqlite: Path | None = None
        self.postgres: str | None = None

    def sqlite_file(self) -> Path:
        if self.sqlite is None:
            if self.folder is None:  # one folder, even if a first try to migrate failed
                self.folder = Path(tempfile.mkdtemp(prefix=f"spite-templates-{WORKER}-"))
            path = self.folder / "template.db"
            _migrate(f"sqlite:///{path}")
            self.sqlite = path
        return self.sqlite

    def postgres_name(self) -> str:
        if self.postgres is None:
            name = f"spite_template_{WORKER}_{uuid.uuid4().hex[:12]}"
            _sync(_admin(f'CREATE DATABASE "{name}"'))
            _migrate(_postgres_url(name))
            self.postgres = name
        return self.postgres

    def close(self) -> None:
        if self.postgres is not None:
            _sync(_admin(f'DROP DATABASE IF EXISTS "{self.postgres}" WITH (FORCE)'))
            self.postgres = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = self.sqlite = None


def _migrate(url: str) -> None:
    from app.store import migrate
    from app.store.db import make_engine

    async def run() -> None:
        engine = make_engine(url)
        try:
            await migrate.upgrade(engine)
        finally:
            await engine.dispose()

    _sync(run())


_templates = _Templates()


@pytest.fixture(scope="session", autouse=True)
def _drop_templates() -> Iterator[None]:
    yield
    _templates.close()


def fresh_database_url(backend: str, folder: str, *, migrated: bool = True) -> str:
    """A URL of a new database (created here for PostgreSQL): at the latest schema, copied from
    this process's migrated template, or empty with `migrated=False`."""
    if backend == "sqlite":
        path = Path(folder) / f"spite-{uuid.uuid4().hex[:8]}.db"
        if migrated:
            shutil.copyfile(_templates.sqlite_file(), path)
        return f"sqlite:///{path}"
    name = f"spite_test_{uuid.uuid4().hex}"
    template = f' TEMPLATE "{_templates.postgres_name()}"' if migrated else ""
    _sync(_admin(f'CREATE DATABASE "{name}"{template}'))
    return _postgres_url(name)


def drop_database(url: str) -> None:
    u = make_url(url)
    if u.drivername.startswith("postgres"):
        _sync(_admin(f'DROP DATABASE IF EXISTS "{u.database}" WITH (FORCE)'))


# For a module whose subject is not the database (proxy headers, what each seat sees, words,
# clocks): its tests run on SQLite only, `pytestmark = SQLITE_ONLY`. The store's behaviour on
# PostgreSQL is the subject of the modules that keep both (tests/store, and tests/web's rooms,
# moves, accounts, ratings, reviews, durability, faults, ...); docs/testing.md says which.
SQLITE_ONLY = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: os.PathLike[str]) -> Iterator[str]:
    """A plain URL (as SPITE_DATABASE_URL takes it) of a fresh database at the latest schema."""
    url = fresh_database_url(request.param, str(tmp_path))
    try:
        yield url
    finally:
        drop_database(url)


@pytest.fixture(params=BACKENDS)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: os.PathLike[str]) -> Iterator[str]:
    """A plain URL of a fresh database with no schema at all (the migrations' own tests)."""
    url = fresh_database_url(request.param, str(tmp_path), migrated=False)
    try:
        yield url
    finally:
        drop_database(url)


# The parts of the suite that take longest, run first: pytest-xdist hands a worker a whole module
# at a time (--dist loadscope, as scripts/test.sh runs it), and a long module picked up last
# would keep one worker busy while the others wait.
LONGEST_FIRST = ("tests/bots/test_bot_games.py", "tests/scale", "tests/e2e", "tests/engine/test_properties.py",
                 "tests/web", "tests/bots")


def _rank(item: pytest.Item) -> int:
    path = item.path.resolve().relative_to(ROOT).as_posix()
    return next((i for i, part in enumerate(LONGEST_FIRST) if path.startswith(part)), len(LONGEST_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test by what it needs (e2e, scale, services), and put the longest parts first."""
    for item in items:
        parts = item.path.parts
        if "e2e" in parts:
            item.add_marker(pytest.mark.e2e)
        if "scale" in parts:
            item.add_marker(pytest.mark.scale)
        fixtures = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and "postgres" in callspec.params.values()
        if on_postgres or fixtures & _SERVICE_FIXTURES:
            item.add_marker(pytest.mark.services)
    items.sort(key=_rank)  # stable: each part keeps its order
