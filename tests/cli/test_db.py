"""``sadame db upgrade | current | check`` on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import text

from sadame.cli import cli
from sadame.db import make_engine
from sadame.db._revisions import shipped_heads


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_upgrade_current_and_check(db_url: str) -> None:
    shown = db_url.replace("sadame@", "sadame:hunter2@")  # trust auth ignores it; it must never be printed
    code, out = _run("db", "check", "--db", shown)
    assert code == 1 and ("behind" in out or "does not exist yet" in out) and "sadame db upgrade" in out
    code, out = _run("db", "upgrade", "--db", shown)
    assert code == 0 and "migrated to" in out, out
    assert "already up to date" in _run("db", "upgrade", "--db", shown)[1]
    code, out = _run("db", "check", "--db", shown)
    assert code == 0 and "is up to date" in out
    code, out = _run("db", "current", "--db", shown, "--json")
    report = json.loads(out)
    assert report["current"] == list(shipped_heads()) and report["missing"] == [] and not report["behind"]
    with make_engine(db_url).begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0003_web' "
                                "WHERE version_num = '0004_web_sessions'"))
    code, out = _run("db", "check", "--db", shown)
    assert code == 1 and "1 migration(s) to apply (0004_web_sessions)" in out
    if "postgresql" in db_url:  # the suggested command has *** for the password: it says so
        assert "sadame:***@" in out and "(password hidden: use your own URL)" in out, out
    else:
        assert "password hidden" not in out
    for _args, output in [(a, _run(*a)[1]) for a in (("db", "current", "--db", shown), ("db", "check", "--db", shown))]:
        assert "hunter2" not in output
        if "postgresql" in db_url:
            assert "sadame:***@" in output


def test_a_newer_database_is_not_behind(sqlite_url: str) -> None:
    assert _run("db", "upgrade", "--db", sqlite_url)[0] == 0
    with make_engine(sqlite_url).begin() as connection:
        connection.execute(text("INSERT INTO alembic_version (version_num) VALUES ('0099_from_the_next_release')"))
    code, out = _run("db", "check", "--db", sqlite_url)
    assert code == 0 and "newer than this code" in out


def test_check_does_not_create_a_missing_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "never.db"
    code, out = _run("db", "check", "--db", f"sqlite:///{path}")
    assert code == 1 and "does not exist yet" in out and str(path) in out
    assert not path.exists()
