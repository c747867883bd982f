"""The SQLite write lock (sadame.db._writelock): writers of threads and processes queue on it.

Real SQLite files, real processes. No timing is asserted: a waiting writer is seen in
``/proc/locks`` (a blocked ``flock`` waiter on the lock file), and every acknowledged write is
read back afterwards.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from sadame.db import make_engine
from sadame.db._writelock import WriteLock

_WRITER = """
import sys
from sqlalchemy import text
from sadame.db import make_engine
engine = make_engine(sys.argv[1])
print("ready", flush=True)
with engine.begin() as conn:
    conn.execute(text("INSERT INTO t VALUES ('other process')"))
print("written", flush=True)
"""


def _engine(url: str) -> Engine:
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (v TEXT)"))
    return engine


def _lock(engine: Engine) -> WriteLock:
    lock = getattr(engine, "sadame_write_lock", None)
    assert isinstance(lock, WriteLock)
    return lock


def _rows(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        return sorted(row[0] for row in conn.execute(text("SELECT v FROM t")))


def _blocked_flock_waiters(path: Path) -> int:
    """Processes blocked in ``flock`` on ``path`` (the ``->`` lines of /proc/locks)."""
    inode = os.stat(path).st_ino
    lines = Path("/proc/locks").read_text().splitlines()
    return sum(1 for line in lines if "->" in line and "FLOCK" in line and line.split()[-3].endswith(f":{inode}"))


def _free(path: Path) -> bool:
    """Whether another open file description could take the lock now."""
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def test_a_writer_in_another_process_waits_on_the_lock_and_writes_after_the_commit(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    lock = _lock(engine)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO t VALUES ('this process')"))
        other = subprocess.Popen([sys.executable, "-c", _WRITER, sqlite_url], stdout=subprocess.PIPE, text=True)
        assert other.stdout is not None
        assert other.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 120  # a wait for the state, not a timing: fails only if never reached
        while _blocked_flock_waiters(lock.path) == 0:
            assert other.poll() is None, "the other writer finished while this transaction held the lock"
            assert time.monotonic() < deadline, "the other process never waited on the write lock"
            time.sleep(0.05)
    out, _ = other.communicate(timeout=120)
    assert other.returncode == 0 and out.strip() == "written"
    assert _rows(engine) == ["other process", "this process"]
    assert _free(lock.path)


def test_threads_writing_at_once_lose_nothing_and_leave_the_lock_free(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            for i in range(25):
                with engine.begin() as conn:
                    conn.execute(text("INSERT INTO t VALUES (:v)"), {"v": f"{n}-{i:02d}"})
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert _rows(engine) == sorted(f"{n}-{i:02d}" for n in range(8) for i in range(25))
    assert _free(_lock(engine).path)


def test_a_rolled_back_transaction_releases_the_lock(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    with pytest.raises(RuntimeError), engine.begin() as conn:
        conn.execute(text("INSERT INTO t VALUES ('never')"))
        assert not _free(_lock(engine).path)  # held during the transaction
        raise RuntimeError("refused")
    assert _free(_lock(engine).path)
    assert _rows(engine) == []


def test_a_read_transaction_does_not_wait_for_a_writer(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    reader = engine.execution_options(sadame_read=True)
    seen: list[list[str]] = []
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO t VALUES ('uncommitted')"))
        thread = threading.Thread(target=lambda: seen.append(_rows(reader)))
        thread.start()
        thread.join(timeout=120)
        assert not thread.is_alive(), "a reader waited for the write lock"
    assert seen == [[]]  # it read the committed state, without the uncommitted row


def test_a_lock_held_elsewhere_too_long_lets_the_write_go_on_to_sqlite(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    lock = _lock(engine)
    lock.wait = 0.2
    holder = os.open(lock.path, os.O_RDWR)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)  # another open file description: another "process"
        with engine.begin() as conn:  # SQLite itself is free, so the write goes on without our lock
            conn.execute(text("INSERT INTO t VALUES ('after waiting')"))
    finally:
        os.close(holder)
    assert _rows(engine) == ["after waiting"]
    with engine.begin() as conn:  # the waiter thread gave back what it got late; the lock works again
        conn.execute(text("INSERT INTO t VALUES ('again')"))
        assert not _free(lock.path)
    assert _free(lock.path)


def test_in_memory_databases_have_no_lock() -> None:
    engine = make_engine("sqlite://")
    assert getattr(engine, "sadame_write_lock", None) is None
    with engine.begin() as conn:
        assert conn.execute(text("SELECT 1")).scalar() == 1


_BUSY = """
import sys, threading
from sqlalchemy import text
from sadame.db import make_engine
engine = make_engine(sys.argv[1])
tag = sys.argv[2]

def write(n):
    for i in range(30):
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO t VALUES (:v)"), {"v": f"{tag}-{n}-{i:02d}"})

threads = [threading.Thread(target=write, args=(n,)) for n in range(6)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(engine.sadame_write_lock.missed, flush=True)
"""


def test_two_processes_of_writing_threads_hand_the_lock_over_without_a_miss(sqlite_url: str) -> None:
    """Every transaction of both processes got the lock (none gave up waiting and went on
    without it: a lost hand-over shows here as a miss), and every row is there."""
    engine = _engine(sqlite_url)
    procs = [subprocess.Popen([sys.executable, "-c", _BUSY, sqlite_url, tag], stdout=subprocess.PIPE, text=True)
             for tag in ("a", "b")]
    outs = [proc.communicate(timeout=600)[0] for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0]
    assert [out.strip() for out in outs] == ["0", "0"]
    assert _rows(engine) == sorted(f"{tag}-{n}-{i:02d}" for tag in "ab" for n in range(6) for i in range(30))
    assert _free(_lock(engine).path)
