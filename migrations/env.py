"""Alembic environment: the URL comes from the app's settings (SPITE_DATABASE_URL).

The app runs migrations itself on startup through `app.store.migrate`, handing over an open
connection in `config.attributes["connection"]`; the `alembic` command line opens its own
async engine instead.
"""

from __future__ import annotations

import asyncio
import logging.config

from alembic import context
from sqlalchemy.engine import Connection

from app.platform.settings import get_settings
from app.store.db import is_sqlite, make_engine
from app.store.tables import Base

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


def run_with(connection: Connection) -> None:
    _configure(connection)
    with context.begin_transaction():
        context.run_migrations()


def run_offline() -> None:
    url = config.get_main_option("sqlalchemy.url") or get_settings().database_url
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=is_sqlite(url))
    with context.begin_transaction():
        context.run_migrations()


async def run_online() -> None:
    url = config.get_main_option("sqlalchemy.url") or get_settings().database_url
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(run_with)
    finally:
        await engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    given = config.attributes.get("connection")
    if given is not None:
        run_with(given)
    else:
        if config.config_file_name is not None:
            logging.config.fileConfig(config.config_file_name, disable_existing_loggers=False)
        asyncio.run(run_online())
