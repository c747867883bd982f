"""The public functions of the contract: normalize, normalize_with_offsets, explain."""

from __future__ import annotations

import functools
import operator
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, overload

from sadame.normalize._flags import Equivalence, NormalizeFlags, PunctuationMode, WhitespaceMode
from sadame.normalize._presets import resolve_flags
from sadame.normalize._steps import (
    STEPS,
    Mapped,
    Step,
    _composes_backward,
    _keep_mask,
    _nfkc_mapped_by_chunks,
    _one_to_one_table,
    _sigma_context_table,
    enabled_steps,
)

__all__ = [
    "ExplainStep",
    "Explanation",
    "NormalizedText",
    "continue_with_offsets",
    "explain",
    "normalize",
    "normalize_with_offsets",
    "replay",
]

_TextFn = Callable[[str], str]


def _check_text(text: object) -> str:
    if not isinstance(text, str):
        raise TypeError(f"sadame.normalize expects str, got {type(text).__name__}")
    return text


@dataclass(frozen=True, slots=True)
class _Op:
    """One operation of a compiled plan: ``kind`` says what it is, ``fn`` runs it."""

    kind: str  # "nfkc" | "lower" | "translate" | "step"
    fn: _TextFn
    table: list[int | None] | None = None


@lru_cache(maxsize=64)
def _plan(flags: NormalizeFlags) -> tuple[_Op, ...]:
    """The text-path operations for ``flags``, as C-level callables where possible.

    The per-character steps (kana, punctuation, whitespace deletion) are fused into
    one ``str.translate``. The fused plan must equal running the steps one by one;
    the tests compare both on the probe corpus.
    """
    plan: list[_Op] = []
    table: dict[int, int | None] = {}
    for step in enabled_steps(flags):
        step_table = step.table(flags)
        if step_table is not None:
            _compose_into(table, step_table)
            continue
        if table:
            plan.append(_translator(table))
            table = {}
        plan.append(_op_for(step.name, step.text, flags))
    if table:
        plan.append(_translator(table))
    return tuple(plan)


def _op_for(name: str, fn: Callable[[str, NormalizeFlags], str], flags: NormalizeFlags) -> _Op:
    # Same behaviour as the step's text function, minus a Python frame per call.
    if name == "nfkc":
        return _Op("nfkc", functools.partial(unicodedata.normalize, "NFKC"))
    if name == "casefold" and _sigma_context_table(flags) is None:
        return _Op("lower", str.lower)
    return _Op("step", functools.partial(_call_step, fn, flags))


def _call_step(fn: Callable[[str, NormalizeFlags], str], flags: NormalizeFlags, text: str) -> str:
    return fn(text, flags)


def _compose_into(table: dict[int, int | None], then: dict[int, int | None]) -> None:
    """Make ``table`` mean "apply ``table``, then ``then``" as one translate table."""
    for key, value in table.items():
        if value is not None and value in then:
            table[key] = then[value]
    for key, value in then.items():
        table.setdefault(key, value)


def _translator(table: dict[int, int | None]) -> _Op:
    # str.translate signals "no mapping" with a LookupError raised per character,
    # which dominates its cost on Japanese text. A dense list answers every code
    # point of the BMP without raising (IndexError above it still means "keep").
    dense: list[int | None] = list(range(max(0x10000, max(table) + 1)))
    for key, value in table.items():
        dense[key] = value
    return _Op("translate", operator.methodcaller("translate", dense), dense)


@lru_cache(maxsize=64)
def _compiled(flags: NormalizeFlags) -> _TextFn:
    """One callable for the whole plan of ``flags``.

    The commonest shape (NFKC, lower-case, one fused table: the ``judge`` preset)
    becomes a single expression, so a short line pays one Python frame, not four.
    """
    plan = _plan(flags)
    table = plan[-1].table if plan else None
    if [op.kind for op in plan] == ["nfkc", "lower", "translate"] and table is not None:
        nfkc = unicodedata.normalize

        def judge_shape(text: str) -> str:
            return nfkc("NFKC", text).lower().translate(table)

        return judge_shape
    functions = tuple(op.fn for op in plan)

    def run_plan(text: str) -> str:
        for fn in functions:
            text = fn(text)
        return text

    return run_plan


