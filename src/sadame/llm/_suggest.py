"""``sadame rules suggest``: cached LLM verdicts as candidate rules for the author.

Every verdict the fallback gave is in the cache. Listed per puzzle, as a YAML
snippet that pastes under ``rules:``, they let the table learn from the LLM:
each accepted rule is one question the LLM is never asked again. Questions the
current rules already answer are left out (the author accepted them already,
or a later rule covers them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import yaml

from sadame.llm._cache import CachedVerdict, VerdictCache, question_hash

__all__ = ["RuleSuggestion", "render_suggestions", "suggest_rules"]


@dataclass(frozen=True)
class RuleSuggestion:
    """A cached verdict proposed as a rule: the first question, the verdict, how often it was asked."""

    puzzle_id: str | None
    question: str
    normalized: str
    verdict: str
    model: str
    hits: int
    table_version: str

    @property
    def rule_id(self) -> str:
        """A stable id for the proposed rule: ``llm-`` + 8 hex of the normalized question."""
        return "llm-" + question_hash(self.normalized)[:8]

    def to_rule(self) -> dict[str, object]:
        """The rule in the table file's shape."""
        return {"id": self.rule_id, "any": [self.question], "answer": self.verdict}

    def to_dict(self) -> dict[str, object]:
        return {
            "puzzle_id": self.puzzle_id,
            "question": self.question,
            "normalized": self.normalized,
            "verdict": self.verdict,
            "model": self.model,
            "asked": self.hits + 1,
            "table_version": self.table_version,
            "rule": self.to_rule(),
        }


def _from_cached(entry: CachedVerdict) -> RuleSuggestion:
    return RuleSuggestion(
        puzzle_id=entry.puzzle_id,
        question=entry.question,
        normalized=entry.normalized,
        verdict=entry.verdict,
        model=entry.model,
        hits=entry.hits,
        table_version=entry.table_version,
    )


def suggest_rules(table: object, cache: VerdictCache, *, all_versions: bool = False) -> list[RuleSuggestion]:
    """Cached LLM verdicts for ``table`` (a ``RuleTable`` or ``PuzzlePack``) not yet covered by its rules.

    By default only verdicts given under the table's current version count
    (older ones were judged against other rules); ``all_versions`` lists every
    version's, matched by table name and puzzle id.
    """
    from sadame.judge import PuzzlePack, RuleTable
    from sadame.judge.engine._engine import judge_by_rules

    targets: list[tuple[RuleTable, str | None]]
    if isinstance(table, PuzzlePack):
        targets = [(p.table, p.id) for p in table.puzzles.values()]
    elif isinstance(table, RuleTable):
        targets = [(table, None)]
    else:
        raise TypeError(f"suggest_rules expects a RuleTable or PuzzlePack, got {type(table).__name__}")
    found: list[RuleSuggestion] = []
    for rules, puzzle_id in targets:
        if all_versions:
            entries = cache.entries(table_name=rules.name)
        else:
            entries = cache.entries(table_version=rules.version)
        seen: set[str] = set()
        for entry in entries:
            if entry.puzzle_id != puzzle_id or entry.verdict not in rules.answers:
                continue
            if entry.normalized in seen or judge_by_rules(entry.question, rules) is not None:
                continue
            seen.add(entry.normalized)
            found.append(_from_cached(entry))
    return found


def render_suggestions(suggestions: Sequence[RuleSuggestion], *, table_name: str) -> str:
    """A YAML snippet, grouped by puzzle, that pastes under each puzzle's ``rules:``."""
    if not suggestions:
        return f"# {table_name}: no cached LLM verdicts to suggest\n"
    out = [
        f"# {table_name}: {len(suggestions)} candidate rule(s) from the LLM verdict cache.",
        "# Review each verdict, shorten `any` to the key words, then paste above the",
        "# broader rules it must win against (first match wins).",
    ]
    current: object = object()
    for s in suggestions:
        if s.puzzle_id != current:
            current = s.puzzle_id
            out += ["", f"# puzzle: {s.puzzle_id}" if s.puzzle_id else "# rules:"]
        out.append(f"# asked {s.hits + 1} time(s); verdict by {s.model}")
        snippet = yaml.safe_dump(
            [s.to_rule()], allow_unicode=True, sort_keys=False, default_flow_style=None, width=1000
        )
        out.append(snippet.rstrip("\n"))
    return "\n".join(out) + "\n"
