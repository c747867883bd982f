"""An error carries its own HTTP status and Japanese message: the API and the dashboard answer
the same request with the same status, the dashboard in Japanese."""

from __future__ import annotations

from typing import Any

import pytest

from sadame._errors import SadameError
from sadame.judge import TableError
from sadame.judge.game import GameError, UnknownPuzzle
from sadame.track import IllegalTransition, IssueNotFound, MergeError, SessionConflict, TrackError
from sadame.web._budget import BudgetExhausted
from sadame.web._present import present
from tests.web.conftest import LiveServer


def _signed_in(live: LiveServer, key: str) -> Any:
    with live.client() as client:
        response = client.post("/tracker/login", data={"api_key": key})
    assert response.status_code == 303
    return live.client(cookies=dict(response.cookies))


def test_merging_an_already_merged_issue_is_the_same_conflict_on_the_api_and_the_dashboard(
    live_server: LiveServer,
) -> None:
    key = live_server.key("acme")
    auth = {"Authorization": f"Bearer {key}"}
    with live_server.client(headers=auth) as api:
        report = api.post("/api/track/ingest", json={"user_id": "sato", "session_id": "s1", "insights": [
            "フォームが崩れる", "呼吸が浅い", "タイミングが遅い"]}).json()
        first, second, third = (e["issue_id"] for e in report["new"] + report["deferred"])
        merged = api.post("/api/track/users/sato/merge", json={"target_id": first, "source_ids": [second]})
        assert merged.status_code == 200
        again = api.post("/api/track/users/sato/merge", json={"target_id": third, "source_ids": [second]})
        not_merged = api.post(f"/api/track/users/sato/issues/{third}/unmerge")
        missing = api.post("/api/track/users/sato/issues/ffffffffffff/ignore", json={})
    assert again.status_code == 409 and again.json()["error"] == "merge_conflict"
    assert "already merged" in again.json()["message"] and "すでに" in again.json()["message_ja"]
    with _signed_in(live_server, key) as page:
        page_again = page.post("/tracker/users/sato/merge", data={"target_id": third, "source_ids": [second]})
        page_not_merged = page.post(f"/tracker/users/sato/issues/{third}/unmerge")
        page_missing = page.post("/tracker/users/sato/issues/ffffffffffff/ignore", data={})
    for api_answer, page_answer in ((again, page_again), (not_merged, page_not_merged), (missing, page_missing)):
        assert page_answer.status_code == api_answer.status_code
        assert api_answer.json()["message_ja"] in page_answer.text
        assert api_answer.json()["message"] not in page_answer.text  # the page speaks Japanese only
    assert (not_merged.status_code, missing.status_code) == (409, 404)
    assert "すでに" in page_again.text and "already" not in page_again.text


@pytest.mark.parametrize(("error", "status", "code"), [
    (IssueNotFound("no issue 'x'"), 404, "not_found"),
    (IllegalTransition("ignored", "ignore"), 409, "illegal_transition"),
    (MergeError("nothing to merge"), 409, "merge_conflict"),
    (SessionConflict("s1 again"), 409, "session_conflict"),
    (TrackError("x"), 400, "bad_request"),
    (UnknownPuzzle("「x」という問題集はありません"), 404, "not_found"),
    (GameError("質問が空です"), 409, "game_error"),
    (TableError("bad", file="t.yaml"), 400, "invalid_table"),
    (BudgetExhausted("上限に達しました"), 429, "budget_exhausted"),
    (KeyError("x"), 404, "not_found"),
    (ValueError("bad"), 400, "bad_request"),
])
def test_every_error_presents_its_own_status_and_a_japanese_message(error: Exception, status: int, code: str) -> None:
    found = present(error)
    assert (found.status, found.code) == (status, code)
    assert any("\u3040" <= ch <= "\u30ff" for ch in found.japanese), found.japanese
    if isinstance(error, SadameError):
        assert (error.http_status, error.code) == (status, code)


def test_a_japanese_message_is_its_own_japanese() -> None:
    assert present(GameError("質問が空です")).japanese == "質問が空です"
    assert present(IssueNotFound("no issue 'x'")).message == "no issue 'x'"  # KeyError's quotes dropped


def test_every_dashboard_page_answers_in_japanese_without_a_browser(live_server: LiveServer) -> None:
    key = live_server.key("acme")
    with live_server.client(headers={"Authorization": f"Bearer {key}"}) as api:
        report = api.post("/api/track/ingest", json={"user_id": "sato", "session_id": "s1", "insights": [
            "フォームが崩れる", "呼吸が浅い"]}).json()
    first, second = (e["issue_id"] for e in report["new"] + report["deferred"])
    with live_server.client() as anonymous:
        assert "ログイン" in anonymous.get("/tracker").text
        assert anonymous.post("/tracker/login", data={"api_key": "wrong"}).status_code == 401
    with _signed_in(live_server, key) as page:
        pages = {
            "/tracker": "sato",
            "/tracker/users/sato": "フォームが崩れる",
            f"/tracker/users/sato/issues/{first}": "フォームが崩れる",
            f"/tracker/users/sato/merge?target={first}&source={second}": "統合",
        }
        for path, expected in pages.items():
            response = page.get(path)
            assert response.status_code == 200 and expected in response.text, path
        missing = page.get("/tracker/users/sato/issues/ffffffffffff")
        assert missing.status_code == 404 and "見つかりません" in missing.text
        ignored = page.post(f"/tracker/users/sato/issues/{first}/ignore", data={"reason": "既知"})
        assert ignored.status_code == 303
        twice = page.post(f"/tracker/users/sato/issues/{first}/ignore", data={})
        assert twice.status_code == 409 and "できません" in twice.text
        assert page.post(f"/tracker/users/sato/issues/{first}/reopen", data={}).status_code == 303
        assert page.post("/tracker/logout").status_code == 303
