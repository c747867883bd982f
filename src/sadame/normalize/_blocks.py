"""A normalized text with its offsets computed lazily, a block at a time.

:func:`normalize_with_offsets` costs about twice the plain path. A caller that searches a
long text and maps back only its few hits (the quote check) needs the plain text whole but
the offsets only around the hits. :class:`LazyOffsets` normalizes the text **block by
block** on the plain path, recording where each block starts in the original and in the
normalized text, and computes offsets only for the blocks a lookup touches.

Blocks are cut right after a newline between two characters of :func:`_safe_chars`
(hiragana, katakana, CJK ideographs: unchanged by NFKC, never Markdown syntax, never
whitespace, and CJK for the whitespace step). For the flag sets this supports -- steps
among NFKC, Markdown stripping, the equivalences and ``cjk`` whitespace (the ``quote``
preset) -- such a cut splits every step: NFKC works on chunks and a newline before a
starter ends one; Markdown stripping is line by line; the comma and colon rules look one
character around (a CJK character, or the newline they keep in both halves); the ``cjk``
whitespace mode deletes a newline between two CJK characters, and strips it at a block's
end. So the normalized text is the blocks' normalized texts joined with nothing between
them, and a run of blocks normalized alone with offsets has, shifted, the offsets of the
whole text. The one whole-text rule, a wrapping quote pair, is decided once: when the
text could be wrapped, there is one block.

Every window of offsets is checked against the plain text (its normalized text must be
exactly that slice); on a mismatch (never seen; the tests compare both paths on the eval
sources and random texts) the object computes the offsets of the whole text once and
answers from them. Other flag sets are one block: the whole text's offsets, computed on
first use.
"""

from __future__ import annotations

import bisect
import itertools
import re
import threading
import unicodedata
from array import array
from dataclasses import replace
from functools import lru_cache

from sadame.normalize._core import NormalizedText, _compiled, normalize, normalize_with_offsets
from sadame.normalize._flags import Equivalence, NormalizeFlags, WhitespaceMode
from sadame.normalize._steps import _WRAPPERS, _WS_SET, _composes_backward, enabled_steps

__all__ = ["BLOCK", "LazyOffsets"]

#: Characters of original text per block, about (the cut is the next safe newline).
BLOCK = 128
_WINDOW_CACHE = 512  # windows of offsets kept per text (repeated lookups in one source)
#: Once the windows computed for a text cover this share of it, its whole offsets are
#: computed instead (cheaper per character than many windows): lazy offsets never cost
#: much more than the whole text's.
FULL_AFTER = 0.125
_MEMO = 8192  # short pieces of the text whose normalization is kept (see piece())
_MEMO_PIECE = 512
_SUPPORTED = frozenset({"nfkc", "markdown_strip", "equivalences", "whitespace"})


def _stable(chars: str) -> str:
    """``chars`` without those NFKC changes or may merge with a neighbour, as a class body."""
    backward = _composes_backward()
    kept = [
        c for c in chars
        if unicodedata.normalize("NFKC", c) == c and unicodedata.combining(c) == 0 and c not in backward
    ]
    return "".join(re.escape(c) for c in kept)


@lru_cache(maxsize=1)
def _cut_pattern() -> re.Pattern[str]:
    """A newline after a CJK character and before a character that starts an NFKC chunk
    (see the module docstring)."""
    cjk = "".join(map(chr, [*range(0x3001, 0x3097), *range(0x30A1, 0x30FF), *range(0x4E00, 0xA000)]))
    ascii_ = "".join(map(chr, range(0x21, 0x7F)))
    before, after = _stable(cjk), _stable(ascii_ + cjk)
    return re.compile(f"(?<=[{before}])\n(?=[{after}])")


def _blockwise(flags: NormalizeFlags) -> NormalizeFlags | None:
    """The flags each block is normalized with (``flags`` without the wrapping-quote rule),
    or None when ``flags`` cannot be split at safe newlines."""
    names = {step.name for step in enabled_steps(flags)}
    if not names <= _SUPPORTED or ("whitespace" in names and flags.whitespace is not WhitespaceMode.CJK):
        return None
    return replace(flags, equivalences=flags.equivalences - {Equivalence.WRAPPING_QUOTES})


def _may_wrap(first: str, last: str, flags: NormalizeFlags) -> bool:
    """Whether the whole text may be wrapped in a quote pair (decided on the first and last
    blocks after NFKC and Markdown stripping, the steps before the equivalences)."""
    if Equivalence.WRAPPING_QUOTES not in flags.equivalences:
        return False
    before = replace(flags, equivalences=frozenset(), whitespace=WhitespaceMode.KEEP)
    head = normalize(first, flags=before).lstrip("".join(_WS_SET))
    tail = normalize(last, flags=before).rstrip("".join(_WS_SET))
    return head[:1] in _WRAPPERS and tail[-1:] == _WRAPPERS[head[:1]]


