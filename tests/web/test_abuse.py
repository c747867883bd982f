"""Anonymous play is bounded: rows only for moves that count, a per-client budget, limits
that hold under parallel requests, and a purge of stale sessions."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from sadame.web import WebSettings, create_app
from sadame.web._models import WebBrowserSession, WebClientBudget, WebGameState
from sadame.web.deps import COOKIE_NAME
from tests.web.conftest import serve

BASE = WebSettings(judge_fallback=None)


def _rows(app: Any) -> dict[str, int]:
    with Session(app.state.ctx.engine) as session:
        return {
            model.__tablename__: int(session.scalar(select(func.count()).select_from(model)) or 0)
            for model in (WebBrowserSession, WebGameState, WebClientBudget)
        }


def _first_puzzle(client: Any) -> tuple[str, str]:
    pack = client.get("/api/puzzles").json()[0]
    return pack["name"], pack["puzzles"][0]["id"]


def _hostile(client: httpx.Client, n: int, pack: str, puzzle: str) -> int:
    """One of the requests that must leave no row behind; returns its status."""
    api = f"/api/puzzles/{pack}/{puzzle}"
    kind = n % 8
    if kind == 0:
        return client.get(f"{api}").status_code
    if kind == 1:
        return client.post(f"{api}/ask", json={"question": 1}).status_code
    if kind == 2:
        return client.post(f"{api}/ask", json={"question": "   "}).status_code
    if kind == 3:
        return client.post(f"/api/puzzles/{pack}/no-such-puzzle/ask", json={"question": "犯人は？"}).status_code
    if kind == 4:
        return client.post(f"/puzzles/{pack}/{puzzle}/ask", data={"question": "a\x00b"}).status_code
    if kind == 5:
        return client.get(f"/puzzles/{pack}/{puzzle}").status_code
    if kind == 6:
        return client.post(f"{api}/answer", content=b"{not json", headers={"Content-Type": "application/json"}).status_code
    return client.post(f"{api}/ask", json={"question": "x" * 3000}).status_code


@pytest.mark.slow
def test_two_thousand_anonymous_requests_leave_only_what_the_budget_and_ttl_allow(db_url: str) -> None:
    settings = replace(BASE, client_sessions=25, anonymous_ttl=3600)
    app = create_app(db_url, settings=settings)
    server, thread, url = serve(app)
    statuses: dict[int, int] = {}
    with httpx.Client(base_url=url, timeout=60) as client:
        pack, puzzle = _first_puzzle(client)
        for n in range(1_600):
            client.cookies.clear()
            status = _hostile(client, n, pack, puzzle)
            statuses[status] = statuses.get(status, 0) + 1
        assert set(statuses) <= {200, 400, 404, 409, 422} and 500 not in statuses
        assert _rows(app) == {"web_browser_sessions": 0, "web_game_states": 0, "web_client_budgets": 0}

        moves = []
        for _n in range(400):  # valid moves, each without a cookie: a new session each time
            client.cookies.clear()
            moves.append(client.post(f"/api/puzzles/{pack}/{puzzle}/ask", json={"question": "犯人は人間ですか？"}))
    codes = [m.status_code for m in moves]
    assert codes.count(200) == 25 and codes.count(429) == 375
    assert "上限" in moves[-1].json()["message"]
    rows = _rows(app)
    assert rows["web_browser_sessions"] == rows["web_game_states"] == 25
    assert rows["web_client_budgets"] == 3  # the session budget, this puzzle's and all puzzles' questions
    assert app.state.ctx.games.purge(now=datetime.now(UTC) + timedelta(days=2)) == {
        "sessions": 25, "game_states": 25, "budgets": 3}
    assert _rows(app) == {"web_browser_sessions": 0, "web_game_states": 0, "web_client_budgets": 0}
    server.should_exit = True
    thread.join(timeout=10)
    app.state.ctx.engine.dispose()


def _parallel(url: str, path: str, body: dict[str, Any], cookies: dict[str, str] | None, n: int) -> list[int]:
    codes: list[int] = []
    barrier = threading.Barrier(n)

    def post() -> None:
        with httpx.Client(base_url=url, cookies=cookies, timeout=60) as client:
            barrier.wait()
            codes.append(client.post(path, json=body).status_code)

    threads = [threading.Thread(target=post) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return codes


@pytest.mark.slow
def test_twenty_parallel_requests_never_exceed_a_per_puzzle_limit(db_url: str) -> None:
    settings = replace(BASE, max_questions=5, max_attempts=3, client_questions=8)
    app = create_app(db_url, settings=settings)
    server, thread, url = serve(app)
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            pack, puzzle = _first_puzzle(client)
            client.post(f"/api/puzzles/{pack}/{puzzle}/give-up")  # only to get a session cookie
            cookie = {COOKIE_NAME: client.cookies[COOKIE_NAME]}
        other = _first_puzzle_other(url, pack)
        base = f"/api/puzzles/{pack}/{other}"
        asked = _parallel(url, f"{base}/ask", {"question": "犯人は人間ですか？"}, cookie, 20)
        assert asked.count(200) == 5 and asked.count(409) == 15
        answered = _parallel(url, f"{base}/answer", {"answer": "わからない"}, cookie, 20)
        assert answered.count(200) == 3 and answered.count(409) == 17
        with httpx.Client(base_url=url, cookies=cookie, timeout=60) as client:
            game = client.get(base).json()
        assert len(game["history"]) == 5 and len(game["attempts"]) == 3
        # A fresh cookie gets a fresh game but not a fresh budget: 8 questions per client.
        fresh = _parallel(url, f"{base}/ask", {"question": "犯人は人間ですか？"}, None, 20)
        assert fresh.count(200) == 3 and fresh.count(429) == 17
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        app.state.ctx.engine.dispose()


def _first_puzzle_other(url: str, pack: str) -> str:
    with httpx.Client(base_url=url, timeout=60) as client:
        listing = client.get("/api/puzzles").json()
    puzzles = next(p for p in listing if p["name"] == pack)["puzzles"]
    return str(puzzles[1]["id"])
