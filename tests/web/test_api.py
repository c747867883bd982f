"""The JSON API over a real uvicorn server, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from sadame.db import make_engine
from sadame.judge import bundled_pack
from sadame.normalize import normalize
from sadame.web import create_app
from tests.web._leak import leaks, listed_text, raw_puzzle, secrets_of
from tests.web.conftest import LiveServer, serve

DATA = Path(__file__).parent / "data"
JSON = {"content-type": "application/json"}


def test_normalize_with_preset_and_explain(live_server: LiveServer) -> None:
    with live_server.client() as client:
        plain = client.post("/api/normalize", json={"text": "ＣＳＳ？", "preset": "judge"})
        explained = client.post("/api/normalize", json={"text": "ＣＳＳ？", "preset": "judge", "explain": True})
        default = client.post("/api/normalize", json={"text": "ｷｬｯｼｭ"})
    assert plain.status_code == 200 and plain.json()["result"] == normalize("ＣＳＳ？", preset="judge")
    assert "steps" not in plain.json()
    steps = explained.json()["steps"]
    assert [s["step"] for s in steps] and steps[-1]["after"] == plain.json()["result"]
    assert steps[0]["before"] == "ＣＳＳ？"
    assert default.json() == {"text": "ｷｬｯｼｭ", "preset": "judge", "result": normalize("ｷｬｯｼｭ", preset="judge")}


BAD_REQUESTS: list[tuple[bytes, int, str]] = [
    (b'{"text": ', 422, "JSON decode error"),
    (b'{"text": 12}', 422, "body.text"),
    (b'{"text": "a", "preset": "nope"}', 422, "body.preset"),
    (b'{"text": "a", "extra": 1}', 422, "body.extra"),
    (b'{"text": "\\ud800"}', 422, "lone surrogates"),
    (b'{"text": "a\\u0000b"}', 422, "NUL"),
    (b"[]", 422, "body"),
    (b"\xff\xfe", 422, "JSON decode error"),
]


def test_bad_requests_get_a_clear_4xx(live_server: LiveServer) -> None:
    with live_server.client() as client:
        for body, status, needle in BAD_REQUESTS:
            response = client.post("/api/normalize", content=body, headers=JSON)
            assert response.status_code == status, (body, response.text)
            assert needle in response.json()["message"], (body, response.text)
        form = client.post("/api/normalize", data={"text": "a"})
        assert form.status_code == 422
        wrong_method = client.get("/api/normalize")
        assert wrong_method.status_code == 405


def test_request_bodies_are_size_limited(live_server: LiveServer) -> None:
    big = json.dumps({"text": "あ" * 400_000}).encode()  # 1.2 MB of UTF-8
    with live_server.client() as client:
        declared = client.post("/api/normalize", content=big, headers=JSON)

        def chunks() -> Any:
            for i in range(0, len(big), 65536):
                yield big[i : i + 65536]

        streamed = client.post("/api/normalize", content=chunks(), headers=JSON)  # chunked: no Content-Length
        fine = client.post("/api/normalize", json={"text": "あ" * 300_000})
    assert declared.status_code == 413 and "larger than" in declared.json()["message"]
    assert streamed.status_code == 413
    assert fine.status_code == 200


@pytest.mark.slow
def test_puzzle_api_keeps_history_per_cookie_and_hides_the_truth(live_server: LiveServer) -> None:
    pack = bundled_pack("engineering")
    puzzle = list(pack.puzzles.values())[2]
    base = f"/api/puzzles/{pack.name}/{puzzle.id}"
    examples = [e for e in puzzle.examples if e.expect is not None][:3]
    bodies: list[str] = []
    with live_server.client() as player, live_server.client() as stranger:
        listing = player.get("/api/puzzles")
        bodies.append(listing.text)
        assert not listing.cookies.get("sadame_session"), "reading creates no session"
        for example in examples:
            response = player.post(f"{base}/ask", json={"question": example.q})
            assert player.cookies.get("sadame_session"), "the first move issues a session cookie"
            bodies.append(response.text)
            assert response.json()["verdict"] == example.expect
            assert set(response.json()) == {"question", "verdict", "label", "note", "source"}
        view = player.get(base)
        bodies.append(view.text)
        assert [h["question"] for h in view.json()["history"]] == [e.q for e in examples]
        assert view.json()["truth"] is None
        assert stranger.get(base).json()["history"] == [], "another browser has its own game"
        missing = player.post(f"{base}/ask", json={"question": "   "})
        assert missing.status_code == 409 and missing.json()["message"] == "質問が空です"

        raw = raw_puzzle(puzzle.id)
        visible = "\n".join([puzzle.statement, *listed_text(), *(e.q for e in examples),
                             *(str(r.get("note", "")) for r in raw["rules"])])
        truth_lines, words = secrets_of(puzzle.id, visible)
        assert leaks(bodies, truth_lines, words) == []

        gave_up = player.post(f"{base}/give-up")
        assert gave_up.status_code == 200 and truth_lines[0] in gave_up.json()["truth"]
        late = player.post(f"{base}/ask", json={"question": examples[0].q})
        assert late.status_code == 409
        assert player.get(f"/api/puzzles/{pack.name}/no-such-puzzle").status_code == 404
        assert player.get("/api/puzzles/no-pack/x").status_code == 404


def test_two_app_processes_share_the_game_through_the_database(live_server: LiveServer) -> None:
    pack = bundled_pack("engineering")
    puzzle = next(iter(pack.puzzles.values()))
    example = next(e for e in puzzle.examples if e.expect is not None)
    second = create_app(live_server.db_url)
    server, thread, url = serve(second)
    try:
        with live_server.client() as first_client:
            first_client.post(f"/api/puzzles/{pack.name}/{puzzle.id}/ask", json={"question": example.q})
            cookie = first_client.cookies["sadame_session"]
        with LiveServer(url, live_server.db_url, second).client(cookies={"sadame_session": cookie}) as other:
            history = other.get(f"/api/puzzles/{pack.name}/{puzzle.id}").json()["history"]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert [h["question"] for h in history] == [example.q]


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_tracker_api_needs_a_key_and_isolates_tenants(live_server: LiveServer) -> None:
    scenario = json.loads((DATA / "sessions.json").read_text(encoding="utf-8"))
    acme, other = live_server.key("acme"), live_server.key("other")
    user = scenario["user"]
    with live_server.client() as client:
        assert client.get("/api/track/users").status_code == 401
        assert client.get("/api/track/users", headers=_auth("sdm_nope")).status_code == 401
        assert client.get("/api/track/users", headers={"Authorization": f"Basic {acme}"}).status_code == 401
        for session in scenario["sessions"]:
            r = client.post("/api/track/ingest", headers=_auth(acme),
                            json={"user_id": user, "session_id": session["session_id"], "insights": session["insights"]})
            assert r.status_code == 200, r.text
        first = scenario["sessions"][0]
        again = client.post("/api/track/ingest", headers=_auth(acme), json={
            "user_id": user, "session_id": first["session_id"], "insights": first["insights"]})
        assert again.json()["replayed"] is True
        conflict = client.post("/api/track/ingest", headers=_auth(acme), json={
            "user_id": user, "session_id": first["session_id"], "insights": ["まったく別の内容"]})
        assert conflict.status_code == 409 and "different findings" in conflict.json()["message"]
        issues = client.get(f"/api/track/users/{user}/issues", headers=_auth(acme)).json()
        assert {i["title"] for i in issues} >= {scenario["regressed_title"]}
        target = next(i for i in issues if i["title"] == scenario["regressed_title"])
        detail = client.get(f"/api/track/users/{user}/issues/{target['issue_id']}", headers=_auth(acme)).json()
        assert [e["event"] for e in detail["events"]][:1] == ["create"]
        timeline = client.get(f"/api/track/users/{user}/timeline", headers=_auth(acme)).json()
        assert [p["regressions"] for p in timeline] == [0, 0, 1]
        only_open = client.get(f"/api/track/users/{user}/issues", params={"status": "open"}, headers=_auth(acme))
        assert {i["status"] for i in only_open.json()} == {"open"}

        # The other tenant sees nothing and can change nothing.
        assert client.get("/api/track/users", headers=_auth(other)).json() == []
        assert client.get(f"/api/track/users/{user}/issues", headers=_auth(other)).json() == []
        url = f"/api/track/users/{user}/issues/{target['issue_id']}"
        assert client.get(url, headers=_auth(other)).status_code == 404
        assert client.post(f"{url}/ignore", json={}, headers=_auth(other)).status_code == 404

        ignored = client.post(f"{url}/ignore", json={"reason": "既知"}, headers=_auth(acme))
        assert ignored.status_code == 200 and ignored.json()["issue"]["status"] == "ignored"
        twice = client.post(f"{url}/ignore", json={}, headers=_auth(acme))
        assert twice.status_code == 409 and "ignored" in twice.json()["message"]
        reopened = client.post(f"{url}/reopen", json={}, headers=_auth(acme))
        assert reopened.json()["issue"]["status"] == "open"
        empty = client.post("/api/track/ingest", headers=_auth(acme),
                            json={"user_id": user, "session_id": "s4", "insights": []})
        assert empty.status_code == 200 and empty.json()["seq"] == 4
        bad = client.post("/api/track/ingest", headers=_auth(acme),
                          json={"user_id": user, "session_id": "s9", "insights": [{"text": "x", "kind": "praise"}]})
        assert bad.status_code == 400 and "kind" in bad.json()["message"]


def test_tracker_api_similar_merge_unmerge_and_delete_user_record_the_actor(live_server: LiveServer) -> None:
    acme = live_server.key("acme")
    with live_server.client(headers=_auth(acme)) as client:
        r = client.post("/api/track/ingest", json={"user_id": "sato", "session_id": "s1", "insights": [
            "フォームが崩れる", "フォームの崩れが目立つ", "呼吸が浅い"]})
        ids = {e["text"]: e["issue_id"] for e in r.json()["new"] + r.json()["deferred"]}
        form = ids["フォームが崩れる"]
        similar = client.get(f"/api/track/users/sato/issues/{form[:12]}/similar", params={"limit": 2}).json()
        assert similar[0]["issue_id"] == ids["フォームの崩れが目立つ"] and 0 < similar[0]["score"] <= 1
        assert client.get(f"/api/track/users/sato/issues/{form}/similar", params={"limit": 0}).status_code == 422
        merged = client.post("/api/track/users/sato/merge",
                             json={"target_id": form, "source_ids": [ids["フォームの崩れが目立つ"][:12]]})
        assert merged.status_code == 200 and merged.json()["issue_id"] == form
        undone = client.post(f"/api/track/users/sato/issues/{form}/unmerge")
        assert undone.status_code == 200 and len(undone.json()) == 2
        events = client.get(f"/api/track/users/sato/issues/{form}").json()["events"]
        assert {e["actor"] for e in events if e["event"] in ("merge", "unmerge")} == {"api:acme"}
        again = client.post(f"/api/track/users/sato/issues/{form}/unmerge")
        assert again.status_code == 409 and "not merged" in again.json()["message"]
        assert again.json()["error"] == "merge_conflict" and again.json()["message_ja"]
        deleted = client.delete("/api/track/users/sato")
        assert deleted.status_code == 200 and deleted.json()["issues"] == 3
        assert client.get("/api/track/users").json() == []
        assert client.get(f"/api/track/users/sato/issues/{form}").status_code == 404


def test_api_keys_are_stored_hashed(live_server: LiveServer) -> None:
    key = live_server.key("hashy")
    engine = make_engine(live_server.db_url)
    with engine.connect() as conn:
        rows = conn.execute(text("select key_hash, prefix from web_api_keys")).all()
        dump = json.dumps([list(r) for r in rows])
    engine.dispose()
    assert key not in dump
    assert rows == [(hashlib.sha256(key.encode()).hexdigest(), key[:10])]


class AlwaysYes:
    """A deterministic stand-in for the LLM fallback (sadame.judge.JudgeFallback)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, question: str, *, normalized: str, table: Any, puzzle: Any) -> Any:
        from sadame.judge import FallbackAnswer

        self.calls.append(question)
        return FallbackAnswer(verdict="YES", source="llm", reason="LLM TEXT MUST NOT BE SHOWN")


