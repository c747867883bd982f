"""A SQLite engine's connections stay on the file that is at the engine's path now.

A connection holds the database file open by descriptor. When the file is deleted or
replaced under a running process (``rm w.db*; cp backup.db w.db``, a restore, a deploy that
swaps the file), the pooled connections keep reading and writing the old, unlinked inode:
in WAL mode SQLite raises nothing, commits succeed, and every write is lost when the process
exits (SQLite refuses writes to a moved database only in rollback-journal mode).

So every SQLite file engine records the file's identity ``(st_dev, st_ino)`` when a connection
is opened (before connecting: a swap during the connect then shows as a mismatch, never as a
false match), and checks it:

* on every pool checkout (one ``os.stat``): a connection whose file is no longer the file at
  the path is invalidated, and the pool opens the current file instead;
* before the ``COMMIT`` of a write transaction (one more ``os.stat``): a swap while the
  transaction ran rolls it back and raises :class:`DatabaseUnavailable`, so a write is never
  acknowledged into an unlinked file (the caller may retry; the retry lands in the new file).

A file that disappeared after the engine had opened it is not created again empty (SQLite would
do that on connect): connecting raises :class:`DatabaseError` until the file is back. Closing
the invalidated connections is safe in WAL mode: SQLite does not checkpoint or delete the
``-wal`` file of a database that has moved (``SQLITE_FCNTL_HAS_MOVED``), so the new file's WAL
is left alone.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, event
from sqlalchemy.exc import DisconnectionError

from sadame.db._checks import DatabaseError, DatabaseUnavailable, shown_url

__all__ = ["FileGuard", "install_file_guard"]

log = logging.getLogger("sadame.db")

_IDENTITY = "sadame_file"  # connection record info: the (st_dev, st_ino) its file had when opened
_WRITING = "sadame_writing"  # connection record info: the open transaction is a write


class FileGuard:
    """The identity checks of one SQLite file engine (see the module docstring)."""

    def __init__(self, path: Path, url: str) -> None:
        self.path = path
        self.shown = shown_url(url)
        self.opened = False  # a connection to the file was opened once: a missing file is not re-created
        self.replaced = 0  # connections invalidated because their file was replaced or deleted

    def identity(self) -> tuple[int, int] | None:
        """``(st_dev, st_ino)`` of the file at the path now (None: nothing there)."""
        try:
            found = os.stat(self.path)
        except OSError:
            return None
        return found.st_dev, found.st_ino

    def before_connect(self, _dialect: Any, record: Any, _cargs: Any, _cparams: Any) -> None:
        identity = self.identity()
        if identity is None and self.opened:
            raise DatabaseError(f"cannot use {self.shown}: the file {str(self.path)!r} was deleted while in use "
                                "(restore it, or run `sadame db upgrade` to create a new database)")
        record.info[_IDENTITY] = identity

    def connected(self, _dbapi_connection: Any, record: Any) -> None:
        if record.info.get(_IDENTITY) is None:  # the connect created the file
            record.info[_IDENTITY] = self.identity()
        self.opened = True

    def checkout(self, _dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if self.identity() != record.info.get(_IDENTITY):
            self.replaced += 1
            log.warning("%s: the database file was replaced or deleted under this process; "
                        "reopening it instead of using the old file", self.shown)
            raise DisconnectionError("the SQLite file was replaced")  # the pool reconnects

    def began(self, conn: Connection) -> None:
        record_info = conn.connection.info
        record_info[_WRITING] = not conn.get_execution_options().get("sadame_read")

    def swapped_during(self, connection: Any) -> bool:
        """Whether the write transaction on ``connection`` (a pool proxy) is about to commit into
        a file that is no longer the file at the path."""
        info = getattr(connection, "info", None)
        if info is None or not info.pop(_WRITING, False) or self.identity() == info.get(_IDENTITY):
            return False
        self.replaced += 1
        info[_IDENTITY] = None  # the next checkout reopens the file
        log.warning("%s: the database file was replaced or deleted during a write; rolled it back", self.shown)
        return True

    def refusal(self) -> DatabaseUnavailable:
        return DatabaseUnavailable(f"cannot write {self.shown}: the database file was replaced or deleted "
                                   "during the transaction; nothing was written (try again)")


def install_file_guard(engine: Engine, path: Path | None, url: str) -> FileGuard | None:
    """Keep ``engine``'s connections on the file at ``path`` (nothing for in-memory SQLite).
    Install it after the write lock: its commit check runs before the lock's commit."""
    if path is None:
        return None
    guard = FileGuard(path, url)
    event.listen(engine, "do_connect", guard.before_connect)
    event.listen(engine, "connect", guard.connected)
    event.listen(engine, "checkout", guard.checkout)
    event.listen(engine, "begin", guard.began)
    commit, rollback = engine.dialect.do_commit, engine.dialect.do_rollback  # (the write lock's, if any)

    def do_commit(dbapi_connection: Any) -> None:
        if guard.swapped_during(dbapi_connection):
            rollback(dbapi_connection)  # releases the write lock too
            raise guard.refusal()
        commit(dbapi_connection)

    engine.dialect.do_commit = do_commit  # type: ignore[method-assign]
    engine.sadame_file_guard = guard  # type: ignore[attr-defined]
    return guard
