"""chat_lines: each room's recent chat, sent to a socket when it (re)connects

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('chat_lines',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('room_code', sa.String(length=16), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sender', sa.JSON(), nullable=False),
    sa.Column('text', sa.String(length=4000), nullable=False),
    sa.ForeignKeyConstraint(['room_code'], ['rooms.code'], name=op.f('fk_chat_lines_room_code_rooms'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_chat_lines'))
    )
    with op.batch_alter_table('chat_lines', schema=None) as batch_op:
        batch_op.create_index('ix_chat_lines_room_code_id', ['room_code', 'id'], unique=False)


def downgrade() -> None:
    op.drop_table('chat_lines')
