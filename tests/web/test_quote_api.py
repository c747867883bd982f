"""The quote routes over real HTTP: the same library call as the CLI, and bounded answers."""

from __future__ import annotations

import json
from pathlib import Path

from sadame.quote import check_output
from sadame.quote._ground import MAX_CLAIM_NUMBERS, MAX_NUMBER_SPANS
from sadame.quote._verify import MAX_PARTS
from tests.web.conftest import LiveServer

CASE = json.loads((Path(__file__).parent / "data" / "quote_case.json").read_text(encoding="utf-8"))


def test_check_route_returns_exactly_the_library_result(live_server: LiveServer) -> None:
    with live_server.client() as client:
        answer = client.post("/api/quote/check", json={"source": CASE["source"], "output": CASE["output"]})
    assert answer.status_code == 200
    assert answer.json() == check_output(CASE["source"], CASE["output"]).to_dict()
    assert answer.json()["preset"] == "quote"


def test_verify_and_ground_routes_are_capped(live_server: LiveServer) -> None:
    with live_server.client() as client:
        ground = client.post("/api/quote/ground", json={"claim": "1 " * 2000, "source": "1 " * 2000}).json()
        verify = client.post("/api/quote/verify", json={"source": "あ" * 500, "quotes": ["あ", "あ…" * (MAX_PARTS + 1)]})
    assert ground["truncated"] and len(ground["numbers"]) == min(2000, MAX_CLAIM_NUMBERS)
    assert all(len(n["spans"]) == MAX_NUMBER_SPANS and n["truncated"] for n in ground["numbers"])
    first, second = verify.json()["results"]
    assert first["truncated"] and len(first["spans"]) == 10
    assert second["status"] == "invalid"


def test_page_renders_numbered_results_in_japanese(live_server: LiveServer) -> None:
    with live_server.client() as client:
        page = client.post("/quote", data={"source": CASE["source"], "output": CASE["output"]})
        bad = client.post("/quote", data={"source": "x", "output": "x", "preset": "nope"})
    assert page.status_code == 200
    html = page.text
    assert 'data-quote="1"' in html and '<sup class="qn" aria-hidden="true">1</sup>' in html
    assert "近い箇所" in html and "原文にありません" in html and "金額" in html
    assert bad.status_code == 400 and "プリセット" in bad.text


def test_page_and_cli_show_the_same_verdicts(live_server: LiveServer, tmp_path: Path) -> None:
    import re

    from click.testing import CliRunner

    from sadame.cli import cli

    (tmp_path / "source.md").write_text(CASE["source"], encoding="utf-8")
    (tmp_path / "output.txt").write_text(CASE["output"], encoding="utf-8")
    run = CliRunner().invoke(
        cli, ["quote", "check", "-s", str(tmp_path / "source.md"), str(tmp_path / "output.txt"), "--json"]
    )
    printed = json.loads(run.output)
    with live_server.client() as client:
        html = client.post("/quote", data={"source": CASE["source"], "output": CASE["output"]}).text
    rows = re.findall(r'<tr class="st-\w+" data-status="(\w+)" data-quote="(\d+)">', html)
    assert [(status, int(number)) for status, number in rows] == [
        (q["status"], q["number"]) for q in printed["quotes"]
    ]
    grounded = re.findall(r'data-grounded="(true|false)"', html)
    assert grounded == [str(n["grounded"]).lower() for n in printed["numbers"]["numbers"]]


def test_page_says_when_a_number_is_in_the_source_only_in_another_context(live_server: LiveServer) -> None:
    source = "来年度は保育士を2名増員する。\n別に保健師3名を配置する。\n"
    with live_server.client() as client:
        page = client.post("/quote", data={"source": source, "output": "保育士を3名増員する。"})
    assert page.status_code == 200
    assert "数値は原文にあるが文脈が異なる" in page.text and "✔ 裏付けあり" not in page.text
    assert "（2:6 「3名」）" in page.text  # where the other context is, as a grounded number's row says
    # the summary reads naturally when the output has no number at all
    assert "数値は 0 件中" not in page.text
    with live_server.client() as client:
        plain = client.post("/quote", data={"source": source, "output": "「保育士を2名増員する」"}).text
        none = client.post("/quote", data={"source": source, "output": "「来年度は」"}).text
    assert "数値は 1 件中 <strong>1</strong> 件に裏付けがあります。" in plain
    assert "数値は 0 件中" not in none and "出力に数値はありません。" in none.split('id="summary"')[1].split("</section>")[0]


def test_check_json_gives_where_a_number_of_another_context_is() -> None:
    from sadame.quote import check_output

    data = check_output("来年度は保育士を2名増員する。\n別に保健師3名を配置する。\n", "保育士を3名増員する。").to_dict()
    (number,) = data["numbers"]["numbers"]
    assert number["context_differs"] and number["position"] == "" and number["elsewhere_position"] == "2:6"


def test_a_missing_quote_not_looked_for_does_not_say_nothing_near_was_found(live_server: LiveServer) -> None:
    from sadame.quote._check import MAX_HINTS
    from sadame.quote._hint import MAX_HINT_CHARS

    source = "来年度は保育士を2名増員する。\n"
    long = "保育士を増員する" * (MAX_HINT_CHARS // 8 + 1)
    many = "".join(f"「該当なし{i}」" for i in range(MAX_HINTS + 1))
    with live_server.client() as client:
        long_page = client.post("/quote", data={"source": source, "output": f"「{long}」"}).text
        many_page = client.post("/quote", data={"source": source, "output": many}).text
    assert "近い箇所も見つかりませんでした" not in long_page
    assert f"引用が長いため、近い箇所は探していません（{MAX_HINT_CHARS:,} 文字まで）。" in long_page
    assert many_page.count("近い箇所も見つかりませんでした") == MAX_HINTS
    assert f"近い箇所を探すのは最初の {MAX_HINTS} 件までです。" in many_page
    data = check_output(source, f"「{long}」").to_dict()
    assert data["quotes"][0]["hint_skipped"] == "too_long" and data["quotes"][0]["nearest"] is None
