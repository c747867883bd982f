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

Before the whole text is built, needles are located on a second, *fine* cut (after every
safe newline: :class:`_FineIndex`, built at C speed with a sentinel character at each cut):
the fine blocks' skeletons say where a needle can be, and :meth:`LazyOffsets.prefetch`
normalizes the fine blocks a batch of needles reads with offsets, joined, in one call (fine
blocks meet as at a cut whether adjacent or not), so a hit costs no call of its own.

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
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from sadame.normalize._core import (
    NormalizedText,
    _compiled,
    normalize,
    normalize_with_offsets,
    offsets_in_context,
)
from sadame.normalize._flags import JS_WHITESPACE, Equivalence, NormalizeFlags, WhitespaceMode
from sadame.normalize._steps import _WRAPPERS, _WS_SET, _composes_backward, enabled_steps

__all__ = ["BLOCK", "LazyOffsets", "Region", "splits"]

#: Characters of original text per block, about (the cut is the next safe newline).
BLOCK = 128
_WINDOW_CACHE = 512  # windows of offsets kept per text (repeated lookups in one source)
#: Once the windows computed for a text cover this share of it, its whole offsets are
#: computed instead (cheaper per character than many windows): lazy offsets never cost
#: much more than the whole text's.
FULL_AFTER = 0.125
_MEMO = 8192  # short pieces of the text whose normalization is kept (see piece())
_MEMO_PIECE = 512
_MEMO_REGION = 4096  # normalized characters of a needle's regions kept (a few blocks)
_MEMO_REGIONS = 1 << 20  # and of all needles' regions kept per text
_SUPPORTED = frozenset({"nfkc", "markdown_strip", "equivalences", "whitespace"})
_BLOCK_MAPS = 8192  # blocks whose offsets are kept per text (see block_offsets())


def _stable(chars: str) -> str:
    """``chars`` without those NFKC changes or may merge with a neighbour, as a class body."""
    backward = _composes_backward()
    kept = [
        c for c in chars
        if unicodedata.normalize("NFKC", c) == c and unicodedata.combining(c) == 0 and c not in backward
    ]
    return "".join(re.escape(c) for c in kept)


@lru_cache(maxsize=1)
def _cut_classes() -> tuple[str, str]:
    """The characters a cut's newline follows (CJK) and precedes (those that start an NFKC
    chunk), as class bodies (see the module docstring)."""
    cjk = "".join(map(chr, [*range(0x3001, 0x3097), *range(0x30A1, 0x30FF), *range(0x4E00, 0xA000)]))
    ascii_ = "".join(map(chr, range(0x21, 0x7F)))
    return _stable(cjk), _stable(ascii_ + cjk)


@lru_cache(maxsize=1)
def _cut_pattern() -> re.Pattern[str]:
    """A newline after a CJK character and before a character that starts an NFKC chunk."""
    before, after = _cut_classes()
    return re.compile(f"(?<=[{before}])\n(?=[{after}])")


@lru_cache(maxsize=1)
def _fine_cut_pattern() -> re.Pattern[str]:
    """:func:`_cut_pattern`, starting with its newline (so a scan jumps from one to the next)."""
    before, after = _cut_classes()
    return re.compile(f"\n(?<=[{before}]\n)(?=[{after}])")


#: Characters one of which (absent from a text) marks the fine cuts while the index is built.
_SENTINELS = "\x00\x01\x02\x03\x04\x05\x06\x07\x08"
_LINK = re.compile(r"\]\(")


