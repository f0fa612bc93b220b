"""tokens: revocable, expiring bearer tokens (one player may hold several); health_probes:
the row /healthz writes to learn whether the database takes writes

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('tokens',
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_tokens_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('token_hash', name=op.f('pk_tokens'))
    )
    with op.batch_alter_table('tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tokens_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_tokens_revoked_at'), ['revoked_at'], unique=False)
    # Every guest's token so far becomes its first token row.
    op.execute("INSERT INTO tokens (token_hash, player_id, created_at, used_at) "
               "SELECT token_hash, id, created_at, created_at FROM players")
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_constraint('uq_players_token_hash', type_='unique')
        batch_op.drop_column('token_hash')
    op.create_table('health_probes',
    sa.Column('instance_id', sa.String(length=32), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('instance_id', name=op.f('pk_health_probes'))
    )


def downgrade() -> None:
    op.drop_table('health_probes')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('token_hash', sa.String(length=64), nullable=True))
    op.execute("UPDATE players SET token_hash = (SELECT MIN(token_hash) FROM tokens "
               "WHERE tokens.player_id = players.id)")
    with op.batch_alter_table('tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tokens_revoked_at'))
        batch_op.drop_index(batch_op.f('ix_tokens_player_id'))
    op.drop_table('tokens')
