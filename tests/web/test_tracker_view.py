"""The dashboard's Japanese wording and times (no server needed)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from sadame.web.pages._tracker_view import absolute_time, event_reason_ja, relative_time, viewer_zone
from tests.web.conftest import LiveServer

NOW = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)


def test_relative_times_in_the_viewers_zone() -> None:
    jst = viewer_zone(None)
    assert jst.key == "Asia/Tokyo" and viewer_zone("../etc/passwd").key == "Asia/Tokyo"
    assert viewer_zone("UTC").key == "UTC" and viewer_zone("Nowhere/City").key == "Asia/Tokyo"
    assert relative_time("2026-01-10T11:59:50+00:00", jst, NOW) == "たった今"
    assert relative_time("2026-01-10T11:15:00+00:00", jst, NOW) == "45分前"
    assert relative_time("2026-01-10T02:00:00+00:00", jst, NOW) == "10時間前"
    assert relative_time("2026-01-07T12:00:00+00:00", jst, NOW) == "3日前"
    assert relative_time("2025-11-01T20:00:00+00:00", jst, NOW) == "2025年11月2日"  # the JST date
    assert absolute_time("2026-01-10T02:00:00+00:00", jst) == "2026年1月10日 11:00 JST"
    assert relative_time("not a time", jst, NOW) == "" and absolute_time(None, jst) == ""


def test_history_reasons_are_japanese() -> None:
    def ev(name: str, reason: str = "", actor: str = "tracker", data: object = None, session: str | None = "s3") -> str:
        return event_reason_ja({"event": name, "reason": reason, "actor": actor, "data": data, "session_id": session})

    assert ev("create", "first detection in session s3") == "セッション s3 で初めて検出されました"
    assert ev("miss_limit", "not detected in the last 2 session(s)") == "2 セッション続けて検出されず、解決しました"
    assert ev("merge", "absorbed 1 issue(s)", "web:acme", {"sources": ["a"]}) == "1 件の課題を統合しました"
    assert ev("merge", "merged into x", "web:acme", {"into": "0123456789abcdef"}) == "課題 0123456789ab に統合されました"
    assert ev("ignore", "ignore by user", "user") == "無視に設定しました"
    assert ev("ignore", "既知の問題", "web:acme") == "既知の問題"
    assert ev("unmerge", "status restored to what it was before the merge", "user") == "統合前の状態に戻しました"


def test_a_merged_issue_names_the_other_by_title_in_its_history(live_server: LiveServer) -> None:
    # issue 20: "a merged issue is listed as a bare hex id" — the history said 「課題 23da0aa3f7b1 に統合されました」
    key = live_server.key("acme")
    with live_server.client(headers={"Authorization": f"Bearer {key}"}) as api:
        report = api.post("/api/track/ingest", json={"user_id": "sato", "session_id": "s1",
                                                     "insights": ["歩幅が小さい", "ストライドが狭い"]}).json()
        target, source = (e["issue_id"] for e in report["new"] + report["deferred"])
        assert api.post("/api/track/users/sato/merge",
                        json={"target_id": target, "source_ids": [source]}).status_code == 200
    with live_server.client() as client:
        login = client.post("/tracker/login", data={"api_key": key})
    with live_server.client(cookies=dict(login.cookies)) as page:
        source_page = page.get(f"/tracker/users/sato/issues/{source}").text
        target_page = page.get(f"/tracker/users/sato/issues/{target}").text
    assert "「歩幅が小さい」に統合されました" in source_page and target[:12] + " に" not in source_page
    assert "「ストライドが狭い」を統合しました" in target_page


def test_the_timeline_legend_explains_every_mark_it_draws(live_server: LiveServer) -> None:
    # the per-issue timeline drew 「・」 for a deferred candidate, and its legend never said what it meant
    key = live_server.key("acme")
    with live_server.client(headers={"Authorization": f"Bearer {key}"}) as api:
        for session, insights in (("s1", ["歩幅が小さい", "上体が前に倒れすぎている"]), ("s2", ["歩幅が小さい"]),
                                  ("s3", ["歩幅は以前より広がった"])):
            assert api.post("/api/track/ingest", json={"user_id": "sato", "session_id": session,
                                                       "insights": insights}).status_code == 200
    with live_server.client() as client:
        login = client.post("/tracker/login", data={"api_key": key})
    with live_server.client(cookies=dict(login.cookies)) as page:
        html = page.get("/tracker/users/sato").text
    section = html[html.index('<section class="timeline"'):]
    section = section[:section.index("</section>")]
    note = re.search(r'<p class="muted note">(.*?)</p>', section)
    assert note is not None
    drawn = set(re.findall(r'<span aria-label="[^"]*">([^<]+)</span>', section))
    assert {"●", "▲", "・"} <= drawn
    assert [mark for mark in sorted(drawn) if mark not in note.group(1)] == []


def test_an_issue_not_mentioned_this_time_is_listed_by_its_title(live_server: LiveServer) -> None:
    # 「今回は指摘なし 腕振りがまた小さくなっている」 read as if the arm swing had shrunk again this time:
    # the absent list names the issue (its title), not the last sentence that mentioned it
    key = live_server.key("acme")
    with live_server.client(headers={"Authorization": f"Bearer {key}"}) as api:
        for session, insights in (("s1", ["腕振りが小さい"]), ("s2", ["腕振りがまた小さくなっている"]),
                                  ("s3", ["上体が前に倒れすぎている"])):
            report = api.post("/api/track/ingest", json={"user_id": "sato", "session_id": session,
                                                         "insights": insights}).json()
    assert [e["text"] for e in report["absent"]] == ["腕振りがまた小さくなっている"]  # the API keeps the finding
    with live_server.client() as client:
        login = client.post("/tracker/login", data={"api_key": key})
    with live_server.client(cookies=dict(login.cookies)) as page:
        html = page.get("/tracker/users/sato").text
    section = html[html.index('<section class="absent"'):]
    section = section[:section.index("</section>")]
    assert "腕振りが小さい</a>" in section and "また" not in section


def test_an_issue_marked_again_is_called_so_in_its_history(live_server: LiveServer) -> None:
    # 「腕振りがまた小さくなっている」 after a session without it: the user's page marks the issue 再発,
    # its own history said only 「再検出」
    key = live_server.key("acme")
    with live_server.client(headers={"Authorization": f"Bearer {key}"}) as api:
        for session, insights in (("s1", ["腕振りが小さい"]), ("s2", ["上体が前に倒れすぎている"]),
                                  ("s3", ["腕振りがまた小さくなっている"])):
            report = api.post("/api/track/ingest", json={"user_id": "sato", "session_id": session,
                                                         "insights": insights}).json()
    [back] = report["regressions"]
    with live_server.client() as client:
        login = client.post("/tracker/login", data={"api_key": key})
    with live_server.client(cookies=dict(login.cookies)) as page:
        user_page = page.get("/tracker/users/sato").text
        history = page.get(f"/tracker/users/sato/issues/{back['issue_id']}").text
    assert f'data-issue="{back["issue_id"]}"' in user_page and "m-regressed" in user_page
    events = history[history.index('<ol class="events">'):]
    assert ">再発</strong>" in events and "セッション s3 で" in events