@dataclass(slots=True)
class _FineIndex:
    """A text cut after *every* safe newline (fine blocks): ``cuts`` (where each block
    starts, then the text's length), the blocks' NFKC joined (``nfkc``, ``nfkc_bounds``)
    and their skeletons joined (``skeleton``, ``bounds``), the blocks whose NFKC may hold a
    link (``links``, sorted); then what is learned: each block's normalized text, the
    offsets of blocks (block -> (starts, ends, where the block starts in them, what to add
    to place one in the original)) and the original characters normalized (``known``).
    Built at C speed: a sentinel character is put at every cut, and each derived text is
    split at the sentinels (it is a starter no step changes, not a skeleton character)."""

    cuts: array[int]
    skeleton: str
    bounds: array[int]
    links: list[int]
    nfkc: str
    nfkc_bounds: array[int]
    texts: list[str | None]
    batched: dict[int, tuple[Sequence[int], Sequence[int], int, int]]
    in_nfkc: bool = True  # whether the whole text is in NFKC (see offsets_in_context)
    known: int = 0
    alone: int = 0  # of which normalized a block at a time (not by prefetch())
    #: the blocks of each match of a needle's skeleton (first, last), by skeleton (a few kept)
    matches: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    def matched(self, skeleton: str) -> list[tuple[int, int]]:
        """The (first, last) blocks of each match of ``skeleton`` (the leftmost match in each
        first block), in order."""
        found = self.matches.get(skeleton)
        if found is None:
            text, bounds = self.skeleton, self.bounds
            found = []
            pos = text.find(skeleton)
            while pos != -1:
                first = bisect.bisect_right(bounds, pos) - 1
                last_start = text.rfind(skeleton, pos, bounds[first + 1] + len(skeleton) - 1)
                found.append((first, bisect.bisect_right(bounds, last_start + len(skeleton) - 1) - 1))
                pos = text.find(skeleton, bounds[first + 1])
            if len(self.matches) >= _MEMO:
                self.matches.clear()
            self.matches[skeleton] = found
        return found

    @classmethod
    def build(cls, original: str, nfkc: bool) -> _FineIndex | None:
        mark = next((c for c in _SENTINELS if c not in original), None)
        if mark is None:
            return None
        marked = _fine_cut_pattern().sub("\n" + mark, original)
        cuts = array("I", itertools.accumulate(map(len, marked.split(mark)), initial=0))
        in_nfkc = not nfkc or unicodedata.is_normalized("NFKC", marked)
        if in_nfkc:  # (the blocks' NFKC is the text: nothing to split or join again)
            nfkc_text, nfkc_bounds = original, cuts
        else:
            marked = unicodedata.normalize("NFKC", marked)
            pieces = marked.split(mark)
            nfkc_text = "".join(pieces)
            nfkc_bounds = array("I", itertools.accumulate(map(len, pieces), initial=0))
        skeletons = _skeleton_of(marked).split(mark)
        bounds = array("I", itertools.accumulate(map(len, skeletons), initial=0))
        links = sorted({bisect.bisect_right(nfkc_bounds, m.start()) - 1 for m in _LINK.finditer(nfkc_text)})
        texts: list[str | None] = [None] * (len(cuts) - 1)
        return cls(cuts, "".join(skeletons), bounds, links, nfkc_text, nfkc_bounds, texts, {}, in_nfkc)


#: What the steps after NFKC may write that NFKC did not (the comma rule's 、, the whitespace
#: rules' space): every other character of a normalized block is a character of its NFKC.
_WRITTEN = frozenset(" 、")
#: What a step after NFKC may delete or change outside a link's target (whitespace, Markdown's
#: marker and delimiter characters, digits of list markers, commas) and what it writes. The
#: rest of a block's NFKC reaches its normalized text unchanged and in order: an occurrence
#: holds its needle's *skeleton* (the needle without these) in the blocks' skeletons, whole.
_LOOSE = JS_WHITESPACE + "*_~`[]()#>-+.,、0123456789"
_LOOSE_BYTES = bytes(c for c in map(ord, _LOOSE) if c < 0x80)
_LOOSE_WIDE = re.compile("[" + re.escape("".join(c for c in _LOOSE if ord(c) >= 0x80 and c != "、")) + "]")
_LOOSE_SET = frozenset(_LOOSE)
_SPARSE_UNTIL = 0.5  # share of blocks normalized before the whole text is built instead


def _skeleton_of(text: str) -> str:
    """``text`` without :data:`_LOOSE` characters (the ASCII ones deleted as bytes of its
    UTF-8, where an ASCII byte is never part of another character's encoding)."""
    if "、" in text:
        text = text.replace("、", "")
    if _LOOSE_WIDE.search(text) is not None:
        text = _LOOSE_WIDE.sub("", text)
    return text.encode("utf-8", "surrogatepass").translate(None, _LOOSE_BYTES).decode("utf-8", "surrogatepass")


