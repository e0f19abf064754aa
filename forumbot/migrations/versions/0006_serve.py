"""Tables of ``forumbot serve`` with several workers on one database: season leases, worker heartbeats
and the write pacing of each judge account on each forum (shared by seasons and workers).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "season_lease",
        sa.Column("season", sa.String(), primary_key=True),
        sa.Column("worker", sa.String(), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("archived", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "serve_worker",
        sa.Column("worker", sa.String(), primary_key=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "forum_pacing",
        sa.Column("forum", sa.String(), primary_key=True),
        sa.Column("next_write_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("pm_hold_until", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("forum_pacing")
    op.drop_table("serve_worker")
    op.drop_table("season_lease")
