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
from tests.web._leak import leaks, raw_puzzle, secrets_of
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
        [puzzle.statement, *(p.title for p in pack.puzzles.values()), *(e.q for e in questions), partial.a,
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
    assert page.locator(f"li[data-puzzle='{puzzle.id}'] .badge").inner_text() == "正解"


def test_give_up_reveals_the_truth_only_then(live_server: LiveServer, page: Any) -> None:
    pack = bundled_pack("engineering")
    puzzle = list(pack.puzzles.values())[1]
    recorder = Recorder(page)
    page.goto(f"{live_server.url}/puzzles/{pack.name}/{puzzle.id}")
    miss = "今日の天気と関係ありますか、それとも全然関係のない話ですか"
    _ask(page, miss)
    truth_lines, _words = secrets_of(puzzle.id, puzzle.statement)
    assert leaks(recorder.take(), truth_lines, []) == []
    page.click("form.give-up button")
    page.wait_for_selector("#truth")
    assert truth_lines[0] in page.inner_text("#truth")
    page.reload()
    assert truth_lines[0] in page.inner_text("#truth")
    assert page.locator(".history li .q").all_inner_texts() == [miss]


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
