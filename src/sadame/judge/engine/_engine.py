"""The compiled matcher and the two pure functions of seed 001.

Semantics are exactly the seed's ``judgeByRules`` / ``checkSolution``:

* the question is normalized with the ``judge`` preset; empty -> no verdict;
* rules are tried in table order and the first one that matches wins;
* a rule matches when none of its ``not`` words occurs (checked first) and at
  least one of its ``any`` words occurs (plain substring test).

Instead of scanning every word of every rule, :class:`CompiledTable` puts all
distinct normalized words into one Aho-Corasick automaton (``pyahocorasick``;
chosen by measurement, see ``benchmarks/judge.py``). One pass over the question
yields the set of words that occur; each word knows, in ascending order, the
rules that list it under ``any``. Walking those lists, the winner is the lowest
rule index reached through an occurring ``any`` word none of whose own ``not``
words occurs, so the cost is one pass plus the rules whose words occur.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import ahocorasick

from sadame.judge.engine._answer import natural_check
from sadame.judge.engine._model import AnswerCheck, Rule, RuleTable, Solution
from sadame.normalize import normalize

__all__ = [
    "AnswerCheck",
    "CompiledTable",
    "RuleMatch",
    "check_answer",
    "compile_table",
    "judge_by_rules",
    "normalize_question",
]

_COMPILED_ATTR = "_sadame_compiled_table"

_PRESET = "judge"


def normalize_question(question: object) -> str:
    """The question as the rules see it; a non-string is treated as empty (seed
    semantics: ``normalize()`` returns "" for non-strings)."""
    if not isinstance(question, str):
        return ""
    return normalize(question, preset=_PRESET)


@dataclass(frozen=True, slots=True)
class RuleMatch:
    """The rule that fired and the first of its ``any`` words (as written in the
    table, in the rule's order) that occurs in the question."""

    rule: Rule
    matched_word: str


class CompiledTable:
    """All normalized words of a table in one automaton, with word -> rules maps."""

    __slots__ = ("_any_rules", "_automaton", "_rule_any_ids", "_rule_not_ids", "rules", "words")

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules: tuple[Rule, ...] = tuple(rules)
        ids: dict[str, int] = {}
        any_rules: list[list[int]] = []
        rule_any_ids: list[tuple[int, ...]] = []
        rule_not_ids: list[tuple[int, ...]] = []

        def word_id(word: str) -> int:
            found = ids.get(word)
            if found is None:
                found = ids[word] = len(ids)
                any_rules.append([])
            return found

        for position, rule in enumerate(self.rules):
            own: list[int] = []
            for word in rule.any_normalized:
                wid = word_id(word)
                own.append(wid)
                if not any_rules[wid] or any_rules[wid][-1] != position:
                    any_rules[wid].append(position)
            rule_any_ids.append(tuple(own))
            blockers: list[int] = []
            for word in rule.not_normalized:
                wid = word_id(word)
                blockers.append(wid)
            rule_not_ids.append(tuple(dict.fromkeys(blockers)))
        self.words: tuple[str, ...] = tuple(ids)
        self._any_rules = tuple(tuple(r) for r in any_rules)
        self._rule_any_ids = tuple(rule_any_ids)
        self._rule_not_ids = tuple(rule_not_ids)
        automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
        for word, wid in ids.items():
            automaton.add_word(word, wid)
        if ids:
            automaton.make_automaton()
        self._automaton = automaton if ids else None

    def occurring(self, normalized: str) -> set[int]:
        """Ids of the words that occur in the normalized text (overlaps included)."""
        if self._automaton is None or not normalized:
            return set()
        return {wid for _, wid in self._automaton.iter(normalized)}

    def rules_with_any(self, word_id: int) -> tuple[int, ...]:
        """Positions (ascending) of the rules listing word ``word_id`` under ``any``."""
        return self._any_rules[word_id]

    def first_match(self, normalized: str) -> tuple[int, int] | None:
        """``(rule position, matched word id)`` of the first matching rule, or None."""
        found = self.occurring(normalized)
        if not found:
            return None
        rule_not_ids = self._rule_not_ids
        best = len(self.rules)
        for wid in found:
            for position in self._any_rules[wid]:
                if position >= best:
                    break
                blockers = rule_not_ids[position]
                if not blockers or found.isdisjoint(blockers):
                    best = position
                    break
        if best == len(self.rules):
            return None
        matched = next(wid for wid in self._rule_any_ids[best] if wid in found)
        return best, matched

    def match(self, normalized: str) -> RuleMatch | None:
        """The seed's ``judgeByRules`` on an already-normalized question."""
        hit = self.first_match(normalized)
        if hit is None:
            return None
        position, wid = hit
        rule = self.rules[position]
        word = rule.any[self._rule_any_ids[position].index(wid)]
        return RuleMatch(rule, word)


def judge_by_rules(question: object, table: RuleTable) -> RuleMatch | None:
    """The first rule of ``table`` that matches ``question``, or None (no verdict).

    A question that is not a string, or normalizes to "", gets no verdict.

    >>> from sadame.judge import parse_table
    >>> t = parse_table({"format": "sadame.rules/1", "name": "t", "answers": ["NO"],
    ...                  "rules": [{"any": ["キャッシュ"], "not": ["ブラウザ"], "answer": "NO"}]})
    >>> judge_by_rules("ｷｬｯｼｭが残ってるとか？", t).rule.answer
    'NO'
    >>> judge_by_rules("ブラウザキャッシュの可能性は？", t) is None
    True
    """
    if not isinstance(table, RuleTable):
        raise TypeError(f"judge_by_rules expects a RuleTable, got {type(table).__name__}")
    normalized = normalize_question(question)
    if not normalized:
        return None
    return compile_table(table).match(normalized)


@lru_cache(maxsize=1024)
def _normalized_groups(solution: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    groups: list[tuple[str, ...]] = []
    for g, group in enumerate(solution):
        words: list[str] = []
        for word in group:
            if not isinstance(word, str):
                raise TypeError(f"solution group {g}: words must be str, got {type(word).__name__}")
            norm = normalize(word, preset=_PRESET)
            if not norm:
                raise ValueError(
                    f"solution group {g}: word {word!r} normalizes to the empty string "
                    "(it would match every answer)"
                )
            words.append(norm)
        groups.append(tuple(words))
    return tuple(groups)


def check_answer(answer: object, solution: Sequence[Sequence[str]]) -> AnswerCheck:
    """The seed's ``checkSolution``: AND across groups, OR within a group.

    A :class:`Solution` of a natural-mode puzzle (format 2) is graded in natural
    mode instead (see :func:`sadame.judge.engine._answer.natural_check`).

    >>> solution = [["大文字", "小文字", "case", "ケース"], ["ファイル名", "名前", "命名", "パス"]]
    >>> check_answer("大文字小文字の違い", solution)
    AnswerCheck(correct=False, matched=1, total=2, matched_groups=(0,), advice=None)
    >>> check_answer("ファイル名の大文字と小文字が食い違ってた", solution).correct
    True
    """
    if isinstance(solution, str):
        raise TypeError("solution must be a sequence of word groups, not a str")
    if any(isinstance(group, str) for group in solution):
        raise TypeError("each solution group must be a sequence of words, not a str")
    if isinstance(solution, Solution) and solution.matching == "natural":
        return natural_check(answer, solution)
    frozen = tuple(tuple(group) for group in solution)
    groups = _normalized_groups(frozen)
    normalized = normalize_question(answer)
    matched = tuple(
        g for g, words in enumerate(groups) if normalized and any(w in normalized for w in words)
    )
    return AnswerCheck(
        correct=bool(groups) and len(matched) == len(groups),
        matched=len(matched),
        total=len(groups),
        matched_groups=matched,
    )


def compile_table(table: RuleTable) -> CompiledTable:
    """The Aho-Corasick matcher over all of ``table``'s normalized words, built on first use
    and cached on the (immutable) table."""
    compiled: CompiledTable | None = table.__dict__.get(_COMPILED_ATTR)
    if compiled is None:
        compiled = CompiledTable(table.rules)
        object.__setattr__(table, _COMPILED_ATTR, compiled)
    return compiled
