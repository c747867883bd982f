"""Pack format 3: facts beside rules. A question that asserts a detail no fact states
gets MATTERS from a YES rule (or the fallback); a fact answers the details it states;
formats 1 and 2 judge exactly as before."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from sadame.judge import FallbackAnswer, Judge, PuzzlePack, RuleTable, bundled_pack, parse_table
from sadame.judge.authoring import lint_table
from sadame.judge.engine._facts import MATTERS, truth_clauses
from sadame.judge.engine._judge import UNKNOWN
from sadame.judge.engine._loader import PACK_FORMAT3, table_schema
from sadame.judge.engine._model import Puzzle
from sadame.judge.engine._natural import _inside_longer
from sadame.judge.game._messages import question_feedback
from tests.judge._golden import golden_table

PUZZLE: dict[str, Any] = {
    "id": "ice", "title": "溶けない氷", "statement": "グラスの氷の上にコインが乗っていた。なぜ？",
    "truth": "氷は一度もとけなかった。コインは最初から氷の上に乗っていた。",
    "rules": [
        {"id": "ice", "any": ["氷"], "answer": "YES", "note": "氷が鍵です"},
        {"id": "coin", "any": ["コイン"], "answer": "YES", "note": "コインが鍵です"},
        {"id": "broken", "any": ["壊れ"], "answer": "NO", "note": "何も壊れていません"},
    ],
    "solution": [["氷"], ["コイン"]],
    "facts": ["氷は一度もとけていない", "コインは最初から氷の上に乗っていた", "冷凍庫は壊れていない"],
}


def _pack(fmt: str = PACK_FORMAT3, **changes: Any) -> PuzzlePack:
    puzzle = {**copy.deepcopy(PUZZLE), **changes}
    if fmt != PACK_FORMAT3:
        puzzle.pop("facts", None)
    loaded = parse_table({"format": fmt, "name": "t", "title": "t", "answers": ["YES", "NO"], "puzzles": [puzzle]})
    assert isinstance(loaded, PuzzlePack)
    return loaded


@pytest.fixture(scope="module")
def judge() -> Judge:
    return Judge(_pack().puzzle("ice"))


@pytest.mark.parametrize(("question", "verdict"), [
    ("氷は関係ある？", "YES"),                     # relevance: the rule answers
    ("氷は一度とけてまた凍った？", "NO"),            # 凍る is a word the story never uses, among three details (pass 6)
    ("氷はとけた？", "NO"),                         # a fact denies it
    ("氷はとけていない？", "YES"),                   # ... and states its negation
    ("コインは最初から氷の上にあった？", "YES"),       # a fact states every detail (ある ~ generic)
    ("コインは金でできている？", MATTERS),
    ("冷凍庫が壊れてた？", "NO"),                   # a NO rule keeps its NO
])
def test_facts_decide_the_details(judge: Judge, question: str, verdict: str) -> None:
    assert judge.ask(question).verdict == verdict


def test_matters_is_a_verdict_with_its_own_japanese_reply(judge: Judge) -> None:
    result = judge.ask("コインは金でできている？")
    assert result.source == "rules" and result.answered and result.rule_id == "coin"
    assert result.note == "「コイン」は関係しています（その点は別の聞き方で聞いてみてください）"
    assert question_feedback(result) == "重要です　「コイン」は関係しています（その点は別の聞き方で聞いてみてください）"


def test_matters_goes_to_the_fallback_first() -> None:
    calls: list[str] = []

    def fallback(question: str, *, normalized: str, table: RuleTable, puzzle: Puzzle | None) -> FallbackAnswer:
        calls.append(question)
        return FallbackAnswer("NO" if "金" in question else MATTERS, "llm")

    judge = Judge(_pack().puzzle("ice"), fallback=fallback)
    assert judge.ask("コインは金でできている？").verdict == "NO"
    assert judge.ask("コインは銀でできている？").verdict == MATTERS  # the LLM may answer MATTERS too
    assert judge.ask("氷は関係ある？").verdict == "YES" and len(calls) == 2


def test_a_puzzle_without_facts_and_formats_1_2_judge_as_before() -> None:
    questions = ["氷は一度とけてまた凍った？", "氷はとけた？", "コインは金でできている？", "冷凍庫が壊れてた？"]
    two = Judge(_pack("sadame.puzzles/2").puzzle("ice"))
    without = copy.deepcopy(PUZZLE)
    del without["facts"]
    three = Judge(parse_table({"format": PACK_FORMAT3, "name": "t", "title": "t", "answers": ["YES", "NO"],
                               "puzzles": [without]}).puzzle("ice"))  # type: ignore[union-attr]
    assert [two.ask(q) for q in questions] == [three.ask(q) for q in questions]
    assert all(two.ask(q).verdict != MATTERS for q in questions)


def test_format3_schema_and_expectations() -> None:
    schema = table_schema(PACK_FORMAT3)
    assert "facts" in schema["$defs"]["puzzle"]["properties"]
    pack = _pack(questions=[{"q": "氷は一度とけてまた凍った？", "expect": MATTERS}])
    assert pack.puzzle("ice").questions[0].expect == MATTERS
    with pytest.raises(ValueError, match="facts"):
        _pack(facts=[""])


def test_truth_is_cut_into_clause_facts() -> None:
    assert truth_clauses("氷は一度もとけなかったので、コインが残った。\n犬") == ("氷は一度もとけなかった", "コインが残った")


def test_lint_flags_facts_that_fire_no_rule_or_have_no_polarity() -> None:
    pack = _pack(facts=["空が青い", "氷はとけたのか？"])
    codes = [f.code for f in lint_table(pack).findings]
    assert "J107" in codes and "J108" in codes


def test_bundled_migrated_puzzles_hedge_the_issue_examples() -> None:
    clock = Judge(bundled_pack("everyday").puzzle("clock-tower-slow-in-summer"))
    assert clock.ask("振り子のひもが切れかけてる？").verdict == MATTERS
    assert clock.ask("冬に振り子が伸びる？").verdict == "NO"
    login = Judge(bundled_pack("engineering").puzzle("login-only-from-home"))
    assert login.ask("会社のPCはUS配列で、自宅はJIS配列？").verdict == MATTERS


def test_yaml_pack_round_trip() -> None:
    text = yaml.safe_dump({"format": PACK_FORMAT3, "name": "t", "title": "t", "answers": ["YES", "NO"],
                           "puzzles": [PUZZLE]}, allow_unicode=True)
    loaded = parse_table(yaml.safe_load(text))
    assert isinstance(loaded, PuzzlePack) and loaded.puzzle("ice").table.facts == tuple(PUZZLE["facts"])


@given(st.sets(st.tuples(st.integers(0, 30), st.integers(1, 6)).map(lambda t: (t[0], t[0] + t[1])), max_size=20))
def test_the_containment_sweep_equals_the_all_pairs_test(spans: set[tuple[int, int]]) -> None:
    slow = {(b, e) for b, e in spans if any(b2 <= b and e <= e2 and e2 - b2 > e - b for b2, e2 in spans)}
    assert _inside_longer(spans) == slow


def _pack_irrelevant(**changes: Any) -> PuzzlePack:
    puzzle = {**copy.deepcopy(PUZZLE), **changes}
    loaded = parse_table({"format": PACK_FORMAT3, "name": "t", "title": "t",
                          "answers": ["YES", "NO", "IRRELEVANT"], "puzzles": [puzzle]})
    assert isinstance(loaded, PuzzlePack)
    return loaded


@pytest.mark.parametrize(("question", "verdict"), [
    ("グラスの色はピンク？", "IRRELEVANT"),   # no rule fires, ピンク is nowhere in the story, グラス is
    ("ピンク？", "UNKNOWN"),                  # nothing of the story named: not this story's question
    ("グラスはとけた？", "UNKNOWN"),          # the last noun (グラス) is the story's: not absent
    ("ぐらすはぴんく？", "UNKNOWN"),          # kana typed for words: never called absent
])
def test_a_thing_the_story_never_names_is_irrelevant(question: str, verdict: str) -> None:
    result = Judge(_pack_irrelevant().puzzle("ice")).ask(question)
    assert result.verdict == verdict
    if verdict == "IRRELEVANT":
        assert result.note is not None and "ピンク" in result.note and result.rule_index is None


def test_absent_things_need_the_verdict_in_the_table() -> None:
    assert Judge(_pack().puzzle("ice")).ask("グラスの色はピンク？").verdict == "UNKNOWN"  # no IRRELEVANT answer


@pytest.mark.parametrize(("facts", "question", "verdict"), [
    (["コインは1週間前から乗っていた"], "コインは1時間前から乗っていた？", MATTERS),  # number and unit: one detail
    (["コインは1週間前から乗っていた"], "コインは1週間前から乗っていた？", "YES"),
    (["コインの向きは書かれていた"], "コインの向きが書き換わった？", MATTERS),      # 書き換わる is not 書く
])
def test_details_are_read_whole(facts: list[str], question: str, verdict: str) -> None:
    assert Judge(_pack(facts=facts).puzzle("ice")).ask(question).verdict == verdict


def test_a_relevance_question_is_answered_by_a_fact_that_names_its_details() -> None:
    puzzle = _pack(facts=["コインの重さで氷が押さえられている", "グラスの形は原因ではない"]).puzzle("ice")
    judge = Judge(puzzle)
    assert judge.ask("コインの重さは関係ある？").verdict == "YES"       # a fact names 重さ with コイン
    assert judge.ask("コインの重さは関係ない？").verdict == "NO"
    assert judge.ask("コインの厚みは関係ある？").verdict == MATTERS     # no fact names 厚み


FORMAT3, FORMAT3_CASES = golden_table("facts_format3.yaml")


@pytest.mark.parametrize(("puzzle", "question", "verdict"), FORMAT3_CASES)
def test_format3_golden_table(puzzle: str, question: str, verdict: str) -> None:
    """A detail contradicted by a fact is NO; a fact confirms only with the question's modality;
    kana fragments the story says aloud are no detail (tests/judge/data/facts_format3.yaml)."""
    assert verdict in ("YES", "NO", MATTERS, UNKNOWN)
    assert Judge(FORMAT3.puzzle(puzzle)).ask(question).verdict == verdict, question


def test_a_negative_fact_naming_every_content_word_denies_a_one_phrase_question() -> None:
    facts = [*PUZZLE["facts"], "コインは冷凍庫から出してから乗せたのではない"]
    judge = Judge(_pack(facts=facts).puzzle("ice"))
    assert judge.ask("コインは冷凍庫から出してから乗せた？").verdict == "NO"
    assert judge.ask("コインは最初から乗っていた？").verdict == "YES"
    assert judge.ask("コインは冷凍庫から出した？").verdict != "NO"  # the fact names more: not this question


def test_a_rule_number_never_fires_inside_a_longer_number() -> None:
    rules = [*PUZZLE["rules"], {"id": "height", "any": ["999", "メートル"], "answer": "YES", "note": "高さが鍵です"}]
    judge = Judge(_pack(rules=rules, facts=[*PUZZLE["facts"], "氷の山は999メートルだ"]).puzzle("ice"))
    assert judge.ask("氷の山は999メートル？").verdict == "YES"
    assert judge.ask("氷の山は1999メートル？").verdict == "NO"  # 999 inside 1999: another number


def test_rule_phrases_of_four_rules_that_no_fact_states_together_are_the_hedge() -> None:
    rules = [*PUZZLE["rules"], {"id": "glass", "any": ["グラス"], "answer": "YES", "note": "グラスが鍵です"},
             {"id": "ride", "any": ["乗せ"], "answer": "YES", "note": "乗せました"}]
    judge = Judge(_pack(rules=rules, facts=[*PUZZLE["facts"], "コインはグラスの氷の上に乗せた"]).puzzle("ice"))
    assert judge.ask("グラスの氷の上にコインを乗せた？").verdict == "YES"  # a fact names them all
    judge = Judge(_pack(rules=rules).puzzle("ice"))
    assert judge.ask("グラスの氷の上にコインを乗せた？").verdict == MATTERS