def test_llm_toggle_appears_only_when_configured_and_is_opt_in(sqlite_url: str) -> None:
    from sadame.web import WebSettings

    pack = bundled_pack("engineering")
    puzzle = next(iter(pack.puzzles.values()))
    miss = next(e.q for e in puzzle.examples if e.expect is None)
    fallback = AlwaysYes()
    plain = create_app(sqlite_url, settings=WebSettings(judge_fallback=None))
    with_llm = create_app(sqlite_url, settings=WebSettings(judge_fallback=fallback))
    servers = [serve(plain), serve(with_llm)]
    try:
        (_s1, _t1, plain_url), (_s2, _t2, llm_url) = servers
        page = f"/puzzles/{pack.name}/{puzzle.id}"
        api = f"/api/puzzles/{pack.name}/{puzzle.id}"
        with LiveServer(plain_url, sqlite_url, plain).client() as client:
            assert 'name="use_llm"' not in client.get(page).text
            assert client.get(api).json()["llm_available"] is False
            answer = client.post(f"{api}/ask", json={"question": miss, "use_llm": True}).json()
            assert (answer["verdict"], answer["source"]) == ("UNKNOWN", "none")
        with LiveServer(llm_url, sqlite_url, with_llm).client() as client:
            assert 'name="use_llm"' in client.get(page).text
            off = client.post(f"{api}/ask", json={"question": miss}).json()
            assert off["verdict"] == "UNKNOWN" and fallback.calls == [], "the LLM is opt-in per question"
            on = client.post(f"{api}/ask", json={"question": miss, "use_llm": True})
            assert (on.json()["verdict"], on.json()["source"]) == ("YES", "llm")
            assert fallback.calls == [miss]
            assert "LLM TEXT" not in on.text and "LLM TEXT" not in client.get(page).text
    finally:
        for server, thread, _url in servers:
            server.should_exit = True
            thread.join(timeout=10)


