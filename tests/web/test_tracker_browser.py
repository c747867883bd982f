"""The tracker dashboard driven as a person would, in Debian's Chromium through Playwright.

Three sessions give the latest one every kind of change; the dashboard must mark each issue
right (新規, 継続, 今回は指摘なし, 再発, 保留中), show one timeline per issue and the totals chart, Japanese history and relative
JST times, merge a suggested similar issue only after confirmation, and unmerge it exactly.
Runs on SQLite and PostgreSQL; screenshots go to the test's temporary directory.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import LiveServer

pytestmark = pytest.mark.browser

USER = "tanaka"
SESSIONS = [
    ("s1", [{"text": "踏み込みが弱い", "confidence": 0.95}, "視線が下がる"]),
    ("s2", [{"text": "フォームが崩れる", "confidence": 0.95}, "視線が下がる",
            {"text": "踏み込みの弱さが改善した", "kind": "improvement"}]),
    ("s3", ["踏み込みが弱い", "フォームが崩れる", {"text": "呼吸が浅い", "confidence": 0.95}, "フォームの崩れが目立つ"]),
]
EXPECTED = {"踏み込みが弱い": "再発", "フォームが崩れる": "継続", "呼吸が浅い": "新規", "視線が下がる": "今回は指摘なし",
            "フォームの崩れが目立つ": "保留中"}


def _ingest(live: LiveServer, key: str) -> None:
    with live.client(headers={"Authorization": f"Bearer {key}"}) as client:
        for session_id, insights in SESSIONS:
            response = client.post("/api/track/ingest",
                                   json={"user_id": USER, "session_id": session_id, "insights": insights})
            assert response.status_code == 200, response.text


def _go(page: Any, target: Any) -> None:
    """Click a link or submit button and wait until the page it opens has loaded (no read of a half-loaded page)."""
    with page.expect_navigation():
        if isinstance(target, str):
            page.click(target)
        else:
            target.click()


def _rows(page: Any) -> dict[str, str]:
    rows = page.locator("table.issue-list tbody tr")
    out = {}
    for n in range(rows.count()):
        row = rows.nth(n)
        out[row.locator("td").nth(1).inner_text().strip()] = " ".join(row.inner_text().split()[2:])
    return out


def _sign_in(live: LiveServer, page: Any, key: str) -> None:
    page.goto(f"{live.url}/tracker")
    page.fill("#api_key", key)
    _go(page, "form.login button")


def test_dashboard_marks_changes_and_merges_only_after_confirmation(live_server: LiveServer, page: Any,
                                                                     tmp_path: Path) -> None:
    key = live_server.key("acme")
    _ingest(live_server, key)
    _sign_in(live_server, page, key)
    users_row = page.locator(f"tr[data-user='{USER}']")
    assert "再発 1" in users_row.inner_text() and re.search(r"(たった今|\d+分前)", users_row.inner_text())
    _go(page, f"text={USER}")

    markers = {page.locator("table.issue-list tbody tr").nth(n).locator("td").nth(1).inner_text().strip():
               page.locator("table.issue-list tbody tr").nth(n).locator("td").nth(0).inner_text().strip()
               for n in range(page.locator("table.issue-list tbody tr").count())}
    assert markers == EXPECTED
    assert page.locator("table.issue-list tbody tr").first.get_attribute("data-status") == "open"  # open first
    assert "視線が下がる" in page.inner_text("section.absent")  # not mentioned is not improved
    assert "視線が下がる" not in page.inner_text("section.improvements")
    assert page.locator("p.deferred-more").inner_text() == "ほか 1 件は保留中"
    _go(page, "p.deferred-more a")
    assert "フォームの崩れが目立つ" in page.inner_text("section#deferred")
    svg = page.locator("svg#total-chart")
    assert svg.is_visible()
    assert {svg.locator(f"polyline[data-series='{s}']").count() for s in ("open_total", "resolved_total")} == {1}
    assert page.locator("#total-chart-title").inner_text() == "累計の推移"
    line = page.locator("table.issue-timeline tr", has_text="踏み込みが弱い")
    assert [c.get_attribute("data-marker") for c in line.locator("td").all()] == ["new", "improved", "regressed"]
    assert "JST" in (page.locator("table.issue-list time").first.get_attribute("title") or "")
    page.screenshot(path=str(tmp_path / "tracker.png"), full_page=True)
    before = _rows(page)

    _go(page, "table.issue-list >> text=踏み込みが弱い")
    history = page.inner_text(".events")
    assert "初めて検出されました" in history and "改善の報告と一致したため解決しました" in history
    assert "first detection" not in history and "session" not in history.replace("セッション", "")
    assert page.locator("form.unmerge").count() == 0  # never merged: nothing to unmerge

    _go(page, f"text={USER}")
    _go(page, "table.issue-list >> text=フォームが崩れる")
    suggestion = page.locator("tr[data-similar]", has_text="フォームの崩れが目立つ")
    assert suggestion.count() == 1 and re.search(r"\d+%", suggestion.inner_text())
    _go(page, suggestion.locator("a.merge-suggestion"))
    assert page.locator("h1").inner_text() == "課題を統合しますか？"
    assert "フォームの崩れが目立つ" in page.inner_text("[data-role=source]")
    _go(page, "text=キャンセル")
    _go(page, f"text={USER}")
    assert _rows(page) == before  # cancelling merged nothing

    _go(page, "table.issue-list >> text=フォームが崩れる")
    _go(page, page.locator("tr[data-similar]", has_text="フォームの崩れが目立つ").locator("a.merge-suggestion"))
    _go(page, "form.confirm-merge button[type=submit]")
    assert "統合された課題" in page.inner_text("main")
    _go(page, f"text={USER}")
    assert "フォームの崩れが目立つ" not in _rows(page)

    _go(page, "table.issue-list >> text=フォームが崩れる")
    _go(page, "form.unmerge button")
    assert page.locator("form.unmerge").count() == 0
    _go(page, f"text={USER}")
    assert _rows(page) == before  # unmerged exactly: statuses, counts, markers


def test_dashboard_is_usable_at_phone_width(live_server: LiveServer, page: Any, tmp_path: Path) -> None:
    key = live_server.key("acme")
    _ingest(live_server, key)
    page.set_viewport_size({"width": 390, "height": 844})
    _sign_in(live_server, page, key)
    _go(page, f"text={USER}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width  # tables scroll inside their box; the page itself never scrolls sideways
    assert page.locator("table.issue-list a").first.is_visible()
    _go(page, "table.issue-list >> text=フォームが崩れる")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(tmp_path / "tracker-390.png"), full_page=True)


def test_issue_timeline_is_legible_at_phone_width(live_server: LiveServer, page: Any, tmp_path: Path) -> None:
    key = live_server.key("acme")
    _ingest(live_server, key)
    page.set_viewport_size({"width": 390, "height": 844})
    _sign_in(live_server, page, key)
    _go(page, f"text={USER}")
    table = page.locator("table.issue-timeline")
    table.scroll_into_view_if_needed()
    box = table.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390  # no sideways scrolling
    sizes = page.evaluate("Array.from(document.querySelectorAll('.issue-timeline th, .issue-timeline td'))"
                          ".map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert min(sizes) >= 12, sizes  # legible
    title = page.locator("table.issue-timeline th[scope=row]", has_text="踏み込みが弱い")
    assert title.is_visible() and (title.bounding_box() or {"width": 0})["width"] >= 90
    page.locator("section.timeline").screenshot(path=str(tmp_path / "tracker-timeline-390.png"))


def test_a_weak_suggestion_has_no_merge_button(live_server: LiveServer, page: Any) -> None:
    key = live_server.key("acme")
    texts = ["声が小さく、自信がなさそうに聞こえる", "声が小さく、自信がなさそうに見える", "声の大きさが足りない",
             "語尾の声が小さい"]
    with live_server.client(headers={"Authorization": f"Bearer {key}"}) as client:
        response = client.post("/api/track/ingest", json={"user_id": "sato", "session_id": "s1", "insights": texts})
        assert response.status_code == 200, response.text
    _sign_in(live_server, page, key)
    _go(page, "text=sato")
    _go(page, "table.issue-list >> text=声が小さく、自信がなさそうに聞こえる")
    rows = page.locator("tr[data-similar]")
    assert rows.count() == 3  # 89%, 38%, 11%: one strong suggestion, two weak ones
    for n in range(rows.count()):
        row = rows.nth(n)
        score = int(re.search(r"(\d+)%", row.inner_text()).group(1))  # type: ignore[union-attr]
        assert (row.locator("a.merge-suggestion").count() == 1) == (score >= 40), row.inner_text()
        assert (row.locator(".no-merge").count() == 1) == (score < 40)
    assert page.locator("a.merge-suggestion").count() == 1


RETURNS = [("s1", [{"text": "踏み込みが弱い", "confidence": 0.95}, "握力が弱い"]), ("s2", ["視線が下がる"]),
           ("s3", ["視線が下がる"]), ("s4", ["視線が下がる"]), ("s5", ["踏み込みの弱さが目立つ", "握力の弱さが気になる"])]


def test_a_returning_resolved_or_expired_issue_is_a_regression_in_the_api_and_dashboard(
        live_server: LiveServer, page: Any) -> None:
    key = live_server.key("acme")
    with live_server.client(headers={"Authorization": f"Bearer {key}"}) as client:
        for session_id, insights in RETURNS:
            response = client.post("/api/track/ingest",
                                   json={"user_id": "kato", "session_id": session_id, "insights": insights})
            assert response.status_code == 200, response.text
        before = {e["event"] for i in client.get("/api/track/users/kato/issues").json()
                  for e in client.get(f"/api/track/users/kato/issues/{i['issue_id']}").json()["events"]}
    report = response.json()
    assert sorted(e["text"] for e in report["regressions"]) == ["握力の弱さが気になる", "踏み込みの弱さが目立つ"]
    assert report["new"] == [] and "return" in before
    _sign_in(live_server, page, key)
    _go(page, "text=kato")
    markers = {page.locator("table.issue-list tbody tr").nth(n).locator("td").nth(1).inner_text().strip():
               page.locator("table.issue-list tbody tr").nth(n).locator("td").nth(0).inner_text().strip()
               for n in range(page.locator("table.issue-list tbody tr").count())}
    assert markers["踏み込みが弱い"] == "再発" and markers["握力が弱い"] == "再発"
    banner = page.inner_text("p.alert")  # one was resolved, the other expired: the banner says both
    assert banner.startswith("再発 2 件") and "解決済み" in banner and "期限切れ" in banner
