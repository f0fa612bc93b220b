"""turn-based rooms: rooms.pace, matches.wake_at (indexed), last_move_at and turn_seat;
push_subscriptions, notifications (the outbox), server_keys (the VAPID key), vacations

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
    op.create_table('push_subscriptions',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('endpoint', sa.String(length=1024), nullable=False),
    sa.Column('p256dh', sa.String(length=128), nullable=False),
    sa.Column('auth', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_push_subscriptions_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_push_subscriptions')),
    sa.UniqueConstraint('endpoint', name=op.f('uq_push_subscriptions_endpoint'))
    )
    with op.batch_alter_table('push_subscriptions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_push_subscriptions_player_id'), ['player_id'], unique=False)
    op.create_table('notifications',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('channel', sa.String(length=16), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('subscription_id', sa.Integer(), nullable=True),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_error', sa.String(length=300), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_notifications_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notifications')),
    sa.UniqueConstraint('key', name=op.f('uq_notifications_key'))
    )
    with op.batch_alter_table('notifications', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notifications_player_id'), ['player_id'], unique=False)
        batch_op.create_index('ix_notifications_state_next_at', ['state', 'next_at'], unique=False)
    op.create_table('vacations',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('until', sa.DateTime(timezone=True), nullable=False),
    sa.Column('year', sa.Integer(), nullable=False),
    sa.Column('days_used', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_vacations_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', name=op.f('pk_vacations'))
    )
    op.create_table('server_keys',
    sa.Column('name', sa.String(length=32), nullable=False),
    sa.Column('value', sa.String(length=4000), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_server_keys'))
    )


def downgrade() -> None:
    op.drop_table('server_keys')
    op.drop_table('vacations')
    op.drop_table('notifications')
    op.drop_table('push_subscriptions')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_matches_wake_at'))
        batch_op.drop_column('turn_seat')
        batch_op.drop_column('last_move_at')
        batch_op.drop_column('wake_at')
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('pace')
