"""The game and tracker pages driven as a person would, in Debian's Chromium through Playwright
(the quote checker: tests/web/test_quote_browser.py).

Each test runs on SQLite and on PostgreSQL (``live_server`` uses ``db_url``). Screenshots of the
SQLite run go to a temporary directory; ``make screenshots`` writes them into docs/screenshots.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sadame.judge import bundled_pack
from tests.web._leak import leaks, listed_text, raw_puzzle, secrets_of
from tests.web.conftest import LiveServer, screenshot_dir

pytestmark = pytest.mark.browser

DATA = Path(__file__).parent / "data"

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
        directory = screenshot_dir()
        directory.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(directory / name), full_page=True)


def _ask(page: Any, question: str) -> None:
    before = page.locator(".history li").count()
    page.fill("#question", question)
    page.click("form.ask button[type=submit]")
    page.locator(".history li").nth(before).wait_for()  # no string eval: the CSP forbids it


def _answer(page: Any, text: str) -> None:
    before = page.locator(".attempts li").count()
    page.fill("#answer-text", text)
    page.click("form.answer button[type=submit]")
    page.locator(".attempts li").nth(before).wait_for()  # no string eval: the CSP forbids it


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


