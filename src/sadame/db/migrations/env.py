"""Alembic environment: runs on the connection handed over by sadame.db.upgrade."""

from __future__ import annotations

from alembic import context

from sadame.db import make_engine


def _run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        engine = make_engine(context.config.get_main_option("sqlalchemy.url") or None)
        with engine.begin() as conn:
            context.configure(connection=conn, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


_run()
