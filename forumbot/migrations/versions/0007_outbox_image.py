"""A post may carry a picture (a vote round's PNG chart, issue 13): the outbox keeps the chart's data
(``image_json``) and, once uploaded, the forum's id of the picture (``image_ref``: Discuz!'s attachment
id; 0 when the post goes without it), so the upload happens once and the post names it.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("image_json", sa.Text(), nullable=True))
        batch.add_column(sa.Column("image_ref", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("image_ref")
        batch.drop_column("image_json")
