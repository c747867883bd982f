"""A direct, naive port of seed 001's ``judgeByRules`` / ``checkSolution``.

Deliberately the seed's loops (normalize every word at every comparison, scan
every rule in order) so the compiled engine can be compared with it. The only
normalization used is the contract's ``judge`` preset, as everywhere in sadame.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sadame.normalize import normalize


def seed_normalize(text: object) -> str:
    if not isinstance(text, str):
        return ""
    return normalize(text, preset="judge")


def rule_matches(rule: Mapping[str, Any], q: str) -> bool:
    if any(seed_normalize(w) in q for w in rule.get("not", [])):
        return False
    return any(seed_normalize(w) in q for w in rule.get("any", []))


def judge_by_rules(question: object, rules: Sequence[Mapping[str, Any]]) -> tuple[int, str] | None:
    """(index of the first matching rule, first occurring any word) or None."""
    q = seed_normalize(question)
    if not q:
        return None
    for index, rule in enumerate(rules):
        if rule_matches(rule, q):
            word = next(str(w) for w in rule["any"] if seed_normalize(str(w)) in q)
            return index, word
    return None


def check_solution(answer: object, groups: Sequence[Sequence[str]]) -> tuple[bool, int, int]:
    a = seed_normalize(answer)
    matched = sum(1 for g in groups if any(seed_normalize(w) in a for w in g))
    return len(groups) > 0 and matched == len(groups), matched, len(groups)
