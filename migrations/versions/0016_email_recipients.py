"""email_recipients: one pending confirmation per address, and the addresses that said "never mail me"

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'email_recipients',
        sa.Column('email', sa.String(length=254), primary_key=True),
        sa.Column('confirm_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('never_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('email_recipients')
