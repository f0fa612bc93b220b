"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-30 06:48:33.530883
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table('players',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_players_token_hash'))
    )
    op.create_table('rooms',
    sa.Column('code', sa.String(length=16), nullable=False),
    sa.Column('host_id', sa.String(length=32), nullable=False),
    sa.Column('preset', sa.String(length=32), nullable=False),
    sa.Column('overrides', sa.JSON(), nullable=False),
    sa.Column('seats', sa.Integer(), nullable=False),
    sa.Column('public', sa.Boolean(), nullable=False),
    sa.Column('turn_seconds', sa.Integer(), nullable=True),
    sa.Column('hints', sa.Boolean(), nullable=False),
    sa.Column('seed', sa.String(length=128), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('seating', sa.JSON(), nullable=False),
    sa.Column('rev', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.String(length=32), nullable=True),
    sa.Column('match_count', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['host_id'], ['players.id'], name=op.f('fk_rooms_host_id_players')),
    sa.PrimaryKeyConstraint('code', name=op.f('pk_rooms'))
    )
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rooms_host_id'), ['host_id'], unique=False)
        batch_op.create_index('ix_rooms_public_status', ['public', 'status'], unique=False)

    op.create_table('matches',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('room_code', sa.String(length=16), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('preset', sa.String(length=32), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('names', sa.JSON(), nullable=False),
    sa.Column('turn_seconds', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('v', sa.Integer(), nullable=False),
    sa.Column('totals', sa.JSON(), nullable=False),
    sa.Column('winners', sa.JSON(), nullable=True),
    sa.Column('turn_deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['room_code'], ['rooms.code'], name=op.f('fk_matches_room_code_rooms')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_matches')),
    sa.UniqueConstraint('room_code', 'number', name='uq_matches_room_number')
    )
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_matches_room_code'), ['room_code'], unique=False)
        batch_op.create_index(batch_op.f('ix_matches_started_at'), ['started_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_matches_status'), ['status'], unique=False)

    op.create_table('presence',
    sa.Column('room_code', sa.String(length=16), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('instance_id', sa.String(length=32), nullable=False),
    sa.Column('sockets', sa.Integer(), nullable=False),
    sa.Column('seen_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('left_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_presence_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['room_code'], ['rooms.code'], name=op.f('fk_presence_room_code_rooms'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('room_code', 'player_id', 'instance_id', name=op.f('pk_presence'))
    )
    op.create_table('hands',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('seed', sa.String(length=128), nullable=False),
    sa.Column('commitment', sa.String(length=64), nullable=False),
    sa.Column('deal_order', sa.JSON(), nullable=True),
    sa.Column('start_v', sa.Integer(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_hands_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'number', name=op.f('pk_hands'))
    )
    op.create_table('moves',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('hand_number', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('actor', sa.String(length=16), nullable=False),
    sa.Column('client_id', sa.String(length=64), nullable=True),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_moves_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_moves')),
    sa.UniqueConstraint('match_id', 'seat', 'client_id', name='uq_moves_match_seat_client'),
    sa.UniqueConstraint('match_id', 'seq', name='uq_moves_match_seq')
    )
    op.create_table('scores',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('hand_number', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('payoff_left', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_scores_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'hand_number', 'seat', name=op.f('pk_scores'))
    )
    op.create_table('seats',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=True),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('bot_level', sa.String(length=16), nullable=True),
    sa.Column('team', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_seats_match_id_matches'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_seats_player_id_players')),
    sa.PrimaryKeyConstraint('match_id', 'seat', name=op.f('pk_seats'))
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seats_player_id'), ['player_id'], unique=False)




def downgrade() -> None:

    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seats_player_id'))

    op.drop_table('seats')
    op.drop_table('scores')
    op.drop_table('moves')
    op.drop_table('hands')
    op.drop_table('presence')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_matches_status'))
        batch_op.drop_index(batch_op.f('ix_matches_started_at'))
        batch_op.drop_index(batch_op.f('ix_matches_room_code'))

    op.drop_table('matches')
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_index('ix_rooms_public_status')
        batch_op.drop_index(batch_op.f('ix_rooms_host_id'))

    op.drop_table('rooms')
    op.drop_table('players')

