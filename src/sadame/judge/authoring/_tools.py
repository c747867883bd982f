"""Tools for table authors: lint, example tests and coverage.

Lint codes (``error`` makes ``sadame rules lint`` exit 1; ``warning`` does not):

=====  =======  ===============================================================
code   level    meaning
=====  =======  ===============================================================
J001   error    unreachable rule: an earlier rule without ``not`` has an ``any``
                word contained in every ``any`` word of this rule
J002   error    every ``any`` word contains one of the rule's own ``not`` words,
                so the rule can never fire
J003   warning  the same word twice in a rule's ``any``/``not`` list after
                normalization (キャッシュ / きゃっしゅ)
J004   warning  a word that can never matter: an ``any`` word containing one of
                the rule's ``not`` words (it only ever occurs blocked), an ``any``
                word containing another ``any`` word of the rule, a ``not`` word
                containing another ``not`` word of the rule
J005   error    the same word in two solution groups (one word satisfies two
                concepts, so the AND is weaker than it looks)
J006   warning  a solution word contained in a word of another group
=====  =======  ===============================================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import ahocorasick

from sadame.judge.authoring._lint_facts import broad_solution_findings, fact_findings, grammar_findings
from sadame.judge.authoring._lint_natural import hint_leaks, natural_rule_findings, note_leaks
from sadame.judge.engine._engine import check_answer, compile_table, judge_by_rules
from sadame.judge.engine._judge import Judge
from sadame.judge.engine._model import Puzzle, PuzzlePack, Rule, RuleTable
from sadame.normalize import normalize

__all__ = [
    "CoverageReport",
    "ExampleFailure",
    "ExampleReport",
    "LintFinding",
    "LintReport",
    "coverage",
    "lint_table",
    "run_examples",
]

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class LintFinding:
    """One lint finding, located by puzzle and rule."""

    code: str
    severity: Severity
    message: str
    puzzle: str | None = None
    rule_index: int | None = None
    rule_id: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code, "severity": self.severity, "message": self.message,
            "puzzle": self.puzzle, "rule_index": self.rule_index, "rule_id": self.rule_id,
        }

    def render(self) -> str:
        where = [f"puzzle {self.puzzle}"] if self.puzzle else []
        if self.rule_index is not None:
            where.append(f"rule #{self.rule_index}" + (f" ({self.rule_id})" if self.rule_id else ""))
        prefix = (": ".join(where) + ": ") if where else ""
        return f"{self.severity.upper():7} {self.code} {prefix}{self.message}"


@dataclass(frozen=True)
class LintReport:
    findings: tuple[LintFinding, ...]

    @property
    def errors(self) -> tuple[LintFinding, ...]:
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> tuple[LintFinding, ...]:
        return tuple(f for f in self.findings if f.severity == "warning")

    @property
    def ok(self) -> bool:
        """No errors (warnings allowed)."""
        return not self.errors

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok, "errors": len(self.errors), "warnings": len(self.warnings),
            "findings": [f.to_dict() for f in self.findings],
        }


def _contained(texts: Sequence[str], words: Sequence[str], *, proper: bool) -> list[int | None]:
    """For each text, the lowest index ``j`` with ``words[j]`` inside it (and, when
    ``proper``, not equal to it), or None: what ``next(j for j, w in enumerate(words)
    if w in text)`` gives, in time linear in the input plus the matches (one
    Aho-Corasick automaton instead of every pair)."""
    first: dict[str, int] = {}
    for j, word in enumerate(words):
        first.setdefault(word, j)
    empty = first.get("")
    automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
    for word, j in first.items():
        if word:
            automaton.add_word(word, j)
    if len(automaton):
        automaton.make_automaton()
    found: list[int | None] = []
    for text in texts:
        hits = {j for _end, j in automaton.iter(text)} if len(automaton) and text else set()
        if empty is not None and not (proper and text == ""):
            hits.add(empty)
        if proper:
            hits.discard(first.get(text, -1))
        found.append(min(hits) if hits else None)
    return found


def _rule_findings(table: RuleTable, puzzle: str | None) -> Iterable[LintFinding]:
    compiled = compile_table(table)
    natural = table.matching == "natural"

    def finding(code: str, severity: Severity, message: str, rule: Rule) -> LintFinding:
        return LintFinding(code, severity, message, puzzle, rule.index, rule.id)

    for rule in table.rules:
        for label, words, norms in (("any", rule.any, rule.any_normalized), ("not", rule.not_, rule.not_normalized)):
            first: dict[str, str] = {}
            for word, norm in zip(words, norms, strict=True):
                if norm in first:
                    yield finding("J003", "warning", f"{label} words {first[norm]!r} and {word!r} are the same "
                                  f"after normalization ({norm!r})", rule)
                else:
                    first[norm] = word
        blocked_by = _contained(rule.any_normalized, rule.not_normalized, proper=False)
        blocked = {i for i, by in enumerate(blocked_by) if by is not None}
        if blocked and len(blocked) == len(rule.any_normalized):
            yield finding("J002", "error", "every any word contains one of the rule's not words "
                          f"({', '.join(rule.not_)}): the rule can never fire", rule)
        else:
            for i in sorted(blocked):
                by = rule.not_[blocked_by[i] or 0]
                yield finding("J004", "warning", f"any word {rule.any[i]!r} contains not word {by!r}: "
                              "it can only ever occur blocked", rule)
        if natural:
            continue  # substring shadowing (J004 containment, J001) does not hold on token boundaries
        for label, words, norms in (("any", rule.any, rule.any_normalized), ("not", rule.not_, rule.not_normalized)):
            for i, inner in enumerate(_contained(norms, norms, proper=True)):
                if inner is not None and not (label == "any" and i in blocked):
                    yield finding("J004", "warning", f"{label} word {words[i]!r} contains {label} word "
                                  f"{words[inner]!r} of the same rule: it never changes the result", rule)
        # J001: shadowed by an earlier rule without `not`.
        if rule.any_normalized:
            shadow: int | None = None
            for wid in compiled.occurring(rule.any_normalized[0]):
                for earlier in compiled.rules_with_any(wid):
                    if earlier >= rule.index or (shadow is not None and earlier >= shadow):
                        break
                    if table.rules[earlier].not_normalized:
                        continue
                    word = compiled.words[wid]
                    if all(word in a for a in rule.any_normalized):
                        shadow = earlier
                        break
            if shadow is not None:
                by_rule = table.rules[shadow]
                word = next(w for w, n in zip(by_rule.any, by_rule.any_normalized, strict=True)
                            if all(n in a for a in rule.any_normalized))
                yield finding("J001", "error", f"unreachable: rule {by_rule.label} (no not words) matches "
                              f"first on {word!r}, which every any word of this rule contains; "
                              "move the more specific rule up", rule)


def _solution_findings(puzzle: Puzzle) -> Iterable[LintFinding]:
    groups = [[(w, normalize(w, preset="judge")) for w in group] for group in puzzle.solution]
    for g, group in enumerate(groups):
        for h in range(len(groups)):
            if h == g:
                continue
            for word, norm in group:
                for other, onorm in groups[h]:
                    if norm == onorm and g < h:
                        yield LintFinding("J005", "error", f"solution groups {g} and {h} share the word "
                                          f"{word!r}/{other!r}", puzzle.id)
                    elif norm != onorm and norm in onorm:
                        yield LintFinding("J006", "warning", f"solution group {g} word {word!r} is contained "
                                          f"in group {h} word {other!r}: an answer with {other!r} satisfies "
                                          "both groups", puzzle.id)


def _natural_findings(table: RuleTable, puzzle: Puzzle | None, pack: PuzzlePack | None) -> Iterable[LintFinding]:
    """J101-J110 (see :mod:`sadame.judge.authoring._lint_natural`), as warnings."""
    found: list[tuple[str, str, Rule | None]] = []
    if table.matching == "natural":
        found.extend(natural_rule_findings(table))
        found.extend(fact_findings(table))
        found.extend(grammar_findings(table))
    if puzzle is not None and pack is not None:
        found.extend(note_leaks(puzzle, pack))
        found.extend(hint_leaks(puzzle))
        found.extend(broad_solution_findings(puzzle.solution))
    pid = puzzle.id if puzzle is not None else None
    for code, message, rule in found:
        yield LintFinding(code, "warning", message, pid, rule.index if rule else None, rule.id if rule else None)


def lint_table(table: RuleTable | PuzzlePack) -> LintReport:
    """Lint a rule table or every puzzle of a pack (rules, solution groups, and in
    natural mode short/split/shadowed words, note and hint leaks)."""
    findings: list[LintFinding] = []
    if isinstance(table, PuzzlePack):
        for puzzle in table.puzzles.values():
            findings.extend(_rule_findings(puzzle.table, puzzle.id))
            findings.extend(_solution_findings(puzzle))
            findings.extend(_natural_findings(puzzle.table, puzzle, table))
    elif isinstance(table, RuleTable):
        findings.extend(_rule_findings(table, None))
        findings.extend(_natural_findings(table, None, None))
    else:
        raise TypeError(f"lint_table expects a RuleTable or PuzzlePack, got {type(table).__name__}")
    return LintReport(tuple(findings))


# --------------------------------------------------------------------------- examples


@dataclass(frozen=True, slots=True)
class ExampleFailure:
    """An example whose result differs from what the table says it should be."""

    kind: Literal["question", "answer"]
    text: str
    expected: object
    got: object
    puzzle: str | None = None
    rule: str | None = None
    matched_word: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind, "puzzle": self.puzzle, "text": self.text, "expected": self.expected,
            "got": self.got, "rule": self.rule, "matched": self.matched_word,
        }

    def render(self) -> str:
        where = f"[{self.puzzle}] " if self.puzzle else ""
        fired = f" (rule {self.rule} on {self.matched_word!r})" if self.rule else " (no rule fired)"
        if self.kind == "answer":
            fired = ""
        return f"FAIL {where}{self.kind} {self.text!r}: expected {self.expected!r}, got {self.got!r}{fired}"


@dataclass(frozen=True)
class ExampleReport:
    total: int
    failures: tuple[ExampleFailure, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok, "total": self.total, "passed": self.total - len(self.failures),
            "failures": [f.to_dict() for f in self.failures],
        }


def rules_verdict(question: str, table: RuleTable) -> tuple[str | None, Rule | None, str | None]:
    """(verdict, rule, matched word) from the rules alone, in the table's matching
    mode; ``(None, None, None)`` when no rule gives a verdict."""
    if table.matching == "natural":
        result = Judge(table).ask(question)
        if not result.answered or result.rule_index is None:
            return None, None, None
        return result.verdict, table.rules[result.rule_index], result.matched_word
    hit = judge_by_rules(question, table)
    if hit is None:
        return None, None, None
    return hit.rule.answer, hit.rule, hit.matched_word


def _run_table_examples(table: RuleTable, puzzle: str | None) -> tuple[int, list[ExampleFailure]]:
    failures: list[ExampleFailure] = []
    for example in table.examples:
        got, rule, word = rules_verdict(example.q, table)
        if got != example.expect:
            failures.append(ExampleFailure(
                "question", example.q, example.expect, got, puzzle, rule.label if rule else None, word,
            ))
    return len(table.examples), failures


def run_examples(table: RuleTable | PuzzlePack) -> ExampleReport:
    """Run a table's ``examples`` (and each puzzle's ``answer_examples``)."""
    if isinstance(table, RuleTable):
        total, failures = _run_table_examples(table, None)
        return ExampleReport(total, tuple(failures))
    if not isinstance(table, PuzzlePack):
        raise TypeError(f"run_examples expects a RuleTable or PuzzlePack, got {type(table).__name__}")
    total, failures = 0, []
    for puzzle in table.puzzles.values():
        count, found = _run_table_examples(puzzle.table, puzzle.id)
        total += count
        failures.extend(found)
        for example in puzzle.answer_examples:
            total += 1
            check = check_answer(example.a, puzzle.solution)
            wrong = check.correct != example.correct or (
                example.matched is not None and check.matched != example.matched
            )
            if wrong:
                expected = {"correct": example.correct, "matched": example.matched}
                got = {"correct": check.correct, "matched": check.matched}
                failures.append(ExampleFailure("answer", example.a, expected, got, puzzle.id))
    return ExampleReport(total, tuple(failures))


# --------------------------------------------------------------------------- coverage


@dataclass(frozen=True)
class CoverageReport:
    """How often each rule fired over a list of questions."""

    questions: int
    misses: int
    counts: tuple[tuple[str | None, Rule, int], ...]  # (puzzle, rule, times fired)
    missed_questions: tuple[str, ...]

    @property
    def never_fired(self) -> tuple[tuple[str | None, Rule], ...]:
        return tuple((p, r) for p, r, n in self.counts if n == 0)

    def to_dict(self) -> dict[str, object]:
        return {
            "questions": self.questions,
            "hits": self.questions - self.misses,
            "misses": self.misses,
            "rules": [
                {"puzzle": p, "index": r.index, "id": r.id, "answer": r.answer, "fired": n}
                for p, r, n in self.counts
            ],
            "never_fired": [{"puzzle": p, "index": r.index, "id": r.id} for p, r in self.never_fired],
            "missed_questions": list(self.missed_questions),
        }


def coverage(
    table: RuleTable | PuzzlePack, questions: Sequence[tuple[str | None, str]] | Sequence[str]
) -> CoverageReport:
    """Judge every question and count which rules fired.

    For a pack each question is ``(puzzle_id, question)``; for a table a plain str
    (or ``(None, question)``). Unknown puzzle ids raise :class:`UnknownPuzzle`.
    """
    counter: Counter[tuple[str | None, int]] = Counter()
    missed: list[str] = []
    total = 0
    for item in questions:
        puzzle_id, question = (None, item) if isinstance(item, str) else item
        if isinstance(table, PuzzlePack):
            if puzzle_id is None:
                raise ValueError("questions for a puzzle pack need a puzzle id")
            target = table.puzzle(puzzle_id).table
        else:
            target, puzzle_id = table, None
        total += 1
        _, rule, _ = rules_verdict(question, target)
        if rule is None:
            missed.append(question)
        else:
            counter[(puzzle_id, rule.index)] += 1
    rows: list[tuple[str | None, Rule, int]] = []
    tables = (
        [(p.id, p.table) for p in table.puzzles.values()] if isinstance(table, PuzzlePack) else [(None, table)]
    )
    for pid, t in tables:
        rows.extend((pid, rule, counter[(pid, rule.index)]) for rule in t.rules)
    return CoverageReport(total, len(missed), tuple(rows), tuple(missed))