def _judge_fast_path(table: list[int | None]) -> tuple[Callable[[str], object], list[int | None]]:
    """NFKC, lower-case and ``table`` fused into one translate, and the search for the
    characters it cannot take.

    For a text without those characters, ``NFKC(text)`` is ``text`` with each character
    replaced by its one-character compatibility decomposition (see
    ``_steps._one_to_one_table``: the NFKD of both is the same, and the result is
    normalized), and lower-casing it is per character (no Final_Sigma context, no character
    lower-casing to two), so the three steps are one table. Excluded: every character NFKC
    changes otherwise, every combining or backward-composing character (it may merge with its
    neighbour), every character whose image is ``Σ`` or lower-cases to other than one
    character, and everything outside the BMP.
    """
    one = _one_to_one_table()
    backward = _composes_backward()
    fused: list[int | None] = list(range(0x10000))
    complex_chars: list[str] = []
    for cp in range(0x10000):
        char = chr(cp)
        if 0xD800 <= cp <= 0xDFFF:
            continue
        image = chr(one[cp])
        lowered = image.lower()
        if (
            (image == char and unicodedata.normalize("NFKC", char) != char)
            or unicodedata.combining(char) != 0
            or char in backward
            or image in "Σ"
            or len(lowered) != 1
        ):
            complex_chars.append(char)
            continue
        fused[cp] = table[ord(lowered)] if ord(lowered) < len(table) else ord(lowered)
    ranges = "".join(re.escape(c) for c in complex_chars)
    return re.compile(f"[{ranges}\U00010000-\U0010FFFF]").search, fused


_PRESET_FUNCTIONS: dict[str, _TextFn] = {}
# Presets of the judge shape, by name: their fused table, run inline by normalize()
# itself. Rule tables call normalize() once per question, so a saved call matters.
class _JudgeShape:
    """A judge-shaped preset's tables: the plan's fused table, and once the preset has been
    called :data:`_FAST_AFTER` times, the one-translate path (:func:`_judge_fast_path`;
    building it costs a few tenths of a second once, so a process normalizing a handful of
    questions does not pay it)."""

    __slots__ = ("calls", "fused", "search", "table")

    def __init__(self, table: list[int | None]) -> None:
        self.table = table
        self.calls = 0
        self.search: Callable[[str], object] | None = None
        self.fused: list[int | None] = []

    def count(self) -> None:
        self.calls += 1
        if self.calls == _FAST_AFTER:
            search, self.fused = _judge_fast_path(self.table)
            self.search = search  # last: a thread that sees it sees the fused table too


_FAST_AFTER = 256
_JUDGE_SHAPED: dict[str, _JudgeShape] = {}
_nfkc = unicodedata.normalize


@overload
def normalize(text: str, preset: str) -> str: ...
@overload
def normalize(text: str, *, flags: NormalizeFlags) -> str: ...
def normalize(text: str, preset: str | None = None, *, flags: NormalizeFlags | None = None) -> str:
    """Normalize ``text`` with a named preset (or explicit flags): exactly one of the two.

    ``preset`` is a name of :data:`PRESETS` (``judge``, ``decoration``, ``numeric``, ``issue``,
    ``quote``) or of :data:`PREVIOUS_PRESETS` (``decoration@nc1``); ``flags`` is a
    :class:`NormalizeFlags`. ``sadame.normalize(...)`` is this function.

    >>> normalize("ｷｬｯｼｭ？", preset="judge")
    'きゃっしゅ'
    >>> normalize("改善ポイント：安定性・バランス", preset="issue")
    '改善ポイント:安定性 バランス'
    """
    if flags is None and type(text) is str:
        shaped = _JUDGE_SHAPED.get(preset)  # type: ignore[arg-type]
        if shaped is not None:
            search = shaped.search
            if search is None:
                shaped.count()
            elif search(text) is None:  # only characters NFKC and lower-case map one to one
                return text.translate(shaped.fused)
            return _nfkc("NFKC", text).lower().translate(shaped.table)
        fast = _PRESET_FUNCTIONS.get(preset)  # type: ignore[arg-type]
        if fast is not None:
            return fast(text)
    _check_text(text)
    resolved = resolve_flags(preset, flags)
    function = _compiled(resolved)
    if flags is None and preset is not None:
        _PRESET_FUNCTIONS[preset] = function
        plan = _plan(resolved)
        if [op.kind for op in plan] == ["nfkc", "lower", "translate"] and plan[-1].table is not None:
            _JUDGE_SHAPED[preset] = _JudgeShape(plan[-1].table)
    return function(text)


