"""A small per-process cache of what :func:`check_output` derives from a source.

Checking several outputs against one source (the usual loop: regenerate, check
again) would otherwise normalize the source with offsets and scan its numbers every
time. The verifier (which keeps the normalized source) and the number index are kept
by the SHA-256 of the source (and the preset), least recently used first out, with at
most ``MAX_CACHED_CHARS`` source characters in all per kind.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from sadame.quote._ground import NumberIndex
    from sadame.quote._verify import QuoteVerifier

__all__ = ["MAX_CACHED_CHARS", "cached_index", "cached_verifier"]

MAX_CACHED_CHARS = 4_000_000
_MAX_ENTRIES = 16

T = TypeVar("T")


class _SourceCache(Generic[T]):
    """Values derived from a source, by (SHA-256 of the source, variant)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple[str, str], tuple[int, T]] = OrderedDict()

    def get(self, source: str, variant: str, build: Callable[[], T]) -> T:
        key = (hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest(), variant)
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


_verifiers: _SourceCache[QuoteVerifier] = _SourceCache()
_indexes: _SourceCache[NumberIndex] = _SourceCache()


def cached_verifier(source: str, preset: str, max_spans: int) -> QuoteVerifier:
    """The verifier of ``source`` with ``preset``, its normalized source computed once."""
    from sadame.quote._verify import QuoteVerifier

    def build() -> QuoteVerifier:
        verifier = QuoteVerifier(source, preset, max_spans=max_spans)
        verifier.normalized  # noqa: B018 - computed now, once per cached source
        return verifier

    return _verifiers.get(source, f"{preset}/{max_spans}", build)


def cached_index(source: str) -> NumberIndex:
    """The numbers of ``source`` (:class:`NumberIndex`), scanned once."""
    from sadame.quote._ground import NumberIndex

    return _indexes.get(source, "", lambda: NumberIndex(source))
