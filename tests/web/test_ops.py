"""``/healthz``, ``/readyz`` and ``/metrics`` on a real server and real databases (SQLite and PostgreSQL)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx
import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from sadame.db import make_engine
from sadame.judge import bundled_pack
from sadame.web import WebSettings
from sadame.web.admin import create_key
from tests.web.conftest import LiveServer, running

SOURCE = "売上は1億2000万円（前年比 12%増）。安定性に課題がある。"
OUTPUT = "「安定性に課題がある」。売上は120,000,000円。"


def samples(client: httpx.Client, **headers: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(response.text) for s in family.samples}


def value(found: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def _play_a_little(live: LiveServer, client: httpx.Client) -> None:
    pack = bundled_pack("engineering")
    puzzle = next(iter(pack.puzzles.values()))
    assert client.get("/api/puzzles").status_code == 200
    ask = client.post(f"/api/puzzles/{pack.name}/{puzzle.id}/ask", json={"question": puzzle.examples[0].q})
    assert ask.status_code == 200
    assert client.post("/api/quote/check", json={"source": SOURCE, "output": OUTPUT}).status_code == 200
    key = live.key("acme")
    ingest = client.post("/api/track/ingest", headers={"Authorization": f"Bearer {key}"},
                         json={"user_id": "u1", "session_id": "s1", "insights": ["安定性が不足している"]})
    assert ingest.status_code == 200, ingest.text
    assert client.get("/no/such/page").status_code == 404


def test_health_readiness_and_metrics_count_what_was_served(live_server: LiveServer) -> None:
    with live_server.client() as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready", ready.text
        before = samples(client)
        _play_a_little(live_server, client)
        after = samples(client)
    route = {"method": "GET", "route": "/api/puzzles", "status": "200"}
    assert value(after, "sadame_http_requests_total", **route) == value(before, "sadame_http_requests_total", **route) + 1
    assert value(after, "sadame_http_requests_total", method="GET", route="unmatched", status="404") >= 1
    assert value(after, "sadame_http_request_duration_seconds_count", method="GET", route="/api/puzzles") >= 1
    assert value(after, "sadame_verdicts_total", source="rules") == 1
    assert value(after, "sadame_quote_checks_total", kind="api_check") == 1
    assert value(after, "sadame_ingests_total", status="ok") == 1


def test_every_response_carries_a_request_id(live_server: LiveServer) -> None:
    with live_server.client() as client:
        given = client.get("/healthz", headers={"X-Request-ID": "deploy-check.42"})
        refused = client.get("/healthz", headers={"X-Request-ID": "has space and is long" * 5})
        fresh = client.get("/api/puzzles")
        too_large = client.post("/api/normalize", content=b"x" * 2_000_000, headers={"Content-Type": "application/json"})
    assert given.headers["x-request-id"] == "deploy-check.42"
    assert refused.headers["x-request-id"] != "" and " " not in refused.headers["x-request-id"]
    assert len(fresh.headers["x-request-id"]) == 32
    assert too_large.status_code == 413 and too_large.headers["x-request-id"]


def test_readiness_fails_when_the_schema_is_behind(db_url: str) -> None:
    with running(db_url) as live, live.client() as client:
        with make_engine(db_url).begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = '0003_web' "
                                    "WHERE version_num = '0004_web_sessions'"))
        behind = client.get("/readyz")
        assert client.get("/healthz").status_code == 200
    assert behind.status_code == 503
    assert behind.json()["database"] == "behind" and behind.json()["missing"] == ["0004_web_sessions"]
    assert "sadame db upgrade" in behind.json()["reason"]


def test_readiness_fails_when_the_sqlite_file_is_gone(tmp_path: Path) -> None:
    path = tmp_path / "gone.db"
    with running(f"sqlite:///{path}") as live, live.client() as client:
        assert client.get("/readyz").status_code == 200
        for leftover in tmp_path.glob("gone.db*"):
            leftover.unlink()
        gone = client.get("/readyz")
        assert client.get("/healthz").status_code == 200
    assert gone.status_code == 503 and gone.json()["database"] == "unreachable"
    assert not path.exists(), "the readiness check must not create an empty database"


def test_readiness_fails_when_the_postgresql_database_is_dropped(postgres_url: str) -> None:
    name = postgres_url.rsplit("/", 1)[1]
    with running(postgres_url) as live, live.client() as client:
        assert client.get("/readyz").status_code == 200
        host_port = postgres_url.split("@", 1)[1].split("/", 1)[0]
        host, port = host_port.split(":")
        with psycopg.connect(host=host, port=int(port), user="sadame", dbname="postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        gone = client.get("/readyz")
        assert client.get("/healthz").status_code == 200
    assert gone.status_code == 503 and gone.json()["database"] == "unreachable"


def test_metrics_behind_a_key(sqlite_url: str) -> None:
    with running(sqlite_url, WebSettings(judge_fallback=None, metrics_key="s3cret")) as live, live.client() as client:
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert value(samples(client, Authorization="Bearer s3cret"), "sadame_ingests_total", status="ok") == 0
        assert client.get("/healthz").status_code == 200


def test_llm_calls_failures_and_cache_hits_are_counted(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from sadame.llm.testing import FakeOpenAIServer, Reply

    pack = bundled_pack("engineering")
    misses = [(p.id, e.q) for p in pack.puzzles.values() for e in p.examples if e.expect is None]
    with FakeOpenAIServer("NO", Reply(status=400)) as llm:
        monkeypatch.setenv("SADAME_LLM_BASE_URL", llm.base_url)
        monkeypatch.setenv("SADAME_LLM_MODEL", "fake-model")
        monkeypatch.setenv("SADAME_LLM_MAX_RETRIES", "0")
        with running(sqlite_url) as live, live.client() as client:
            for puzzle_id, question in (misses[0], misses[0], misses[1]):
                asked = client.post(f"/api/puzzles/{pack.name}/{puzzle_id}/ask",
                                    json={"question": question, "use_llm": True})
                assert asked.status_code == 200, asked.text
            found = samples(client)
    assert value(found, "sadame_llm_calls_total", outcome="verdict") == 1
    assert value(found, "sadame_llm_calls_total", outcome="cache") == 1
    assert value(found, "sadame_llm_calls_total", outcome="no_verdict") == 1
    assert value(found, "sadame_llm_failures_total") == 1
    assert value(found, "sadame_verdicts_total", source="llm") == 2
    assert value(found, "sadame_verdicts_total", source="cache") == 1


def _sessions_in(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [row[0] for row in conn.execute("SELECT session_id FROM track_sessions ORDER BY id")]


def _swap(path: Path, replacement: Path | bytes | None) -> None:
    """Delete the database file (and its WAL and shared-memory index) as ``rm -f w.db*`` does, then
    put a copy of ``replacement`` (a database, raw bytes, or None: a directory) at the path."""
    for leftover in path.parent.glob(path.name + "*"):
        if not leftover.name.endswith("-lock"):
            leftover.unlink()
    if isinstance(replacement, Path):
        with sqlite3.connect(replacement) as source, sqlite3.connect(path) as target:
            source.backup(target)
    elif isinstance(replacement, bytes):
        path.write_bytes(replacement)
    else:
        path.mkdir()


def test_a_sqlite_file_swapped_under_the_server_is_followed(tmp_path: Path) -> None:
    """B4: ``rm w.db*; cp fresh.db w.db`` under a running server. Before, /readyz stayed 200 and
    ingests were acknowledged into the unlinked old file (lost on restart)."""
    fresh, live_path = tmp_path / "fresh.db", tmp_path / "w.db"
    fresh_url = f"sqlite:///{fresh}"
    make_engine(fresh_url).dispose()
    key = create_key(fresh_url, tenant="t1").key  # (migrates fresh.db first)
    _swap(live_path, fresh)
    auth = {"Authorization": f"Bearer {key}"}

    def ingest(client: httpx.Client, session: str) -> httpx.Response:
        return client.post("/api/track/ingest", headers=auth,
                           json={"user_id": "u1", "session_id": session, "insights": ["安定性が不足している"]})

    with running(f"sqlite:///{live_path}") as live, live.client() as client:
        assert ingest(client, "before-swap").status_code == 200
        _swap(live_path, fresh)
        ready = client.get("/readyz")
        after = ingest(client, "after-swap")
        _swap(live_path, b"this is not a database" * 100)
        garbage, garbage_ingest = client.get("/readyz"), ingest(client, "into-garbage")
        _swap(live_path, None)
        directory, directory_ingest = client.get("/readyz"), ingest(client, "into-directory")
        live_path.rmdir()
        _swap(live_path, fresh)
        schema_less = tmp_path / "empty.db"
        sqlite3.connect(schema_less).close()
        back = client.get("/readyz")
        _swap(live_path, schema_less)
        no_schema = client.get("/readyz")
        _swap(live_path, fresh)
        last = ingest(client, "last")
    assert ready.status_code == 200, ready.text
    assert after.status_code == 200, after.text
    assert garbage.status_code == 503 and "not a SQLite database" in garbage.json()["reason"], garbage.text
    assert directory.status_code == 503 and "not a file" in directory.json()["reason"], directory.text
    assert garbage_ingest.status_code == 503 and directory_ingest.status_code == 503
    assert back.status_code == 200, back.text
    assert no_schema.status_code == 503 and "sadame db upgrade" in no_schema.json()["reason"], no_schema.text
    assert last.status_code == 200, last.text
    assert str(tmp_path) not in garbage.text + directory.text + no_schema.text  # /readyz is public
    assert _sessions_in(live_path) == ["last"]  # what was acknowledged is in the file at the path
