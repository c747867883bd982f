"""The quote checker in the library: extraction, highlight segments, hints, and the CLI being the same call."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.cli import cli
from sadame.quote import check_output
from sadame.quote._extract import MAX_QUOTES, extract_quotes

SOURCE = (
    "# 週次レポート\n"
    "- **安定性**: 不足して\n  いる。特に夜間バッチで顕著。\n"
    "- **売上**: 1億2000万円（前年比 12%増）\n"
    "- 参加者は30名。\n"
)


def _texts(output: str) -> list[str]:
    return [q.text for q in extract_quotes(output)]


def test_every_kind_of_quote_in_one_output_in_order() -> None:
    output = "要約では「安定性: 不足している」とある。\n> 特に夜間バッチで顕著。\n> 次の行\nまた“英語”と\"ASCII\"も。"
    quotes = extract_quotes(output)
    assert [q.text for q in quotes] == ["安定性: 不足している", "特に夜間バッチで顕著。\n次の行", "英語", "ASCII"]
    assert [q.origin for q in quotes] == ["bracket", "blockquote", "bracket", "bracket"]


def test_only_the_outermost_bracket_pair_is_a_quote() -> None:
    assert _texts("市長は「駅前の『にぎわい』を取り戻す」と述べた") == ["駅前の『にぎわい』を取り戻す"]
    assert _texts("「A」と「B」") == ["A", "B"]
    assert _texts("「「「閉じない」") == ["閉じない"]
    assert _texts("> 引用ブロック内の「かっこ」\n本文の「かっこ」") == ["引用ブロック内の「かっこ」", "かっこ"]


def test_json_outputs_and_fenced_json() -> None:
    data = {"summary": "x", "evidence_spans": [{"text": "安定性: 不足"}, {"quote": "遅延"}, "生の文字列", 3]}
    assert _texts(json.dumps(data, ensure_ascii=False)) == ["安定性: 不足", "遅延", "生の文字列"]
    fenced = "結果です。\n```json\n" + json.dumps({"quotes": ["a", "b"]}) + "\n```\n"
    assert _texts(fenced) == ["a", "b"]
    assert all(q.origin == "json" for q in extract_quotes(fenced))


def test_fallback_lines_and_caps() -> None:
    assert _texts("行その1\n\n行その2\n") == ["行その1", "行その2"]
    assert _texts("{not json") == ["{not json"]
    assert _texts("") == []
    assert len(extract_quotes("「あ」" * (MAX_QUOTES + 10))) == MAX_QUOTES


def test_quotes_past_the_cap_are_counted_as_unchecked() -> None:
    """B6: the summary said nothing of the quotes past MAX_QUOTES (never checked)."""
    many = check_output("あい", "「あ」" * (MAX_QUOTES + 10))
    assert many.summary["total"] == MAX_QUOTES and many.summary["unchecked"] == 10
    assert many.summary["max_quotes"] == MAX_QUOTES
    in_json = {"quotes": [{"text": "あ"}] * (MAX_QUOTES - 5), "nested": {"evidence": ["い"] * 30}}
    from_json = check_output("あい", json.dumps(in_json, ensure_ascii=False))
    assert from_json.summary["total"] == MAX_QUOTES and from_json.summary["unchecked"] == 25
    assert check_output("あい", "「あ」").summary["unchecked"] == 0


def test_cli_check_says_how_many_quotes_were_not_checked(tmp_path: Path) -> None:
    (tmp_path / "source.md").write_text("あい", encoding="utf-8")
    run = CliRunner().invoke(cli, ["quote", "check", "-s", str(tmp_path / "source.md"), "-"],
                             input="「あ」" * (MAX_QUOTES + 3))
    assert f"3 more quotes past the cap of {MAX_QUOTES} not checked" in run.output


def test_check_output_numbers_quotes_positions_and_hints() -> None:
    output = "「安定性: 不足している」。「昼間のバッチは問題ない」。売上は120,000,000円、参加者30名、前年比15%増。"
    result = check_output(SOURCE, output)
    first, second = result.quotes
    assert first.number == 1 and first.result.status == "normalized" and first.position == "2:3"
    assert first.result.span is not None and first.result.span.text == "**安定性**: 不足して\n  いる"
    assert second.result.status == "missing" and not second.result.verified
    assert second.nearest is not None and "バッチ" in second.nearest.span.text
    assert second.nearest_position.startswith("3:")
    categories = {n.mention.text: (n.mention.category, n.grounded) for n in result.numbers.numbers}
    assert categories == {"120,000,000円": ("money", True), "30名": ("count", True), "15%": ("percent", False)}
    assert result.summary["verified"] == 1 and result.summary["hints"] == 1


@st.composite
def _source_and_quotes(draw: st.DrawFn) -> tuple[str, str]:
    source = draw(st.text(alphabet="あいう安定性**- \n12円", min_size=1, max_size=40))
    quotes = draw(st.lists(st.text(alphabet="あいう安定性 12円", min_size=1, max_size=6), max_size=5))
    return source, "".join(f"「{q}」" for q in quotes) + "12円"


@settings(max_examples=150, deadline=None)
@given(_source_and_quotes())
def test_segments_tile_the_source_and_carry_the_lowest_covering_labels(case: tuple[str, str]) -> None:
    source, output = case
    result = check_output(source, output)
    assert "".join(s.text for s in result.segments) == source
    quote_spans = [
        (s.start, s.end, q.number)
        for q in result.quotes
        if q.result.verified
        for s in ([p.span for p in q.result.parts if p.span] or list(q.result.spans))
        if s.end > s.start
    ]
    number_spans = [(s.start, s.end, i) for i, n in enumerate(result.numbers.numbers, 1) for s in n.spans]
    for seg in result.segments:
        covering = [label for a, b, label in quote_spans if a <= seg.start and seg.end <= b]
        assert (seg.quote, seg.quotes) == (min(covering, default=0), len(covering))
        numbers = [label for a, b, label in number_spans if a <= seg.start and seg.end <= b]
        assert seg.number == min(numbers, default=0)


def test_cli_check_prints_exactly_the_library_result(tmp_path: Path) -> None:
    (tmp_path / "source.md").write_text(SOURCE, encoding="utf-8")
    output = "> 特に夜間バッチで顕著。\n「夜間バッチで軽微」。売上は1.2億円。"
    (tmp_path / "answer.txt").write_text(output, encoding="utf-8")
    run = CliRunner().invoke(
        cli, ["quote", "check", "--source", str(tmp_path / "source.md"), str(tmp_path / "answer.txt"), "--json"]
    )
    assert run.exit_code == 1  # a quote is missing
    assert json.loads(run.output) == check_output(SOURCE, output).to_dict()
    human = CliRunner().invoke(cli, ["quote", "check", "-s", str(tmp_path / "source.md"), str(tmp_path / "answer.txt")])
    assert "#2 [missing]" in human.output and "nearest passage (a hint, not verified" in human.output
    assert "quotes: 1/2 verified; numbers: 1/1 grounded" in human.output


def test_cli_check_reads_standard_input_and_exits_0_when_everything_holds(tmp_path: Path) -> None:
    (tmp_path / "source.md").write_text(SOURCE, encoding="utf-8")
    run = CliRunner().invoke(cli, ["quote", "check", "-s", str(tmp_path / "source.md"), "-"], input="「参加者は30名」")
    assert run.exit_code == 0, run.output
    bad = CliRunner().invoke(cli, ["quote", "check", "-s", str(tmp_path / "source.md"), str(tmp_path / "nope.txt")])
    assert bad.exit_code == 2 and "OUTPUT_FILE" in bad.output


def test_a_nearest_passage_does_not_start_with_the_punctuation_of_a_label() -> None:
    source = "## 人員配置\n- **人員**: 保育士を2名増員し、延長保育に対応する。\n"
    (checked,) = check_output(source, "「保育士を5名増員し、夜間保育にも対応する」").quotes
    assert checked.nearest is not None
    assert checked.nearest.span.text == "保育士を2名増員し、延長保育に対応する"  # it was ": 保育士を…"
    assert source[checked.nearest.span.start : checked.nearest.span.end] == checked.nearest.span.text
    assert checked.nearest_position == "2:11"
