"""The attacks of issue 13, driven in Chromium from a second origin on loopback.

The attacker's pages are served by a second uvicorn on another port of 127.0.0.1:
same *site* as the app (so SameSite=Lax cookies are sent along), another *origin*.
Each attack must fail: CSRF on a dashboard action and on logout, login CSRF,
session fixation, a revoked key's session, framing. The headers are checked on
every route.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from sadame.web import KeyStore
from sadame.web._security import SECURITY_HEADERS
from sadame.web.deps import COOKIE_NAME
from tests.web.conftest import LiveServer, serve

pytestmark = pytest.mark.browser

USER = "tanaka"


class Attacker:
    """A site on another port that serves whatever page a test puts in ``pages``."""

    def __init__(self) -> None:
        self.pages: dict[str, str] = {}
        app = Starlette(routes=[Route("/{name}", self._page)])
        self.server, self.thread, self.url = serve(app)

    async def _page(self, request: Request) -> HTMLResponse:
        return HTMLResponse(self.pages.get(request.path_params["name"], "<p>nothing</p>"))

    def form(self, name: str, action: str, fields: dict[str, str]) -> str:
        """A page that posts a form to ``action`` as soon as it loads."""
        inputs = "".join(
            f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in fields.items()
        )
        self.pages[name] = (
            f'<form id="f" method="post" action="{html.escape(action)}">{inputs}</form>'
            "<script>document.getElementById('f').submit()</script>"
        )
        return f"{self.url}/{name}"


@pytest.fixture
def attacker() -> Iterator[Attacker]:
    site = Attacker()
    try:
        yield site
    finally:
        site.server.should_exit = True
        site.thread.join(timeout=10)


def _ingest(live: LiveServer, key: str) -> str:
    """One open issue for USER; returns its id."""
    with live.client(headers={"Authorization": f"Bearer {key}"}) as client:
        response = client.post("/api/track/ingest", json={"user_id": USER, "session_id": "s1",
                                                         "insights": ["タイミングが遅い"]})
        assert response.status_code == 200, response.text
        issues = client.get(f"/api/track/users/{USER}/issues").json()
    return str(issues[0]["issue_id"])


def _status(live: LiveServer, key: str, issue_id: str) -> str:
    with live.client(headers={"Authorization": f"Bearer {key}"}) as client:
        detail = client.get(f"/api/track/users/{USER}/issues/{issue_id}").json()
    return str(detail.get("issue", detail)["status"])


def _sign_in(live: LiveServer, page: Any, key: str) -> None:
    page.goto(f"{live.url}/tracker")
    page.fill("#api_key", key)
    page.click("form.login button")
    page.wait_for_selector("text=ログアウト")


def _cookie(page: Any) -> str | None:
    found = [c["value"] for c in page.context.cookies() if c["name"] == COOKIE_NAME]
    return found[0] if found else None


def _signed_in(live: LiveServer, page: Any) -> bool:
    page.goto(f"{live.url}/tracker")
    return page.locator("text=ログアウト").count() == 1


def test_csrf_on_a_dashboard_action_and_logout_is_refused(
    live_server: LiveServer, attacker: Attacker, page: Any
) -> None:
    key = live_server.key("acme")
    issue = _ingest(live_server, key)
    before = _status(live_server, key, issue)
    assert before != "ignored"
    _sign_in(live_server, page, key)
    action = f"{live_server.url}/tracker/users/{USER}/issues/{issue}/ignore"
    page.goto(attacker.form("ignore", action, {"reason": "攻撃"}))
    page.wait_for_url(action)
    assert "別のサイトから送られた操作は受け付けません" in page.inner_text("main")
    assert _status(live_server, key, issue) == before

    page.goto(attacker.form("logout", f"{live_server.url}/tracker/logout", {}))
    page.wait_for_url(f"{live_server.url}/tracker/logout")
    assert _signed_in(live_server, page)

    # The same forms from the app's own pages still work.
    page.goto(f"{live_server.url}/tracker/users/{USER}/issues/{issue}")
    page.click("form[action$='/ignore'] button")
    assert _status(live_server, key, issue) == "ignored"


def test_login_csrf_does_not_sign_the_victim_in(live_server: LiveServer, attacker: Attacker, page: Any) -> None:
    attackers_key = live_server.key("evil")
    url = attacker.form("login", f"{live_server.url}/tracker/login", {"api_key": attackers_key})
    page.goto(url)
    page.wait_for_url(f"{live_server.url}/tracker/login")
    assert "別のサイトから送られた操作は受け付けません" in page.inner_text("main")
    assert not _signed_in(live_server, page)


def test_session_fixation_a_planted_cookie_never_signs_in(live_server: LiveServer, page: Any) -> None:
    # The attacker gets a real session cookie of their own by playing a move ...
    with live_server.client() as client:
        listing = client.get("/api/puzzles").json()
        pack, puzzle = listing[0]["name"], listing[0]["puzzles"][0]["id"]
        response = client.post(f"/api/puzzles/{pack}/{puzzle}/ask", json={"question": "犯人は人間ですか？"})
        assert response.status_code == 200, response.text
        planted = client.cookies[COOKIE_NAME]
    # ... plants it in the victim's browser, and the victim signs in.
    page.context.add_cookies([{"name": COOKIE_NAME, "value": planted, "url": live_server.url}])
    _sign_in(live_server, page, live_server.key("acme"))
    assert _cookie(page) not in (None, planted)
    with live_server.client(cookies={COOKIE_NAME: planted}) as client:
        assert "ログアウト" not in client.get("/tracker").text


def test_a_revoked_keys_session_ends(live_server: LiveServer, page: Any) -> None:
    created_key = live_server.key("acme")
    issue = _ingest(live_server, created_key)
    _sign_in(live_server, page, created_key)
    KeyStore(live_server.app.state.ctx.engine).revoke(created_key)
    assert not _signed_in(live_server, page)
    response = page.request.post(f"{live_server.url}/tracker/users/{USER}/issues/{issue}/ignore",
                                 form={"reason": "x"}, headers={"Origin": live_server.url})
    assert response.status == 401


def test_framing_is_refused(live_server: LiveServer, attacker: Attacker, page: Any) -> None:
    _sign_in(live_server, page, live_server.key("acme"))
    attacker.pages["frame"] = f'<iframe id="x" src="{live_server.url}/tracker" width="600" height="400"></iframe>'
    responses: list[Any] = []
    page.on("response", lambda r: responses.append(r) if r.url == f"{live_server.url}/tracker" else None)
    page.goto(f"{attacker.url}/frame")
    page.wait_for_load_state("load")
    assert responses and responses[0].headers.get("x-frame-options") == "DENY"
    framed = [f for f in page.frames if f != page.main_frame]
    assert framed
    for frame in framed:
        assert frame.url != f"{live_server.url}/tracker"
        try:
            text = frame.inner_text("body", timeout=2_000)
        except Exception:  # Chromium's error page may not be readable at all
            text = ""
        assert "ログアウト" not in text and "課題トラッカー" not in text


def _route_urls(live: LiveServer) -> list[str]:
    samples = {"pack": "engineering", "puzzle_id": "nope", "user_id": USER, "issue_id": "1", "name": "faq-routing"}
    urls = []
    for route in live.app.routes:
        methods = getattr(route, "methods", None) or set()
        if "GET" in methods:
            urls.append(route.path.format(**{k: samples.get(k, "x") for k in samples if "{" + k + "}" in route.path}))
    return [*urls, "/static/style.css", "/no-such-page"]


def test_security_headers_on_every_route(live_server: LiveServer) -> None:
    key = live_server.key("acme")
    with live_server.client(headers={"Authorization": f"Bearer {key}"}) as client:
        responses = [client.get(url) for url in _route_urls(live_server)]
        responses.append(client.head("/"))
        responses.append(client.post("/api/normalize", json={"text": "ｱ", "preset": "judge"}))
        responses.append(client.post("/api/normalize", json={"nope": 1}))
        responses.append(client.post("/api/normalize", content=b"x" * 1_100_000,
                                     headers={"Content-Type": "application/json"}))
        responses.append(client.post("/tracker/logout", headers={"Origin": "http://127.0.0.1:1"}))
    assert {r.status_code for r in responses} >= {200, 403, 404, 413, 422}
    for response in responses:
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, (response.url, name)
        private = not response.url.path.startswith("/static/")
        assert (response.headers.get("cache-control") == "no-store") == private, response.url
    head = responses[len(responses) - 5]
    assert head.status_code == 200 and head.content == b""


def test_cookie_is_http_only_lax_and_secure_when_configured(db_url: str) -> None:
    from dataclasses import replace

    from sadame.web import WebSettings, create_app
    from tests.web.conftest import serve as start

    app = create_app(db_url, settings=replace(WebSettings(judge_fallback=None), cookie_secure=True))
    server, thread, url = start(app)
    try:
        # the first listing loads every bundled pack: allow for a slow, shared machine
        with httpx.Client(base_url=url, timeout=120) as client:
            pack = client.get("/api/puzzles").json()[0]
            response = client.post(f"/api/puzzles/{pack['name']}/{pack['puzzles'][0]['id']}/give-up")
        cookie = response.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" in cookie
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        app.state.ctx.engine.dispose()
