"""Natural mode: boundaries, readings, variants, synonyms, polarity, conflicts.

The dev set is the ``questions`` of ``data/natural.yaml`` (tricky on purpose:
negations, suggestion forms, kana, dashes, half-width kana, boundaries)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sadame.judge import (
    FallbackAnswer,
    Judge,
    Puzzle,
    PuzzlePack,
    RuleTable,
    load_pack,
    parse_table,
)
from sadame.judge.authoring._questions import run_questions
from sadame.judge.engine._engine import judge_by_rules
from sadame.judge.engine._judge import UNKNOWN
from sadame.judge.engine._natural import POLICIES, natural_match

DATA = Path(__file__).parent / "data"
PACK = load_pack(DATA / "natural.yaml")
PUZZLE = PACK.puzzle("lunch-breaker")


@pytest.mark.parametrize("question", PUZZLE.questions, ids=lambda q: q.q)
def test_dev_set_question(question: object) -> None:
    from sadame.judge.engine._model import Question

    assert isinstance(question, Question)
    result = Judge(PUZZLE).ask(question.q)
    got = result.verdict if result.answered else None
    assert got == question.expect or (got is None and question.none_ok), result


def test_negated_question_keeps_the_positive_note() -> None:
    result = Judge(PUZZLE).ask("電子レンジは関係ない？")
    assert (result.verdict, result.note, result.rule_id) == ("NO", "電子レンジが鍵です", "microwave")
    assert result.reason is not None and "negated" in result.reason


def test_unclear_polarity_is_no_verdict_with_a_reason() -> None:
    result = Judge(PUZZLE).ask("電子レンジを使わない人が多い？")
    assert result.verdict == UNKNOWN and result.source == "none"
    assert result.reason == "the polarity of the question is unclear"


def test_unclear_polarity_goes_to_the_fallback() -> None:
    calls: list[str] = []

    def fallback(question: str, **_: object) -> FallbackAnswer:
        calls.append(question)
        return FallbackAnswer("NO", "llm")

    result = Judge(PUZZLE, fallback).ask("電子レンジを使わない人が多い？")
    assert calls == ["電子レンジを使わない人が多い？"] and result.verdict == "NO" and result.source == "llm"


def test_matched_word_is_the_rules_own_word_for_a_synonym() -> None:
    result = Judge(PUZZLE).ask("SSL証明書は関係ある？")
    assert result.rule_id == "certificate" and result.matched_word == "証明書"


def test_boundaries_protect_short_words() -> None:
    table = _table([{"any": ["ログ"], "answer": "NO"}])
    assert natural_match("ブログを見た？", table).hit is None
    assert natural_match("プログラムのバグ？", table).hit is None
    assert natural_match("ログファイルは？", table).hit is not None  # Sudachi's short units: ログ|ファイル
    # the seed's substring mode fires inside words (that is what format 1 keeps)
    seed = _table([{"any": ["ログ"], "answer": "NO"}], fmt="sadame.rules/1")
    assert judge_by_rules("ブログを見た？", seed) is not None


def test_stems_match_inflected_verbs() -> None:
    table = _table([{"any": ["抜い"], "answer": "NO"}, {"any": ["使う"], "answer": "YES"}])
    assert _verdict(table, "誰かがプラグを抜いた？") == "NO"
    assert _verdict(table, "みんなで使った？") == "YES"  # lemma view: 使っ -> 使う


def test_reading_of_a_kanji_never_meets_another_kanji() -> None:
    table = _table([{"any": ["雨"], "answer": "YES"}])
    assert _verdict(table, "飴を食べた？") is None
    assert _verdict(table, "あめの日？") == "YES"  # the kana reading, unambiguous here


def test_ambiguous_reading_is_dropped_and_reported() -> None:
    from sadame.judge.engine._natural import natural_table

    table = _table([{"any": ["雨"], "answer": "YES"}, {"any": ["飴"], "answer": "NO"}])
    assert natural_table(table).dropped_readings() == (("あめ", ("雨", "飴")),)
    assert _verdict(table, "あめの日？") is None
    assert _verdict(table, "雨の日？") == "YES" and _verdict(table, "飴の日？") == "NO"


def test_longest_phrase_wins_and_its_own_negation_does_not_flip() -> None:
    table = _table([{"any": ["外"], "answer": "NO"}, {"any": ["外に出ない"], "answer": "YES"}])
    assert _verdict(table, "外に出ない？") == "YES"
    assert _verdict(table, "外は寒い？") == "NO"


def test_irrelevant_and_uncertain_do_not_flip() -> None:
    table = _table([{"any": ["メーカー"], "answer": "IRRELEVANT"}, {"any": ["時刻"], "answer": "UNCERTAIN"}])
    assert _verdict(table, "メーカーは関係ない？") == "IRRELEVANT"
    assert _verdict(table, "時刻は関係ない？") == "UNCERTAIN"


def test_non_yes_no_tables_ignore_polarity() -> None:
    table = _table([{"any": ["請求書"], "answer": "BILLING"}], answers=["BILLING"])
    assert _verdict(table, "請求書が届かない") == "BILLING"


@pytest.mark.parametrize(
    ("policy", "expected"),
    [("first", "YES"), ("focus", "YES"), ("conjunction", "NO"), ("agree", None)],
)
def test_conflict_policies(policy: str, expected: str | None) -> None:
    """The issue's example (the truth is 社長室): only conjunction and agree avoid the wrong YES."""
    table = _table([{"any": ["PC"], "answer": "YES"}, {"any": ["会議室"], "answer": "NO"}])
    hit = natural_match("会議室のPCで見てる？", table, policy).hit  # type: ignore[arg-type]
    assert (hit.verdict if hit else None) == expected


