"""tournaments, their players, rounds and tables (docs/tournaments.md)

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0019'
down_revision: str | None = '0018'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('tournaments',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('code', sa.String(length=16), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('organiser_id', sa.String(length=32), nullable=False),
    sa.Column('format', sa.String(length=16), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('public', sa.Boolean(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('entries', sa.Integer(), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['organiser_id'], ['players.id'], name=op.f('fk_tournaments_organiser_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournaments')),
    sa.UniqueConstraint('code', name=op.f('uq_tournaments_code'))
    )
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournaments_organiser_id'), ['organiser_id'], unique=False)
        batch_op.create_index('ix_tournaments_status_public', ['status', 'public'], unique=False)

    op.create_table('tournament_players',
    sa.Column('tournament_id', sa.String(length=32), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('order', sa.Integer(), nullable=False),
    sa.Column('rating', sa.Double(), nullable=True),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_tournament_players_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_players_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('tournament_id', 'player_id', name=op.f('pk_tournament_players'))
    )
    with op.batch_alter_table('tournament_players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_players_player_id'), ['player_id'], unique=False)

    op.create_table('tournament_rounds',
    sa.Column('tournament_id', sa.String(length=32), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('byes', sa.JSON(), nullable=False),
    sa.Column('seed', sa.String(length=128), nullable=True),
    sa.Column('commitment', sa.String(length=64), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_rounds_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('tournament_id', 'round', name=op.f('pk_tournament_rounds'))
    )
    op.create_table('tournament_tables',
    sa.Column('tournament_id', sa.String(length=32), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('seats', sa.JSON(), nullable=False),
    sa.Column('room_code', sa.String(length=16), nullable=True),
    sa.Column('match_id', sa.String(length=32), nullable=True),
    sa.Column('finished', sa.Boolean(), nullable=False),
    sa.Column('scores', sa.JSON(), nullable=True),
    sa.Column('totals', sa.JSON(), nullable=True),
    sa.Column('forfeits', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_tables_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('tournament_id', 'round', 'table', name=op.f('pk_tournament_tables'))
    )
    with op.batch_alter_table('tournament_tables', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_tables_room_code'), ['room_code'], unique=False)
        batch_op.create_index(batch_op.f('ix_tournament_tables_match_id'), ['match_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('tournament_tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_tables_match_id'))
        batch_op.drop_index(batch_op.f('ix_tournament_tables_room_code'))

    op.drop_table('tournament_tables')
    op.drop_table('tournament_rounds')
    with op.batch_alter_table('tournament_players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_players_player_id'))

    op.drop_table('tournament_players')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_index('ix_tournaments_status_public')
        batch_op.drop_index(batch_op.f('ix_tournaments_organiser_id'))

    op.drop_table('tournaments')
