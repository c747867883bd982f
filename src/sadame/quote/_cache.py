"""A small per-process cache of what :func:`check_output` derives from a source.

Checking several outputs against one source (the usual loop: regenerate, check
again) would otherwise normalize the source with offsets and scan its numbers every
time. A :class:`PreparedSource` -- the verifier (which keeps the normalized source),
the number index and the line index -- is built once per source and preset: the source
is normalized with offsets **once** for both quotes and numbers when the preset starts
with grounding's steps (NFKC, Markdown: ``quote``, ``decoration``, ``numeric``), the
quote preset continuing from there. Entries are kept by the source itself (and the
preset): a ``str`` key is hashed once per string object and compared whole on a hash match,
so an entry is found only for an equal source, and the entry holds the source anyway (its
verifier does). Least recently used first out, with at most ``MAX_CACHED_CHARS`` source
characters in all.
"""

from __future__ import annotations

import bisect
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from sadame.normalize import normalize_with_offsets
from sadame.normalize._core import continue_with_offsets  # shares the first steps of two flag sets
from sadame.normalize._presets import resolve_flags
from sadame.quote._ground import GROUNDING_FLAGS, NumberIndex
from sadame.quote._verify import QuoteVerifier

__all__ = ["MAX_CACHED_CHARS", "LineIndex", "PreparedSource", "prepare_source", "prepared_source"]

MAX_CACHED_CHARS = 4_000_000
_MAX_ENTRIES = 16
_NEWLINE = re.compile("\n")

T = TypeVar("T")


class LineIndex:
    """Offsets to ``line:column`` (1-based) by binary search over line starts."""

    __slots__ = ("starts",)

    def __init__(self, text: str) -> None:
        self.starts = [0, *(m.end() for m in _NEWLINE.finditer(text))]

    def at(self, offset: int) -> str:
        line = bisect.bisect_right(self.starts, offset) - 1
        return f"{line + 1}:{offset - self.starts[line] + 1}"


@dataclass(frozen=True, slots=True)
class PreparedSource:
    """Everything the checker derives from one source, built once (immutable, thread-safe)."""

    verifier: QuoteVerifier
    numbers: NumberIndex
    lines: LineIndex


def prepare_source(source: str, preset: str, max_spans: int) -> PreparedSource:
    """Build a :class:`PreparedSource`, normalizing the source with offsets once when the
    preset shares grounding's first steps (else once per flag set)."""
    verifier = QuoteVerifier(source, preset, max_spans=max_spans)
    grounding = normalize_with_offsets(source, flags=GROUNDING_FLAGS)
    shared = continue_with_offsets(grounding, resolve_flags(preset, None))
    verifier.use_normalized(shared if shared is not None else normalize_with_offsets(source, preset=preset))
    return PreparedSource(verifier, NumberIndex(source, prepared=grounding), LineIndex(source))


class _SourceCache(Generic[T]):
    """Values derived from a source, by (source, variant)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple[str, str], tuple[int, T]] = OrderedDict()

    def get(self, source: str, variant: str, build: Callable[[], T]) -> T:
        key = (source, variant)  # (a digest of the source cost more than its hash: no key is kept besides it)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found[1]
        value = build()  # outside the lock: another source may be checked meanwhile
        with self._lock:
            self._items[key] = (len(source), value)
            while len(self._items) > 1 and (
                len(self._items) > _MAX_ENTRIES or sum(size for size, _v in self._items.values()) > MAX_CACHED_CHARS
            ):
                self._items.popitem(last=False)
        return value


_prepared: _SourceCache[PreparedSource] = _SourceCache()


def prepared_source(source: str, preset: str, max_spans: int) -> PreparedSource:
    """The :class:`PreparedSource` of ``source`` with ``preset``, built once per process."""
    return _prepared.get(source, f"{preset}/{max_spans}", lambda: prepare_source(source, preset, max_spans))
