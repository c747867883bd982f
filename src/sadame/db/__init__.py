"""The project's database: one SQLAlchemy engine factory and one Alembic history.

SQLite file by default (``sadame.db`` in the working directory, WAL mode);
PostgreSQL by URL (``postgresql+psycopg://...``), from ``--db`` or ``SADAME_DB``.
Every feature that stores data (tracker, verdict cache, web sessions) declares its
tables on :class:`Base` and ships an Alembic revision under ``migrations/versions``
that branches from the ``0000`` base revision; :func:`upgrade` applies all heads.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, MetaData, create_engine, event, text
from sqlalchemy.orm import DeclarativeBase

__all__ = ["DEFAULT_URL", "Base", "make_engine", "resolve_url", "upgrade"]

DEFAULT_URL = "sqlite:///sadame.db"
_MIGRATION_LOCK = 0x5ADA3E  # advisory lock id held while migrating a PostgreSQL database

_NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=_NAMING)


def resolve_url(url: str | None = None) -> str:
    """The database URL: the argument, else ``$SADAME_DB``, else ``sqlite:///sadame.db``.

    A bare path (``data/x.db``) is taken as a SQLite file.
    """
    chosen = url or os.environ.get("SADAME_DB") or DEFAULT_URL
    if "://" not in chosen:
        chosen = f"sqlite:///{chosen}"
    if chosen.startswith("postgresql://"):
        chosen = "postgresql+psycopg://" + chosen[len("postgresql://") :]
    return chosen


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers run beside one writer; busy_timeout makes concurrent
    # writers wait for the lock instead of failing at once.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_engine(url: str | None = None, **kwargs: Any) -> Engine:
    """An engine for ``url`` (see :func:`resolve_url`), with SQLite set up for WAL."""
    resolved = resolve_url(url)
    if resolved.startswith("sqlite"):
        engine = create_engine(resolved, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return create_engine(resolved, **kwargs)


def upgrade(url_or_engine: str | Engine | None = None) -> None:
    """Create or migrate the schema to the newest revision of every feature."""
    from alembic import command
    from alembic.config import Config

    engine = url_or_engine if isinstance(url_or_engine, Engine) else make_engine(url_or_engine)
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several app processes may start at once on a new database: one migrates,
            # the others wait here and then find nothing left to do.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "heads")
