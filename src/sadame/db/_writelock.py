"""One writer at a time on a SQLite file, waiting blocked instead of sleep-polling.

SQLite lets one connection write at a time. A writer that finds the file locked runs the
busy handler, which *sleeps* (1, 2, 5, 10, 15, 20, 25 … ms) and tries again: when several
threads of one server, or two worker processes, write at once, each loser sleeps for far
longer than the winner's transaction lasts (``strace`` of one worker under 16 clients asking
questions: six such sleeps per request). So every write transaction of an engine from
:func:`sadame.db.make_engine` first takes this lock: a ``threading.Lock`` among the
process's threads, then ``flock`` on a lock file beside the database (``<file>-lock``) among
processes. A waiter sleeps in the kernel and wakes the moment the writer before it commits.

Nothing about durability changes: the lock only orders writers that SQLite would have
serialized anyway, and ``BEGIN IMMEDIATE`` still takes SQLite's own lock (a process that does
not use this lock, an old CLI or the ``sqlite3`` shell, is waited for by the busy handler as
before). Waiting is bounded: at most 30 s (SQLite's busy timeout) on this lock, after which the
transaction goes on without it and SQLite's busy handler has the last word (up to its own 30 s,
so a writer stuck behind a transaction that never ends fails after 60 s instead of 30 s). The lock
file is separate because opening the database file itself would drop the process's POSIX
locks on it (issue 19). A lock file that cannot be opened (read-only directory) disables the
lock for that engine. ``flock`` is released by the kernel when a process dies.
"""

from __future__ import annotations

import errno
import fcntl
import os
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, event

__all__ = ["WAIT", "WriteLock", "install_write_lock"]

WAIT = 30.0  # seconds, as PRAGMA busy_timeout


class WriteLock:
    """The write lock of one SQLite file for this process (see the module docstring)."""

    def __init__(self, path: Path, wait: float = WAIT) -> None:
        self.path = path.absolute().with_name(path.name + "-lock")
        self.wait = wait
        self.missed = 0  # write transactions that went on without the lock (see acquire)
        self._reset()

    def _reset(self) -> None:
        self._threads = threading.Lock()
        self._fd: int | None = None
        self._pid = 0
        self._owner: object | None = None  # the DB-API connection that holds the lock
        self._holder = 0  # and its thread
        # The waiter thread: a blocking flock cannot time out, so one thread per lock waits in
        # it and hands the lock to the transaction that asked, or gives it back if that one
        # stopped waiting (bounded at ``wait``).
        self._cond = threading.Condition(threading.Lock())
        self._asking = False
        self._granted = False
        self._pending = False  # the waiter thread is inside a blocking flock
        self._waiter: threading.Thread | None = None

    def _file(self) -> int | None:
        if self._fd is None:
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError:
                return None
            self._pid = os.getpid()
        return self._fd

    def acquire(self, owner: object) -> bool:
        """Take the lock for the transaction on DB-API connection ``owner``; False when it was
        not taken (waited ``wait`` seconds, this thread already writes on another connection,
        or no lock file): the caller goes on without it."""
        if self._pid and self._pid != os.getpid():  # a forked child: nothing of the parent's is held here
            self._reset()
        if self._holder == threading.get_ident() or not self._threads.acquire(timeout=self.wait):
            self.missed += 1
            return False
        fd = self._file()
        if fd is None or not self._flock(fd):
            self._threads.release()
            self.missed += 1
            return False
        self._owner, self._holder = owner, threading.get_ident()
        return True

    def _flock(self, fd: int) -> bool:
        with self._cond:
            if not self._pending:  # (while the waiter is inside flock, only it may take the lock)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return True
                except OSError as exc:
                    if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                        return False
            # another process writes: wait in the kernel, through the waiter thread
            self._asking = True
            self._start_waiter(fd)
            self._cond.notify_all()
            got = self._cond.wait_for(lambda: self._granted, timeout=self.wait)
            self._asking = self._granted = False  # (in one step: the waiter never sees half of it)
            return got

    def _start_waiter(self, fd: int) -> None:
        if self._waiter is None or not self._waiter.is_alive():
            self._waiter = threading.Thread(target=self._wait_loop, args=(fd,), name="sadame-write-lock", daemon=True)
            self._waiter.start()

    def _wait_loop(self, fd: int) -> None:
        while True:
            with self._cond:  # an asking transaction that holds no grant yet
                self._cond.wait_for(lambda: self._asking and not self._granted)
                self._pending = True
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError:
                with self._cond:
                    self._pending = False
                return
            with self._cond:
                self._pending = False
                if self._asking and not self._granted:
                    self._granted = True  # handed over: the asking transaction releases it
                    self._cond.notify_all()
                else:
                    fcntl.flock(fd, fcntl.LOCK_UN)  # the asker stopped waiting: give it back

    def release(self, owner: object) -> None:
        """Give the lock back if the transaction on ``owner`` holds it (else nothing)."""
        if self._owner is None or self._owner is not owner:
            return
        self._owner, self._holder = None, 0
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        self._threads.release()


def _dbapi(connection: Any) -> object:
    """The DB-API connection under a pool proxy (or the connection itself)."""
    return getattr(connection, "dbapi_connection", connection) or connection


def install_write_lock(engine: Engine, path: Path | None) -> WriteLock | None:
    """Take ``path``'s write lock before every write transaction of ``engine`` (``BEGIN IMMEDIATE``,
    i.e. any transaction not begun with the ``sadame_read`` option) and release it after its
    ``COMMIT`` or ``ROLLBACK``. Install it before the listener that issues the ``BEGIN``. Nothing
    for an in-memory database (``path`` None): it has one connection."""
    if path is None:
        return None
    lock = WriteLock(path)
    dialect = engine.dialect
    commit, rollback = dialect.do_commit, dialect.do_rollback

    def begin(conn: Connection) -> None:
        if not conn.get_execution_options().get("sadame_read"):
            lock.acquire(_dbapi(conn.connection))

    def do_commit(dbapi_connection: Any) -> None:
        try:
            commit(dbapi_connection)
        finally:
            lock.release(_dbapi(dbapi_connection))

    def do_rollback(dbapi_connection: Any) -> None:
        try:
            rollback(dbapi_connection)
        finally:
            lock.release(_dbapi(dbapi_connection))

    def gone(dbapi_connection: Any, *_args: Any) -> None:  # closed or invalidated mid-transaction
        lock.release(_dbapi(dbapi_connection))

    event.listen(engine, "begin", begin)
    dialect.do_commit = do_commit  # type: ignore[method-assign]
    dialect.do_rollback = do_rollback  # type: ignore[method-assign]
    event.listen(engine, "invalidate", gone)
    event.listen(engine, "close", gone)
    engine.sadame_write_lock = lock  # type: ignore[attr-defined]
    return lock
