"""Evaluation runs: a JSONL file of cases, checked by the same gates production uses.

One case per line::

    {"id": "bold-01", "source_path": "sources/adr.md", "preset": "quote",
     "quotes": [{"text": "安定性: 不足", "expect": "normalized", "expect_span": "**安定性**: 不足"},
                "expectation-free quotes are allowed too"],
     "claims": [{"text": "売上は1億2000万円", "expect": "grounded", "expect_grounded": [true]}],
     "note": "what the case is about"}

* ``source`` (inline text) or ``source_path`` (relative to the JSONL file) -- exactly one.
* ``quotes`` and/or ``claims``: strings, or objects with ``text`` and optional
  expectations: ``expect`` (a quote status, or for claims a claim status),
  ``expect_span`` (the original text of the first span), ``expect_grounded``
  (one boolean per numeric expression of the claim, in order). For claims, ``expect``
  may also be ``true`` (= ``grounded``) or ``false`` (anything but ``grounded``).
  For quotes, ``faithful`` (a boolean) says whether the quote really is the source's
  text; the report then counts *right* (faithful and found at the expected span, or
  not faithful and missing), *wrong* (not faithful but verified -- a false find -- or
  found at another span) and *no answer* (faithful but not found).
* optional: ``preset`` (default ``decoration``), ``fuzzy``, ``threshold``, ``kinds``, ``note``.

Blank lines and lines starting with ``#`` are ignored. A malformed line is an
:class:`EvalFileError` naming the file and line; an unmet expectation is a failure
in the report (the CLI exits non-zero).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sadame._datafile import DataFileError, read_jsonl
from sadame.quote._errors import EvalFileError, GateInputError
from sadame.quote._gates import Gate, GateReport, claims_gate, quote_list_gate
from sadame.quote._ground import CLAIM_STATUSES, ClaimResult
from sadame.quote._verify import QUOTE_STATUSES, QuoteResult, QuoteVerifier

__all__ = ["CaseResult", "EvalCase", "EvalItem", "EvalReport", "load_cases", "run_case", "run_eval"]

_CASE_KEYS = frozenset(
    {"id", "source", "source_path", "quotes", "claims", "preset", "fuzzy", "threshold", "kinds", "note"}
)
_ITEM_KEYS = frozenset({"text", "expect", "expect_span", "expect_grounded", "faithful", "note"})


@dataclass(frozen=True, slots=True)
class EvalItem:
    """A quote or claim of a case with its optional expectations."""

    text: Any
    expect: str | None = None
    expect_span: str | None = None
    expect_grounded: tuple[bool, ...] | None = None
    faithful: bool | None = None


@dataclass(frozen=True, slots=True)
class EvalCase:
    """One line of an evaluation file."""

    id: str
    line: int
    source: str
    quotes: tuple[EvalItem, ...]
    claims: tuple[EvalItem, ...]
    preset: str = "quote"
    fuzzy: bool = False
    threshold: float | None = None
    kinds: tuple[str, ...] | None = None
    note: str = ""

    def gates(self) -> tuple[Gate, Gate]:
        """The production gates this case runs through."""
        return (
            quote_list_gate(name="quotes", preset=self.preset, fuzzy=self.fuzzy, threshold=self.threshold),
            claims_gate(name="numbers", kinds=self.kinds),
        )


@dataclass(frozen=True, slots=True)
class CaseResult:
    """The gates' reports for one case and every expectation it failed."""

    case: EvalCase
    quotes: GateReport | None
    claims: GateReport | None
    checked: int
    failures: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.failures

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "line": self.case.line,
            "note": self.case.note,
            "passed": self.passed,
            "checked": self.checked,
            "failures": list(self.failures),
            "quotes": self.quotes.to_dict() if self.quotes else None,
            "claims": self.claims.to_dict() if self.claims else None,
        }


