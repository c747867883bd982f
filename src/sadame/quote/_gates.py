"""Gates: named checks over a document, with per-item results and a summary.

A gate reads items out of a document (an LLM's JSON output, a list of quotes, a
list of claims), checks each against the source with :class:`QuoteVerifier` or
:class:`NumberIndex`, and reports. Gates pick a preset; they never normalize on
their own. Production code and ``sadame quote eval`` run the very same gates, so
the two cannot drift apart (seed 002's "byte-identical" contract, made structural).

Paths into JSON documents are dotted keys with ``[]`` (every element) or ``[N]``
(one element): ``evidence_spans[].text``, ``quotes[]``, ``answer.citations[0].quote``,
``[]`` (the document itself is a list). A path that leads nowhere for some element
(``evidence_spans[2]`` has no ``text``) yields an ``invalid`` item naming the path:
nothing is silently dropped. An empty list yields no items.

A gate passes when it has no items, or when its verified rate is at least
``min_verified_rate`` (default 1.0: every item verified).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sadame.quote._errors import GateInputError
from sadame.quote._ground import CLAIM_STATUSES, NUMERIC_KINDS, ClaimResult, NumberIndex, _kinds
from sadame.quote._verify import DEFAULT_MAX_SPANS, QUOTE_STATUSES, QuoteResult, QuoteVerifier

__all__ = [
    "Gate",
    "GateItem",
    "GateKind",
    "GateReport",
    "GateSummary",
    "claims_gate",
    "evidence_spans_gate",
    "extract_path",
    "quote_list_gate",
    "summarize",
]

GateKind = Literal["quotes", "claims"]

_SEGMENT = re.compile(r"(?P<key>[^.\[\]]*)(?P<index>(?:\[[0-9]*\])*)")
_INDEX = re.compile(r"\[([0-9]*)\]")


class _Missing:
    """Marks a path that leads nowhere; carries the reason."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _parse_path(path: str) -> list[str | int | None]:
    """``a.b[].c[0]`` -> ``["a", "b", None, "c", 0]`` (None = every element)."""
    if not isinstance(path, str) or not path.strip():
        raise GateInputError(f"a JSON path must be a non-empty string, got {path!r}")
    steps: list[str | int | None] = []
    for i, segment in enumerate(path.split(".")):
        match = _SEGMENT.fullmatch(segment)
        if match is None or (not match["key"] and not match["index"]) or (not match["key"] and i > 0):
            raise GateInputError(f"malformed JSON path {path!r} at segment {segment!r}")
        if match["key"]:
            steps.append(match["key"])
        for index in _INDEX.findall(match["index"]):
            steps.append(int(index) if index else None)
    return steps


def extract_path(document: Any, path: str) -> list[tuple[str, Any]]:
    """The values at ``path`` in a parsed JSON ``document``, each with its concrete path.

    Dead ends come back as values of a private marker type, which gates turn into
    ``invalid`` items; use :meth:`Gate.check` rather than this in production.

    >>> extract_path({"quotes": ["a", "b"]}, "quotes[]")
    [('quotes[0]', 'a'), ('quotes[1]', 'b')]
    """
    nodes: list[tuple[str, Any]] = [("", document)]
    for step in _parse_path(path):
        next_nodes: list[tuple[str, Any]] = []
        for where, value in nodes:
            if isinstance(value, _Missing):
                next_nodes.append((where, value))
            elif isinstance(step, str):
                here = f"{where}.{step}" if where else step
                if isinstance(value, dict) and step in value:
                    next_nodes.append((here, value[step]))
                else:
                    next_nodes.append((here, _Missing(f"no value at {here}")))
            elif step is None:
                if isinstance(value, list):
                    next_nodes.extend((f"{where}[{i}]", v) for i, v in enumerate(value))
                else:
                    next_nodes.append((where, _Missing(f"{where or 'document'} is not a list")))
            else:
                here = f"{where}[{step}]"
                if isinstance(value, list) and step < len(value):
                    next_nodes.append((here, value[step]))
                else:
                    next_nodes.append((here, _Missing(f"no value at {here}")))
        nodes = next_nodes
    return nodes


@dataclass(frozen=True, slots=True)
class GateItem:
    """One checked item: where it came from in the document and its result."""

    index: int
    path: str
    result: QuoteResult | ClaimResult

    @property
    def status(self) -> str:
        return self.result.status

    @property
    def verified(self) -> bool:
        return self.result.verified

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "path": self.path, **self.result.to_dict()}


@dataclass(frozen=True, slots=True)
class GateSummary:
    """Counts per status (every status listed, zeros included) and the verified rate
    (None when there were no items)."""

    total: int
    counts: dict[str, int]
    verified: int
    verified_rate: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "counts": dict(self.counts),
            "verified": self.verified,
            "verified_rate": self.verified_rate,
        }


@dataclass(frozen=True, slots=True)
class GateReport:
    """What a gate found: every item in document order, a summary, and the verdict."""

    gate: str
    kind: GateKind
    preset: str
    passed: bool
    items: tuple[GateItem, ...]
    summary: GateSummary

    def to_dict(self) -> dict[str, Any]:
        return {
            "gate": self.gate,
            "kind": self.kind,
            "preset": self.preset,
            "passed": self.passed,
            "summary": self.summary.to_dict(),
            "items": [item.to_dict() for item in self.items],
        }


