"""Sessions, key revocation, lifetimes, budgets and the purge, at the store level."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from sadame.db import make_engine, upgrade
from sadame.web import WebSettings
from sadame.web._budget import BudgetExhausted, client_id
from sadame.web._models import WebBrowserSession, WebClientBudget, WebGameState
from sadame.web._sessions import SessionStore
from sadame.web._store import GameStore, KeyStore

SETTINGS = WebSettings(judge_fallback=None)


def _append(n: int) -> Any:
    def change(doc: dict[str, Any] | None) -> dict[str, Any]:
        doc = doc or {"history": []}
        doc["history"].append(n)
        return doc

    return change


def _count(engine: Any, model: Any) -> int:
    with Session(engine) as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def test_sign_in_issues_a_new_session_and_keeps_the_game(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    keys = KeyStore(engine)
    games, sessions = GameStore(engine, SETTINGS), SessionStore(engine, keys, SETTINGS)
    key = keys.create_key("acme").key
    before, fresh = games.resolve(None)
    assert fresh and _count(engine, WebBrowserSession) == 0  # resolving writes nothing
    games.update(before, "pack", "p", _append(1))
    assert games.resolve(before) == (before, False)

    after = sessions.sign_in(before, key)
    assert after is not None and after != before
    assert sessions.tenant(after) == "acme"
    assert sessions.tenant(before) is None and games.resolve(before)[0] != before
    assert games.load(after, "pack", "p") == {"history": [1]}
    assert sessions.sign_in(None, key + "x") is None
    sessions.sign_out(after)
    assert sessions.tenant(after) is None


def test_revoking_the_key_ends_its_sessions_only(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    keys = KeyStore(engine)
    sessions = SessionStore(engine, keys, SETTINGS)
    first, second = keys.create_key("acme"), keys.create_key("acme")
    one, two = sessions.sign_in(None, first.key), sessions.sign_in(None, second.key)
    assert keys.revoke(first.key) == 1  # the full key
    assert sessions.tenant(one) is None and sessions.tenant(two) == "acme"
    assert sessions.sign_in(None, first.key) is None
    assert keys.revoke(second.key[:8]) == 1 and sessions.tenant(two) is None


def test_revoke_accepts_any_unambiguous_prefix(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    keys = KeyStore(engine)
    created = keys.create_key("acme")
    with pytest.raises(ValueError, match="at least"):
        keys.revoke(created.key[:7])
    with pytest.raises(ValueError, match="full key"):
        keys.revoke(created.key[:12] + "?")
    for length in (8, 9, 10):
        assert keys.revoke(created.key[:length]) == 1
        created = keys.create_key("acme")
    assert keys.revoke(created.key) == 1
    a, b = keys.create_key("x"), keys.create_key("y")
    if a.key[:8] == b.key[:8]:  # astronomically unlikely; then the prefix is ambiguous
        with pytest.raises(ValueError, match="matches 2"):
            keys.revoke(a.key[:8])
    assert keys.revoke("sdm_" + "!" * 6) == 0


def test_absolute_and_idle_lifetimes_end_a_sign_in(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    keys = KeyStore(engine)
    key = keys.create_key("acme").key
    for expired in (replace(SETTINGS, session_absolute=0), replace(SETTINGS, session_idle=0)):
        sessions = SessionStore(engine, keys, expired)
        cookie = sessions.sign_in(None, key)
        assert cookie is not None and sessions.tenant(cookie) is None
        assert SessionStore(engine, keys, SETTINGS).tenant(cookie) == "acme"


def test_parallel_moves_never_exceed_the_client_budget(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    games = GameStore(engine, replace(SETTINGS, client_questions=7))
    client = client_id("192.0.2.1")
    outcomes: list[str] = []

    def move() -> None:
        cookie, _fresh = games.resolve(None)  # a fresh cookie for every request
        try:
            GameStore(make_engine(db_url), replace(SETTINGS, client_questions=7)).update(
                cookie, "pack", "p", _append(1), client=client, spend="q")
            outcomes.append("ok")
        except BudgetExhausted:
            outcomes.append("refused")

    threads = [threading.Thread(target=move) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("ok") == 7 and outcomes.count("refused") == 13
    assert _count(engine, WebGameState) == 7 and _count(engine, WebBrowserSession) == 7


def test_ipv6_clients_count_per_64_network() -> None:
    assert client_id("2001:db8::1") == client_id("2001:db8::ffff:1")
    assert client_id("2001:db8::1") != client_id("2001:db8:0:1::1")
    assert client_id("::ffff:192.0.2.1") == client_id("192.0.2.1")
    assert client_id(None) == client_id("unknown")


def test_purge_drops_stale_sessions_states_and_budgets(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    settings = replace(SETTINGS, anonymous_ttl=3600, budget_window=60)
    games = GameStore(engine, settings)
    for n in range(3):
        games.update(games.resolve(None)[0], "pack", "p", _append(n), client=client_id("192.0.2.9"), spend="q")
    assert games.purge() == {"sessions": 0, "game_states": 0, "budgets": 0}
    later = datetime.now(UTC) + timedelta(hours=2)
    assert games.purge(now=later) == {"sessions": 3, "game_states": 3, "budgets": 3}  # new sessions, the puzzle, all puzzles
    assert _count(engine, WebBrowserSession) == _count(engine, WebGameState) == _count(engine, WebClientBudget) == 0
