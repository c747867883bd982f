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

from sadame._extras import require

require("track")  # one line naming the extra, not a traceback from SQLAlchemy's absence

from sqlalchemy import Engine, MetaData, create_engine, event, text
from sqlalchemy.orm import DeclarativeBase

from sadame.db._checks import (
    DatabaseError,
    DatabaseUnavailable,
    bare_path_url,
    check_sqlite_file,
    check_url,
    install_translation,
    sqlite_path,
)
from sadame.db._fileguard import install_file_guard
from sadame.db._raw import RawCursor
from sadame.db._writelock import install_write_lock

__all__ = ["Base", "DatabaseError", "DatabaseUnavailable", "make_engine", "resolve_url", "upgrade"]

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

    A bare path ending in ``.db``, ``.sqlite`` or ``.sqlite3`` (or naming an existing
    file) is taken as a SQLite file. Anything else that is not a ``sqlite://`` or
    ``postgresql://`` URL raises :class:`DatabaseError` (an empty string included).
    """
    chosen = url if url is not None else (os.environ.get("SADAME_DB") or DEFAULT_URL)
    if "://" not in chosen:
        chosen = bare_path_url(chosen)
    if chosen.startswith("postgresql://"):
        chosen = "postgresql+psycopg://" + chosen[len("postgresql://") :]
    return check_url(chosen)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # pysqlite's own transaction handling begins late and deferred; we begin every
    # transaction ourselves (see _sqlite_begin).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    # WAL lets readers run beside one writer; busy_timeout makes concurrent
    # writers wait for the lock instead of failing at once.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_begin(conn: Any) -> None:
    """Writers begin with ``BEGIN IMMEDIATE`` (they wait for the write lock up to busy_timeout
    instead of failing when a deferred read would have to be upgraded); a connection with the
    ``sadame_read`` execution option begins deferred, so readers never take the write lock."""
    mode = "DEFERRED" if conn.get_execution_options().get("sadame_read") else "IMMEDIATE"
    RawCursor.of(conn).execute(f"BEGIN {mode}")  # on the driver: a statement through Core costs more


def _sqlite_read_only(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _postgres_settings(dbapi_connection: Any, _record: Any) -> None:
    # PostgreSQL's default random_page_cost (4.0) models spinning disks: with it the planner
    # answers "one page of a user's issues, in id order" by walking the primary key and
    # filtering, stepping over every other user's rows, instead of using the (tenant, user,
    # status, id) index. 1.1 is the usual value for SSD storage and keeps such pages on the index.
    cursor = dbapi_connection.cursor()
    cursor.execute("SET random_page_cost = 1.1")
    cursor.close()
    dbapi_connection.commit()


def _read_only_options(path: Path) -> str:
    """URI options to read a SQLite file we may not write.

    A WAL database needs its ``-shm`` index to be read; when the last writer checkpointed and
    removed it, a reader that cannot create files beside the database gets "attempt to write a
    readonly database". With no ``-wal`` file left every committed row is in the main file, so
    ``immutable=1`` (no locks, no WAL index) reads exactly what is committed. With a ``-wal``
    file present the plain read-only mode is kept, so no committed row is missed.
    """
    wal = path.with_name(path.name + "-wal")
    return "mode=ro" if wal.exists() else "mode=ro&immutable=1"


def make_engine(url: str | None = None, **kwargs: Any) -> Engine:
    """An engine for ``url`` (see :func:`resolve_url`), with SQLite set up for WAL.

    A SQLite file that exists but cannot be written is opened read-only: reading
    works, writing raises :class:`DatabaseError`. Fatal connection errors (a refused
    PostgreSQL connection, a file SQLite cannot open) raise :class:`DatabaseError`
    with one line naming the database. A SQLite file deleted or replaced while the engine is in
    use is followed: connections to the old file are reopened on the new one, and a write that
    would commit into the old file raises :class:`DatabaseUnavailable` (:mod:`sadame.db._fileguard`).
    """
    resolved = resolve_url(url)
    path = sqlite_path(resolved)
    if path is not None:
        check_sqlite_file(resolved, write=False)
    if path is not None and path.exists() and not os.access(path, os.W_OK):
        engine = create_engine(f"sqlite:///file:{path.resolve()}?{_read_only_options(path)}&uri=true", **kwargs)
        event.listen(engine, "connect", _sqlite_read_only)
        install_file_guard(engine, path, resolved)
    elif resolved.startswith("sqlite"):
        engine = create_engine(resolved, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        install_write_lock(engine, path)  # before the BEGIN: writers queue on it, not in SQLite's busy handler
        event.listen(engine, "begin", _sqlite_begin)
        engine.sadame_begins = True  # type: ignore[attr-defined]
        install_file_guard(engine, path, resolved)  # connections follow the file at the path (see _fileguard)
    else:
        if resolved.startswith("postgresql"):
            require("postgres")
        kwargs.setdefault("pool_pre_ping", True)
        engine = create_engine(resolved, **kwargs)
        if resolved.startswith("postgresql"):
            event.listen(engine, "connect", _postgres_settings)
    install_translation(engine, resolved)
    return engine


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