class LazyOffsets:
    """``normalize_with_offsets(original, flags=flags)``, its offsets computed on demand.

    :attr:`text` is the normalized text (equal to :func:`normalize`'s). :meth:`window`
    gives the offsets around a normalized range; :meth:`full` the whole text's.
    Thread-safe: windows are computed outside any lock and cached whole.
    """

    __slots__ = (
        "_block_flags", "_budget", "_full", "_lock", "_memo", "_norm", "_orig", "_positions", "_spent", "_windows", "flags", "original",
        "text",
    )

    def __init__(
        self,
        original: str,
        flags: NormalizeFlags,
        *,
        full: NormalizedText | None = None,
        block: int = BLOCK,
        full_after: float = FULL_AFTER,
    ) -> None:
        self.original = original
        self.flags = flags
        self._full = full
        self._lock = threading.Lock()
        self._windows: dict[tuple[int, int], NormalizedText] = {}
        self._spent = 0  # original characters normalized into windows so far
        self._budget = full_after * len(original)
        self._memo: dict[str, str] = {}
        self._positions: dict[tuple[str, int], tuple[int, ...]] = {}
        block_flags = _blockwise(flags) if full is None else None
        cuts = self._cuts(original, block) if block_flags is not None else []
        if block_flags is None or not cuts or _may_wrap(original[: cuts[0]], original[cuts[-1] :], flags):
            self._block_flags = None
            if full is None:
                self._full = full = normalize_with_offsets(original, flags=flags)
            self.text = full.text
            self._orig = array("I", (0, len(original)))
            self._norm = array("I", (0, len(full.text)))
            return
        self._block_flags = block_flags
        run = _compiled(block_flags)
        bounds = [0, *cuts, len(original)]
        pieces = [run(original[a:b]) for a, b in itertools.pairwise(bounds)]
        self.text = "".join(pieces)
        self._orig = array("I", bounds)
        norm = array("I", (0,))
        for piece in pieces:
            norm.append(norm[-1] + len(piece))
        self._norm = norm

    @staticmethod
    def _cuts(original: str, block: int) -> list[int]:
        pattern = _cut_pattern()
        cuts: list[int] = []
        pos = block
        while pos < len(original):
            found = pattern.search(original, pos)
            if found is None:
                break
            cuts.append(found.end())
            pos = found.end() + block
        if cuts and cuts[-1] >= len(original):  # pragma: no cover - a cut is followed by a character
            cuts.pop()
        return cuts

    def piece(self, start: int, end: int) -> str:
        """``normalize(original[start:end], flags=flags)``, kept for short pieces (a caller
        aligning hits normalizes the same few pieces around them again and again)."""
        text = self.original[start:end]
        found = self._memo.get(text)
        if found is None:
            found = normalize(text, flags=self.flags)
            if len(text) <= _MEMO_PIECE:
                if len(self._memo) >= _MEMO:
                    self._memo.clear()
                self._memo[text] = found
        return found

    def positions(self, needle: str, count: int) -> tuple[int, ...]:
        """The first ``count`` positions of ``needle`` in :attr:`text` (each search starting
        one character after the last hit, as ``str.find`` loops do), kept per text."""
        key = (needle, count)
        found = self._positions.get(key)
        if found is None:
            hits: list[int] = []
            pos = self.text.find(needle)
            while pos != -1 and len(hits) < count:
                hits.append(pos)
                pos = self.text.find(needle, pos + 1)
            found = tuple(hits)
            if len(needle) <= _MEMO_PIECE:
                if len(self._positions) >= _MEMO:
                    self._positions.clear()
                self._positions[key] = found
        return found

    def has_full(self) -> bool:
        """Whether the whole text's offsets are computed."""
        return self._full is not None

    def full(self) -> NormalizedText:
        """The offsets of the whole text (computed once)."""
        if self._full is None:
            self._full = normalize_with_offsets(self.original, flags=self.flags)
        return self._full

    def window(self, start: int, end: int) -> tuple[NormalizedText, int, int]:
        """Offsets covering normalized positions ``start..end`` (``end`` exclusive, clamped):
        ``(w, n, o)`` where ``w.text == text[n : n + len(w.text)]`` and, for each ``i`` of
        ``w``, ``w.starts[i] + o`` / ``w.ends[i] + o`` are the whole text's offsets of
        ``n + i``. The whole text's offsets when there is one block."""
        if self._block_flags is None or self._full is not None:
            return self.full(), 0, 0
        last = len(self._orig) - 2
        first = min(bisect.bisect_right(self._norm, max(start, 0)) - 1, last)
        final = min(bisect.bisect_right(self._norm, max(end - 1, start, 0)) - 1, last)
        key = (first, final)
        found = self._windows.get(key)
        if found is None:
            a, b = self._orig[first], self._orig[final + 1]
            self._spent += b - a
            if self._spent > self._budget:
                return self.full(), 0, 0
            found = normalize_with_offsets(self.original[a:b], flags=self._block_flags)
            n = self._norm[first]
            if found.text != self.text[n : self._norm[final + 1]]:  # pragma: no cover - see the docstring
                return self.full(), 0, 0
            with self._lock:
                if len(self._windows) >= _WINDOW_CACHE:
                    self._windows.clear()
                self._windows[key] = found
        return found, self._norm[first], self._orig[first]

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The smallest original span covering normalized ``text[start:end]``
        (as :meth:`NormalizedText.original_span`)."""
        if not 0 <= start <= end <= len(self.text):
            raise IndexError(f"span {start}:{end} outside normalized text of length {len(self.text)}")
        if start == end:
            if start == len(self.text):
                return len(self.original), len(self.original)
            w, n, o = self.window(start, start + 1)
            return w.starts[start - n] + o, w.starts[start - n] + o
        w, n, o = self.window(start, end)
        a, b = w.original_span(start - n, end - n)
        return a + o, b + o

    def start_of(self, index: int) -> int:
        """The original start of normalized character ``index``."""
        w, n, o = self.window(index, index + 1)
        return w.starts[index - n] + o

    def end_of(self, index: int) -> int:
        """The original end of normalized character ``index``."""
        w, n, o = self.window(index, index + 1)
        return w.ends[index - n] + o