def _blockwise(flags: NormalizeFlags) -> NormalizeFlags | None:
    """The flags each block is normalized with (``flags`` without the wrapping-quote rule),
    or None when ``flags`` cannot be split at safe newlines."""
    names = {step.name for step in enabled_steps(flags)}
    if not names <= _SUPPORTED or ("whitespace" in names and flags.whitespace is not WhitespaceMode.CJK):
        return None
    return replace(flags, equivalences=flags.equivalences - {Equivalence.WRAPPING_QUOTES})


def splits(flags: NormalizeFlags) -> bool:
    """Whether a text normalized with ``flags`` is cut into blocks (its normalized text
    then built lazily, block by block)."""
    return _blockwise(flags) is not None


def _may_wrap(first: str, last: str, flags: NormalizeFlags) -> bool:
    """Whether the whole text may be wrapped in a quote pair (decided on the first and last
    blocks after NFKC and Markdown stripping, the steps before the equivalences)."""
    if Equivalence.WRAPPING_QUOTES not in flags.equivalences:
        return False
    before = replace(flags, equivalences=frozenset(), whitespace=WhitespaceMode.KEEP)
    head = normalize(first, flags=before).lstrip("".join(_WS_SET))
    tail = normalize(last, flags=before).rstrip("".join(_WS_SET))
    return head[:1] in _WRAPPERS and tail[-1:] == _WRAPPERS[head[:1]]


@dataclass(slots=True)
class Region:
    """A run of whole blocks ``lo..hi`` (inclusive) and their normalized text: the slice of
    the whole normalized text those blocks produce. ``bounds[k]`` is where block ``lo + k``
    starts in :attr:`text` (``bounds[-1] == len(text)``)."""

    lo: int
    hi: int
    text: str
    bounds: list[int]
    fine: bool = False  # blocks of the fine index (regions()), else the (coarse) blocks


