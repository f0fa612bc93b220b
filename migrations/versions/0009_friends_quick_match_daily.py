"""friends, blocks, invitations, lobby presence, quick-match tickets, the daily deal

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def _player(name: str, table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([name], ['players.id'], name=op.f(f'fk_{table}_{name}_players'),
                                   ondelete='CASCADE')


def upgrade() -> None:
    op.create_table('follows',
                    sa.Column('player_id', sa.String(length=32), nullable=False),
                    sa.Column('friend_id', sa.String(length=32), nullable=False),
                    sa.Column('created_at', WHEN, nullable=False),
                    _player('player_id', 'follows'), _player('friend_id', 'follows'),
                    sa.PrimaryKeyConstraint('player_id', 'friend_id', name=op.f('pk_follows')))
    op.create_index(op.f('ix_follows_friend_id'), 'follows', ['friend_id'])
    op.create_table('blocks',
                    sa.Column('player_id', sa.String(length=32), nullable=False),
                    sa.Column('blocked_id', sa.String(length=32), nullable=False),
                    sa.Column('created_at', WHEN, nullable=False),
                    _player('player_id', 'blocks'), _player('blocked_id', 'blocks'),
                    sa.PrimaryKeyConstraint('player_id', 'blocked_id', name=op.f('pk_blocks')))
    op.create_index(op.f('ix_blocks_blocked_id'), 'blocks', ['blocked_id'])
    op.create_index(op.f('ix_blocks_created_at'), 'blocks', ['created_at'])
    op.create_table('invitations',
                    sa.Column('id', sa.String(length=32), nullable=False),
                    sa.Column('room_code', sa.String(length=16), nullable=False),
                    sa.Column('from_id', sa.String(length=32), nullable=False),
                    sa.Column('to_id', sa.String(length=32), nullable=False),
                    sa.Column('status', sa.String(length=16), nullable=False),
                    sa.Column('created_at', WHEN, nullable=False),
                    sa.Column('expires_at', WHEN, nullable=False),
                    sa.ForeignKeyConstraint(['room_code'], ['rooms.code'],
                                            name=op.f('fk_invitations_room_code_rooms'), ondelete='CASCADE'),
                    _player('from_id', 'invitations'), _player('to_id', 'invitations'),
                    sa.PrimaryKeyConstraint('id', name=op.f('pk_invitations')))
    for column in ('room_code', 'from_id', 'to_id'):
        op.create_index(op.f(f'ix_invitations_{column}'), 'invitations', [column])
    op.create_table('lobby_presence',
                    sa.Column('player_id', sa.String(length=32), nullable=False),
                    sa.Column('instance_id', sa.String(length=32), nullable=False),
                    sa.Column('sockets', sa.Integer(), nullable=False),
                    sa.Column('seen_at', WHEN, nullable=False),
                    _player('player_id', 'lobby_presence'),
                    sa.PrimaryKeyConstraint('player_id', 'instance_id', name=op.f('pk_lobby_presence')))
    op.create_table('quick_tickets',
                    sa.Column('id', sa.String(length=32), nullable=False),
                    sa.Column('player_id', sa.String(length=32), nullable=False),
                    sa.Column('seats', sa.Integer(), nullable=False),
                    sa.Column('rated', sa.Boolean(), nullable=False),
                    sa.Column('pace', sa.String(length=16), nullable=False),
                    sa.Column('bots', sa.Boolean(), nullable=False),
                    sa.Column('ordinal', sa.Float(), nullable=False),
                    sa.Column('status', sa.String(length=16), nullable=False),
                    sa.Column('room_code', sa.String(length=16), nullable=True),
                    sa.Column('created_at', WHEN, nullable=False),
                    sa.Column('updated_at', WHEN, nullable=False),
                    _player('player_id', 'quick_tickets'),
                    sa.PrimaryKeyConstraint('id', name=op.f('pk_quick_tickets')))
    op.create_index(op.f('ix_quick_tickets_player_id'), 'quick_tickets', ['player_id'])
    op.create_index('ix_quick_tickets_status_created', 'quick_tickets', ['status', 'created_at'])
    op.create_index('uq_quick_tickets_waiting_player', 'quick_tickets', ['player_id'], unique=True,
                    sqlite_where=sa.text("status IN ('waiting', 'pairing')"),
                    postgresql_where=sa.text("status IN ('waiting', 'pairing')"))
    op.create_table('daily_deals',
                    sa.Column('day', sa.String(length=10), nullable=False),
                    sa.Column('seed', sa.String(length=128), nullable=False),
                    sa.Column('commitment', sa.String(length=64), nullable=False),
                    sa.Column('preset', sa.String(length=32), nullable=False),
                    sa.Column('options', sa.JSON(), nullable=False),
                    sa.Column('created_at', WHEN, nullable=False),
                    sa.PrimaryKeyConstraint('day', name=op.f('pk_daily_deals')))
    op.create_table('daily_entries',
                    sa.Column('day', sa.String(length=10), nullable=False),
                    sa.Column('player_id', sa.String(length=32), nullable=False),
                    sa.Column('room_code', sa.String(length=16), nullable=True),
                    sa.Column('match_id', sa.String(length=32), nullable=True),
                    sa.Column('created_at', WHEN, nullable=False),
                    sa.ForeignKeyConstraint(['day'], ['daily_deals.day'], name=op.f('fk_daily_entries_day_daily_deals'),
                                            ondelete='CASCADE'),
                    _player('player_id', 'daily_entries'),
                    sa.PrimaryKeyConstraint('day', 'player_id', name=op.f('pk_daily_entries')))
    op.create_index(op.f('ix_daily_entries_room_code'), 'daily_entries', ['room_code'])
    op.create_index(op.f('ix_daily_entries_match_id'), 'daily_entries', ['match_id'])


def downgrade() -> None:
    for table in ('daily_entries', 'daily_deals', 'quick_tickets', 'lobby_presence', 'invitations', 'blocks',
                  'follows'):
        op.drop_table(table)
