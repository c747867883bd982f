"""The game as a new player finds it, in Debian's Chromium through Playwright: the cursor
goes back to the question box, giving up asks first, a finished puzzle can be replayed,
hints are taken one at a time and counted, and the list shows what was solved and how."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sadame.judge import bundled_pack, load_pack
from sadame.web import WebSettings
from tests.web.conftest import LiveServer, running

pytestmark = pytest.mark.browser

PACK = Path(__file__).parents[1] / "judge" / "data" / "game.yaml"


@pytest.fixture
def game_server(db_url: str) -> Iterator[LiveServer]:
    """A live server with the game-test pack (format 2: hints, difficulty) and the bundled ones."""
    with running(db_url, WebSettings(packs=(str(PACK), "engineering"), judge_fallback=None)) as live:
        yield live


def _ask(page: Any, question: str) -> None:
    before = page.locator(".history li").count()
    page.fill("#question", question)
    page.press("#question", "Enter")
    page.locator(".history li").nth(before).wait_for()  # no string eval: the CSP forbids it
    page.wait_for_load_state("load")


def _focused(page: Any) -> str:
    return str(page.evaluate("document.activeElement ? document.activeElement.id : ''"))


def test_cursor_give_up_confirmation_and_replay(game_server: LiveServer, page: Any) -> None:
    page.goto(f"{game_server.url}/puzzles/game-test/late-bus")
    assert _focused(page) == "question", "the question box has the cursor from the start"
    assert "真相のポイントは2つです" in page.inner_text("form.answer"), "partial credit is explained first"
    _ask(page, "渋滞してる？")
    assert _focused(page) == "question", "the cursor goes back to the question box after a question"
    page.keyboard.type("時刻表は関係ある？")  # typed straight away, no click needed
    page.keyboard.press("Enter")
    page.locator(".history li").nth(1).wait_for()
    verdicts = page.locator(".history .verdict").all_inner_texts()
    assert verdicts == ["いいえ", "はい"]
    _ask(page, "ｚｚｚ？")
    assert "はい／いいえで答えられる形で聞いてみてください" in page.locator(".history li").last.inner_text()

    page.fill("#answer-text", "時刻表が古い")
    page.click("form.answer button[type=submit]")
    page.wait_for_selector(".attempts li")
    assert _focused(page) == "answer-text", "after an answer the cursor stays in the answer box"
    assert "これまでの最高は2つのうち1つ、残りはあと1つです。" in page.inner_text("form.answer")

    # Giving up asks first; backing out keeps the game going.
    assert not page.locator("form.give-up-confirm button").is_visible()
    page.click("details.give-up summary")
    assert "本当にギブアップしますか" in page.inner_text("details.give-up")
    page.click("details.give-up summary")  # close it again: nothing happened
    page.reload()
    assert page.locator("#truth").count() == 0 and page.locator("form.ask").count() == 1
    page.click("details.give-up summary")
    page.click("form.give-up-confirm button")
    page.wait_for_selector("#truth")
    assert "質問 3 回・ヒント 0 回でギブアップしました" in page.inner_text("#truth")
    assert page.locator("form.ask").count() == 0

    # Replay: a fresh game on the same puzzle, the finished play kept in the list.
    page.click("form.restart button")
    page.wait_for_selector("form.ask")
    assert page.locator(".history li").count() == 0 and page.locator("#truth").count() == 0
    assert _focused(page) == "question"
    page.goto(f"{game_server.url}/puzzles")
    assert page.locator("tr[data-puzzle='late-bus']").get_attribute("data-status") == "gave_up"


def test_take_a_hint_solve_and_see_it_marked_solved(game_server: LiveServer, page: Any) -> None:
    puzzle = load_pack(PACK).puzzle("quiet-printer")
    page.goto(f"{game_server.url}/puzzles?pack=game-test")
    assert page.locator("section.pack").count() == 1, "filtered by pack"
    row = page.locator("tr[data-puzzle='quiet-printer']")
    assert row.locator("td.difficulty").inner_text() == "★★★☆☆"
    assert row.locator("td.status").inner_text() == "未挑戦"
    row.locator("a").click()
    page.wait_for_url("**/puzzles/game-test/quiet-printer")
    assert page.locator(".hints li").count() == 0, "no hint is shown before it is asked for"
    assert puzzle.hints[0] not in page.content()
    page.click("form.take-hint button")
    page.wait_for_selector(".hints li")
    assert page.locator(".hints li").all_inner_texts() == [puzzle.hints[0]]
    assert "残り 2" in page.inner_text("form.take-hint")
    assert puzzle.hints[1] not in page.content()
    _ask(page, "省エネと関係ある？")
    page.fill("#answer-text", "節電のためのタイマー設定で夜は止まっていた")
    page.click("form.answer button[type=submit]")
    page.wait_for_selector("#truth")
    assert "質問 1 回・ヒント 1 回で正解しました" in page.inner_text("#truth")

    page.goto(f"{game_server.url}/puzzles")
    row = page.locator("tr[data-puzzle='quiet-printer']")
    assert row.get_attribute("data-status") == "solved"
    assert row.locator("td.status").inner_text() == "正解"
    assert row.locator("td.questions").inner_text() == "1"
    assert row.locator("td.hints-used").inner_text() == "1 / 3"
    assert "質問 1・ヒント 1" in row.locator("td.best").inner_text()
    assert page.locator("section[data-pack='engineering']").count() == 1, "every configured pack is listed"

    page.select_option("#filter-status", "solved")
    page.click("form.filter button")
    page.wait_for_url("**status=solved**")
    assert page.locator("tr[data-puzzle]").all() and all(
        r.get_attribute("data-status") == "solved" for r in page.locator("tr[data-puzzle]").all()
    )
    assert page.locator("tr[data-puzzle='late-bus']").count() == 0


VERDICT_JA = {"YES": "はい", "NO": "いいえ", "IRRELEVANT": "関係ありません", "UNCERTAIN": "どちらとも言えません"}


def test_a_negated_question_gets_the_right_answer(live_server: LiveServer, page: Any) -> None:
    """「Xは関係ない？」 about a key fact is answered いいえ (natural mode), with a note that still reads right."""
    pack = bundled_pack("engineering")
    puzzle = next(iter(pack.puzzles.values()))
    negated = [q for q in puzzle.questions if "negation" in q.tags and q.expect in ("YES", "NO")]
    key_fact = next(q for q in negated if q.expect == "NO")  # the negated question about a key fact
    page.goto(f"{live_server.url}/puzzles/{pack.name}/{puzzle.id}")
    _ask(page, key_fact.q)
    last = page.locator(".history li").last
    assert last.locator(".verdict").get_attribute("data-verdict") == key_fact.expect == "NO"
    assert last.locator(".verdict").inner_text() == VERDICT_JA["NO"]
    assert last.locator(".note").count() == 1, "the author's note is shown with the negated answer"
    assert _focused(page) == "question"
