"""Settings from SPITE_* variables, and plain database URLs turned into async ones."""

from __future__ import annotations

import pytest

from app.platform.settings import get_settings
from app.store.db import async_url, sqlite_file


def test_plain_urls_get_async_drivers() -> None:
    assert async_url("sqlite:///./spite.db").render_as_string() == "sqlite+aiosqlite:///./spite.db"
    assert async_url("postgresql://u@h/db").render_as_string() == "postgresql+asyncpg://u@h/db"
    assert async_url("postgres://u@h/db").drivername == "postgresql+asyncpg"
    assert async_url("postgresql+psycopg://u@h/db").drivername == "postgresql+asyncpg"
    assert sqlite_file("sqlite:///./x.db") == "./x.db" and sqlite_file("sqlite://") is None
    with pytest.raises(ValueError, match="unsupported"):
        async_url("mysql://u@h/db")


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPITE_DATABASE_URL", "postgresql://someone@somewhere/spite")
    monkeypatch.setenv("SPITE_SEEDED_ROOMS", "true")
    monkeypatch.setenv("SPITE_ABSENT_GRACE", "2.5")
    monkeypatch.setenv("SPITE_BOT_WORKERS", "3")
    s = get_settings()
    assert s.database_url == "postgresql://someone@somewhere/spite" and s.seeded_rooms is True
    assert s.absent_grace == 2.5 and s.bot_workers == 3
    monkeypatch.delenv("SPITE_DATABASE_URL")
    monkeypatch.delenv("SPITE_SEEDED_ROOMS")
    monkeypatch.chdir("/")
    s = get_settings()
    assert s.database_url == "sqlite:///./spite.db" and s.seeded_rooms is False and s.redis_url is None
