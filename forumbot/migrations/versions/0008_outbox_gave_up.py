"""The outbox records when the bot gave up on a write (``gave_up_at``: its timeout, or an answer that was
neither the result nor a refusal), so the forum's request horizon is counted from that moment, not from
the claim before the request (issue 24.3: with a 60 s horizon and a 20 s timeout the margin was 40 s).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("gave_up_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("gave_up_at")
