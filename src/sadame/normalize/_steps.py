"""The contract's steps, each in two forms that must agree character for character:

* ``text``: string in, string out (the fast path behind :func:`normalize`);
* ``mapped``: the same transformation carrying, for every output character, the
  span of the *original* input it came from (behind :func:`normalize_with_offsets`).

Together with ``_core`` (its fast path) this is the only code of sadame that calls
:func:`unicodedata.normalize`.

The offset maps are compact ``array('I')`` (4 bytes per character, not a Python int
object each), built by slicing and extending whole runs; no step holds a Python object
per character, so a result keeps about 8 bytes per character besides its text.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from sadame.normalize._flags import (
    CJK_RANGES,
    JS_WHITESPACE,
    Equivalence,
    NormalizeFlags,
    PunctuationMode,
    WhitespaceMode,
)
from sadame.normalize._markdown import markdown_gaps, markdown_strip_text
from sadame.normalize.numeric import apply_numeric, scan_numeric

__all__ = ["KANA_TABLE", "STEPS", "Mapped", "Step", "enabled_steps"]

_KATAKANA_FIRST = 0x30A1  # ァ
_KATAKANA_LAST = 0x30F6  # ヶ
_KANA_SHIFT = 0x60
#: Katakana U+30A1..U+30F6 -> hiragana: the one kana table (the ``kana`` step and ``sadame.lang``).
KANA_TABLE: dict[int, int | None] = {
    cp: cp - _KANA_SHIFT for cp in range(_KATAKANA_FIRST, _KATAKANA_LAST + 1)
}
_WS_SET = frozenset(JS_WHITESPACE)
_WS_CLASS = "[" + re.escape(JS_WHITESPACE) + "]"
_WS_RUN = re.compile(_WS_CLASS + "+")
_WS_MULTI = re.compile(_WS_CLASS + "{2,}")
_CJK_CLASS = "[" + "".join(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in CJK_RANGES) + "]"
_CJK_CHAR = re.compile(_CJK_CLASS)
# After every whitespace run became one ASCII space: the spaces the ``cjk`` mode deletes,
# those after or before a CJK character. The pattern starts with a literal space, so the
# scan jumps from space to space; each test looks at one neighbour.
_CJK_SPACE = re.compile(f" (?:(?<={_CJK_CLASS} )|(?={_CJK_CLASS}))")
# (a comma not followed by a digit, or not preceded by one; written comma first so that the
# search skips to the next comma instead of trying both branches at every position)
_COMMA = re.compile(r"[,，](?:(?![0-9])|(?<![0-9][,，]))")
_COLON_SPACE = re.compile(f"([:：]){_WS_CLASS}++")
_WRAPPERS: dict[str, str] = {"「": "」", "『": "』", "“": "”", '"': '"'}


OFFSET_TYPE = "I"  # unsigned 32-bit: texts up to 4 G characters
_BLOCK = 1 << 11  # positions copied or selected at once (bounds temporary objects)
_JOIN_EVERY = 256  # small output strings joined into one at a time
_RUN_COST = 12  # a run copied costs about as much as this many characters filtered


def offsets(values: Iterable[int] = ()) -> array[int]:
    """A compact offset map (see the module docstring)."""
    return array(OFFSET_TYPE, values)


#: The longest ``offsets(range(n))`` kept for reuse (1 MiB): every identity map up to it is
#: one copy of a prefix of the kept one instead of a Python int per position.
_KEPT_COUNTING = 1 << 18
_counted: list[array[int]] = [array(OFFSET_TYPE)]  # the kept counting map (replaced whole, never changed)


def _counting(size: int) -> array[int]:
    """``offsets(range(size))``: a copy of a prefix of the kept counting map when it is long
    enough; else a block of Python ints at a time (``array.fromlist`` of a list is faster
    than an array read from an iterator; the block bounds the temporary list), kept for
    the next call when at most :data:`_KEPT_COUNTING` long."""
    kept = _counted[0]
    if size <= len(kept):
        return kept[:size]
    out = offsets()
    for lo in range(0, size, _BLOCK * 4):
        out.fromlist(list(range(lo, min(size, lo + _BLOCK * 4))))
    if size <= _KEPT_COUNTING:
        _counted[0] = out[:]  # (a copy: the caller may change its own)
    return out


def _compressed(values: array[int], mask: bytes | bytearray) -> array[int]:
    """``offsets(itertools.compress(values, mask))``, a block at a time (as :func:`_counting`)."""
    out = offsets()
    step = _BLOCK * 4
    for lo in range(0, len(values), step):
        out.fromlist(list(itertools.compress(values[lo : lo + step], mask[lo : lo + step])))
    return out


def _copy_into(starts: array[int], ends: array[int], at: int, m: Mapped, a: int, b: int) -> int:
    """Copy ``m``'s spans of characters ``a..b`` to ``starts``/``ends`` from position ``at``, a
    block at a time (no temporary copy of a whole map); the next position."""
    block = _BLOCK * 8
    while b - a > block:
        starts[at : at + block] = m.starts[a : a + block]
        ends[at : at + block] = m.ends[a : a + block]
        at, a = at + block, a + block
    starts[at : at + b - a] = m.starts[a:b]
    ends[at : at + b - a] = m.ends[a:b]
    return at + b - a


class _Builder:
    """The output maps of a step, allocated once at their final size (or an upper bound)
    and filled in order: no regrowth, so no transient copy of a whole map."""

    __slots__ = ("ends", "pos", "starts")

    def __init__(self, size: int) -> None:
        self.starts = offsets((0,)) * size
        self.ends = offsets((0,)) * size
        self.pos = 0

    def copy(self, m: Mapped, a: int, b: int) -> None:
        """Append the spans of ``m``'s characters ``a..b``, a block at a time."""
        for lo in range(a, b, _BLOCK):
            hi = min(b, lo + _BLOCK)
            at = self.pos
            self.starts[at : at + hi - lo] = m.starts[lo:hi]
            self.ends[at : at + hi - lo] = m.ends[lo:hi]
            self.pos = at + hi - lo

    def repeat(self, start: int, end: int, count: int) -> None:
        """Append ``count`` characters that all span ``[start, end)``."""
        at = self.pos
        if count == 1 and at < len(self.starts):  # the commonest case, without two small arrays
            self.starts[at] = start
            self.ends[at] = end
            self.pos = at + 1
            return
        if at + count > len(self.starts):  # only a step that may grow the text gets here
            extra = offsets((0,)) * max(count, len(self.starts) // 8)
            self.starts.extend(extra)
            self.ends.extend(extra)
        self.starts[at : at + count] = offsets((start,)) * count
        self.ends[at : at + count] = offsets((end,)) * count
        self.pos = at + count

    def pick(self, m: Mapped, block: list[int]) -> None:
        """Append the spans of ``m``'s characters at the positions in ``block``."""
        at = self.pos
        self.starts[at : at + len(block)] = offsets(map(m.starts.__getitem__, block))
        self.ends[at : at + len(block)] = offsets(map(m.ends.__getitem__, block))
        self.pos = at + len(block)

    def done(self, text: str) -> Mapped:
        if self.pos != len(self.starts):
            del self.starts[self.pos :]
            del self.ends[self.pos :]
        if self.pos != len(text):  # pragma: no cover - a step's maps must match its text
            raise AssertionError(f"offset maps of {self.pos} for a text of {len(text)}")
        return Mapped(text, self.starts, self.ends)


class _Text:
    """Output text built from many small pieces, joined as it grows (few live objects)."""

    __slots__ = ("done", "pieces")

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.done: list[str] = []

    def add(self, piece: str) -> None:
        self.pieces.append(piece)
        if len(self.pieces) >= _JOIN_EVERY:
            self.done.append("".join(self.pieces))
            self.pieces = []

    def text(self) -> str:
        self.done.append("".join(self.pieces))
        self.pieces = []
        return "".join(self.done)


def _blocks(keep: Iterable[int]) -> Iterator[list[int]]:
    block: list[int] = []
    for index in keep:
        block.append(index)
        if len(block) == _BLOCK:
            yield block
            block = []
    if block:
        yield block


@dataclass(slots=True)
class Mapped:
    """Text plus, for each of its characters, the original span ``[starts[i], ends[i])``."""

    text: str
    starts: array[int]
    ends: array[int]

    @classmethod
    def identity(cls, text: str) -> Mapped:
        starts = _counting(len(text))
        ends = starts[1:]  # one copy of the array, not a second walk over a range
        if text:
            ends.append(len(text))
        return cls(text, starts, ends)

    def keep(self, mask: bytes | bytearray, text: str | None = None) -> Mapped:
        """The characters where ``mask`` (one byte per character) is 1. The text is joined
        a kept run at a time (or is ``text``, when the caller has it); the maps are copied
        a run at a time when runs are long, else filtered in one C-level pass
        (``itertools.compress``): the work is never a Python step per character."""
        size = mask.count(1)
        if size == len(self.text):
            return self if text is None else Mapped(text, self.starts, self.ends)
        if mask.count(b"\x00\x01") * _RUN_COST > len(mask):  # many short runs
            if text is None:
                text = _kept_runs(self.text, mask)
            return Mapped(text, _compressed(self.starts, mask), _compressed(self.ends, mask))
        # The maps at their final size, each kept run slice-assigned (a long run a block at a
        # time: no temporary copy of a whole map); the text, when not given, joined from the
        # same runs (one walk over them).
        starts, ends = offsets((0,)) * size, offsets((0,)) * size
        from_starts, from_ends, find, length, block = self.starts, self.ends, mask.find, len(mask), _BLOCK * 8
        pieces = None if text is not None else _Text()
        at = 0
        pos = find(1)
        while pos != -1:
            end = find(0, pos)
            if end == -1:
                end = length
            if pieces is not None:
                pieces.add(self.text[pos:end])
            while end - pos > block:
                starts[at : at + block] = from_starts[pos : pos + block]
                ends[at : at + block] = from_ends[pos : pos + block]
                at += block
                pos += block
            starts[at : at + end - pos] = from_starts[pos:end]
            ends[at : at + end - pos] = from_ends[pos:end]
            at += end - pos
            pos = find(1, end)
        if pieces is not None:
            text = pieces.text()
        assert text is not None
        if at != len(text):  # pragma: no cover - a step's maps must match its text
            raise AssertionError(f"offset maps of {at} for a text of {len(text)}")
        return Mapped(text, starts, ends)

    def select(self, keep: Iterable[int], size: int) -> Mapped:
        """The ``size`` characters at positions ``keep`` (ascending), a block at a time."""
        pieces: list[str] = []
        out = _Builder(size)
        for block in _blocks(keep):
            pieces.append("".join(map(self.text.__getitem__, block)))
            out.pick(self, block)
        return out.done("".join(pieces))

    def drop(self, chars: frozenset[str]) -> Mapped:
        """Without the characters in ``chars``, kept runs copied whole."""
        if not any(c in self.text for c in chars):
            return self
        if any(ord(c) > 0xFFFF for c in chars):  # pragma: no cover - no step deletes astral characters
            size = len(self.text) - sum(self.text.count(c) for c in chars)
            return self.select((i for i, c in enumerate(self.text) if c not in chars), size)
        return self.keep(_keep_mask(self.text, chars))


@lru_cache(maxsize=16)
def _mask_table(chars: frozenset[str]) -> list[int]:
    table = [1] * 0x10000
    for char in chars:
        table[ord(char)] = 0
    return table


_ASTRAL_AS_KEPT = bytes.maketrans(b"?", b"\x01")


def _keep_mask(text: str, chars: frozenset[str]) -> bytes:
    """One byte per character of ``text``: 0 for the characters in ``chars``, else 1 (C-level:
    a translate to \\x00/\\x01; an astral character, untouched by the BMP table, encodes as
    ``?`` and is then read as kept)."""
    return text.translate(_mask_table(chars)).encode("latin-1", "replace").translate(_ASTRAL_AS_KEPT)


@dataclass(frozen=True, slots=True)
class Step:
    name: str
    enabled: Callable[[NormalizeFlags], bool]
    text: Callable[[str, NormalizeFlags], str]
    mapped: Callable[[Mapped, NormalizeFlags], Mapped]
    #: the per-character ``str.translate`` table the step amounts to under these flags, when it
    #: is one (so the fused plan can merge it with its neighbours); None when it is not
    table: Callable[[NormalizeFlags], dict[int, int | None] | None] = lambda _flags: None


# -- nfkc ---------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _composes_backward() -> frozenset[str]:
    """Characters that canonical composition can merge into the character before them.

    These are the NFKC_QC=Maybe characters: second halves of primary composites,
    plus Hangul medial vowels and final consonants.
    """
    found: set[str] = {chr(cp) for cp in range(0x1161, 0x1176)}
    found.update(chr(cp) for cp in range(0x11A8, 0x11C3))
    for cp in range(0x110000):
        decomposition = unicodedata.decomposition(chr(cp))
        if not decomposition or decomposition.startswith("<"):
            continue
        parts = decomposition.split()
        if len(parts) != 2:
            continue
        pair = "".join(chr(int(p, 16)) for p in parts)
        if unicodedata.normalize("NFC", pair) == chr(cp):
            found.add(pair[1])
    return frozenset(found)


@lru_cache(maxsize=65536)
def _starts_chunk(char: str) -> bool:
    """True when NFKC can never merge ``char`` with anything before it."""
    first = unicodedata.normalize("NFKD", char)[:1] or char
    return unicodedata.combining(first) == 0 and first not in _composes_backward()


def _nfkc_text(text: str, flags: NormalizeFlags) -> str:
    return unicodedata.normalize("NFKC", text)


@lru_cache(maxsize=1)
def _unstable_pattern() -> re.Pattern[str]:
    """A character class of everything NFKC might change or merge with its neighbour.

    Outside the matches of this class NFKC is the identity, so the offsets path only
    does per-chunk work around these characters.
    """
    backward = _composes_backward()
    ranges: list[tuple[int, int]] = []
    # BMP only: a class of BMP ranges compiles to a bitmap (fast); every astral
    # character is simply treated as unstable, which is correct and rare.
    for cp in range(0x10000):
        char = chr(cp)
        if 0xD800 <= cp <= 0xDFFF:
            continue
        unstable = (
            unicodedata.combining(char) != 0
            or char in backward
            or unicodedata.normalize("NFKC", char) != char
        )
        if unstable:
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1] = (ranges[-1][0], cp)
            else:
                ranges.append((cp, cp))
    parts = "".join(
        re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in ranges
    )
    return re.compile(f"[{parts}]|[\U00010000-\U0010FFFF]")


