"""The three pages driven as a person would, in Debian's Chromium through Playwright.

Each test runs on SQLite and on PostgreSQL (``live_server`` uses ``db_url``). The
screenshots in docs/screenshots are saved from the SQLite run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sadame.judge import bundled_pack
from tests.web._leak import leaks, listed_text, raw_puzzle, secrets_of
from tests.web.conftest import LiveServer

pytestmark = pytest.mark.browser

DATA = Path(__file__).parent / "data"
SCREENSHOTS = Path(__file__).parents[2] / "docs" / "screenshots"

VERDICT_JA = {"YES": "はい", "NO": "いいえ", "IRRELEVANT": "関係ありません", "UNCERTAIN": "どちらとも言えません"}


class Recorder:
    """Routes every request of a page through Playwright and keeps every response body."""

    def __init__(self, page: Any) -> None:
        self.bodies: list[str] = []
        self.urls: list[str] = []
        page.route("**/*", self._handle)

    def _handle(self, route: Any) -> None:
        response = route.fetch(max_redirects=0)
        self.urls.append(route.request.url)
        self.bodies.append(response.body().decode("utf-8", "replace"))
        route.fulfill(response=response)

    def take(self) -> list[str]:
        taken, self.bodies = self.bodies, []
        return taken


def _screenshot(live: LiveServer, page: Any, name: str) -> None:
    if live.db_url.startswith("sqlite"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / name), full_page=True)


def _ask(page: Any, question: str) -> None:
    before = page.locator(".history li").count()
    page.fill("#question", question)
    page.click("form.ask button[type=submit]")
    page.wait_for_function(f"document.querySelectorAll('.history li').length > {before}")


def _answer(page: Any, text: str) -> None:
    before = page.locator(".attempts li").count()
    page.fill("#answer-text", text)
    page.click("form.answer button[type=submit]")
    page.wait_for_function(f"document.querySelectorAll('.attempts li').length > {before}")


def test_solve_a_puzzle_with_partial_credit_history_and_no_spoilers(live_server: LiveServer, page: Any) -> None:
    pack = bundled_pack("engineering")
    puzzle = next(iter(pack.puzzles.values()))
    questions = [e for e in puzzle.examples if e.expect is not None][:3]
    partial = next(a for a in puzzle.answer_examples if not a.correct and a.matched)
    correct = next(a for a in puzzle.answer_examples if a.correct)
    total = len(puzzle.solution)
    recorder = Recorder(page)

    page.goto(f"{live_server.url}/puzzles")
    page.click(f"text={puzzle.title}")
    page.wait_for_url(f"**/puzzles/{pack.name}/{puzzle.id}")
    assert puzzle.statement.splitlines()[0] in page.inner_text(".statement")

    for example in questions:
        _ask(page, example.q)
        last = page.locator(".history li").last
        assert last.locator(".q").inner_text() == example.q
        assert last.locator(".verdict").get_attribute("data-verdict") == example.expect
        assert last.locator(".verdict").inner_text() == VERDICT_JA[example.expect]

    page.reload()
    history = page.locator(".history li .q").all_inner_texts()
    assert history == [e.q for e in questions], "history must survive a reload"

    _answer(page, partial.a)
    feedback = page.locator(".attempts li").last.inner_text()
    assert f"惜しい、{total}つのうち{partial.matched}つは合っています" in feedback
    assert page.locator("#truth").count() == 0
    _screenshot(live_server, page, "game.png")

    # Every byte the browser received so far: no truth, no rule word the player did not type.
    raw = raw_puzzle(puzzle.id)
    visible = "\n".join(
        [puzzle.statement, *listed_text(), *(e.q for e in questions), partial.a,
         *(str(r.get("note", "")) for r in raw["rules"])]
    )
    truth_lines, words = secrets_of(puzzle.id, visible)
    assert truth_lines and len(words) >= 10, "the spoiler check must have something to look for"
    bodies = recorder.take()
    assert len(bodies) >= 8 and any('"rules"' not in b and puzzle.title in b for b in bodies)
    assert leaks(bodies, truth_lines, words) == []

    _answer(page, correct.a)
    assert "正解" in page.locator(".attempts li").last.inner_text()
    truth = page.inner_text("#truth")
    assert truth_lines[0] in truth
    assert page.locator("form.ask").count() == 0, "a solved puzzle takes no more questions"

    page.goto(f"{live_server.url}/puzzles")
    assert page.locator(f"tr[data-puzzle='{puzzle.id}'] td.status").inner_text() == "正解"


def test_give_up_reveals_the_truth_only_then(live_server: LiveServer, page: Any) -> None:
    pack = bundled_pack("engineering")
    puzzle = list(pack.puzzles.values())[1]
    recorder = Recorder(page)
    page.goto(f"{live_server.url}/puzzles/{pack.name}/{puzzle.id}")
    miss = "今日の天気と関係ありますか、それとも全然関係のない話ですか"
    _ask(page, miss)
    truth_lines, _words = secrets_of(puzzle.id, puzzle.statement)
    assert leaks(recorder.take(), truth_lines, []) == []
    page.click("details.give-up summary")
    page.click("form.give-up-confirm button")
    page.wait_for_selector("#truth")
    assert truth_lines[0] in page.inner_text("#truth")
    page.reload()
    assert truth_lines[0] in page.inner_text("#truth")
    assert page.locator(".history li .q").all_inner_texts() == [miss]


def _ingest_sessions(live: LiveServer, key: str) -> dict[str, Any]:
    scenario: dict[str, Any] = json.loads((DATA / "sessions.json").read_text(encoding="utf-8"))
    with live.client(headers={"Authorization": f"Bearer {key}"}) as client:
        for session in scenario["sessions"]:
            response = client.post(
                "/api/track/ingest",
                json={"user_id": scenario["user"], "session_id": session["session_id"],
                      "insights": session["insights"]},
            )
            assert response.status_code == 200, response.text
            scenario.setdefault("reports", []).append(response.json())
    return scenario


def test_tracker_dashboard_shows_chart_regression_and_actions(live_server: LiveServer, page: Any) -> None:
    key = live_server.key("acme")
    scenario = _ingest_sessions(live_server, key)
    assert len(scenario["reports"][-1]["regressions"]) == 1

    page.goto(f"{live_server.url}/tracker")
    page.fill("#api_key", "sdm_wrong-key")
    page.click("form.login button")
    assert "APIキーが正しくない" in page.inner_text(".error")
    page.fill("#api_key", key)
    page.click("form.login button")
    page.click(f"text={scenario['user']}")

    chart = page.locator("svg#timeline-chart")
    assert chart.is_visible()
    assert {chart.locator(f"polyline[data-series='{s}']").count() for s in ("open", "resolved", "new")} == {1}
    points = chart.locator("polyline[data-series='open']").get_attribute("points") or ""
    assert len(points.split()) == len(scenario["sessions"])
    assert chart.locator("g.regression").count() == 1
    assert chart.locator("g.regression").get_attribute("data-session") == scenario["sessions"][-1]["session_id"]
    assert "再発 1 件" in page.inner_text(".alert")
    rows = page.locator("table.numbers tbody tr").all_inner_texts()
    assert [r.split()[0] for r in rows] == [s["session_id"] for s in scenario["sessions"]]
    _screenshot(live_server, page, "tracker.png")

    # The regressed issue's history shows the regression; ignore it and reopen it.
    page.click(f"section[data-status='open'] >> text={scenario['regressed_title']}")
    assert page.locator(".events .badge.warn", has_text="再発").count() == 1
    page.fill("form[action$='/ignore'] input[name=reason]", "既知の問題")
    page.click("form[action$='/ignore'] button")
    assert page.locator("strong.status").get_attribute("data-status") == "ignored"
    assert "既知の問題" in page.inner_text(".events")
    page.click("form[action$='/reopen'] button")
    assert page.locator("strong.status").get_attribute("data-status") == "open"

    # Merge the two other issues into the regressed one from the dashboard.
    page.click("text=" + scenario["user"])
    open_rows = page.locator("section[data-status='open'] tr[data-issue], section[data-status='candidate'] tr[data-issue]")
    ids = [open_rows.nth(i).get_attribute("data-issue") for i in range(open_rows.count())]
    target = page.locator(f"tr[data-issue]:has-text('{scenario['regressed_title']}')").get_attribute("data-issue")
    source = next(i for i in ids if i != target)
    page.check(f"input[name=target_id][value='{target}']")
    page.check(f"input[name=source_ids][value='{source}']")
    page.click("form.issues button[type=submit]")
    assert page.locator(f"tr[data-issue='{source}']").count() == 0

    # Another tenant's key sees none of it.
    other = live_server.key("other-co")
    page.click("text=課題トラッカー")
    page.click("text=ログアウト")
    page.fill("#api_key", other)
    page.click("form.login button")
    assert scenario["user"] not in page.inner_text("main")


def test_quote_checker_highlights_found_quotes_at_their_offsets(live_server: LiveServer, page: Any) -> None:
    case = json.loads((DATA / "quote_case.json").read_text(encoding="utf-8"))
    page.goto(f"{live_server.url}/quote")
    page.fill("#source", case["source"])
    page.fill("#output", case["output"])
    page.click("form.quote-form button")
    page.wait_for_selector("#summary")

    source = case["source"]
    assert page.input_value("#source") == source
    marks = page.locator("#highlighted mark")
    assert marks.count() == len(case["found"])
    for i in range(marks.count()):
        mark = marks.nth(i)
        start, end = int(mark.get_attribute("data-start") or -1), int(mark.get_attribute("data-end") or -1)
        assert mark.inner_text() == source[start:end]
    texts = marks.all_inner_texts()
    assert "**安定性**: 不足している" in texts[0]
    assert any("夜間バッチで顕著" in t for t in texts)

    statuses = {
        row.locator("td").nth(1).inner_text(): row.get_attribute("data-status")
        for row in page.locator("#quote-table tbody tr").all()
    }
    for quote in case["found"]:
        assert statuses[quote] in ("exact", "normalized")
    for quote in case["missing"]:
        assert statuses[quote] == "missing"
    assert "原文にありません" in page.inner_text("#quote-table")

    numbers = {
        row.locator("td").first.inner_text(): row.get_attribute("data-grounded")
        for row in page.locator("#number-table tbody tr").all()
    }
    for text in case["grounded"]:
        assert numbers[text] == "true"
    for text in case["ungrounded"]:
        assert numbers[text] == "false"
    _screenshot(live_server, page, "quote.png")
