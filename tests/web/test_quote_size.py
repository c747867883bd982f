"""The quote page keeps the user's text: a paste too large to send is refused in the browser with a
Japanese message and both boxes kept (Chromium); without JavaScript the server's 413 is a Japanese
page, and no page ever shows a JSON error body."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from sadame.quote import check_output
from sadame.web.pages import quote as quote_page
from tests.web.conftest import LiveServer, running

SENTENCE = "安定性が不足しているため、夜間バッチの処理時間にばらつきがある。"  # 32 characters, all CJK
BIG = (SENTENCE * (135_000 // len(SENTENCE) + 1))[:135_000]  # 135k characters: ~1.2 MB form-encoded
OUTPUT = "「安定性が不足している」"


@pytest.mark.browser
def test_a_135k_character_paste_is_refused_in_the_page_with_both_boxes_kept(live_server: LiveServer,
                                                                            page: Any) -> None:
    page.goto(f"{live_server.url}/quote")
    assert "約 111,111 文字" in page.inner_text("#size-hint")
    page.fill("#source", BIG)
    page.fill("#output", OUTPUT)
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    page.click("form.quote-form button[type=submit]")
    alert = page.locator("#size-error")
    alert.wait_for(state="visible")
    assert posts == [], "the form was sent"
    message = alert.inner_text()
    assert "大きすぎる" in message and "135,000 文字" in message and "1,000,000 バイト" in message
    assert message.startswith("原文が大きすぎる") and "原文を分けて" in message and "出力を分けて" not in message
    assert page.url == f"{live_server.url}/quote"
    assert page.input_value("#source") == BIG and page.input_value("#output") == OUTPUT
    assert page.locator("form.quote-form button[type=submit]").is_enabled()
    # Made small enough, the same form is sent and checked.
    page.fill("#source", SENTENCE * 10)
    page.click("form.quote-form button[type=submit]")
    page.wait_for_selector("#summary")
    assert not page.locator("#size-error").is_visible()


@pytest.mark.browser
@pytest.mark.parametrize(("source", "output", "advice"), [
    (SENTENCE, BIG, "出力を分けて"),  # only the output is too big: the message said 「原文を分けて」
    (BIG, BIG, "原文と出力をどちらも分けて"),
])
def test_the_size_message_names_the_part_that_is_too_big(live_server: LiveServer, page: Any, source: str,
                                                         output: str, advice: str) -> None:
    page.goto(f"{live_server.url}/quote")
    page.fill("#source", source)
    page.fill("#output", output)
    page.click("form.quote-form button[type=submit]")
    alert = page.locator("#size-error")
    alert.wait_for(state="visible")
    message = alert.inner_text()
    assert advice in message, message
    if advice == "出力を分けて":
        assert message.startswith("出力が大きすぎる") and "原文を分けて" not in message
    assert page.input_value("#source") == source and page.input_value("#output") == output


@pytest.mark.browser
def test_without_javascript_the_server_answers_a_japanese_page(browser: Any, sqlite_url: str) -> None:
    with running(sqlite_url) as live:
        context = browser.new_context(locale="ja-JP", java_script_enabled=False)
        try:
            page = context.new_page()
            page.goto(f"{live.url}/quote")
            page.fill("#source", BIG)
            page.fill("#output", OUTPUT)
            page.click("form.quote-form button[type=submit]")
            page.wait_for_load_state()
            text = page.inner_text("body")
        finally:
            context.close()
    assert "送信された内容が大きすぎます" in text and "約 111,111 文字" in text
    assert "payload_too_large" not in text and "{" not in text


def test_no_page_shows_a_json_error_body(live_server: LiveServer) -> None:
    form = {"source": BIG, "output": OUTPUT}
    with live_server.client() as client:
        responses = [
            client.post("/quote", data=form),  # 413 before any page runs
            client.post("/quote", content=b"source=%00", headers={"Content-Type": "application/x-www-form-urlencoded"}),
            client.post("/tracker/login", data={"api_key": "x" * 2_000_000}),
            client.get("/puzzles/no-such-pack/no-such-puzzle"),
        ]
        api = client.post("/api/quote/check", json={"source": BIG * 3, "output": OUTPUT})  # 1.2 MB of UTF-8
    for response in responses:
        assert response.status_code >= 400
        assert response.headers["content-type"].startswith("text/html"), response.text[:200]
        assert '"error":' not in response.text and "エラー" in response.text
    assert "送信された内容が大きすぎます" in responses[0].text
    assert api.status_code == 413 and api.json()["error"] == "payload_too_large"  # the API keeps its JSON


def test_quotes_past_the_cap_are_reported_as_not_checked(live_server: LiveServer) -> None:
    """B6: an output with 26,000 quotes showed 「引用 1000 件中 1000 件を原文で確認しました」 and nothing
    about the 25,000 quotes past the cap that were never checked."""
    output = "「い」" * 26_000
    with live_server.client() as client:
        page = client.post("/quote", data={"source": "いろは", "output": output})
        api = client.post("/api/quote/check", json={"source": "いろは", "output": output})
    assert page.status_code == 200 and api.status_code == 200, api.text[:300]
    assert "引用 1000 件中 <strong>1000</strong> 件を原文で確認しました" in page.text
    assert 'id="unchecked"' in page.text
    assert "出力には引用が 26,000 件あり、確認したのは先頭の 1,000 件だけです" in page.text
    assert "残りの <strong>25,000</strong> 件は確認していません" in page.text
    summary = api.json()["summary"]
    assert summary["total"] == 1000 and summary["unchecked"] == 25_000 and summary["max_quotes"] == 1000


def test_a_check_within_the_cap_shows_no_unchecked_notice(live_server: LiveServer) -> None:
    with live_server.client() as client:
        page = client.post("/quote", data={"source": SENTENCE, "output": OUTPUT})
        api = client.post("/api/quote/check", json={"source": SENTENCE, "output": OUTPUT})
    assert page.status_code == 200 and 'id="unchecked"' not in page.text
    assert api.json()["summary"]["unchecked"] == 0


def test_quotes_not_checked_in_time_are_named_on_the_page(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21: a check past its deadline says how many quotes it could not check (a clock
    that moves one second per reading, so no real time is involved)."""
    ticks = iter(range(10**6))
    late = functools.partial(check_output, deadline=2.5, clock=lambda: float(next(ticks)))
    monkeypatch.setattr(quote_page, "check_output", late)
    output = "「いろ」「ろは」「は」"
    with live_server.client() as client:
        page = client.post("/quote", data={"source": "いろは", "output": output})
    assert page.status_code == 200 and 'id="timed-out"' in page.text
    assert "時間内に確認できなかった引用が <strong>2</strong> 件あります" in page.text
