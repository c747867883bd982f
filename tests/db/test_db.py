from __future__ import annotations

import pytest
from sqlalchemy import inspect, text

from sadame.db import make_engine, resolve_url, upgrade


def test_upgrade_creates_the_alembic_version_table(db_url: str) -> None:
    upgrade(db_url)
    upgrade(db_url)  # idempotent
    engine = make_engine(db_url)
    assert "alembic_version" in inspect(engine).get_table_names()
    with engine.connect() as conn:
        heads = {row[0] for row in conn.execute(text("select version_num from alembic_version"))}
    assert heads, "no revision applied"


def test_resolve_url_defaults_and_bare_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SADAME_DB", raising=False)
    assert resolve_url(None) == "sqlite:///sadame.db"
    assert resolve_url("data/x.db") == "sqlite:///data/x.db"
    assert resolve_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    monkeypatch.setenv("SADAME_DB", "sqlite:///other.db")
    assert resolve_url(None) == "sqlite:///other.db"


def test_sqlite_runs_in_wal_mode(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"


def test_concurrent_upgrades_of_a_new_postgresql_database_all_succeed(postgres_url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    # Four "app processes" starting at the same moment on an empty database.
    engines = [make_engine(postgres_url) for _ in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(upgrade, engines))
    with engines[0].connect() as conn:
        tables = set(inspect(conn).get_table_names())
    assert {"alembic_version", "track_issues", "llm_verdicts", "web_api_keys"} <= tables
