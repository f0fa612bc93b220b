"""lessons: each player's run of a lesson, the lessons done, the Learn to play card dismissed

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0020'
down_revision: str | None = '0019'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('lesson_runs',
    sa.Column('code', sa.String(length=16), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('lesson_id', sa.String(length=32), nullable=False),
    sa.Column('record', sa.JSON(), nullable=False),
    sa.Column('moves', sa.Integer(), nullable=False),
    sa.Column('finished', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_lesson_runs_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('code', name=op.f('pk_lesson_runs')),
    sa.UniqueConstraint('player_id', 'lesson_id', name='uq_lesson_runs_player_lesson')
    )
    with op.batch_alter_table('lesson_runs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_lesson_runs_player_id'), ['player_id'], unique=False)

    op.create_table('lesson_progress',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('lesson_id', sa.String(length=32), nullable=False),
    sa.Column('done_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_lesson_progress_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', 'lesson_id', name=op.f('pk_lesson_progress'))
    )
    op.create_table('lessons_dismissed',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_lessons_dismissed_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', name=op.f('pk_lessons_dismissed'))
    )


def downgrade() -> None:
    op.drop_table('lessons_dismissed')
    op.drop_table('lesson_progress')
    with op.batch_alter_table('lesson_runs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_lesson_runs_player_id'))

    op.drop_table('lesson_runs')
