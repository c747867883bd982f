"""Ruleset tooling, like the judge's: run a ruleset's examples, lint it against stored findings,
suggest canonical patterns from a tenant's findings for a person to review.

* :func:`test_ruleset` runs the ``examples`` of a format 2 ruleset (texts -> expected key,
  pairs that must or must not share a key, praise and problems);
* :func:`lint_ruleset` reports tokens that give one key to stored findings about different
  things (the subjects before their words differ), i.e. generic tokens that should carry a
  subject or be split;
* :func:`suggest_patterns` counts content lemmas of stored findings that no pattern covers,
  with example texts: candidates for new patterns. Nothing is written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from sadame.lang._findings import content_terms
from sadame.normalize import normalize
from sadame.track._meaning import SUBJECT_SEPARATOR, clean_markup, subject_of
from sadame.track._ruleset import Ruleset, is_positive, issue_key, strip_label
from sadame.track._transaction import DETECTIONS

__all__ = ["LintFinding", "RulesTestReport", "Suggestion", "lint_ruleset", "stored_texts", "suggest_patterns",
           "test_ruleset"]

#: Stored findings read per lint/suggest run (the most recent ones).
MAX_TEXTS = 5_000


@dataclass
class RulesTestReport:
    """How a ruleset's examples came out: ``passed`` counts and one line per failure."""

    passed: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "failures": list(self.failures), "ok": self.ok}


def _check(report: RulesTestReport, ok: bool, message: str) -> None:
    if ok:
        report.passed += 1
    else:
        report.failures.append(message)


def test_ruleset(rs: Ruleset) -> RulesTestReport:
    """Run every example of ``rs``; a format 1 ruleset has none (``passed == 0``)."""
    report = RulesTestReport()
    ex = rs.examples
    for text, want in ex.keys:
        got = issue_key(text, rs)
        _check(report, got == want, f"key of {text!r}: want {want!r}, got {got!r}")
    for a, b in ex.same:
        ka, kb = issue_key(a, rs), issue_key(b, rs)
        _check(report, ka == kb, f"same key expected: {a!r} -> {ka!r}, {b!r} -> {kb!r}")
    for a, b in ex.different:
        ka = issue_key(a, rs)
        _check(report, ka != issue_key(b, rs), f"different keys expected: {a!r} and {b!r} both -> {ka!r}")
    for text in ex.praise:
        _check(report, is_positive(text, rs), f"praise expected (filtered): {text!r}")
    for text in ex.problems:
        _check(report, not is_positive(text, rs), f"a problem expected (tracked): {text!r}")
    return report


test_ruleset.__test__ = False  # type: ignore[attr-defined]  # not a pytest test despite its name


def stored_texts(conn: Connection, tenant: str, limit: int = MAX_TEXTS) -> list[str]:
    """The tenant's most recent distinct problem findings (all users)."""
    d = DETECTIONS
    rows = conn.execute(select(d.c.text).where(d.c.tenant_id == tenant, d.c.kind == "issue")
                        .order_by(d.c.id.desc()).limit(limit * 2)).scalars()
    return list(dict.fromkeys(rows))[:limit]


@dataclass(frozen=True)
class LintFinding:
    """A token that gives one key to findings about different subjects."""

    token: str
    findings: int
    subjects: dict[str, int]
    examples: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _prepared(text: str, rs: Ruleset) -> str:
    return normalize(clean_markup(strip_label(clean_markup(text), rs)), preset="issue")


def lint_ruleset(rs: Ruleset, texts: Sequence[str], *, min_subjects: int = 2) -> list[LintFinding]:
    """Tokens without a subject in their keys whose stored findings name ``min_subjects`` or more
    different subjects (踏み込みが弱い and 握力が弱い under one ``insufficient_control``)."""
    seen: dict[str, tuple[Counter[str], list[str]]] = {}
    for text in texts:
        if is_positive(text, rs):
            continue
        key = issue_key(text, rs)
        norm = _prepared(text, rs)
        for pattern in rs.patterns:
            if pattern.token not in key.split("::") or not pattern.matches(norm):
                continue  # the token is absent, or present with its subject
            word = pattern.first_word(norm)
            subject = subject_of(norm, word, []) if word else None
            counter, examples = seen.setdefault(pattern.token, (Counter(), []))
            counter[subject or "-"] += 1
            if len(examples) < 5 and text not in examples:
                examples.append(text)
    out = [LintFinding(token, sum(c.values()), dict(c.most_common(10)), tuple(ex))
           for token, (c, ex) in seen.items() if len([s for s in c if s != "-"]) >= min_subjects]
    return sorted(out, key=lambda f: (-len(f.subjects), f.token))


@dataclass(frozen=True)
class Suggestion:
    """A frequent content lemma no pattern covers, with how often and where it occurs."""

    lemma: str
    count: int
    examples: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def suggest_patterns(rs: Ruleset, texts: Sequence[str], *, limit: int = 20, min_count: int = 2) -> list[Suggestion]:
    """Content lemmas of stored findings whose key no pattern made (the key is the text itself),
    most frequent first: words a person may turn into patterns."""
    counts: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    for text in texts:
        key = issue_key(text, rs)
        if any(p.token == key.split(SUBJECT_SEPARATOR)[0] for p in rs.patterns) or "::" in key:
            continue
        for lemma in sorted(content_terms(text[:2_000]).lemmas):
            counts[lemma] += 1
            bucket = examples.setdefault(lemma, [])
            if len(bucket) < 3:
                bucket.append(text)
    return [Suggestion(lemma, n, tuple(examples[lemma])) for lemma, n in counts.most_common(limit) if n >= min_count]
