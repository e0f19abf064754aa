"""A season's lease says since when its holder holds it (``since``, the database's clock), so that a second
``forumbot run`` or a worker can say who judges the season and since when.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("season_lease") as batch:
        batch.add_column(sa.Column("since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("season_lease") as batch:
        batch.drop_column("since")
