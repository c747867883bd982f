"""Commands that touch a database name it (password hidden) and the tenant when they create
something or find nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sadame.cli import cli


def _run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_create_key_names_its_database_and_how_to_serve_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SADAME_DB", raising=False)
    code, out, err = _run("web", "create-key", "--tenant", "acme")
    assert code == 0 and out.startswith("sdm_")
    default = f"sqlite:///{tmp_path / 'sadame.db'}"
    assert f"tenant 'acme' in database {default}" in err
    assert f"sadame serve --db '{default}'" in err
    code, out, _err = _run("web", "create-key", "--tenant", "acme", "--json")
    assert json.loads(out)["database"] == default


def test_track_users_says_which_tenants_have_data(db_url: str) -> None:
    code, _out, _err = _run("track", "ingest", "--user", "u1", "--session", "s1", "--tenant", "acme", "--db", db_url,
                            "-", stdin='["安定性が不足している"]')
    assert code == 0
    code, out, err = _run("track", "users", "--db", db_url)
    assert code == 0 and out == ""
    assert "tenant 'default' has no users in database " in err and "tenants here: acme (use --tenant NAME)" in err
    code, out, err = _run("track", "users", "--db", db_url, "--tenant", "acme")
    assert out.strip() == "u1" and err == ""
    code, out, err = _run("track", "list", "--user", "nobody", "--db", db_url, "--tenant", "acme")
    assert "user 'nobody' has no issues (database " in err and "tenant 'acme')" in err


def test_ingest_and_errors_name_the_database_and_tenant(postgres_url: str) -> None:
    with_password = postgres_url.replace("sadame@", "sadame:hunter2@")  # trust auth: accepted, never shown
    code, _out, err = _run("track", "ingest", "--user", "u1", "--session", "s1", "--db", with_password, "-",
                           stdin='["安定性が不足している"]')
    assert code == 0
    assert "session s1 of user 'u1' ingested (database postgresql+psycopg://sadame:***@" in err
    assert "tenant 'default')" in err and "hunter2" not in err
    code, out, err = _run("track", "show", "0" * 40, "--user", "u1", "--db", with_password)
    assert code == 1 and "tenant 'default')" in err and "sadame:***@" in err and "hunter2" not in err + out


def test_empty_key_lists_and_exports_say_where_they_looked(sqlite_url: str) -> None:
    _code, _out, err = _run("web", "list-keys", "--db", sqlite_url)
    assert f"no API keys in database {sqlite_url}" in err and "sadame web create-key --tenant NAME" in err
    code, out, err = _run("track", "export", "--db", sqlite_url, "--tenant", "nobody")
    assert code == 0 and out == "" and "tenant 'nobody' has no users" in err


def test_a_timeline_or_a_deletion_that_finds_no_user_says_where_it_looked(sqlite_url: str) -> None:
    code, _out, _err = _run("track", "ingest", "--user", "u1", "--session", "s1", "--db", sqlite_url, "-",
                            stdin='["安定性が不足している"]')
    assert code == 0
    code, out, err = _run("track", "timeline", "--user", "nobody", "--db", sqlite_url)
    assert code == 0 and out == ""  # it printed nothing at all
    assert f"user 'nobody' has no sessions (database {sqlite_url}, tenant 'default')" in err
    code, out, err = _run("track", "timeline", "--user", "u1", "--db", sqlite_url)
    assert "s1" in out and err == ""
    code, out, err = _run("track", "delete-user", "--user", "nobody", "--yes", "--db", sqlite_url)
    assert code == 0 and f"user 'nobody' has no tracker data (database {sqlite_url}, tenant 'default')" in err
    code, out, err = _run("track", "delete-user", "--user", "u1", "--yes", "--db", sqlite_url, "--tenant", "zzz")
    assert "tenant 'zzz' has no users" in err and "tenants here: default" in err
    code, out, err = _run("track", "delete-user", "--user", "u1", "--yes", "--db", sqlite_url)
    assert code == 0 and "users 1" in out and f"user 'u1' deleted (database {sqlite_url}, tenant 'default')" in err
