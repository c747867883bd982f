"""Lint for the facts of pack format 3 and for words hidden in grammar (warnings, as J101-J106).

* J107 a written fact on which no rule fires: it is about no thing the rules know,
  so it can never state a question's detail (name the thing as a rule word does);
* J108 a fact whose polarity cannot be read (written as a question, 「〜か？」): it can
  never answer; write it as one plain statement;
* J109 a rule word that fires inside common grammar (see :func:`grammar_findings`);
* J110 a solution group with a word too broad to say anything about the mechanism
  (``data/judge/broad.yaml``: 記号, 原因, 違い...): it accepts a wrong mechanism.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources

from sadame.judge.authoring._lint_natural import Finding
from sadame.judge.engine._facts import fact_book
from sadame.judge.engine._loader import parse_yaml
from sadame.judge.engine._model import RuleTable
from sadame.judge.engine._natural import NaturalTable, clean, fired_phrases, fold, natural_table
from sadame.lang import analyze

__all__ = ["broad_solution_findings", "fact_findings", "grammar_findings"]


def fact_findings(table: RuleTable) -> Iterable[Finding]:
    """J107/J108 for the written facts of a format-3 table."""
    if not table.weighs_details:
        return
    book = fact_book(table)
    for fact in book.facts[: len(table.facts)]:
        if not fact.rules:
            yield "J107", f"fact {fact.text!r} fires no rule: name the thing as a rule word does", None
        if fact.polarity == "unclear":
            yield "J108", f"fact {fact.text!r} has no clear polarity: write one plain statement", None


@cache
def _grammar() -> tuple[str, ...]:
    resource = resources.files("sadame") / "data" / "judge" / "grammar.yaml"
    data = parse_yaml(resource.read_text("utf-8"), "grammar.yaml")
    assert isinstance(data, dict)
    return tuple(str(s) for s in data["sentences"])


def _fired(ntable: NaturalTable, sentence: str) -> dict[int, str]:
    tokens = analyze(clean(sentence))
    return {
        ntable.rules[position].index: ntable.rule_word(position, occ.word)
        for (position, _, _), occ in fired_phrases(ntable, tokens).items()
    }


def grammar_findings(table: RuleTable) -> Iterable[Finding]:
    """J109: a rule word that fires inside common grammar (``data/judge/grammar.yaml``)
    through a kana form spanning a particle, an auxiliary or okurigana. Format 3 guards
    against it (such a match never counts), so only tables without the guard report it."""
    if table.guards_grammar:
        return
    plain = natural_table(table)
    guarded = NaturalTable(table.rules, table.synonyms, guard_grammar=True)
    for sentence in _grammar():
        kept = _fired(guarded, sentence)
        for index, word in sorted(_fired(plain, sentence).items()):
            if index not in kept:
                yield "J109", (f"any word {word!r} fires inside common grammar ({sentence!r}): "
                               "use pack format 3 (which never matches across grammar) or another word"), \
                    table.rules[index]


@cache
def _broad() -> frozenset[str]:
    resource = resources.files("sadame") / "data" / "judge" / "broad.yaml"
    data = parse_yaml(resource.read_text("utf-8"), "broad.yaml")
    assert isinstance(data, dict)
    return frozenset(fold(str(w)) for w in data["words"])


def broad_solution_findings(solution: Sequence[Sequence[str]]) -> Iterable[Finding]:
    """J110 for each solution group holding a word of ``data/judge/broad.yaml``."""
    broad = _broad()
    for g, group in enumerate(solution):
        wide = [w for w in group if fold(w) in broad]
        if wide:
            yield "J110", (f"solution group {g} accepts {', '.join(repr(w) for w in wide)}: too broad, "
                           "it accepts a wrong mechanism that uses the word (name the specific concept)"), None
