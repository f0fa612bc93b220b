"""accounts (username and password hash on players), rated rooms, ratings, rating_history,
achievements

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('username', sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column('username_key', sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column('password_hash', sa.String(length=256), nullable=True))
        batch_op.add_column(sa.Column('account_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_players_username_key'), ['username_key'])
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rated', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.alter_column('rated', server_default=None)
    op.create_table('ratings',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('ordinal', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_ratings_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', name=op.f('pk_ratings'))
    )
    op.create_index('ix_ratings_games_ordinal', 'ratings', ['games', 'ordinal'], unique=False)
    op.create_table('rating_history',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('before', sa.JSON(), nullable=False),
    sa.Column('after', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_rating_history_match_id_matches'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_rating_history_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rating_history')),
    sa.UniqueConstraint('match_id', 'player_id', name='uq_rating_history_match_player')
    )
    op.create_index(op.f('ix_rating_history_player_id'), 'rating_history', ['player_id'], unique=False)
    op.create_table('achievements',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('key', sa.String(length=32), nullable=False),
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('hand_number', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('earned_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_achievements_match_id_matches'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_achievements_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', 'key', name=op.f('pk_achievements'))
    )
    op.create_index(op.f('ix_achievements_match_id'), 'achievements', ['match_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_achievements_match_id'), table_name='achievements')
    op.drop_table('achievements')
    op.drop_index(op.f('ix_rating_history_player_id'), table_name='rating_history')
    op.drop_table('rating_history')
    op.drop_index('ix_ratings_games_ordinal', table_name='ratings')
    op.drop_table('ratings')
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('rated')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_players_username_key'), type_='unique')
        batch_op.drop_column('account_at')
        batch_op.drop_column('password_hash')
        batch_op.drop_column('username_key')
        batch_op.drop_column('username')
