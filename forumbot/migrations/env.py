"""Alembic environment: runs migrations on the engine the bot hands over (no alembic.ini)."""

from alembic import context
from sqlmodel import SQLModel

from forumbot.runtime import store  # noqa: F401  (the tables' metadata)

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    context.configure(connection=connection, target_metadata=SQLModel.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
