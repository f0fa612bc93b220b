"""players.lang: the language a player chose (null: the browser's)

Revision ID: 0010
Revises: 0012
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('lang', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.drop_column('lang')