def summarize(items: Sequence[GateItem], kind: GateKind) -> GateSummary:
    """Counts per status and the verified rate of ``items``."""
    statuses = QUOTE_STATUSES if kind == "quotes" else CLAIM_STATUSES
    counts = dict.fromkeys(statuses, 0)
    for item in items:
        counts[item.status] = counts.get(item.status, 0) + 1
    verified = sum(item.verified for item in items)
    rate = round(verified / len(items), 4) if items else None
    return GateSummary(len(items), counts, verified, rate)


@dataclass(frozen=True, slots=True)
class Gate:
    """A named check. ``kind`` says what its items are (quotes or claims); ``path``
    says where they are in a JSON document (None: the document is the list itself).

    Construct gates with :func:`evidence_spans_gate`, :func:`quote_list_gate` and
    :func:`claims_gate`; then call :meth:`check` once per document.
    """

    name: str
    kind: GateKind
    path: str | None = None
    preset: str = "quote"
    fuzzy: bool = False
    threshold: float | None = None
    min_verified_rate: float = 1.0
    kinds: tuple[str, ...] | None = None
    max_spans: int = DEFAULT_MAX_SPANS

    def __post_init__(self) -> None:
        if self.kind not in ("quotes", "claims"):
            raise ValueError(f"gate kind must be 'quotes' or 'claims', got {self.kind!r}")
        if not 0 <= self.min_verified_rate <= 1:
            raise ValueError(f"min_verified_rate must be between 0 and 1, got {self.min_verified_rate!r}")
        if self.path is not None:
            _parse_path(self.path)
        unknown = set(self.kinds or ()) - set(NUMERIC_KINDS)
        if unknown:
            raise ValueError(
                f"unknown numeric kind(s) {sorted(unknown)}: choose from {', '.join(NUMERIC_KINDS)}"
            )

    def items_of(self, document: Any) -> list[tuple[str, Any]]:
        """The items of ``document`` with their paths (JSON text is parsed first)."""
        if self.path is None:
            if isinstance(document, str) or not isinstance(document, Iterable):
                raise GateInputError(
                    f"gate {self.name!r} expects a list of {self.kind}, got {type(document).__name__}"
                )
            return [(f"[{i}]", value) for i, value in enumerate(document)]
        if isinstance(document, str | bytes):
            try:
                document = json.loads(document)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise GateInputError(f"gate {self.name!r}: document is not valid JSON: {exc}") from None
        return extract_path(document, self.path)

    def check(self, source: str, document: Any) -> GateReport:
        """Run the gate over ``document`` against ``source``."""
        found = self.items_of(document)
        results: list[QuoteResult | ClaimResult]
        if self.kind == "quotes":
            verifier = QuoteVerifier(
                source, self.preset, fuzzy=self.fuzzy, threshold=self.threshold, max_spans=self.max_spans
            )
            results = [
                verifier._invalid("", value.reason) if isinstance(value, _Missing) else verifier.verify(value)
                for _, value in found
            ]
        else:
            index = NumberIndex(source, _kinds(self.kinds))
            results = [
                ClaimResult("", "invalid", reason=value.reason)
                if isinstance(value, _Missing)
                else index.ground(value)
                for _, value in found
            ]
        items = tuple(
            GateItem(i, where, r) for i, ((where, _), r) in enumerate(zip(found, results, strict=True))
        )
        summary = summarize(items, self.kind)
        passed = summary.verified_rate is None or summary.verified_rate >= self.min_verified_rate
        preset = self.preset if self.kind == "quotes" else "grounding"
        return GateReport(self.name, self.kind, preset, passed, items, summary)


def evidence_spans_gate(
    path: str = "evidence_spans[].text",
    *,
    name: str = "evidence_spans",
    preset: str = "quote",
    fuzzy: bool = False,
    threshold: float | None = None,
    min_verified_rate: float = 1.0,
) -> Gate:
    """A gate over an LLM's JSON output whose quotes sit at ``path``.

    >>> gate = evidence_spans_gate()
    >>> report = gate.check("- **安定性**: 不足", '{"evidence_spans": [{"text": "安定性: 不足"}]}')
    >>> report.passed, report.items[0].status
    (True, 'normalized')
    """
    return Gate(name, "quotes", path, preset, fuzzy, threshold, min_verified_rate)


def quote_list_gate(
    *,
    name: str = "quotes",
    preset: str = "quote",
    fuzzy: bool = False,
    threshold: float | None = None,
    min_verified_rate: float = 1.0,
    max_spans: int = DEFAULT_MAX_SPANS,
) -> Gate:
    """A gate over a plain list of quotes (at most ``max_spans`` spans reported per quote)."""
    return Gate(name, "quotes", None, preset, fuzzy, threshold, min_verified_rate, max_spans=max_spans)


def claims_gate(
    path: str | None = None,
    *,
    name: str = "numbers",
    kinds: Iterable[str] | None = None,
    min_verified_rate: float = 1.0,
) -> Gate:
    """A gate that grounds the numbers of claims (a list, or JSON strings at ``path``)."""
    kind_tuple = tuple(sorted(_kinds(kinds))) if kinds is not None else None
    return Gate(name, "claims", path, "decoration", False, None, min_verified_rate, kind_tuple)
