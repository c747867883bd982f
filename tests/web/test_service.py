"""Serving: quote-check slots per process, settings from the environment, and the purge
command (the normalized-source cache is tested in tests/quote/test_cache.py)."""

from __future__ import annotations

import json
from dataclasses import replace

import httpx
import pytest
from click.testing import CliRunner

from sadame.cli import cli
from sadame.web import WebSettings, create_app
from sadame.web._serve import settings_from_env
from tests.web.conftest import serve


def test_quote_checks_wait_for_a_slot_then_get_503(sqlite_url: str) -> None:
    settings = replace(WebSettings(judge_fallback=None), quote_slots=1, quote_wait=0.05)
    app = create_app(sqlite_url, settings=settings)
    server, thread, url = serve(app)
    body = {"source": "今日は晴れです。", "output": "「晴れです」"}
    try:
        with httpx.Client(base_url=url) as client:
            app.state.ctx.quote_slots.acquire()
            busy = client.post("/api/quote/check", json=body)
            page = client.post("/quote", data=body)
            app.state.ctx.quote_slots.release()
            ok = client.post("/api/quote/check", json=body)
        assert busy.status_code == page.status_code == 503
        assert "混み合っています" in busy.json()["message"] and busy.headers["retry-after"] == "5"
        assert ok.status_code == 200 and ok.json()["summary"]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        app.state.ctx.engine.dispose()


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SADAME_COOKIE_SECURE", "1")
    monkeypatch.setenv("SADAME_ANONYMOUS_TTL", "3600")
    monkeypatch.setenv("SADAME_TRUSTED_ORIGINS", "https://a.example, https://b.example")
    settings = settings_from_env()
    assert settings.cookie_secure and settings.anonymous_ttl == 3600
    assert settings.trusted_origins == ("https://a.example", "https://b.example")
    assert WebSettings().cookie_secure
    monkeypatch.setenv("SADAME_ANONYMOUS_TTL", "soon")
    with pytest.raises(ValueError, match="SADAME_ANONYMOUS_TTL"):
        settings_from_env()


def test_purge_sessions_command(sqlite_url: str) -> None:
    result = CliRunner().invoke(cli, ["web", "purge-sessions", "--db", sqlite_url, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"sessions": 0, "game_states": 0, "budgets": 0}
    bad = CliRunner().invoke(cli, ["serve", "--workers", "0", "--db", sqlite_url])
    assert bad.exit_code == 2 and "--workers" in bad.output
