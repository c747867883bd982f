"""The quote checker page in Debian's Chromium (Playwright): numbered highlights that match numbered
rows, grounded numbers in their own colour, a missing quote with its labelled nearest passage, and
the page at phone width. Screenshots go to tmp_path only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import LiveServer

pytestmark = pytest.mark.browser

CASE = json.loads((Path(__file__).parent / "data" / "quote_case.json").read_text(encoding="utf-8"))


def _check(live_server: LiveServer, page: Any) -> None:
    page.goto(f"{live_server.url}/quote")
    page.fill("#source", CASE["source"])
    page.fill("#output", CASE["output"])
    page.click("form.quote-form button[type=submit]")
    page.wait_for_selector("#summary")


def test_numbered_highlights_match_numbered_rows(live_server: LiveServer, page: Any, tmp_path: Path) -> None:
    _check(live_server, page)
    assert page.input_value("#source") == CASE["source"]
    labels = page.locator("#highlighted sup.qn").all_inner_texts()
    assert labels == ["1", "2"]
    for number, quote in enumerate(CASE["found"], start=1):
        mark = page.locator(f"#highlighted mark[data-quote='{number}']").first
        start, end = int(mark.get_attribute("data-start")), int(mark.get_attribute("data-end"))
        assert CASE["source"][start:end] in mark.inner_text()
        row = page.locator(f"#quote-table tr[data-quote='{number}']")
        assert row.get_attribute("data-status") in ("exact", "normalized")
        assert row.locator(".qnum.found").inner_text() == str(number)
        assert quote in row.inner_text()
    first = "".join(page.locator("#highlighted mark[data-quote='1']").all_inner_texts())
    assert "**安定性**: 不足している" in first
    assert "2:3" in page.locator("#quote-table tr[data-quote='1'] td.pos").inner_text()
    page.screenshot(path=str(tmp_path / "quote.png"), full_page=True)


def test_grounded_numbers_have_their_own_colour_and_labels(live_server: LiveServer, page: Any) -> None:
    _check(live_server, page)
    number = page.locator("#highlighted span.num").first
    assert number.inner_text() == "1億2000万円"
    colours = page.evaluate(
        "() => [getComputedStyle(document.querySelector('#highlighted span.num')).backgroundColor,"
        " getComputedStyle(document.querySelector('#highlighted mark.q')).backgroundColor]"
    )
    assert colours[0] != colours[1]
    rows = {
        row.locator("td").nth(1).inner_text(): (row.get_attribute("data-grounded"), row.locator("td").nth(2).inner_text())
        for row in page.locator("#number-table tbody tr").all()
    }
    assert rows["120,000,000円"] == ("true", "金額")
    assert rows["15%"] == ("false", "割合")
    badges = page.locator("#summary .badge").all_inner_texts()
    assert "原文にありません 1" in badges and "数値の裏付けなし 1" in badges


def test_a_missing_quote_shows_its_nearest_passage_as_a_hint(live_server: LiveServer, page: Any) -> None:
    _check(live_server, page)
    (missing,) = CASE["missing"]
    row = page.locator("#quote-table tr[data-status='missing']")
    assert missing in row.inner_text()
    assert "原文にありません" in row.inner_text()
    hint = row.locator(".nearest")
    assert hint.locator(".hint-label").inner_text() == "近い箇所"
    assert "未検証" in hint.inner_text()
    assert "夜間バッチ" in hint.locator(".hint-text").inner_text()
    assert row.locator(".qnum.found").count() == 0  # a hint is never shown as found
    assert page.locator("#highlighted mark[data-quote='3']").count() == 0


def test_the_page_fits_a_phone(live_server: LiveServer, page: Any, tmp_path: Path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    _check(live_server, page)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390
    assert page.locator("#presets").is_visible() and page.locator("#highlighted").is_visible()
    page.screenshot(path=str(tmp_path / "quote-390.png"), full_page=True)