def test_bundled_rule_tables_judge_questions(live_server: LiveServer) -> None:
    with live_server.client() as client:
        tables = client.get("/api/tables").json()
        assert "faq-routing" in {t["name"] for t in tables}
        hit = client.post("/api/tables/faq-routing/judge", json={"question": "請求書を再発行してほしい"}).json()
        assert hit["verdict"] == "BILLING" and hit["source"] == "rules"
        miss = client.post("/api/tables/faq-routing/judge", json={"question": "ｚｚｚ"}).json()
        assert (miss["verdict"], miss["source"]) == ("UNKNOWN", "none")
        assert client.post("/api/tables/nope/judge", json={"question": "x"}).status_code == 404


def test_pages_answer_bad_form_input_with_a_4xx_page(live_server: LiveServer) -> None:
    pack = bundled_pack("engineering")
    puzzle = next(iter(pack.puzzles.values()))
    base = f"/puzzles/{pack.name}/{puzzle.id}"
    with live_server.client() as client:
        cases = [
            client.post(f"{base}/ask", data={"question": "a\x00b"}),
            client.post(f"{base}/ask", data={"question": "あ" * 2001}),
            client.post(f"{base}/ask", data={}),
            client.post(f"{base}/answer", data={"answer": " "}),
            client.post("/quote", data={"source": "", "output": "x"}),
            client.post("/quote", data={"source": "x", "output": "x", "preset": "nope"}),
            client.post("/tracker/login", data={"api_key": "ゼロ"}),
        ]
        assert [r.status_code for r in cases] == [400, 400, 400, 400, 400, 400, 401]
        assert all("text/html" in r.headers["content-type"] for r in cases)
        assert "質問が空です" in cases[2].text
        assert client.get("/puzzles/engineering/no-such").status_code == 404
        assert client.get("/tracker/users/u").status_code == 200  # the sign-in form, not data
        assert "api_key" in client.get("/tracker/users/u").text
        assert client.get("/static/app.js").status_code == 200
        assert client.get("/").status_code == 200


def test_llm_fallback_from_the_environment_answers_misses_and_caches(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sadame.llm.testing import FakeOpenAIServer

    pack = bundled_pack("engineering")
    puzzle = next(iter(pack.puzzles.values()))
    miss = next(e.q for e in puzzle.examples if e.expect is None)
    api = f"/api/puzzles/{pack.name}/{puzzle.id}"
    with FakeOpenAIServer("NO", "YES") as llm:
        monkeypatch.setenv("SADAME_LLM_BASE_URL", llm.base_url)
        monkeypatch.setenv("SADAME_LLM_MODEL", "fake-model")
        app = create_app(sqlite_url)
        server, thread, url = serve(app)
        try:
            with LiveServer(url, sqlite_url, app).client() as client:
                assert client.get(api).json()["llm_available"] is True
                first = client.post(f"{api}/ask", json={"question": miss, "use_llm": True}).json()
                again = client.post(f"{api}/ask", json={"question": miss, "use_llm": True}).json()
        finally:
            server.should_exit = True
            thread.join(timeout=10)
        assert (first["verdict"], first["source"]) == ("NO", "llm")
        assert (again["verdict"], again["source"]) == ("NO", "cache"), "the same question is answered the same"
        assert llm.request_count == 1