@dataclass(frozen=True, slots=True)
class EvalReport:
    """All case results of one file and the totals."""

    path: str
    cases: tuple[CaseResult, ...]

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.cases)

    def summary(self) -> dict[str, Any]:
        """Totals: cases, expectations, and counts per status over all quotes and claims."""
        quote_counts = dict.fromkeys(QUOTE_STATUSES, 0)
        claim_counts = dict.fromkeys(CLAIM_STATUSES, 0)
        for c in self.cases:
            for report, counts in ((c.quotes, quote_counts), (c.claims, claim_counts)):
                if report is not None:
                    for status, n in report.summary.counts.items():
                        counts[status] = counts.get(status, 0) + n
        failures = sum(len(c.failures) for c in self.cases)
        checked = sum(c.checked for c in self.cases)
        return {
            "cases": len(self.cases),
            "cases_passed": sum(c.passed for c in self.cases),
            "expectations": checked,
            "expectations_met": checked - failures,
            "quotes": quote_counts,
            "claims": claim_counts,
            "faithfulness": self.faithfulness(),
        }

    def faithfulness(self) -> dict[str, int]:
        """Right / wrong / no-answer counts over the quotes marked ``faithful`` (true or false)."""
        tally = dict.fromkeys(
            ("faithful", "faithful_found", "near_misses", "false_finds", "right", "wrong", "no_answer"), 0
        )
        for case in self.cases:
            if case.quotes is None:
                continue
            for item, gate_item in zip(case.case.quotes, case.quotes.items, strict=True):
                if item.faithful is not None:
                    _tally(tally, item, gate_item.result)
        return tally

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "passed": self.passed,
            "summary": self.summary(),
            "cases": [c.to_dict() for c in self.cases],
        }


def _tally(tally: dict[str, int], item: EvalItem, result: QuoteResult | ClaimResult) -> None:
    found = result.verified
    span = result.span.text if isinstance(result, QuoteResult) and result.span else None
    span_ok = item.expect_span is None or span == item.expect_span
    if item.faithful:
        tally["faithful"] += 1
        tally["faithful_found"] += found
        outcome = "no_answer" if not found else "right" if span_ok else "wrong"
    else:
        tally["near_misses"] += 1
        tally["false_finds"] += found
        outcome = "wrong" if found else "right"
    tally[outcome] += 1


# -- loading ------------------------------------------------------------------------


def _fail(path: Path, line: int, message: str) -> EvalFileError:
    return EvalFileError(f"{path}:{line}: {message}")


def _item(raw: Any, what: str, statuses: tuple[str, ...], path: Path, line: int) -> EvalItem:
    if isinstance(raw, str):
        return EvalItem(raw)
    if not isinstance(raw, dict) or "text" not in raw:
        raise _fail(path, line, f"each of {what} must be a string or an object with 'text'")
    unknown = set(raw) - _ITEM_KEYS
    if unknown:
        raise _fail(path, line, f"unknown key(s) in {what}: {', '.join(sorted(unknown))}")
    expect = raw.get("expect")
    if isinstance(expect, bool) and what == "claims":
        expect = "grounded" if expect else "not-grounded"
    if expect is not None and expect not in statuses and expect != "not-grounded":
        raise _fail(path, line, f"expect {expect!r} is not one of {', '.join(statuses)}")
    span = raw.get("expect_span")
    if span is not None and not isinstance(span, str):
        raise _fail(path, line, "expect_span must be a string")
    grounded = raw.get("expect_grounded")
    if grounded is not None and (
        not isinstance(grounded, list) or not all(isinstance(g, bool) for g in grounded)
    ):
        raise _fail(path, line, "expect_grounded must be a list of booleans")
    faithful = raw.get("faithful")
    if faithful is not None and (not isinstance(faithful, bool) or what != "quotes"):
        raise _fail(path, line, "faithful must be a boolean, on quotes only")
    return EvalItem(raw["text"], expect, span, tuple(grounded) if grounded is not None else None, faithful)


def _case(data: Any, path: Path, line: int, sources: dict[Path, str]) -> EvalCase:
    if not isinstance(data, dict):
        raise _fail(path, line, "a case must be a JSON object")
    unknown = set(data) - _CASE_KEYS
    if unknown:
        raise _fail(path, line, f"unknown key(s): {', '.join(sorted(unknown))}")
    if ("source" in data) == ("source_path" in data):
        raise _fail(path, line, "give exactly one of 'source' and 'source_path'")
    if "source" in data:
        source = data["source"]
        if not isinstance(source, str):
            raise _fail(path, line, "'source' must be a string")
    else:
        source_path = (path.parent / str(data["source_path"])).resolve()
        if source_path not in sources:
            try:
                sources[source_path] = source_path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise _fail(path, line, f"cannot read source_path {data['source_path']!r}: {exc}") from None
        source = sources[source_path]
    quotes, claims = data.get("quotes", []), data.get("claims", [])
    if not isinstance(quotes, list) or not isinstance(claims, list):
        raise _fail(path, line, "'quotes' and 'claims' must be lists")
    if not quotes and not claims:
        raise _fail(path, line, "a case needs 'quotes' or 'claims'")
    kinds = data.get("kinds")
    if kinds is not None and (not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds)):
        raise _fail(path, line, "'kinds' must be a list of numeric kinds")
    case = EvalCase(
        id=str(data.get("id", f"line {line}")),
        line=line,
        source=source,
        quotes=tuple(_item(q, "quotes", QUOTE_STATUSES, path, line) for q in quotes),
        claims=tuple(_item(c, "claims", CLAIM_STATUSES, path, line) for c in claims),
        preset=str(data.get("preset", "quote")),
        fuzzy=bool(data.get("fuzzy", False)),
        threshold=data.get("threshold"),
        kinds=tuple(kinds) if isinstance(kinds, list) else None,
        note=str(data.get("note", "")),
    )
    try:
        case.gates()
        QuoteVerifier("", case.preset, fuzzy=case.fuzzy, threshold=case.threshold)
    except (ValueError, TypeError) as exc:
        raise _fail(path, line, str(exc)) from None
    return case


