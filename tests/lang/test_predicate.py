"""The final-predicate reader and its polarity lexicon (``sadame.lang._predicate``, ``_lexicon``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sadame.lang._lexicon import LexiconError, lexicon, parse_lexicon
from sadame.lang._predicate import read_clause_text

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
