"""``sadame rules probe``: mutate the details of each puzzle's true questions and report
every mutated (false) question the table still confirms.

The true questions are the puzzle's natural questions and examples that expect YES, are
not polarity exercises, and are answered YES today. Each is mutated in every way that
applies (:data:`KINDS`): a number changed, a unit, season, date, direction, actor or
frequency word swapped for another (``data/judge/probe.yaml``), the proposition denied
(「〜わけではない？」), or two of its rule phrases swapped (cause and effect reversed). A
mutated question the judge answers はい is a finding: the table confirms a false detail
(write a fact that denies it, format 3). A mutation that happens to be true is rare; the
finding names the mutation so that the author can see it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise

from sadame.judge.engine._judge import Judge
from sadame.judge.engine._loader import parse_yaml
from sadame.judge.engine._model import PuzzlePack, RuleTable
from sadame.judge.engine._natural import clean, natural_match

__all__ = ["KINDS", "ProbeFinding", "ProbeReport", "mutations", "probe_table"]

KINDS = ("number", "unit", "date", "season", "direction", "actor", "frequency", "negation", "cause")
_POLARITY_TAGS = frozenset({"negation", "suggestion", "confirm-neg", "double-negation"})
_NUMBER = re.compile(r"[0-9０-９]+")
_ENDING = re.compile(r"(のでしょうか|でしょうか|ですか|ますか|の|か|かな)?[？?]*$")


@dataclass(frozen=True, slots=True)
class ProbeFinding:
    """A mutated question that the table still answers YES."""

    puzzle: str | None
    kind: str
    original: str
    mutated: str
    rule: str | None

    def render(self) -> str:
        where = f"[{self.puzzle}] " if self.puzzle else ""
        return f"CONFIRMED {where}{self.kind}: {self.mutated!r} (from {self.original!r}; rule {self.rule})"


@dataclass(frozen=True, slots=True)
class ProbeReport:
    """Every finding, and how many true questions and mutations were tried."""

    findings: tuple[ProbeFinding, ...]
    questions: int
    mutations: int

    @property
    def ok(self) -> bool:
        return not self.findings

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok, "questions": self.questions, "mutations": self.mutations,
            "findings": [{"puzzle": f.puzzle, "kind": f.kind, "original": f.original, "mutated": f.mutated,
                          "rule": f.rule} for f in self.findings],
        }


@cache
def _pairs() -> Mapping[str, tuple[tuple[str, str], ...]]:
    resource = resources.files("sadame") / "data" / "judge" / "probe.yaml"
    data = parse_yaml(resource.read_text("utf-8"), "probe.yaml")
    assert isinstance(data, dict)
    out: dict[str, tuple[tuple[str, str], ...]] = {}
    for kind, pairs in data.items():
        both = [(str(a), str(b)) for a, b in pairs] + [(str(b), str(a)) for a, b in pairs]
        out[str(kind)] = tuple(both)
    return out


def _number(question: str) -> Iterator[str]:
    found = _NUMBER.search(question)
    if found:
        value = int(clean(found.group()))
        yield question[: found.start()] + str(value + 1 if value != 1 else 3) + question[found.end():]


def _negation(question: str) -> Iterator[str]:
    stem = _ENDING.sub("", question.strip())
    if stem and not stem.endswith(("ない", "なかった", "ません")):
        yield f"{stem}わけではない？"


_BEFORE_PHRASE = frozenset("はがをにのでともへや、 ")
_CAUSAL = re.compile(r"^(のせいで|が原因で|のために|のため|によって|から|ので)")


def _cause(question: str, table: RuleTable) -> Iterator[str]:
    """「AのせいでBが…」 -> 「BのせいでAが…」: two rule phrases around a causal marker swapped."""
    hits = sorted({(h.begin, h.end) for h in natural_match(question, table).candidates})
    text = clean(question)
    for (b1, e1), (b2, e2) in pairwise(hits):
        marker = _CAUSAL.match(text[e1:b2])
        starts_word = b1 == 0 or text[b1 - 1] in _BEFORE_PHRASE
        if marker and starts_word and text[b1:e1] != text[b2:e2] and len(text[e1:b2]) <= len(marker.group()) + 2:
            yield text[:b1] + text[b2:e2] + text[e1:b2] + text[b1:e1] + text[e2:]
            return


def mutations(question: str, table: RuleTable) -> Iterator[tuple[str, str]]:
    """(kind, mutated question) for every mutation that applies to ``question``."""
    for mutated in _number(question):
        yield "number", mutated
    for kind, pairs in _pairs().items():
        for old, new in pairs:
            if old in question and new not in question:
                yield kind, question.replace(old, new, 1)
                break
    for mutated in _negation(question):
        yield "negation", mutated
    if table.matching == "natural":
        for mutated in _cause(question, table):
            yield "cause", mutated


def _true_questions(table: RuleTable) -> list[str]:
    asked = [q.q for q in table.questions if q.expect == "YES" and not _POLARITY_TAGS & set(q.tags)]
    asked += [e.q for e in table.examples if e.expect == "YES"]
    return list(dict.fromkeys(asked))


def _probe_one(table: RuleTable, name: str | None) -> tuple[list[ProbeFinding], int, int]:
    judge = Judge(table)
    findings: list[ProbeFinding] = []
    tried = 0
    originals = [q for q in _true_questions(table) if judge.ask(q).verdict == "YES"]
    for original in originals:
        for kind, mutated in mutations(original, table):
            tried += 1
            result = judge.ask(mutated)
            if result.verdict == "YES":
                rule = table.rules[result.rule_index].label if result.rule_index is not None else None
                findings.append(ProbeFinding(name, kind, original, mutated, rule))
    return findings, len(originals), tried


def probe_table(table: RuleTable | PuzzlePack, puzzles: Iterable[str] | None = None) -> ProbeReport:
    """Probe a table, or the puzzles of a pack (all, or those named)."""
    targets: Sequence[tuple[RuleTable, str | None]]
    if isinstance(table, PuzzlePack):
        chosen = list(puzzles) if puzzles is not None else list(table.puzzles)
        targets = [(table.puzzle(pid).table, pid) for pid in chosen]
    elif isinstance(table, RuleTable):
        targets = [(table, None)]
    else:
        raise TypeError(f"probe_table expects a RuleTable or PuzzlePack, got {type(table).__name__}")
    findings: list[ProbeFinding] = []
    questions = tried = 0
    for target, name in targets:
        found, asked, count = _probe_one(target, name)
        findings.extend(found)
        questions += asked
        tried += count
    return ProbeReport(tuple(findings), questions, tried)
