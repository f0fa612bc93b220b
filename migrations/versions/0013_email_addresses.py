"""email_addresses: an account holder's address for "your turn" digests (the optional email channel)

Revision ID: 0013
Revises: 0010
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0013'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'email_addresses',
        sa.Column('player_id', sa.String(length=32), sa.ForeignKey('players.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('digests', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('digest_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('email_addresses')