@dataclass(frozen=True, slots=True)
class NormalizedText:
    """A normalized text that remembers where each character came from.

    ``starts[i]``/``ends[i]`` is the span of :attr:`original` that produced
    character ``i`` of :attr:`text`. Spans always cover whole original characters;
    one original character may produce several normalized ones and vice versa.
    The maps are compact read-only sequences (``array('I')``, 4 bytes per entry):
    index, slice, iterate or ``list()`` them; do not modify them.
    """

    original: str
    text: str
    starts: Sequence[int]
    ends: Sequence[int]
    flags: NormalizeFlags

    def __hash__(self) -> int:  # the maps follow from the rest (and arrays are unhashable)
        return hash((self.original, self.text, self.flags))

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The smallest original span covering normalized ``text[start:end]``."""
        if not 0 <= start <= end <= len(self.text):
            raise IndexError(f"span {start}:{end} outside normalized text of length {len(self.text)}")
        if start == end:
            position = self.starts[start] if start < len(self.text) else len(self.original)
            return position, position
        # Both maps are non-decreasing (every step keeps its output in input order; property-
        # tested in tests/normalize/test_offsets.py), so the covering span is read at its ends.
        return self.starts[start], self.ends[end - 1]

    def original_slice(self, start: int, end: int) -> str:
        """The original text behind normalized ``text[start:end]``."""
        a, b = self.original_span(start, end)
        return self.original[a:b]

    def exact_span(self, start: int, end: int) -> tuple[int, int] | None:
        """An original span that, normalized alone with the same flags, gives exactly
        ``text[start:end]``; None when no such span exists around the match.

        The smallest covering span is tried first, then the same span widened over
        characters a step deleted just outside it (such as the ``**`` of a bold pair
        whose content the match starts or ends with). Widening is what makes a quote
        like ``安定性: 不足`` map to ``**安定性**: 不足`` rather than ``安定性**: 不足``.
        """
        a_min, b_min = self.original_span(start, end)
        if start == end:
            return (a_min, b_min) if normalize(self.original[a_min:b_min], flags=self.flags) == "" else None
        a_max = self.ends[start - 1] if start > 0 else 0
        b_max = self.starts[end] if end < len(self.text) else len(self.original)
        target = self.text[start:end]
        for a, b in _widenings(a_min, a_max, b_min, b_max):
            if normalize(self.original[a:b], flags=self.flags) == target:
                return a, b
        return None


_MAX_WIDEN = 8  # deleted characters tried one by one on each side; beyond that only the full gap


def _widenings(a_min: int, a_max: int, b_min: int, b_max: int) -> list[tuple[int, int]]:
    """Candidate spans from the smallest outwards, fewest widened characters first."""
    lefts = [a_min - k for k in range(min(a_min - a_max, _MAX_WIDEN) + 1)]
    rights = [b_min + k for k in range(min(b_max - b_min, _MAX_WIDEN) + 1)]
    if a_max not in lefts:
        lefts.append(a_max)
    if b_max not in rights:
        rights.append(b_max)
    spans = [(a, b) for a in lefts for b in rights]
    spans.sort(key=lambda span: span[1] - span[0])
    return spans


def normalize_with_offsets(
    text: str, preset: str | None = None, *, flags: NormalizeFlags | None = None
) -> NormalizedText:
    """Like :func:`normalize`, plus a map from each normalized position to the original.

    >>> n = normalize_with_offsets("- **ｷｬｯｼｭ**が残る", preset="decoration")
    >>> n.text
    'キャッシュが残る'
    >>> n.original_slice(0, 5)
    'ｷｬｯｼｭ'
    """
    text = _check_text(text)
    resolved = resolve_flags(preset, flags)
    mapped = _run_mapped(Mapped.identity(text), enabled_steps(resolved), resolved)
    return NormalizedText(text, mapped.text, mapped.starts, mapped.ends, resolved)


def offsets_in_context(text: str, flags: NormalizeFlags, *, whole_in_nfkc: bool) -> NormalizedText:
    """``normalize_with_offsets(text, flags=flags)`` for ``text`` a piece (cut where no step
    looks across) of a longer text, with the offsets that text's would give it: the nfkc step
    skips its work on a text already in NFKC (each character then keeps its own span), so a
    piece in NFKC of a text that is not (``whole_in_nfkc`` false) is mapped chunk by chunk."""
    steps = enabled_steps(flags)
    if not whole_in_nfkc and steps and steps[0].name == "nfkc":
        steps = (replace(steps[0], mapped=_nfkc_mapped_by_chunks), *steps[1:])
    mapped = _run_mapped(Mapped.identity(text), steps, flags)
    return NormalizedText(text, mapped.text, mapped.starts, mapped.ends, flags)


def _run_mapped(mapped: Mapped, steps: Sequence[Step], flags: NormalizeFlags) -> Mapped:
    """Run ``steps`` on ``mapped``; consecutive per-character table steps (kana, deleted
    punctuation, deleted whitespace) as one: one keep-mask for the characters the fused
    table deletes, one translate for the rest (which keep their spans)."""
    i = 0
    while i < len(steps) and mapped.text:
        j = i
        while j < len(steps) and steps[j].table(flags) is not None:
            j += 1
        if j - i >= 2:
            deleted, dense, deleting = _fused_table(flags, tuple(step.name for step in steps[i:j]))
            if any(ord(c) > 0xFFFF for c in deleted):  # pragma: no cover - no step deletes astral characters
                kept = mapped.drop(deleted)
                mapped = Mapped(kept.text.translate(dense), kept.starts, kept.ends)
                i = j
                continue
            mask = _keep_mask(mapped.text, deleted) if deleted else None
            if mask is None or mask.count(0) == 0:
                mapped = Mapped(mapped.text.translate(dense), mapped.starts, mapped.ends)
            else:  # the kept text in one translate (deleting), the maps a kept run at a time
                mapped = mapped.keep(mask, mapped.text.translate(deleting))
            i = j
            continue
        mapped = steps[i].mapped(mapped, flags)
        i += 1
    return mapped


@lru_cache(maxsize=64)
def _fused_table(
    flags: NormalizeFlags, names: tuple[str, ...]
) -> tuple[frozenset[str], list[int | None], list[int | None]]:
    """The characters the named table steps delete, a dense table of what they map the
    others to (the same composition as the text path's fused plan), and that table
    deleting the deleted ones too."""
    table: dict[int, int | None] = {}
    for step in STEPS:
        if step.name in names:
            step_table = step.table(flags)
            if step_table is not None:
                _compose_into(table, step_table)
    deleted = frozenset(chr(key) for key, value in table.items() if value is None)
    dense = _translator({key: value for key, value in table.items() if value is not None} or {0: 0}).table or []
    deleting = list(dense)
    for char in deleted:
        if ord(char) < len(deleting):
            deleting[ord(char)] = None
    return deleted, dense, deleting


# What each step's flags are when the step is off (to compare two flag sets step by step).
_OFF: dict[str, dict[str, Any]] = {
    "nfkc": {"nfkc": False},
    "markdown_strip": {"markdown_strip": False},
    "numeric": {"numeric": False},
    "casefold": {"casefold": False},
    "kana": {"kana": False},
    "punctuation": {"punctuation": PunctuationMode.KEEP, "punctuation_chars": ""},
    "equivalences": {"equivalences": frozenset[Equivalence]()},
    "whitespace": {"whitespace": WhitespaceMode.KEEP},
}


def _first_steps(flags: NormalizeFlags, count: int) -> NormalizeFlags:
    """``flags`` with every step after its first ``count`` enabled ones turned off."""
    off: dict[str, Any] = {}
    for step in enabled_steps(flags)[count:]:
        off.update(_OFF[step.name])
    return replace(flags, **off)


def continue_with_offsets(prefix: NormalizedText, flags: NormalizeFlags) -> NormalizedText | None:
    """``normalize_with_offsets(prefix.original, flags=flags)``, computed from ``prefix`` by
    running only the remaining steps; None unless ``prefix.flags`` are exactly the first
    steps of ``flags`` (same steps, same settings). Lets a caller that needs a text under
    two flag sets sharing their first steps (grounding's NFKC + Markdown, then the
    ``quote`` preset) run those steps once.
    """
    done = enabled_steps(prefix.flags)
    steps = enabled_steps(flags)
    if steps[: len(done)] != done or _first_steps(flags, len(done)) != _first_steps(prefix.flags, len(done)):
        return None
    mapped = Mapped(prefix.text, prefix.starts, prefix.ends)  # type: ignore[arg-type]
    mapped = _run_mapped(mapped, steps[len(done) :], flags)
    return NormalizedText(prefix.original, mapped.text, mapped.starts, mapped.ends, flags)


@dataclass(frozen=True, slots=True)
class ExplainStep:
    """One step that changed the text: its name and the text before and after."""

    step: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class Explanation:
    """What :func:`explain` found: the input, the output and the steps that mattered."""

    text: str
    result: str
    steps: tuple[ExplainStep, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "text": self.text,
            "result": self.result,
            "steps": [{"step": s.step, "before": s.before, "after": s.after} for s in self.steps],
        }


def explain(text: str, preset: str | None = None, *, flags: NormalizeFlags | None = None) -> Explanation:
    """Run the steps one at a time and record each one that changed the text
    (like ftfy's ``fix_and_explain``).

    >>> [s.step for s in explain("ＣＳＳ？", preset="judge").steps]
    ['nfkc', 'casefold', 'punctuation']
    """
    text = _check_text(text)
    resolved = resolve_flags(preset, flags)
    current = text
    changed: list[ExplainStep] = []
    for step in enabled_steps(resolved):
        after = step.text(current, resolved)
        if after != current:
            changed.append(ExplainStep(step.name, current, after))
        current = after
    return Explanation(text, current, tuple(changed))


def replay(text: str, step_names: list[str] | tuple[str, ...], flags: NormalizeFlags) -> str:
    """Apply only the named steps, in the contract's order (to replay an explanation)."""
    text = _check_text(text)
    known = {step.name for step in STEPS}
    unknown = [name for name in step_names if name not in known]
    if unknown:
        raise ValueError(f"unknown step(s): {', '.join(unknown)}")
    for step in STEPS:
        if step.name in step_names:
            text = step.text(text, flags)
    return text