def load_cases(path: str | Path) -> list[EvalCase]:
    """Read and validate every case of a JSONL file."""
    path = Path(path)
    try:
        rows = list(read_jsonl(path, comments=True))
    except DataFileError as exc:
        raise EvalFileError(str(exc)) from None
    sources: dict[Path, str] = {}
    cases: list[EvalCase] = []
    seen: set[str] = set()
    for number, data in rows:
        case = _case(data, path, number, sources)
        if case.id in seen:
            raise _fail(path, number, f"duplicate case id {case.id!r}")
        seen.add(case.id)
        cases.append(case)
    if not cases:
        raise EvalFileError(f"{path}: no cases")
    return cases


# -- running ------------------------------------------------------------------------


def _check_quote(i: int, item: EvalItem, result: QuoteResult) -> list[str]:
    failures: list[str] = []
    label = f"quote {i + 1} {result.quote!r}"
    if item.expect is not None and result.status != item.expect:
        failures.append(
            f"{label}: expected {item.expect}, got {result.status} ({result.reason or 'no reason'})"
        )
    if item.expect_span is not None:
        got = result.span.text if result.span else None
        if got != item.expect_span:
            failures.append(f"{label}: expected span {item.expect_span!r}, got {got!r}")
    return failures


def _check_claim(i: int, item: EvalItem, result: ClaimResult) -> list[str]:
    failures: list[str] = []
    label = f"claim {i + 1} {result.claim!r}"
    if item.expect == "not-grounded":
        if result.verified:
            failures.append(f"{label}: expected not grounded, got {result.status}")
    elif item.expect is not None and result.status != item.expect:
        failures.append(
            f"{label}: expected {item.expect}, got {result.status} ({result.reason or 'no reason'})"
        )
    if item.expect_grounded is not None:
        got = tuple(n.grounded for n in result.numbers)
        if got != item.expect_grounded:
            texts = [n.mention.text for n in result.numbers]
            failures.append(
                f"{label}: expected grounded {list(item.expect_grounded)}, got {list(got)} for {texts}"
            )
    return failures


def _count(item: EvalItem) -> int:
    return sum(x is not None for x in (item.expect, item.expect_span, item.expect_grounded))


def run_case(case: EvalCase) -> CaseResult:
    """Run one case through the production gates and compare with its expectations."""
    quote_gate, claim_gate = case.gates()
    failures: list[str] = []
    quotes = claims = None
    try:
        if case.quotes:
            quotes = quote_gate.check(case.source, [q.text for q in case.quotes])
            for i, (item, gi) in enumerate(zip(case.quotes, quotes.items, strict=True)):
                assert isinstance(gi.result, QuoteResult)
                failures.extend(_check_quote(i, item, gi.result))
        if case.claims:
            claims = claim_gate.check(case.source, [c.text for c in case.claims])
            for i, (item, gi) in enumerate(zip(case.claims, claims.items, strict=True)):
                assert isinstance(gi.result, ClaimResult)
                failures.extend(_check_claim(i, item, gi.result))
    except GateInputError as exc:
        failures.append(str(exc))
    checked = sum(_count(i) for i in (*case.quotes, *case.claims))
    return CaseResult(case, quotes, claims, checked, tuple(failures))


def run_eval(path: str | Path) -> EvalReport:
    """Load ``path`` and run every case (raises :class:`EvalFileError` on a malformed file)."""
    return EvalReport(str(path), tuple(run_case(c) for c in load_cases(path)))