def test_conjunction_keeps_an_irrelevant_focus() -> None:
    table = _table([{"any": ["新しいサーバー"], "answer": "NO"}, {"any": ["メーカー"], "answer": "IRRELEVANT"}])
    assert _verdict(table, "新しいサーバーのメーカーは？") == "IRRELEVANT"


def test_policies_are_validated() -> None:
    with pytest.raises(ValueError, match="unknown policy"):
        natural_match("x", PUZZLE.table, "best")  # type: ignore[arg-type]
    assert set(POLICIES) == {"first", "focus", "agree", "conjunction"}


@pytest.mark.parametrize("question", ["", "   ", "？？", 3, None, "あ" * 501])
def test_bad_questions_get_no_verdict(question: object) -> None:
    result = Judge(PUZZLE).ask(question)
    assert result.verdict == UNKNOWN


def test_format2_seed_mode_judges_exactly_like_format1(seed_pack: PuzzlePack, tmp_path: Path) -> None:
    """The same rules opted out with ``matching: seed`` give the seed's verdicts."""
    text = (DATA / "seed.yaml").read_text("utf-8")
    assert "format: sadame.puzzles/1\n" in text
    copy = tmp_path / "seed2.yaml"
    copy.write_text(text.replace("format: sadame.puzzles/1\n", "format: sadame.puzzles/2\nmatching: seed\n"), "utf-8")
    as_seed = load_pack(copy)
    assert as_seed.matching == "seed"
    questions = [q for p in seed_pack.puzzles.values() for q in [e.q for e in p.examples]] + [
        "ブラウザキャッシュ？", "ﾛｸﾞｲﾝできない", "権限は関係ない？",
    ]
    for pid, puzzle in seed_pack.puzzles.items():
        for question in questions:
            assert Judge(puzzle).ask(question) == Judge(as_seed.puzzle(pid)).ask(question)


def test_run_questions_counts_right_wrong_and_none() -> None:
    report = run_questions(PACK)
    assert report.total.total == len(PUZZLE.questions) and report.total.wrong == 0
    assert report.polarity.total == sum(
        1 for q in PUZZLE.questions if {"negation", "suggestion", "confirm-neg", "double-negation"} & set(q.tags)
    )
    strict = run_questions(PACK, "agree")
    assert strict.policy == "agree" and strict.total.total == report.total.total


def test_run_questions_flags_a_failing_puzzle() -> None:
    table = _table([{"any": ["電子レンジ"], "answer": "NO"}], questions=[
        {"q": "電子レンジ？", "expect": "YES"}, {"q": "ケトル？", "expect": "YES"},
        {"q": "宇宙人？", "expect": "NO", "none_ok": True},
    ])
    report = run_questions(table)
    figures = report.puzzles[0]
    assert (figures.right, figures.wrong, figures.none) == (1, 1, 1)
    assert report.failing() == (figures,)
    data = report.to_dict()
    assert data["ok"] is False and data["failing"] == ["t"]
    assert report.failing(min_right=0.3, max_wrong=0.5) == ()


def _table(rules: list[dict[str, object]], *, fmt: str = "sadame.rules/2", answers: list[str] | None = None,
           questions: list[dict[str, object]] | None = None) -> RuleTable:
    data: dict[str, object] = {
        "format": fmt, "name": "t", "answers": answers or ["YES", "NO", "IRRELEVANT", "UNCERTAIN"], "rules": rules,
    }
    if questions:
        data["questions"] = questions
    table = parse_table(data)
    assert isinstance(table, RuleTable)
    return table


def _verdict(table: RuleTable | Puzzle, question: str) -> str | None:
    result = Judge(table).ask(question)
    return result.verdict if result.answered else None


def test_seed_mode_never_loads_the_analyzer() -> None:
    """Seed tables, the CLI import and `sadame --help` do not pay for SudachiPy."""
    import subprocess
    import sys

    script = (
        "import sys, sadame.cli\n"
        "from sadame.judge import Judge, load_pack\n"
        f"pack = load_pack({str(DATA / 'seed.yaml')!r})\n"
        "Judge(next(iter(pack.puzzles.values()))).ask('キャッシュは関係ない？')\n"
        "print('sudachipy' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
