"""tokens.device: the browser and system a token was issued to ("Chrome/Android"), so its owner
can tell their devices apart on the account page (never the User-Agent itself)

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0018'
down_revision: str | None = '0017'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tokens') as batch:
        batch.add_column(sa.Column('device', sa.String(length=40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tokens') as batch:
        batch.drop_column('device')
