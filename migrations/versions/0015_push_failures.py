"""push_subscriptions.failures: sends that failed in a row (a subscription is dropped at
SPITE_PUSH_FAILURE_BUDGET)

Revision ID: 0015
Revises: 0014_daily
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0015'
down_revision: str | None = '0014_daily'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('push_subscriptions') as batch:
        batch.add_column(sa.Column('failures', sa.Integer(), nullable=False, server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('push_subscriptions') as batch:
        batch.drop_column('failures')
