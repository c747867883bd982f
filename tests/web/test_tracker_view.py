"""The dashboard's Japanese wording and times (no server needed)."""

from __future__ import annotations

from datetime import UTC, datetime

from sadame.web.pages._tracker_view import absolute_time, event_reason_ja, relative_time, viewer_zone

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
