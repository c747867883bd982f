"""``Judge``: rule hits, misses and every way a fallback can misbehave."""

from __future__ import annotations

from typing import Any

import pytest

from sadame.judge import FallbackAnswer, Judge, JudgeResult, Puzzle, PuzzlePack, RuleTable
from sadame.judge.engine._judge import MISS_NOTE, UNKNOWN


class RecordingFallback:
    """A real fallback object (not a mock of our code): returns a fixed answer."""

    def __init__(self, answer: Any = None, error: Exception | None = None) -> None:
        self.answer = answer
        self.error = error
        self.calls: list[dict[str, Any]] = []

    def __call__(self, question: str, *, normalized: str, table: RuleTable, puzzle: Puzzle | None) -> Any:
        self.calls.append({"question": question, "normalized": normalized, "table": table, "puzzle": puzzle})
        if self.error is not None:
            raise self.error
        return self.answer


def test_rule_hit(seed_pack: PuzzlePack) -> None:
    result = Judge(seed_pack.puzzle("prod-only-images")).ask("ファイル名の大文字・小文字は関係アル？")
    assert result == JudgeResult("YES", "そこが核心です", "rules", "case", 0, "大文字")
    assert result.to_dict() == {
        "verdict": "YES", "note": "そこが核心です", "source": "rules",
        "rule": {"id": "case", "index": 0}, "matched": "大文字", "reason": None,
    }
    assert JudgeResult.from_dict(result.to_dict()) == result


def test_miss_without_fallback(seed_table: RuleTable) -> None:
    result = Judge(seed_table).ask("サーバーのメモリ不足ですか？")
    assert (result.verdict, result.note, result.source) == (UNKNOWN, MISS_NOTE, "none")
    assert result.note == "別の言い方で聞いてみてください"
    assert not result.answered


@pytest.mark.parametrize("question", ["", "  　", "？？", None, 3.5, ["q"]])
def test_bad_questions_get_no_verdict_and_never_reach_the_fallback(seed_table: RuleTable, question: object) -> None:
    fallback = RecordingFallback(FallbackAnswer("YES", "llm"))
    result = Judge(seed_table, fallback=fallback).ask(question)
    assert result.verdict == UNKNOWN and result.source == "none" and result.reason
    assert fallback.calls == []


def test_one_megabyte_question(seed_table: RuleTable) -> None:
    assert Judge(seed_table).ask("い" * (1024 * 1024)).verdict == UNKNOWN


def test_fallback_only_on_a_miss_and_gets_the_context(seed_pack: PuzzlePack) -> None:
    puzzle = seed_pack.puzzle("prod-only-images")
    fallback = RecordingFallback(FallbackAnswer("IRRELEVANT", "llm", reason="model said so"))
    judge = Judge(puzzle, fallback=fallback)
    assert judge.ask("キャッシュ？").source == "rules"
    assert fallback.calls == []
    result = judge.ask("何時ごろ？")
    assert (result.verdict, result.source, result.note, result.reason) == ("IRRELEVANT", "llm", None, "model said so")
    [call] = fallback.calls
    assert call["normalized"] == "何時ごろ" and call["puzzle"] is puzzle and call["table"] is puzzle.table


@pytest.mark.parametrize(
    ("fallback", "source", "reason"),
    [
        (RecordingFallback(FallbackAnswer("MAYBE", "llm")), "llm", "not one of"),
        (RecordingFallback(FallbackAnswer(None, "cache")), "cache", "no verdict"),
        (RecordingFallback(FallbackAnswer(None, "llm", reason="unparseable")), "llm", "unparseable"),
        (RecordingFallback(error=RuntimeError("timeout")), "none", "RuntimeError: timeout"),
        (RecordingFallback("YES"), "none", "not FallbackAnswer"),
    ],
)
def test_misbehaving_fallback_gives_unknown(seed_table: RuleTable, fallback: RecordingFallback, source: str,
                                            reason: str) -> None:
    result = Judge(seed_table, fallback=fallback).ask("メモリ不足？")
    assert (result.verdict, result.note, result.source) == (UNKNOWN, MISS_NOTE, source)
    assert result.reason is not None and reason in result.reason


def test_cache_source_passes_through(seed_table: RuleTable) -> None:
    result = Judge(seed_table, fallback=RecordingFallback(FallbackAnswer("NO", "cache"))).ask("メモリ不足？")
    assert (result.verdict, result.source) == ("NO", "cache")


def test_judge_rejects_wrong_arguments(seed_table: RuleTable) -> None:
    with pytest.raises(TypeError):
        Judge({"rules": []})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Judge(seed_table, fallback="llm")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "data",
    [{"verdict": "YES", "source": "robot"}, {"verdict": 1, "source": "rules"}, {"verdict": "YES", "source": "rules",
                                                                                "rule": {"index": "0"}}],
)
def test_result_from_dict_rejects_malformed_data(data: dict[str, object]) -> None:
    with pytest.raises((TypeError, ValueError)):
        JudgeResult.from_dict(data)


@pytest.mark.parametrize(
    ("question", "verdict"),
    [("\ud800キャッシュ", "NO"), ("\x00", UNKNOWN), ("キャッシュ\U0001F600", "NO"), ("\ufeff", UNKNOWN)],
)
def test_odd_characters_never_crash(seed_table: RuleTable, question: str, verdict: str) -> None:
    assert Judge(seed_table).ask(question).verdict == verdict


def test_judge_takes_what_load_table_returns(game_pack: PuzzlePack) -> None:
    """``Judge(load_table(path))`` type-checks for a table or a pack: a one-puzzle pack is its puzzle,
    a pack of several is refused with the call to make instead."""
    from dataclasses import replace

    from sadame.judge import Judge

    first = next(iter(game_pack.puzzles.values()))
    single = replace(game_pack, puzzles={first.id: first})
    assert Judge(single).puzzle is first
    if len(game_pack.puzzles) > 1:
        with pytest.raises(TypeError, match=r"Judge\(pack.puzzle\(id\)\)"):
            Judge(game_pack)