def _nfkc_regions(text: str) -> Iterator[tuple[int, int]]:
    """Regions around characters NFKC may change, each from a chunk start to a chunk
    start, merged when they touch, in order (a generator: no list of regions is kept).

    Chunks inside a region are the units NFKC treats independently.
    """
    current: tuple[int, int] | None = None
    for hit in _unstable_pattern().finditer(text):
        if current is not None and hit.start() < current[1]:
            continue  # inside the region just found: walking back again would be quadratic
        start = hit.start()
        while start > 0 and not _starts_chunk(text[start]):
            start -= 1
        end = hit.start() + 1
        while end < len(text) and not _starts_chunk(text[end]):
            end += 1
        if current is not None and start <= current[1]:
            current = (current[0], max(end, current[1]))
            continue
        if current is not None:
            yield current
        current = (start, end)
    if current is not None:
        yield current


@lru_cache(maxsize=4096)
def _nfkc_char(char: str) -> str:
    return unicodedata.normalize("NFKC", char)


@lru_cache(maxsize=1)
def _one_to_one_table() -> list[int]:
    """A dense BMP translate table of the characters NFKC replaces by one other character
    that is its whole compatibility decomposition (``１`` -> ``1``, ``ｱ`` -> ``ア``, ``：`` -> ``:``).

    Replacing such a character ``c`` by ``d = NFKD(c)`` first never changes NFKC of any
    text (NFKC is NFC of NFKD, and both texts have the same NFKD), nor its chunks (``d``
    starts a chunk exactly when ``c`` does), so the offsets path maps them by one
    translate, without a region each.
    """
    table = list(range(0x10000))
    backward = _composes_backward()
    for cp in range(0x10000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        char = chr(cp)
        target = unicodedata.normalize("NFKC", char)
        if (
            len(target) == 1
            and target != char
            and unicodedata.normalize("NFKD", char) == target
            and unicodedata.combining(char) == 0
            and unicodedata.combining(target) == 0
            and char not in backward
            and target not in backward
            and unicodedata.normalize("NFKD", target) == target
        ):
            table[cp] = ord(target)
    return table


@lru_cache(maxsize=1)
def _one_to_one_runs() -> re.Pattern[str]:
    """Runs of the characters :func:`_one_to_one_table` replaces."""
    table = _one_to_one_table()
    return re.compile("[" + "".join(re.escape(chr(cp)) for cp in range(0x10000) if table[cp] != cp) + "]+")


def _one_to_one(text: str) -> str:
    """``text.translate(_one_to_one_table())``, replacing only its runs of replaced characters
    while they are few; past one run per 64 characters, the rest in one translate (which reads
    every character through the table, about 20 ns each).

    A run is replaced by its NFKC, which is its translate whenever it is as long (every
    replaced character and its replacement are starters that NFKD leaves alone, so NFC can
    only join two of them, which shortens the run: then the translate is used). NFKC of a
    short string costs about a third of a translate call.
    """
    table = _one_to_one_table()
    budget = 16 + (len(text) >> 6)
    pieces: list[str] = []
    pos = 0
    nfkc = unicodedata.normalize
    for run in _one_to_one_runs().finditer(text):
        if not budget:
            break
        budget -= 1
        pieces.append(text[pos : run.start()])
        chars = run.group()
        replaced = nfkc("NFKC", chars)
        if len(replaced) != len(chars):  # pragma: no cover - no two replaced characters join (tested)
            replaced = chars.translate(table)
        pieces.append(replaced)
        pos = run.end()
    pieces.append(text[pos:].translate(table) if not budget else text[pos:])
    return "".join(pieces)


def _nfkc_mapped(m: Mapped, flags: NormalizeFlags) -> Mapped:
    # One-to-one replacements first, by one translate (spans unchanged, see
    # _one_to_one_table); then every output character of a remaining chunk gets the span
    # of its whole chunk, text between regions copied as is. A one-character region
    # takes a short path. The output is joined as it grows, so no string object per
    # region outlives a block.
    if unicodedata.is_normalized("NFKC", m.text):
        return m
    return _nfkc_mapped_by_chunks(m, flags)


def _nfkc_mapped_by_chunks(m: Mapped, flags: NormalizeFlags) -> Mapped:
    """The nfkc step's offsets path past its check that the text is already in NFKC (a
    piece of a longer text that is not: a combining sequence gets its chunk's span, as in
    the whole text)."""
    # (no early return when the translated text is normalized: an unchanged combining
    # sequence still gets its chunk's span, as it always has)
    m = Mapped(_one_to_one(m.text), m.starts, m.ends)
    text = m.text
    out = _Builder(len(text))  # NFKC rarely lengthens a text; repeat() grows it then
    chars = _Text()
    pos = 0
    for region_start, region_end in _nfkc_regions(text):
        chars.add(text[pos:region_start])
        out.copy(m, pos, region_start)
        if region_end - region_start == 1:
            region: str | None = _nfkc_char(text[region_start])
            out.repeat(m.starts[region_start], m.ends[region_start], len(region or ""))
        elif region_end - region_start == 2 and not _starts_chunk(text[region_start + 1]):
            region = _nfkc_char(text[region_start:region_end])  # one chunk (ｶﾞ): one span
            out.repeat(m.starts[region_start], m.ends[region_start + 1], len(region))
        else:
            region = _nfkc_region(m, region_start, region_end, out)
        if region is None:  # pragma: no cover - safety net, property-tested never to trigger
            whole = unicodedata.normalize("NFKC", text)
            return Mapped(whole, offsets([m.starts[0]]) * len(whole), offsets([m.ends[-1]]) * len(whole))
        chars.add(region)
        pos = region_end
    chars.add(text[pos:])
    out.copy(m, pos, len(text))
    return out.done(chars.text())


def _nfkc_region(m: Mapped, region_start: int, region_end: int, out: _Builder) -> str | None:
    """NFKC of one region chunk by chunk, each output character spanning its whole chunk.

    Checked block by block against NFKC of the block as a whole (None on a mismatch);
    the blocks end at chunk starts, so the temporary memory stays bounded.
    """
    text = m.text
    bounds = itertools.chain(
        (region_start,),
        (i for i in range(region_start + 1, region_end) if _starts_chunk(text[i])),
        (region_end,),
    )
    pieces: list[str] = []
    done: list[str] = []
    block_start = region_start
    for a, b in itertools.pairwise(bounds):
        piece = unicodedata.normalize("NFKC", text[a:b])
        pieces.append(piece)
        out.repeat(m.starts[a], m.ends[b - 1], len(piece))
        if len(pieces) == _JOIN_EVERY or b == region_end:
            joined = "".join(pieces)
            if joined != unicodedata.normalize("NFKC", text[block_start:b]):
                return None
            done.append(joined)
            pieces, block_start = [], b
    return "".join(done)


# -- markdown_strip -------------------------------------------------------------------


def _markdown_text(text: str, flags: NormalizeFlags) -> str:
    return markdown_strip_text(text)  # (the kept text of markdown_mask, without the mask)


def _kept_runs(text: str, mask: bytes | bytearray) -> str:
    """The characters of ``text`` where ``mask`` is 1, joined a kept run at a time."""
    if mask.count(0) == 0:
        return text
    pieces = _Text()
    pos = mask.find(1)
    while pos != -1:
        end = mask.find(0, pos)
        end = len(text) if end == -1 else end
        pieces.add(text[pos:end])
        pos = mask.find(1, end)
    return pieces.text()


def _markdown_mapped(m: Mapped, flags: NormalizeFlags) -> Mapped:
    return _without(m, markdown_gaps(m.text))


# -- numeric ------------------------------------------------------------------------


def _numeric_text(text: str, flags: NormalizeFlags) -> str:
    return apply_numeric(text)


def _numeric_mapped(m: Mapped, flags: NormalizeFlags) -> Mapped:
    matches = scan_numeric(m.text)
    if not matches:
        return m
    chars = _Text()
    out = _Builder(len(m.text) + sum(len(x.replacement) - (x.end - x.start) for x in matches))
    pos = 0
    for match in matches:
        chars.add(m.text[pos : match.start])
        out.copy(m, pos, match.start)
        chars.add(match.replacement)
        out.repeat(m.starts[match.start], max(m.ends[match.start : match.end]), len(match.replacement))
        pos = match.end
    chars.add(m.text[pos:])
    out.copy(m, pos, len(m.text))
    return out.done(chars.text())


# -- casefold -----------------------------------------------------------------------


@lru_cache(maxsize=32)
def _sigma_context_table(flags: NormalizeFlags) -> dict[int, int] | None:
    """Characters that later steps turn into a space, when that matters to casing.

    Lower-casing ``Σ`` depends on its neighbours (Final_Sigma), and a later
    ``punctuation=SPACE`` or ``whitespace=COLLAPSE`` step turns characters that are
    case-ignorable (``.``, U+FEFF) into a space, which is not. Seed 000 replaces
    them *before* lower-casing, so the casefold step decides σ/ς as if they were
    already spaces. None when no later step replaces anything with a space.
    """
    chars = ""
    if flags.punctuation is PunctuationMode.SPACE:
        chars += flags.punctuation_chars
    if flags.whitespace is WhitespaceMode.COLLAPSE:
        chars += JS_WHITESPACE
    return {ord(c): ord(" ") for c in chars} if chars else None


def _casefold_text(text: str, flags: NormalizeFlags) -> str:
    # str.lower is the full Unicode lower-case mapping with the Final_Sigma rule,
    # the same mapping as JavaScript's locale-independent toLowerCase.
    lowered = text.lower()
    table = _sigma_context_table(flags)
    if table is None or "Σ" not in text:
        return lowered
    # The replaced characters all lower-case to themselves, so both strings line up.
    probe = text.translate(table).lower()
    return "".join(
        p if c in "σς" else c for c, p in zip(lowered, probe, strict=True)
    )


def _lower_by_lines(text: str) -> str:
    """``text.lower()`` a block of lines at a time (str.lower allocates 12 bytes per
    character of its input at once). A newline is neither cased nor case-ignorable, so
    splitting right after one cannot change a Final_Sigma decision."""
    parts: list[str] = []
    start = 0
    while start < len(text):
        cut = text.find("\n", start + _BLOCK)
        end = len(text) if cut == -1 else cut + 1
        parts.append(text[start:end].lower())
        start = end
    return "".join(parts)


def _casefold_mapped(m: Mapped, flags: NormalizeFlags) -> Mapped:
    if _sigma_context_table(flags) is None or "Σ" not in m.text:
        lowered = _lower_by_lines(m.text)
    else:
        lowered = _casefold_text(m.text, flags)
    if len(lowered) == len(m.text):  # no character lower-cases to more than one: spans stay
        return Mapped(lowered, m.starts, m.ends)
    out = _Builder(len(lowered))
    for i, char in enumerate(m.text):
        out.repeat(m.starts[i], m.ends[i], len(char.lower()))
    # Per-character widths equal the whole-string widths (Final_Sigma is 1:1), so
    # the context-sensitive whole-string result can be used with per-char spans.
    return out.done(lowered)


# -- kana ---------------------------------------------------------------------------


def _kana_text(text: str, flags: NormalizeFlags) -> str:
    return text.translate(KANA_TABLE)


def _kana_mapped(m: Mapped, flags: NormalizeFlags) -> Mapped:
    return Mapped(m.text.translate(KANA_TABLE), m.starts, m.ends)


# -- punctuation --------------------------------------------------------------------


@lru_cache(maxsize=32)
def _punctuation_table(mode: PunctuationMode, chars: str) -> dict[int, int | None]:
    replacement = None if mode is PunctuationMode.DELETE else ord(" ")
    return {ord(c): replacement for c in chars}


def _punctuation_text(text: str, flags: NormalizeFlags) -> str:
    return text.translate(_punctuation_table(flags.punctuation, flags.punctuation_chars))


def _punctuation_mapped(m: Mapped, flags: NormalizeFlags) -> Mapped:
    chars = frozenset(flags.punctuation_chars)
    if flags.punctuation is PunctuationMode.DELETE:
        return m.drop(chars)
    return Mapped(_punctuation_text(m.text, flags), m.starts, m.ends)


# -- equivalences -------------------------------------------------------------------


def _wrapping_pair(text: str) -> tuple[int, int] | None:
    """Positions of a bracket pair that wraps the whole ``text`` (outer whitespace
    aside), or None. ``「A」と「B」`` is not wrapped: its first ``」`` closes early."""
    if text[:1] not in _WRAPPERS and text[:1] not in _WS_SET:
        return None  # the common case, decided without a loop
    i = 0
    while i < len(text) and text[i] in _WS_SET:
        i += 1
    j = len(text) - 1
    while j > i and text[j] in _WS_SET:
        j -= 1
    if j <= i + 1 or _WRAPPERS.get(text[i]) != text[j]:
        return None
    opener, closer = text[i], text[j]
    inner = text[i + 1 : j]
    if opener == closer:
        return None if opener in inner else (i, j)
    depth = 0
    for char in inner:
        if char == opener:
            depth += 1
        elif char == closer:
            depth -= 1
            if depth < 0:
                return None
    return (i, j) if depth == 0 else None


def _equivalences_text(text: str, flags: NormalizeFlags) -> str:
    # The same transformation as _equivalences_mapped, without offsets; each rule is
    # skipped outright (a C-level ``in``) when its characters are absent.
    chosen = flags.equivalences
    if Equivalence.WRAPPING_QUOTES in chosen:
        pair = _wrapping_pair(text)
        if pair is not None:
            i, j = pair
            text = text[:i] + text[i + 1 : j] + text[j + 1 :]
    if Equivalence.COMMA in chosen and ("," in text or "，" in text):
        text = _COMMA.sub("、", text)
    if Equivalence.COLON_SPACE in chosen and (":" in text or "：" in text):
        text = _COLON_SPACE.sub(r"\1", text)
    return text


def _equivalences_mapped(m: Mapped, flags: NormalizeFlags) -> Mapped:
    chosen = flags.equivalences
    if Equivalence.WRAPPING_QUOTES in chosen:
        pair = _wrapping_pair(m.text)
        if pair is not None:
            m = _drop_positions(m, pair)
    if Equivalence.COMMA in chosen and ("," in m.text or "，" in m.text):
        m = Mapped(_COMMA.sub("、", m.text), m.starts, m.ends)
    if Equivalence.COLON_SPACE in chosen and (":" in m.text or "：" in m.text):
        m = _without(m, [run.span() for run in _AFTER_COLON.finditer(m.text)])  # (the whitespace after each colon goes)
    return m


# The whitespace run after a colon that the ``colon_space`` equivalence deletes (_COLON_SPACE's
# group 1 kept): whitespace first, the colon checked by a lookbehind, so a search skips to the
# next whitespace character.
_AFTER_COLON = re.compile(f"{_WS_CLASS}(?<=[:：]{_WS_CLASS}){_WS_CLASS}*+")


def _without(m: Mapped, gone: list[tuple[int, int]]) -> Mapped:
    """``m`` without its characters in the ranges ``gone`` (``(start, end)``, in order,
    disjoint): the text between them joined and the maps, at their final size, copied a kept
    range at a time (no mask, no second scan)."""
    if not gone:
        return m
    text, from_starts, from_ends = m.text, m.starts, m.ends
    size = len(text) - sum(b - a for a, b in gone)
    starts, ends = offsets((0,)) * size, offsets((0,)) * size
    pieces: list[str] = []  # (joined every _JOIN_EVERY pieces into done: few live objects)
    done: list[str] = []
    at = pos = 0
    for a, b in gone:
        pieces.append(text[pos:a])
        if len(pieces) >= _JOIN_EVERY:
            done.append("".join(pieces))
            pieces = []
        if a - pos <= _BLOCK * 8:
            starts[at : at + a - pos] = from_starts[pos:a]
            ends[at : at + a - pos] = from_ends[pos:a]
            at += a - pos
        else:
            at = _copy_into(starts, ends, at, m, pos, a)
        pos = b
    out = "".join([*done, "".join(pieces), text[pos:]])
    at = _copy_into(starts, ends, at, m, pos, len(text))
    if at != len(out):  # pragma: no cover - a step's maps must match its text
        raise AssertionError(f"offset maps of {at} for a text of {len(out)}")
    return Mapped(out, starts, ends)


def _drop_positions(m: Mapped, positions: tuple[int, ...] | list[int]) -> Mapped:
    """``m`` without the characters at ``positions`` (ascending): kept ranges copied whole."""
    texts = _Text()
    out = _Builder(len(m.text) - len(positions))
    pos = 0
    for gone in (*positions, len(m.text)):
        texts.add(m.text[pos:gone])
        out.copy(m, pos, gone)
        pos = gone + 1
    return out.done(texts.text())


# -- whitespace ---------------------------------------------------------------------

_WS_DELETE_TABLE: dict[int, int | None] = {ord(c): None for c in JS_WHITESPACE}


def _whitespace_table(flags: NormalizeFlags) -> dict[int, int | None] | None:
    return dict(_WS_DELETE_TABLE) if flags.whitespace is WhitespaceMode.DELETE else None


#: Characters of text whose whitespace runs are replaced in one ``re.sub`` call (a longer
#: text is cut into chunks: ``re.sub`` keeps a string object per piece until it joins them,
#: tens of bytes per run, which would set the peak memory of the offsets path).
_WS_CHUNK = 1 << 16
_TWO_NON_WS = re.compile("[^" + re.escape(JS_WHITESPACE) + "]{2}")


def _runs_replaced(text: str, cjk: bool) -> str:
    """Every whitespace run as one space (``cjk``: then the spaces next to a CJK character
    deleted), not stripped. A long text is done a chunk at a time, cut between two
    non-whitespace characters: no run crosses a cut, and the ``cjk`` rule looks only at a
    space's two neighbours, so the chunks' results joined are the whole text's."""
    if len(text) <= 2 * _WS_CHUNK:
        return _replace_runs(text, cjk)
    parts: list[str] = []
    start = 0
    while start < len(text):
        cut = _TWO_NON_WS.search(text, start + _WS_CHUNK) if len(text) - start > 2 * _WS_CHUNK else None
        end = len(text) if cut is None else cut.start() + 1
        parts.append(_replace_runs(text[start:end], cjk))
        start = end
    return "".join(parts)


def _replace_runs(text: str, cjk: bool) -> str:
    replaced = _WS_RUN.sub(" ", text)
    return _CJK_SPACE.sub("", replaced) if cjk else replaced


def _whitespace_text(text: str, flags: NormalizeFlags) -> str:
    if flags.whitespace is WhitespaceMode.DELETE:
        return text.translate(_WS_DELETE_TABLE)
    return _runs_replaced(text, flags.whitespace is WhitespaceMode.CJK).strip(" ")


def _cjk_keeps_run(text: str, start: int, end: int) -> bool:
    """True when the ``cjk`` mode turns the whitespace run ``text[start:end]`` into one space."""
    if start == 0 or end == len(text):
        return False
    return _CJK_CHAR.match(text, start - 1) is None and _CJK_CHAR.match(text, end) is None


def _changing_runs(text: str, cjk: bool) -> Iterator[tuple[int, int]]:
    """The whitespace runs that may change length, in order: every run in the ``cjk`` mode
    (a one-character run may go), else the runs of two or more and the leading and trailing
    runs (a one-character run inside the text stays one character)."""
    if cjk:
        yield from (run.span() for run in _WS_RUN.finditer(text))
        return
    lead = len(text) - len(text.lstrip(JS_WHITESPACE))
    trail = len(text.rstrip(JS_WHITESPACE))
    if lead == 1:  # (a longer leading or trailing run is one of the runs of two or more)
        yield 0, 1
    yield from (run.span() for run in _WS_MULTI.finditer(text))
    if len(text) - trail == 1 and trail != 0:
        yield trail, len(text)


def _whitespace_mapped(m: Mapped, flags: NormalizeFlags) -> Mapped:
    if flags.whitespace is WhitespaceMode.DELETE:
        return m.drop(_WS_SET)
    # The text is the text path's; the maps change only where a run changes length (a run
    # of several characters, or one that goes): a one-character run kept as one space
    # keeps its span. Those runs are marked in a keep-mask (the first character of a kept
    # run stays, spanning the whole run), then the maps are kept in one pass.
    cjk = flags.whitespace is WhitespaceMode.CJK
    if cjk:
        return _cjk_whitespace_mapped(m, flags)
    text = _whitespace_text(m.text, flags)
    if len(text) == len(m.text):
        return Mapped(text, m.starts, m.ends)
    size = len(m.text)
    mask = bytearray(b"\x01") * size
    # output positions and ends of the kept runs of several characters (compact: a source may
    # have one per line)
    widened, widened_ends = offsets(), offsets()
    gone = 0
    for a, b in _changing_runs(m.text, cjk):
        # (outside the cjk mode, leading and trailing runs go)
        keep = _cjk_keeps_run(m.text, a, b) if cjk else a != 0 and b != size
        if keep and b - a == 1:
            continue
        if keep:
            widened.append(a - gone)
            widened_ends.append(max(m.ends[a:b]))
            mask[a + 1 : b] = bytes(b - a - 1)
            gone += b - a - 1
        else:
            mask[a:b] = bytes(b - a)
            gone += b - a
    return _keep_widened(m, mask, text, widened, widened_ends)


def _keep_widened(m: Mapped, mask: bytearray, text: str | None, widened: Sequence[int], widened_ends: Sequence[int]) -> Mapped:
    """``m.keep(mask)`` where each kept character at ``widened[i]`` (a position in the kept text)
    stands for a whole dropped run, so its end widens to ``widened_ends[i]``."""
    kept = m.keep(mask, text)
    if widened:
        ends = kept.ends if kept.ends is not m.ends else offsets(m.ends)
        for position, end in zip(widened, widened_ends, strict=True):
            ends[position] = end
        kept = Mapped(kept.text, kept.starts, ends)
    return kept


# A character that is neither whitespace nor CJK: a whitespace run between two of them is
# kept by the ``cjk`` mode (see _cjk_keeps_run).
_NOT_WS_CJK = "[^" + re.escape(JS_WHITESPACE) + _CJK_CLASS[1:-1] + "]"


# What the ``cjk`` mode changes, in one scan (every branch starts with a whitespace character,
# the characters around it checked by lookarounds, so a search skips from whitespace to
# whitespace): (1) the tail of a kept run (after its first character, which stays), marked by
# the empty group 1; (2) a whole run after a CJK character or at the start of the text, or
# (3) before a CJK character or at the end (both deleted); (4) a kept one-character run that is
# not a space (written as one), marked by the empty group 2. Runs are maximal: (1) needs its
# run's first character right before it, (2) and (3) a run starting where they do.
_NOT_CJK = "[^" + _CJK_CLASS[1:-1] + "]"
_CJK_CHANGE = re.compile(
    f"{_WS_CLASS}(?:(?<={_NOT_WS_CJK}{_WS_CLASS}{_WS_CLASS})(){_WS_CLASS}*+(?={_NOT_WS_CJK})"
    f"|(?<!{_NOT_CJK}{_WS_CLASS}){_WS_CLASS}*+"
    f"|(?<!{_WS_CLASS}{_WS_CLASS}){_WS_CLASS}*+(?!{_NOT_WS_CJK})"
    f"|(?<={_NOT_WS_CJK}[^ ])()(?={_NOT_WS_CJK}))"
)
_TAIL, _RESPACE = 1, 2  # the groups of _CJK_CHANGE that mark its branches (1) and (4)


def _cjk_whitespace_mapped(m: Mapped, flags: NormalizeFlags) -> Mapped:
    """The ``cjk`` mode: every whitespace run goes but the first character of a run between two
    non-CJK characters, which stays, as a space spanning its whole run (:func:`_cjk_keeps_run`).
    One scan finds what changes (:data:`_CJK_CHANGE`); the text between changes is copied whole
    and the maps a kept range at a time: no mask, no step per character."""
    text, size = m.text, len(m.text)
    from_starts, from_ends, block = m.starts, m.ends, _BLOCK * 8
    starts: array[int] | None = None
    ends = offsets()
    pieces: list[str] = []  # (joined every _JOIN_EVERY pieces into done: few live objects)
    done: list[str] = []
    widened: list[tuple[int, int]] = []  # (kept position, end) of each kept run of several characters
    at = copied = written = 0  # kept positions filled; the next position to copy, to write
    for change in _CJK_CHANGE.finditer(text):
        gone, end = change.span()
        kind = change.lastindex
        if kind == _RESPACE:  # (a kept character: its span stays)
            pieces += (text[written:gone], " ")
            written = end
            continue
        if kind == _TAIL:
            widened.append((at + gone - copied - 1, max(from_ends[gone - 1 : end])))
            if text[gone - 1] != " ":
                pieces += (text[written : gone - 1], " ")
                written = gone
        pieces.append(text[written:gone])
        written = end
        if len(pieces) >= _JOIN_EVERY:
            done.append("".join(pieces))
            pieces = []
        if starts is None:
            starts, ends = offsets((0,)) * size, offsets((0,)) * size
        if gone - copied <= block:
            starts[at : at + gone - copied] = from_starts[copied:gone]
            ends[at : at + gone - copied] = from_ends[copied:gone]
            at += gone - copied
        else:
            at = _copy_into(starts, ends, at, m, copied, gone)
        copied = end
    if written == 0:
        return m
    out = "".join([*done, "".join(pieces), text[written:]])
    if starts is None:  # (only characters written as spaces: every span stays)
        return Mapped(out, from_starts, from_ends)
    at = _copy_into(starts, ends, at, m, copied, size)
    del starts[at:]
    del ends[at:]
    for position, wide in widened:
        ends[position] = wide
    if at != len(out):  # pragma: no cover - a step's maps must match its text
        raise AssertionError(f"offset maps of {at} for a text of {len(out)}")
    return Mapped(out, starts, ends)


STEPS: tuple[Step, ...] = (
    Step("nfkc", lambda f: f.nfkc, _nfkc_text, _nfkc_mapped),
    Step("markdown_strip", lambda f: f.markdown_strip, _markdown_text, _markdown_mapped),
    Step("numeric", lambda f: f.numeric, _numeric_text, _numeric_mapped),
    Step("casefold", lambda f: f.casefold, _casefold_text, _casefold_mapped),
    Step("kana", lambda f: f.kana, _kana_text, _kana_mapped, lambda _f: dict(KANA_TABLE)),
    Step(
        "punctuation",
        lambda f: f.punctuation is not PunctuationMode.KEEP,
        _punctuation_text,
        _punctuation_mapped,
        lambda f: dict(_punctuation_table(f.punctuation, f.punctuation_chars)),
    ),
    Step(
        "equivalences",
        lambda f: bool(f.equivalences),
        _equivalences_text,
        _equivalences_mapped,
    ),
    Step(
        "whitespace",
        lambda f: f.whitespace is not WhitespaceMode.KEEP,
        _whitespace_text,
        _whitespace_mapped,
        _whitespace_table,
    ),
)


def enabled_steps(flags: NormalizeFlags) -> tuple[Step, ...]:
    return tuple(step for step in STEPS if step.enabled(flags))
