"""turn-based rooms (issue 24): rooms.pace, matches.wake_at (indexed), last_move_at and turn_seat

Revision ID: 0008
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pace', sa.String(length=16), server_default='live', nullable=False))
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('wake_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('last_move_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('turn_seat', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_matches_wake_at'), ['wake_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_matches_wake_at'))
        batch_op.drop_column('turn_seat')
        batch_op.drop_column('last_move_at')
        batch_op.drop_column('wake_at')
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('pace')
