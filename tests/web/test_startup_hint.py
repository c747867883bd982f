"""``sadame serve``'s start-up hint about API keys: only when the database has none."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sadame.cli._where import has_active_keys
from sadame.web.admin import create_key, revoke_key
from tests.web.conftest import _free_port, stop_server, wait_ready

SADAME = str(Path(sys.executable).parent / "sadame")
HINT = "the tracker API needs a key for this database"


def _startup_output(db: str, **extra_env: str) -> str:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SADAME_")} | extra_env
    process = subprocess.Popen([SADAME, "serve", "--workers", "1", "--port", str(port), "--db", db],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_ready(f"http://127.0.0.1:{port}", process)
    finally:
        stop_server(process, timeout=30)
    return process.stdout.read().decode() if process.stdout else ""


def test_the_key_hint_is_printed_only_when_the_database_has_no_key(sqlite_url: str) -> None:
    assert HINT in _startup_output(sqlite_url)  # a new database: no key yet
    create_key(sqlite_url, tenant="t1")
    assert HINT not in _startup_output(sqlite_url)


def test_has_active_keys(db_url: str, tmp_path: Path) -> None:
    missing = tmp_path / "never.db"
    assert not has_active_keys(f"sqlite:///{missing}") and not missing.exists()
    assert not has_active_keys(db_url)  # no tables yet
    key = create_key(db_url, tenant="t1").key
    assert has_active_keys(db_url)
    assert revoke_key(db_url, prefix=key) == 1
    assert not has_active_keys(db_url)  # a revoked key does not count


def test_a_server_told_not_to_migrate_says_at_start_that_its_database_is_behind(sqlite_url: str) -> None:
    from sqlalchemy import text

    from sadame.db import make_engine, upgrade

    upgrade(sqlite_url)
    assert "is behind" not in _startup_output(sqlite_url, SADAME_WEB_MIGRATE="0")
    with make_engine(sqlite_url).begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0003_web' "
                                "WHERE version_num = '0004_web_sessions'"))
    out = _startup_output(sqlite_url, SADAME_WEB_MIGRATE="0")
    assert f"sadame: database {sqlite_url} is behind: 1 migration(s) to apply (0004_web_sessions)" in out
    assert "SADAME_WEB_MIGRATE=0" in out and "/readyz answers 503" in out
