"""Table tooling: lint codes, example runs and coverage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sadame.judge import PuzzlePack, RuleTable, load_table, parse_table
from sadame.judge.authoring import lint_table
from sadame.judge.authoring._tools import coverage, run_examples
from sadame.judge.game import UnknownPuzzle


def _table(rules: list[dict[str, Any]]) -> RuleTable:
    table = parse_table({"format": "sadame.rules/1", "name": "t", "answers": ["YES", "NO"], "rules": rules})
    assert isinstance(table, RuleTable)
    return table


def _codes(table: RuleTable | PuzzlePack) -> list[tuple[str, int | None]]:
    return [(f.code, f.rule_index) for f in lint_table(table).findings]


def test_clean_tables_have_no_findings(seed_pack: PuzzlePack) -> None:
    report = lint_table(seed_pack)
    assert report.findings == () and report.ok


def test_unreachable_rule_per_the_seed_bad_example() -> None:
    table = _table([{"any": ["ファイル"], "answer": "NO"}, {"any": ["ファイル名の大文字小文字"], "answer": "YES"}])
    report = lint_table(table)
    assert [(f.code, f.severity, f.rule_index) for f in report.findings] == [("J001", "error", 1)]
    assert "'ファイル'" in report.findings[0].message and not report.ok
    # The seed's good order is clean.
    assert _codes(_table(list(reversed([{"any": ["ファイル"], "answer": "NO"},
                                        {"any": ["ファイル名の大文字小文字"], "answer": "YES"}])))) == []


def test_shadowing_needs_the_word_in_every_any_word_and_no_not() -> None:
    assert _codes(_table([{"any": ["ファイル"], "answer": "NO"},
                          {"any": ["ファイル名", "命名"], "answer": "YES"}])) == []
    assert _codes(_table([{"any": ["ファイル"], "not": ["画像"], "answer": "NO"},
                          {"any": ["ファイル名"], "answer": "YES"}])) == []
    # Normalization counts: katakana in one rule, hiragana in the other.
    assert _codes(_table([{"any": ["キャッシュ"], "answer": "NO"},
                          {"any": ["ぶらうざきゃっしゅ"], "answer": "YES"}])) == [("J001", 1)]


def test_not_words_blocking_every_any_word() -> None:
    table = _table([{"any": ["ブラウザキャッシュ", "ブラウザの履歴"], "not": ["ブラウザ"], "answer": "NO"}])
    assert _codes(table) == [("J002", 0)]


def test_warnings(data_dir: Path) -> None:
    report = lint_table(load_table(data_dir / "failing.yaml"))
    found = {(f.code, f.severity, f.rule_index) for f in report.findings}
    assert found == {
        ("J001", "error", 1), ("J004", "warning", 1), ("J002", "error", 2), ("J003", "warning", 3),
        ("J004", "warning", 3), ("J004", "warning", 4), ("J005", "error", None), ("J006", "warning", None),
    }
    assert len(report.errors) == 3 and report.to_dict()["errors"] == 3


def test_run_examples_passes_and_fails(seed_pack: PuzzlePack, data_dir: Path) -> None:
    good = run_examples(seed_pack)
    assert good.ok and good.total == 8
    bad = run_examples(load_table(data_dir / "failing.yaml"))
    assert not bad.ok and bad.total == 3
    question, answer = bad.failures
    assert (question.kind, question.expected, question.got, question.rule, question.matched_word) == (
        "question", "YES", "NO", "#0 (broad)", "ファイル")
    assert "rule #0 (broad)" in question.render()
    assert answer.kind == "answer" and answer.got == {"correct": True, "matched": 3}


def test_run_examples_on_plain_table(data_dir: Path) -> None:
    report = run_examples(load_table(data_dir / "seed.json"))
    assert report.ok and report.total == 2


def test_coverage_counts_rules_and_misses(seed_table: RuleTable, seed_pack: PuzzlePack) -> None:
    questions = ["大文字？", "小文字？", "キャッシュ？", "メモリ？", ""]
    report = coverage(seed_table, questions)
    counts = {rule.id: n for _, rule, n in report.counts}
    assert counts == {"case": 2, "name": 0, "os": 0, "cache": 1, "permission": 0, "time": 0}
    assert (report.questions, report.misses) == (5, 2)
    assert [r.id for _, r in report.never_fired] == ["name", "os", "permission", "time"]
    by_pack = coverage(seed_pack, [("prod-only-images", "大文字？")])
    assert by_pack.to_dict()["hits"] == 1
    with pytest.raises(UnknownPuzzle):
        coverage(seed_pack, [("nope", "大文字？")])
    with pytest.raises(ValueError, match="puzzle id"):
        coverage(seed_pack, ["大文字？"])


def test_tools_reject_non_tables() -> None:
    with pytest.raises(TypeError):
        lint_table("table.yaml")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        run_examples({})  # type: ignore[arg-type]
