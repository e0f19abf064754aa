"""Each inbound row carries the interval in which it was sent (after the last read that did not see it,
up to the read that saw it, narrowed by the forum's own time and order).

Revision ID: 0004
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbound") as batch:
        batch.add_column(sa.Column("earliest", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("latest", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inbound") as batch:
        batch.drop_column("latest")
        batch.drop_column("earliest")
