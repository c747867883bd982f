"""The final-predicate reader and its polarity lexicon (``sadame.lang._predicate``, ``_lexicon``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sadame.lang import analyze
from sadame.lang._lexicon import LexiconError, lexicon, parse_lexicon
from sadame.lang._predicate import (
    fault_act_not_seen,
    is_manner_negation,
    manner_then_better,
    read_clause_text,
)

CASES = [
    tuple(line.split("\t"))
    for line in (Path(__file__).parent / "data" / "predicate_readings.tsv").read_text("utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_each_construction_reads_as_its_golden_reading(text: str, expected: str) -> None:
    got = read_clause_text(text)
    assert (got or "none") == expected


def test_a_ruleset_negative_word_makes_the_subject_a_problem() -> None:
    # 「着地の音」 is neither good nor bad to the lexicon: its growing says nothing; as a ruleset
    # negative word its growing is a problem.
    assert read_clause_text("着地の音が大きくなった") is None
    assert read_clause_text("着地の音が大きくなった", ("音",)) == "problem"


def test_an_unmarked_change_of_an_unknown_subject_is_progress() -> None:
    # A coach reports a change to say it went the right way unless something marks it a fault.
    assert read_clause_text("着地の音が消えた") == "better"
    assert read_clause_text("着地の音が消えてしまった") == "problem"
    assert read_clause_text("着地の音が水っぽくなった") is None  # 〜っぽい marks a fault: not progress


def test_the_bundled_lexicon_has_every_list() -> None:
    lex = lexicon()
    assert "癖" in lex.problem_nouns and "美しい" in lex.positive_states
    assert lex.scalar_less["少ない"] == 0 and lex.scalar_more["多い"] == -1
    assert not lex.positive_states & lex.negative_states


@pytest.mark.parametrize(("text", "message"), [
    ("format: other/1", "format must be"),
    ("- a list", "format must be"),
    ("format: sadame.polarity-lexicon/1\npositive_states: 3", "positive_states must be a list"),
])
def test_a_malformed_lexicon_is_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(LexiconError, match=message):
        parse_lexicon(text)


def test_a_bad_scalar_default_is_a_clear_error() -> None:
    text = (Path(__file__).parents[2] / "src" / "sadame" / "data" / "lang" / "polarity-ja.yaml").read_text("utf-8")
    with pytest.raises(LexiconError, match="scalar_less must map"):
        parse_lexicon(text.replace("小さい: -1", "小さい: 5"))


@pytest.mark.parametrize("text", ["人が走る" * 400 + "道が長い", "人が走る道" * 400 + "になった",
                                  "以前は遅れていた合図が" * 150 + "出せている"])
def test_nested_relative_clauses_and_former_states_are_bounded(text: str) -> None:
    # Each relative clause is read from a window before its noun, so nesting cannot exhaust the stack.
    assert read_clause_text(text) in ("better", "praise", "problem", None)


@pytest.mark.parametrize(("text", "expected"), [
    ("急いで刃を当てすぎる箇所は見られなくなった", True),  # the modifier reads as a problem
    ("焦って釘を打ち込む場面は、今回は見られなかった", True),  # an un-negated fault verb
    ("下書きを確かめずに清書に入ることは、もうしなくなった", True),  # a step of care left out
    ("前回指摘したバリは、今回の部品では見られなかった", True),  # pointed out: a fault
    ("配線の取り違えは、今月に入って一度も見られていない", True),  # 一度も is not the topic
    ("焦らずに対応する場面は、今回は見られなかった", False),  # the fault verb negated: a good act
    ("手を止めずに話し続ける対応は、今回は見られなかった", False),  # 止めず is not a step of care
    ("作業前に工具を点検する声かけは、今回は見られなかった", False),  # a good act, no fault in it
    ("焦って打ち込む様子はない", False),  # no word of change: not a change
    ("焦って打ち込む姿は見られなくなった", False),  # 姿 is a habit noun, left to the habit readers
    ("前回指摘した点は、今回も改善が見られなかった", False),  # what is not seen is 改善 (が)
    ("焦って打ち込む場面は見られなくなった。ただ、まだ遅い", False),  # one sentence only
])
def test_a_fault_act_no_longer_seen(text: str, expected: bool) -> None:
    assert fault_act_not_seen(analyze(text)) is expected


@pytest.mark.parametrize(("text", "expected"), [
    ("相手が話し終わるまで口を挟まず、最後まで聞けるようになった", True),  # ず、: manner
    ("ネットの情報をそのまま使わずに、一次資料に当たるようになった", True),  # ずに、
    ("答えを教えないで、ヒントを出せるようになった", True),  # ないで、
    ("原稿を見ずに、前を向いて話せるようになった", True),  # a step of care, but "can" now: a crutch dropped
    ("安全帯を付けず、高所で作業するようになった", False),  # a step of care left out, no "can": a fault formed
    ("丁寧に説明せず、次の作業に進むようになった", False),  # the act un-negated is praise: its omission a fault
    ("口を挟まなくなり、最後まで聞けるようになった", False),  # 〜なくなり is no manner negation
    ("口を挟まず、最後まで聞いていない", False),  # the last clause is no progress
])
def test_a_manner_negation_before_progress(text: str, expected: bool) -> None:
    assert manner_then_better(analyze(text)) is expected


@pytest.mark.parametrize(("text", "index", "expected"), [
    ("腕振りを止めずに入る", 3, True),  # ず + に
    ("口を挟まず、聞く", 3, True),  # ず + 、
    ("答えを教えないで待つ", 3, True),  # ない + で
    ("確認せずに入る", 2, False),  # a step of care left out
    ("口を挟まない", 3, False),  # a final negation, nothing after
])
def test_a_manner_negation(text: str, index: int, expected: bool) -> None:
    tokens = analyze(text)
    assert tokens[index].lemma in ("ず", "ない")
    assert is_manner_negation(tokens, index) is expected
