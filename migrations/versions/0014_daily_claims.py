"""daily_claims: a try at the day's deal per client address and per device, besides per player

Revision ID: 0014_daily
Revises: 0013
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014_daily'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('daily_claims',
                    sa.Column('day', sa.String(length=10), nullable=False),
                    sa.Column('kind', sa.String(length=8), nullable=False),
                    sa.Column('key', sa.String(length=64), nullable=False),
                    sa.Column('slot', sa.Integer(), nullable=False),
                    sa.Column('player_id', sa.String(length=32), nullable=False),
                    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
                    sa.ForeignKeyConstraint(['day'], ['daily_deals.day'], name=op.f('fk_daily_claims_day_daily_deals'),
                                            ondelete='CASCADE'),
                    sa.ForeignKeyConstraint(['player_id'], ['players.id'],
                                            name=op.f('fk_daily_claims_player_id_players'), ondelete='CASCADE'),
                    sa.PrimaryKeyConstraint('day', 'kind', 'key', 'slot', name=op.f('pk_daily_claims')))
    op.create_index(op.f('ix_daily_claims_player_id'), 'daily_claims', ['player_id'])


def downgrade() -> None:
    op.drop_index(op.f('ix_daily_claims_player_id'), table_name='daily_claims')
    op.drop_table('daily_claims')
