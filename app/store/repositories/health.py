"""The health probe: one row per instance, rewritten to learn whether the database takes writes."""

from __future__ import annotations

from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.tables import HealthProbe, utcnow


async def probe_write(session: AsyncSession, instance: str) -> None:
    """Write this instance's probe row (raises whatever the database raises)."""
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    now = utcnow()
    stmt = insert(HealthProbe).values(instance_id=instance[:32], at=now)
    await session.execute(stmt.on_conflict_do_update(index_elements=[HealthProbe.instance_id], set_={"at": now}))
    await session.commit()
