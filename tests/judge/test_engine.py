"""The compiled engine against the seed's semantics (examples and properties)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.judge import AnswerCheck, Puzzle, RuleTable, check_answer, parse_table
from sadame.judge.engine._engine import judge_by_rules
from sadame.normalize import normalize
from tests.judge import seed_port


def _table(rules: list[dict[str, Any]], answers: tuple[str, ...] = ("YES", "NO")) -> RuleTable:
    table = parse_table({"format": "sadame.rules/1", "name": "t", "answers": list(answers), "rules": rules})
    assert isinstance(table, RuleTable)
    return table


@pytest.mark.parametrize(
    ("question", "verdict", "word"),
    [
        ("ファイル名の大文字・小文字は関係アル？", "YES", "大文字"),
        ("ｷｬｯｼｭが残ってるとか？", "NO", "キャッシュ"),
        ("ブラウザキャッシュの可能性は？", None, None),
        ("時間帯は関係ありますか？", "IRRELEVANT", "時間"),
        ("何時ごろに起きるんですか？", None, None),
        ("サーバーのメモリ不足ですか？", None, None),
        ("ＬＩＮＵＸ だけ？", "YES", "linux"),
        ("４０３が返る？", "NO", "403"),
    ],
)
def test_seed_article_examples(seed_table: RuleTable, question: str, verdict: str | None, word: str | None) -> None:
    hit = judge_by_rules(question, seed_table)
    assert (hit.rule.answer if hit else None) == verdict
    assert (hit.matched_word if hit else None) == word


def test_first_match_in_table_order_wins() -> None:
    table = _table([{"any": ["ファイル"], "answer": "NO"}, {"any": ["ファイル名"], "answer": "YES"}])
    hit = judge_by_rules("ファイル名は？", table)
    assert hit is not None and hit.rule.index == 0


def test_not_is_checked_before_any_and_only_blocks_its_own_rule() -> None:
    table = _table([
        {"id": "a", "any": ["キャッシュ"], "not": ["ブラウザ"], "answer": "NO"},
        {"id": "b", "any": ["ブラウザ"], "answer": "YES"},
    ])
    hit = judge_by_rules("ブラウザのキャッシュ", table)
    assert hit is not None and hit.rule.id == "b"


def test_matched_word_is_first_occurring_any_word_in_rule_order() -> None:
    table = _table([{"any": ["小文字", "大文字"], "answer": "YES"}])
    hit = judge_by_rules("大文字と小文字", table)
    assert hit is not None and hit.matched_word == "小文字"


@pytest.mark.parametrize("question", ["", "   ", "　\t\n", "？！・。", None, 42, b"bytes", ["list"]])
def test_empty_or_non_string_question_gets_no_verdict(seed_table: RuleTable, question: object) -> None:
    assert judge_by_rules(question, seed_table) is None


def test_one_megabyte_question(seed_table: RuleTable) -> None:
    filler = "あ" * (1024 * 1024)
    assert judge_by_rules(filler, seed_table) is None
    hit = judge_by_rules(filler + "キャッシュ", seed_table)
    assert hit is not None and hit.rule.id == "cache"


def test_judge_by_rules_rejects_non_table() -> None:
    with pytest.raises(TypeError, match="RuleTable"):
        judge_by_rules("q", [{"any": ["a"], "a": "YES"}])  # type: ignore[arg-type]


def test_check_answer_seed_examples(seed_pack: Any) -> None:
    puzzle: Puzzle = seed_pack.puzzle("prod-only-images")
    assert check_answer("大文字小文字の違い", puzzle.solution) == AnswerCheck(False, 1, 2, (0,))
    assert check_answer("ファイル名の大文字と小文字が食い違ってた", puzzle.solution) == AnswerCheck(True, 2, 2, (0, 1))
    assert check_answer("パスの問題", puzzle.solution) == AnswerCheck(False, 1, 2, (1,))
    assert check_answer(None, puzzle.solution) == AnswerCheck(False, 0, 2, ())
    assert check_answer("", puzzle.solution).matched == 0


def test_check_answer_no_groups_is_never_correct() -> None:
    assert check_answer("なんでも", []) == AnswerCheck(False, 0, 0, ())


def test_check_answer_rejects_malformed_solutions() -> None:
    with pytest.raises(TypeError):
        check_answer("a", "大文字")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        check_answer("a", ["大文字", "小文字"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="empty string"):
        check_answer("a", [["？"]])


# --------------------------------------------------------------------------- properties

# A small alphabet so words overlap and contain each other; katakana/hiragana,
# upper/lower case and deletable punctuation exercise the judge preset.
_ALPHABET = "あいアイaAb・？ "
_word = st.text(_ALPHABET, min_size=1, max_size=4).filter(lambda w: normalize(w, preset="judge") != "")
_rule = st.fixed_dictionaries(
    {"any": st.lists(_word, min_size=1, max_size=3), "answer": st.sampled_from(["YES", "NO"])},
    optional={"not": st.lists(_word, max_size=2)},
)


@st.composite
def _table_and_question(draw: st.DrawFn) -> tuple[list[dict[str, Any]], str]:
    rules = draw(st.lists(_rule, min_size=1, max_size=8))
    words = [w for r in rules for w in [*r["any"], *r.get("not", [])]]
    parts = draw(st.lists(st.one_of(st.sampled_from(words), st.text(_ALPHABET, max_size=3)), max_size=5))
    return rules, "".join(parts)


@settings(max_examples=300, deadline=None)
@given(_table_and_question())
def test_compiled_engine_equals_naive_seed_port(case: tuple[list[dict[str, Any]], str]) -> None:
    rules, question = case
    hit = judge_by_rules(question, _table(rules))
    expected = seed_port.judge_by_rules(question, rules)
    assert (None if hit is None else (hit.rule.index, hit.matched_word)) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_word, min_size=1, max_size=3), max_size=4), st.text(_ALPHABET, max_size=10))
def test_check_answer_equals_naive_seed_port(groups: list[list[str]], answer: str) -> None:
    check = check_answer(answer, groups)
    assert (check.correct, check.matched, check.total) == seed_port.check_solution(answer, groups)
    assert len(check.matched_groups) == check.matched
