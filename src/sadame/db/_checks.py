"""Clear one-line errors for databases that cannot be used.

:class:`DatabaseError` names the database (password hidden) and the reason. It is
raised before connecting for what can be seen from the URL or the file system (an
empty or unknown URL, an unsupported scheme, a missing directory, a directory, a
file that is not SQLite, a read-only file for a command that writes), and
translated from the driver's error for what shows only on connecting (PostgreSQL
refusing connections, a file SQLite cannot open). Transient errors (locks,
serialization failures) are left alone: callers retry those.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy.engine import make_url

__all__ = [
    "DatabaseError",
    "DatabaseUnavailable",
    "bare_path_url",
    "check_sqlite_file",
    "check_url",
    "install_translation",
    "shown_url",
    "sqlite_path",
    "translate_error",
]

_SCHEMES = ("sqlite", "postgresql", "postgresql+psycopg")
_BARE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
_USAGE = "give sqlite:///FILE, postgresql://USER@HOST/DB or a path ending in .db"

#: Driver messages that mean "this database cannot be used at all" (not transient).
_FATAL = (
    "unable to open database file",
    "file is not a database",
    "attempt to write a readonly database",
    "connection failed",
    "connection refused",
    "could not connect",
    "connection to server",
    "password authentication failed",
    "does not exist",
    "no such host",
    "name or service not known",
)


class DatabaseError(ValueError):
    """A database that cannot be used; the message is one line naming it and the reason."""


class DatabaseUnavailable(DatabaseError):
    """A database that is there but did not answer in time (locked, connection lost, every pooled
    connection busy): the same call may work later. The web service answers 503 with Retry-After."""


def shown_url(url: str) -> str:
    """``url`` as it may be printed (the password hidden)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # an unparsable URL is shown as given
        return repr(url)


def check_url(url: str) -> str:
    """``url`` when it names a usable kind of database, else :class:`DatabaseError`."""
    if not url.strip():
        raise DatabaseError(f"empty database URL: {_USAGE}")
    if "\x00" in url:
        raise DatabaseError(f"not a database URL: {url!r} ({_USAGE})")
    try:
        parsed = make_url(url)
    except Exception as exc:  # SQLAlchemy raises ArgumentError or ValueError
        raise DatabaseError(f"not a database URL: {url!r} ({_USAGE})") from exc
    if parsed.drivername not in _SCHEMES:
        raise DatabaseError(f"unsupported database {parsed.drivername}:// in {shown_url(url)}: {_USAGE}")
    return url


def bare_path_url(value: str) -> str:
    """The ``sqlite:///`` URL of a bare path (which must end in .db/.sqlite or exist)."""
    if not value.strip() or not (value.endswith(_BARE_SUFFIXES) or Path(value).is_file()):
        raise DatabaseError(f"not a database URL or .db path: {value!r} ({_USAGE})")
    return f"sqlite:///{value}"


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for other databases and in-memory SQLite)."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite"):
        return None
    database = parsed.database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        return None
    return Path(database)


def _is_sqlite_file(path: Path) -> bool:
    """Whether SQLite accepts ``path`` as a database (an empty file counts: SQLite fills it in).

    The file is read through SQLite, never with ``open()``: closing any descriptor of a file
    drops every POSIX lock this process holds on it, so in a process that already has SQLite
    connections to the file (a server, each tenant's tracker) an ``open()``/``close()`` would
    let another process checkpoint and delete the live WAL under it ("How To Corrupt An SQLite
    Database File", section 2.2). SQLite's own connections share their locks per file and
    defer closing descriptors while a lock is held, so a connection here is safe.
    """
    try:
        if path.stat().st_size == 0:
            return True
    except OSError:
        return True  # gone or unreadable: SQLite's own error names it when connecting
    try:
        probe = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error:
        return True
    try:
        probe.execute("PRAGMA schema_version").fetchone()
    except sqlite3.DatabaseError as exc:
        return "not a database" not in str(exc).lower()
    finally:
        probe.close()
    return True


def check_sqlite_file(url: str, *, write: bool) -> None:
    """Refuse a SQLite file that cannot work, before SQLite says something vaguer."""
    path = sqlite_path(url)
    if path is None:
        return
    shown = shown_url(url)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.exists():
        raise DatabaseError(f"cannot open {shown}: directory {str(parent)!r} does not exist")
    if path.is_dir():
        raise DatabaseError(f"cannot open {shown}: {str(path)!r} is a directory")
    if path.exists():
        if not _is_sqlite_file(path):
            raise DatabaseError(f"cannot open {shown}: {str(path)!r} is not a SQLite database")
        if write and not os.access(path, os.W_OK):
            raise DatabaseError(f"cannot write {shown}: {str(path)!r} is read-only")
    elif not os.access(parent, os.W_OK):
        raise DatabaseError(f"cannot create {shown}: directory {str(parent)!r} is not writable")


def translate_error(url: str, error: BaseException) -> DatabaseError | None:
    """A :class:`DatabaseError` for a driver error that makes the database unusable, else None."""
    text = str(error).strip()
    if "cannot contain nul" in text.lower():
        return DatabaseError("text must not contain NUL characters")
    lowered = text.lower()
    kinds = {cls.__name__ for cls in type(error).__mro__}
    # SQLite raises a file replaced by something else under a running process as a plain
    # DatabaseError ("file is not a database"), not as an OperationalError
    if "OperationalError" not in kinds and not ("DatabaseError" in kinds and "file is not a database" in lowered):
        return None
    first = text.splitlines()[0] if text else type(error).__name__
    if any(marker in lowered for marker in _FATAL):
        return DatabaseError(f"cannot use {shown_url(url)}: {first}")
    return None


def install_translation(engine: Any, url: str) -> None:
    """Make ``engine`` raise :class:`DatabaseError` for the fatal errors of :func:`translate_error`."""
    from sqlalchemy import event

    def handle(context: Any) -> None:
        translated = translate_error(url, context.original_exception)
        if translated is not None:
            raise translated from context.original_exception

    event.listen(engine, "handle_error", handle)