class LazyOffsets:
    """``normalize_with_offsets(original, flags=flags)``, its offsets computed on demand.

    :attr:`text` is the normalized text (equal to :func:`normalize`'s), built on first use;
    before that, :meth:`regions` answers "where could this needle be" from the blocks'
    skeletons (see :data:`_LOOSE`), normalizing only the blocks that match. :meth:`window` gives the offsets
    around a normalized range; :meth:`full` the whole text's. Thread-safe: windows are
    computed outside any lock and cached whole.
    """

    __slots__ = (
        "_block_flags",
        "_blocks",
        "_budget",
        "_fine",
        "_full",
        "_in_nfkc",
        "_known",
        "_lock",
        "_maps",
        "_memo",
        "_norm",
        "_orig",
        "_positions",
        "_regions",
        "_regions_size",
        "_run",
        "_spent",
        "_text",
        "_whole",
        "_windows",
        "flags",
        "original",
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
        self._run = _compiled(flags)  # normalize(text, flags=flags), without its checks per call
        self._positions: dict[tuple[str, int], tuple[int, ...]] = {}
        self._maps: dict[int, NormalizedText] = {}  # offsets of single blocks (regions, alignment)
        self._fine: _FineIndex | Literal[False] | None = None  # built by regions(); False: none
        self._in_nfkc: bool | None = None  # whether the whole text is in NFKC (once asked)
        self._whole: Region | None = None
        self._known = 0  # blocks whose normalized text is known
        self._regions: dict[str, list[Region] | None] = {}  # by needle (a source checked again)
        self._regions_size = 0
        self._text: str | None = None
        block_flags = _blockwise(flags) if full is None else None
        cuts = self._cuts(original, block) if block_flags is not None else []
        if block_flags is None or not cuts or _may_wrap(original[: cuts[0]], original[cuts[-1] :], flags):
            self._block_flags = None
            if full is None:
                self._full = full = normalize_with_offsets(original, flags=flags)
            self._text = full.text
            self._orig = array("I", (0, len(original)))
            self._norm = array("I", (0, len(full.text)))
            self._blocks: list[str | None] = [full.text]
            return
        self._block_flags = block_flags
        self._orig = array("I", [0, *cuts, len(original)])
        self._norm = array("I")  # filled when the text is built
        self._blocks = [None] * (len(cuts) + 1)  # each block's normalized text, once known

    @property
    def text(self) -> str:
        """The whole normalized text (every block's, joined; built once)."""
        text = self._text
        if text is None and self._full is not None:
            return self._full.text
        if text is None:
            run = _compiled(self._block_flags) if self._block_flags is not None else None
            pieces: list[str] = []
            for i, known in enumerate(self._blocks):
                if known is None:
                    assert run is not None
                    known = self._blocks[i] = run(self.original[self._orig[i] : self._orig[i + 1]])
                pieces.append(known)
            norm = array("I", (0,))
            for piece in pieces:
                norm.append(norm[-1] + len(piece))
            with self._lock:
                if self._text is None:
                    self._norm, self._text = norm, "".join(pieces)
                    self._fine = None  # only regions() read it: not kept past here
                    self._regions, self._regions_size = {}, 0
                text = self._text
        return text

    def sparse(self) -> bool:
        """Whether :meth:`regions` should answer: cut into blocks, the whole text not built,
        and fewer than half of the blocks normalized so far (past that, building the whole
        text costs less than more regions)."""
        if self._block_flags is None or self._text is not None or self._full is not None:
            return False
        fine = self._fine
        alone = fine.alone if fine else 0
        return self._known < _SPARSE_UNTIL * len(self._blocks) and alone < _SPARSE_UNTIL * len(self.original)

    def whole(self) -> Region | None:
        """The whole text as one region (None when it is not cut into blocks)."""
        if self._block_flags is None or self._full is not None:
            return None
        found = self._whole
        if found is None:
            text = self.text
            found = self._whole = Region(0, len(self._blocks) - 1, text, self._norm.tolist())
        return found

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
        return self.normalized(self.original[start:end])

    def normalized(self, text: str) -> str:
        """``normalize(text, flags=flags)``, kept for short texts (pieces of the original, and
        the quotes of a source checked again)."""
        found = self._memo.get(text)
        if found is None:
            found = self._run(text)
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

    # -- before the whole text: the blocks a needle's skeleton matches -----------------

    def block_text(self, i: int) -> str:
        """Block ``i``'s normalized text (the plain path; kept)."""
        known = self._blocks[i]
        if known is None:
            assert self._block_flags is not None
            known = self._blocks[i] = normalize(self.original[self._orig[i] : self._orig[i + 1]], flags=self._block_flags)
            self._known += 1
        return known

    def _piece_offsets(self, a: int, b: int) -> NormalizedText:
        """``original[a:b]`` (whole blocks) normalized with offsets as in the whole text."""
        assert self._block_flags is not None
        in_nfkc = self._in_nfkc
        if in_nfkc is None:
            in_nfkc = self._in_nfkc = not self._block_flags.nfkc or unicodedata.is_normalized("NFKC", self.original)
        return offsets_in_context(self.original[a:b], self._block_flags, whole_in_nfkc=in_nfkc)

    def block_offsets(self, i: int) -> NormalizedText:
        """Block ``i`` normalized alone with offsets (relative to the block's start; kept)."""
        found = self._maps.get(i)
        if found is None:
            assert self._block_flags is not None
            found = self._piece_offsets(self._orig[i], self._orig[i + 1])
            if self._blocks[i] is None:  # its text too: the same as the plain path's
                self._blocks[i] = found.text
                self._known += 1
            if len(self._maps) >= _BLOCK_MAPS:
                self._maps.clear()
            self._maps[i] = found
        return found

    # -- before the whole text: the fine blocks a needle's skeleton matches --------------
    #
    # Regions are runs of *fine* blocks: the text cut after every safe newline (see
    # _FineIndex), so that a hit's region is about its line, not a block of BLOCK characters.

    def _fine_index(self) -> _FineIndex | None:
        found = self._fine
        if found is None:
            assert self._block_flags is not None
            found = self._fine = _FineIndex.build(self.original, self._block_flags.nfkc) or False
        return found or None

    def _fine_text(self, fine: _FineIndex, i: int) -> str:
        """Fine block ``i``'s normalized text (the plain path, alone; kept)."""
        known = fine.texts[i]
        if known is None:
            assert self._block_flags is not None
            known = fine.texts[i] = _compiled(self._block_flags)(self.original[fine.cuts[i] : fine.cuts[i + 1]])
            fine.known += fine.cuts[i + 1] - fine.cuts[i]
            fine.alone += fine.cuts[i + 1] - fine.cuts[i]
        return known

    def _fine_mapped_text(self, fine: _FineIndex, i: int) -> str:
        """Fine block ``i``'s normalized text, its offsets computed with it when it is new."""
        known = fine.texts[i]
        if known is None:
            self._fine_span(fine, i, -1)
            known = fine.texts[i]
            assert known is not None
        return known

    def _fine_span(self, fine: _FineIndex, i: int, j: int) -> tuple[int, int]:
        """The original span of character ``j`` of fine block ``i``'s normalized text (-1: only
        compute the block's offsets, returning (-1, -1))."""
        batched = fine.batched.get(i)
        if batched is None:
            assert self._block_flags is not None
            a = fine.cuts[i]
            m = offsets_in_context(self.original[a : fine.cuts[i + 1]], self._block_flags, whole_in_nfkc=fine.in_nfkc)
            if fine.texts[i] is None:
                fine.texts[i] = m.text
                fine.known += fine.cuts[i + 1] - a
            fine.alone += fine.cuts[i + 1] - a
            batched = fine.batched[i] = (m.starts, m.ends, 0, a)
        if j < 0:
            return -1, -1
        starts, ends, first, shift = batched
        return starts[first + j] + shift, ends[first + j] + shift

    def _reach(self, fine: _FineIndex, block: int, left: int, right: int) -> tuple[int, int]:
        """The fine blocks around ``block`` whose normalized texts hold at least ``left``
        characters before it and ``right`` after it (or up to the text's ends)."""
        lo, have = block, 0
        while have < left and lo > 0:
            lo -= 1
            have += len(self._fine_text(fine, lo))
        hi, have, last = block, 0, len(fine.texts) - 1
        while have < right and hi < last:
            hi += 1
            have += len(self._fine_text(fine, hi))
        return lo, hi

    def regions(self, needle: str) -> list[Region] | None:
        """Runs of whole fine blocks that hold every occurrence of ``needle`` in :attr:`text`,
        in order, without building the whole text; None when ``needle`` has no skeleton (or
        the text has no fine index).

        An occurrence that holds no link target holds the needle's skeleton (see
        :data:`_LOOSE`) whole in the blocks' skeletons: the blocks of each skeleton match,
        reached out for the needle's characters before its skeleton's first and after its
        last, are one candidate. An occurrence around a link block is within that block
        reached out for the needle's length on each side; such a candidate whose NFKC lacks
        a character of ``needle`` is left out."""
        found = self._regions.get(needle)
        if found is None and needle not in self._regions:
            found = self._find_regions(needle)
            size = sum(len(r.text) for r in found or ())
            if len(needle) <= _MEMO_PIECE and size <= _MEMO_REGION:  # (bounds what the memo holds)
                if len(self._regions) >= _MEMO or self._regions_size > _MEMO_REGIONS:
                    self._regions.clear()
                    self._regions_size = 0
                self._regions[needle] = found
                self._regions_size += size
        return found

    def _find_regions(self, needle: str) -> list[Region] | None:
        fine = self._fine_index()
        kept = [i for i, c in enumerate(needle) if c not in _LOOSE_SET]
        if fine is None or not kept:
            return None
        lead, trail = kept[0], len(needle) - 1 - kept[-1]
        spans = [
            (self._reach(fine, first, lead, 0)[0], self._reach(fine, final, 0, trail)[1])
            for first, final in fine.matched(_skeleton_of(needle))
        ]
        if fine.links:
            spans = sorted(spans + self._link_spans(fine, needle))
        return self._runs(fine, spans)

    def _link_spans(self, fine: _FineIndex, needle: str) -> list[tuple[int, int]]:
        chars = sorted(set(needle) - _WRITTEN)
        spans: list[tuple[int, int]] = []
        for block in fine.links:
            reach = self._reach(fine, block, len(needle), len(needle))
            piece = fine.nfkc[fine.nfkc_bounds[reach[0]] : fine.nfkc_bounds[reach[1] + 1]]
            if all(c in piece for c in chars):
                spans.append(reach)
        return spans

    def prefetch(self, needles: list[str]) -> None:
        """Normalize with offsets, in one call, every fine block :meth:`regions` of
        ``needles`` may read, so that few are normalized alone (a call per block costs several
        times its characters). Those are each skeleton match's blocks, reached out over lower
        bounds of the blocks' normalized lengths (:meth:`_low`: a superset of what
        :meth:`regions` reaches). The block after them is not taken: only a hit that ends its
        region reads it (the character after the hit, mapped when asked; the one before is
        known without a block, see char_span), and taking it for every match normalized about
        twice the characters. Blocks joined in order, adjacent or not,
        meet as at a cut, so their text normalized at once is theirs joined, offsets
        shifted. Nothing is done unless :meth:`sparse`; when the blocks would hold more than
        half of the text, its whole plain text is built instead (as regions() past half of the
        blocks: the lookups then search it, bounded by their hits, not by the skeleton matches)."""
        fine = self._fine_index() if self.sparse() else None
        if fine is None:
            return
        wanted = bytearray(len(fine.texts))
        cuts, marked, limit = fine.cuts, 0, _SPARSE_UNTIL * len(self.original)
        for needle in needles:
            for lo, hi in self._needle_spans(fine, needle):
                end = min(hi + 1, len(wanted))
                if wanted.count(0, lo, end):
                    marked += sum(cuts[i + 1] - cuts[i] for i in range(lo, end) if not wanted[i])
                    wanted[lo:end] = b"\x01" * (end - lo)
            if marked > limit:  # most of the text: build it whole (regions() then stop answering)
                self.text  # noqa: B018
                return
        for known in list(fine.batched):  # (blocks whose offsets are known already)
            wanted[known] = 0
        if wanted.count(1):
            self._batch(fine, wanted)

    def _needle_spans(self, fine: _FineIndex, needle: str) -> list[tuple[int, int]]:
        """The block spans :meth:`_find_regions` reads for ``needle``, or a superset of them."""
        kept = [i for i, c in enumerate(needle) if c not in _LOOSE_SET]
        if not kept:
            return []
        lead, trail = kept[0], len(needle) - 1 - kept[-1]
        spans = [
            (self._low_reach(fine, first, lead, -1), self._low_reach(fine, final, trail, 1))
            for first, final in fine.matched(_skeleton_of(needle))
        ]
        if fine.links:
            chars = sorted(set(needle) - _WRITTEN)
            for block in fine.links:
                lo, hi = self._low_reach(fine, block, len(needle), -1), self._low_reach(fine, block, len(needle), 1)
                piece = fine.nfkc[fine.nfkc_bounds[lo] : fine.nfkc_bounds[hi + 1]]
                if all(c in piece for c in chars):
                    spans.append((lo, hi))
        return spans

    @staticmethod
    def _low(fine: _FineIndex, block: int) -> int:
        """A lower bound of fine block ``block``'s normalized length (its length once known):
        its skeleton's (which reaches the normalized text whole) unless it may hold a link;
        else 1 (the CJK character before its cut survives every step), 0 for the last."""
        known = fine.texts[block]
        if known is not None:
            return len(known)
        if block == len(fine.texts) - 1:
            return 0
        at = bisect.bisect_left(fine.links, block)
        if at < len(fine.links) and fine.links[at] == block:
            return 1
        return max(1, fine.bounds[block + 1] - fine.bounds[block])

    def _low_reach(self, fine: _FineIndex, block: int, need: int, step: int) -> int:
        """The block ``step`` (-1: back, 1: on) from ``block`` where ``need`` normalized
        characters are surely reached, as :meth:`_reach` does with the blocks' texts."""
        have, last = 0, len(fine.texts) - 1
        if step < 0:
            while have < need and block > 0:
                block -= 1
                have += self._low(fine, block)
        else:
            while have < need and block < last:
                block += 1
                have += self._low(fine, block)
        return block

    def _batch(self, fine: _FineIndex, wanted: bytearray) -> None:
        """Normalize the runs of ``wanted`` fine blocks with offsets, joined, in one call."""
        assert self._block_flags is not None
        cuts, runs = fine.cuts, []
        pos = wanted.find(1)
        while pos != -1:
            end = wanted.find(0, pos)
            end = len(wanted) if end == -1 else end
            runs.append((pos, end - 1))
            pos = wanted.find(1, end)
        pieces = [self.original[cuts[lo] : cuts[hi + 1]] for lo, hi in runs]
        mapped = offsets_in_context("".join(pieces), self._block_flags, whole_in_nfkc=fine.in_nfkc)
        text, starts, ends = mapped.text, mapped.starts, mapped.ends
        assert isinstance(starts, array) and isinstance(ends, array)
        joined = 0
        for (lo, hi), piece in zip(runs, pieces, strict=True):
            shift = cuts[lo] - joined
            first = bisect.bisect_left(starts, joined)
            for i in range(lo, hi + 1):
                nxt = bisect.bisect_left(starts, (cuts[i + 1] if i < hi else cuts[hi + 1]) - shift)
                fine.batched[i] = (starts, ends, first, shift)
                if fine.texts[i] is None:
                    fine.texts[i] = text[first:nxt]
                    fine.known += cuts[i + 1] - cuts[i]
                first = nxt
            joined += len(piece)

    def _runs(self, fine: _FineIndex, spans: list[tuple[int, int]]) -> list[Region]:
        """The regions of ``spans`` (sorted block runs), overlapping or touching ones merged."""
        runs: list[list[int]] = []
        for lo, hi in spans:
            if runs and lo <= runs[-1][1] + 1:
                runs[-1][1] = max(runs[-1][1], hi)
            else:
                runs.append([lo, hi])
        return [self._region(fine, lo, hi) for lo, hi in runs]

    def _region(self, fine: _FineIndex, lo: int, hi: int) -> Region:
        pieces = [self._fine_text(fine, i) for i in range(lo, hi + 1)]
        bounds = [0]
        for piece in pieces:
            bounds.append(bounds[-1] + len(piece))
        return Region(lo, hi, "".join(pieces), bounds, fine=True)

    def char_span(self, region: Region, index: int) -> tuple[int, int] | None:
        """The original span of the normalized character at ``index`` of ``region.text``
        (``-1``: the character before the region, ``len(region.text)``: the one after);
        None when there is none (the start or the end of the whole text)."""
        fine = self._fine_index() if region.fine else None
        if fine is None:
            return self._coarse_span(region, index)
        if 0 <= index < len(region.text):
            k = bisect.bisect_right(region.bounds, index) - 1
            return self._fine_span(fine, region.lo + k, index - region.bounds[k])
        if index < 0:
            # A block before another ends with a CJK character and the cut's newline: its last
            # normalized character is that CJK character, alone (see _stable and the module
            # docstring), known without normalizing the block.
            return None if region.lo == 0 else (fine.cuts[region.lo] - 2, fine.cuts[region.lo] - 1)
        # (the blocks after are normalized with their offsets at once: the first one that
        # has a normalized character is then mapped without a second pass over it)
        block = next((b for b in range(region.hi + 1, len(fine.texts)) if self._fine_mapped_text(fine, b)), -1)
        return None if block < 0 else self._fine_span(fine, block, 0)

    def _coarse_span(self, region: Region, index: int) -> tuple[int, int] | None:
        """:meth:`char_span` in a region of (coarse) blocks (:meth:`whole`)."""
        if 0 <= index < len(region.text):
            k = bisect.bisect_right(region.bounds, index) - 1
            block = region.lo + k
            m, j = self.block_offsets(block), index - region.bounds[k]
        elif index < 0:
            block = next((b for b in range(region.lo - 1, -1, -1) if self.block_text(b)), -1)
            if block < 0:
                return None
            m = self.block_offsets(block)
            j = len(m.text) - 1
        else:
            block = next((b for b in range(region.hi + 1, len(self._blocks)) if self.block_text(b)), -1)
            if block < 0:
                return None
            m, j = self.block_offsets(block), 0
        o = self._orig[block]
        return m.starts[j] + o, m.ends[j] + o

    def shorter_than(self, size: int) -> bool:
        """Whether :attr:`text` has fewer than ``size`` characters (blocks normalized from
        the start only until it is known)."""
        if self._text is not None or self._block_flags is None:
            return len(self.text) < size
        have = 0
        for i in range(len(self._blocks)):
            have += len(self.block_text(i))
            if have >= size:
                return False
        return True

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
        self.text  # noqa: B018 - builds the blocks' normalized starts (self._norm)
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
            found = self._piece_offsets(a, b)
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
