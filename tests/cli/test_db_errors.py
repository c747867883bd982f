"""The CLI error table: every subcommand that takes --db, against every kind of bad database.

Each must exit non-zero with one line naming the database and the reason: no
traceback, nothing half-written. A read-only database file still serves the
commands that only read (run as an unprivileged user, since root may write anything).
"""

from __future__ import annotations

import multiprocessing
import os
import socket
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sadame.cli import cli

INGEST_INPUT = '["安定性が不足している"]'

#: Every subcommand that takes --db, with its required arguments.
COMMANDS: dict[str, list[str]] = {
    "rules suggest": ["rules", "suggest", "faq-routing"],
    "track ingest": ["track", "ingest", "--user", "u1", "--session", "s9", "-"],
    "track list": ["track", "list", "--user", "u1"],
    "track show": ["track", "show", "35df17c0f114", "--user", "u1"],
    "track ignore": ["track", "ignore", "35df17c0f114", "--user", "u1"],
    "track reopen": ["track", "reopen", "35df17c0f114", "--user", "u1"],
    "track merge": ["track", "merge", "35df17c0f114", "0123456789ab", "--user", "u1"],
    "track unmerge": ["track", "unmerge", "35df17c0f114", "--user", "u1"],
    "track migrate": ["track", "migrate", "--ruleset", "seed-example"],
    "track export": ["track", "export"],
    "track timeline": ["track", "timeline", "--user", "u1"],
    "track users": ["track", "users"],
    "serve": ["serve", "--port", "0", "--workers", "1"],
    "web create-key": ["web", "create-key", "--tenant", "acme"],
    "web list-keys": ["web", "list-keys"],
    "web revoke-key": ["web", "revoke-key", "sdm_abcdefgh"],
    "web purge-sessions": ["web", "purge-sessions"],
}

READ_ONLY_COMMANDS = ("rules suggest", "track migrate", "track list", "track show", "track export", "track timeline", "track users", "web list-keys")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _bad_databases(tmp: Path) -> dict[str, tuple[str, str]]:
    """name -> (--db value, what the message must contain)."""
    (tmp / "junk.db").write_bytes(b"this is not a database, just text\n" * 10)
    port = _closed_port()
    return {
        "missing directory": (f"sqlite:///{tmp}/no/such/dir/x.db", "does not exist"),
        "directory": (f"sqlite:///{tmp}", "is a directory"),
        "not SQLite": (f"sqlite:///{tmp}/junk.db", "is not a SQLite database"),
        "wrong scheme": ("mysql://u@localhost/db", "unsupported database mysql://"),
        "refused connection": (f"postgresql://sadame@127.0.0.1:{port}/x", f"127.0.0.1:{port}"),
        "empty": ("", "''"),
        "not a url": ("not a url", "'not a url'"),
    }


def _run(args: list[str], db: str) -> Any:
    return CliRunner().invoke(cli, [*args, "--db", db], input=INGEST_INPUT)


def _one_line_error(result: Any) -> str:
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    return lines[-1]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_bad_database_is_one_clear_line(command: str, tmp_path: Path) -> None:
    for name, (db, expected) in _bad_databases(tmp_path).items():
        result = _run(COMMANDS[command], db)
        line = _one_line_error(result)
        assert line.startswith("Error:") and expected in line, (command, name, result.output)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.db"]  # nothing created anywhere


def _as_nobody(url: str, conn: Any) -> None:
    os.setgid(65534)
    os.setuid(65534)
    rows = []
    for command, args in COMMANDS.items():
        if command == "serve":
            continue  # it would serve the read-only database (reading works)
        result = _run(args, url)
        rows.append((command, result.exit_code, result.output, repr(result.exception)))
    conn.send(rows)


def test_read_only_database_reads_work_and_writes_are_one_line(tmp_path: Path) -> None:
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"sadame-ro-{os.getpid()}-{tmp_path.name}"
    folder.mkdir(mode=0o755)
    url = f"sqlite:///{folder}/ro.db"
    setup = ["track", "ingest", "--user", "u1", "--session", "s1", "-"]
    assert _run(setup, url).exit_code == 0
    assert _run(COMMANDS["web create-key"], url).exit_code == 0
    (folder / "ro.db").chmod(0o444)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe()
    child = context.Process(target=_as_nobody, args=(url, send))
    child.start()
    rows = receive.recv()
    child.join()
    for command, code, output, exception in rows:
        assert "Traceback" not in output and exception in ("None", "SystemExit(0)", "SystemExit(1)", "SystemExit(2)"), command
        if command in READ_ONLY_COMMANDS:
            assert code == 0 or "not found" in output.lower() or "no issue" in output.lower(), (command, output)
        else:
            assert code != 0 and output.count("Error:") == 1, (command, output)
        assert len([line for line in output.splitlines() if line.startswith("Error:")]) <= 1
    listed = {c: o for c, _code, o, _e in rows}
    assert "u1" in listed["track users"] and "acme" in listed["web list-keys"]
    for writer in ("track ingest", "web create-key", "web purge-sessions"):
        assert "readonly" in listed[writer] and str(folder) in listed[writer], listed[writer]
