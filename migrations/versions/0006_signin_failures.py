"""players.failed_signins / failed_signin_at: failed sign-ins on an account, told to its owner

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('failed_signins', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('failed_signin_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('failed_signin_at')
        batch_op.drop_column('failed_signins')
