"""The flags of the normalization contract and the character sets they use.

Every flag must be given: ``NormalizeFlags`` has no defaults, so no call site can
silently omit a step (seed 002, blind spot #2). Most callers use a named preset
instead of raw flags.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "CJK_RANGES",
    "ISSUE_PUNCTUATION",
    "JS_WHITESPACE",
    "JUDGE_PUNCTUATION",
    "Equivalence",
    "NormalizeFlags",
    "PunctuationMode",
    "WhitespaceMode",
]

#: Whitespace as JavaScript's ``\s`` and ``String.prototype.trim`` see it
#: (ECMA-262 WhiteSpace + LineTerminator). It deliberately differs from Python's
#: ``str.isspace``: U+001C..U+001F and U+0085 are *not* whitespace here, U+FEFF *is*.
#: U+3000 (ideographic space) is included. The seeds' presets must agree with Node.
JS_WHITESPACE: str = (
    "\t\n\v\f\r \u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)

#: Seed 001's ``normalize()`` deletes exactly these characters (after NFKC and
#: lower-casing): ``[、。，．,.!?！？「」『』【】（）()［］\[\]・:;：；'"`]``.
JUDGE_PUNCTUATION: str = "、。，．,.!?！？「」『』【】（）()［］[]・:;：；'\"`"

#: Seed 000's ``normalizeBaseText`` turns runs of whitespace and these characters
#: into one space: ``[\s、。,.・/]+``.
ISSUE_PUNCTUATION: str = "、。,.・/"


#: The characters the ``cjk`` whitespace mode treats as Japanese/Chinese script:
#: CJK symbols and punctuation (``、。「」『』〜々``), hiragana, katakana (with
#: ``・ー``), katakana extensions, CJK ideographs (extension A, the unified block,
#: compatibility ideographs, and the supplementary ideographic planes) and the
#: half-width and full-width forms block. Hangul is deliberately absent: Korean
#: separates its words with spaces, so a space there is significant.
CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x3000, 0x303F),
    (0x3040, 0x309F),
    (0x30A0, 0x30FF),
    (0x31F0, 0x31FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0xFF00, 0xFFEF),
    (0x20000, 0x3FFFF),
)


class PunctuationMode(StrEnum):
    """What the ``punctuation`` step does with the characters of its set."""

    KEEP = "keep"  #: leave them
    SPACE = "space"  #: replace each with an ASCII space (the whitespace step may then collapse)
    DELETE = "delete"  #: remove them


class WhitespaceMode(StrEnum):
    """What the ``whitespace`` step does with :data:`JS_WHITESPACE` characters."""

    KEEP = "keep"  #: leave them
    COLLAPSE = "collapse"  #: each run becomes one ASCII space; leading/trailing runs are trimmed
    DELETE = "delete"  #: remove them all
    #: Japanese-aware: a run between two CJK characters (:data:`CJK_RANGES`), or
    #: between a CJK character and anything else, is deleted (a hard line wrap or a
    #: cosmetic space such as ``API で取得``); a run between two non-CJK characters
    #: becomes one ASCII space (``Docker image`` keeps its word break, ``1 000`` stays
    #: ``1 000`` and never becomes ``1000``); leading/trailing runs are trimmed.
    #: Hazard: a space that separates two CJK words on purpose (rare in Japanese,
    #: common in Korean, which is why Hangul is not CJK here) is lost.
    CJK = "cjk"


class Equivalence(StrEnum):
    """Named equivalences LLMs produce when quoting Japanese, each with its hazard.

    They run as one ``equivalences`` step after ``punctuation`` and before
    ``whitespace``, in this order:
    """

    #: A quote wrapped as a whole in ``「」``, ``『』``, ``“”`` or ``""`` loses the
    #: wrapping pair (``「売上は増加した」`` equals ``売上は増加した``). Only a pair that
    #: wraps the whole text counts: ``「A」と「B」`` is left alone. Hazard: a source
    #: that is a single bracketed sentence loses its brackets too (it still matches
    #: the same quote with or without them).
    WRAPPING_QUOTES = "wrapping_quotes"
    #: ``、``, ``，`` (``,`` after NFKC) and ``,`` are one character, ``、``; a ``,``
    #: between two ASCII digits is a digit-group separator and is kept
    #: (``1,000`` is not ``1、000``). Hazard: ``A, B`` and ``A、B`` compare equal
    #: (the ``cjk`` whitespace mode then drops the space after the ``、``).
    COMMA = "comma"
    #: A run of whitespace right after ``:`` (``：`` after NFKC) is deleted:
    #: ``安定性: 不足`` equals ``安定性:不足``. Hazard: ``10: 30`` equals ``10:30``.
    COLON_SPACE = "colon_space"


@dataclass(frozen=True, slots=True, kw_only=True)
class NormalizeFlags:
    """One value per step, applied in this fixed order:

    1. ``nfkc`` -- Unicode NFKC. Hazard: compatibility mappings change meaning in
       places ("10³" becomes "103", "①" becomes "1", "㈱" becomes "(株)").
    2. ``markdown_strip`` -- remove Markdown decoration that LLMs drop when quoting:
       ``**x**``, ``__x__``, `` `x` ``, ``~~x~~``, ``*x*``, ``_x_``, ``[text](url)`` -> text,
       and line-leading list/heading/quote markers (``- ``, ``* ``, ``+ ``, ``1. ``,
       ``## ``, ``> ``). Hazard: a literal ``*`` or ``_`` pair in prose is removed too.
    3. ``numeric`` -- rewrite amounts, percentages and dates into one canonical
       spelling (see :mod:`sadame.normalize.numeric`). Hazard: ``一億`` becomes
       ``100000000``, so the text no longer reads as written.
    4. ``casefold`` -- lower-case (full Unicode case mapping, like JavaScript's
       ``toLowerCase``). Hazard: proper nouns and acronyms lose their case.
    5. ``kana`` -- katakana U+30A1..U+30F6 to hiragana by subtracting 0x60.
       ``ー`` and U+30F7..U+30FA (ヷ..ヺ, no hiragana twin) are kept.
    6. ``punctuation`` -- :class:`PunctuationMode` applied to ``punctuation_chars``.
    7. ``equivalences`` -- the :class:`Equivalence` members in ``equivalences``
       (an empty frozenset turns the step off).
    8. ``whitespace`` -- :class:`WhitespaceMode` applied to :data:`JS_WHITESPACE`.

    A dropped ``、`` is deliberately *not* an equivalence: where a reading comma
    sits decides what a clause attaches to (``彼は、泣きながら逃げる犯人を追った`` vs
    ``彼は泣きながら、逃げる犯人を追った``), so a quote without it is a different quote.
    """

    nfkc: bool
    markdown_strip: bool
    numeric: bool
    casefold: bool
    kana: bool
    punctuation: PunctuationMode
    punctuation_chars: str
    whitespace: WhitespaceMode
    equivalences: frozenset[Equivalence]

    def __post_init__(self) -> None:
        for name in ("nfkc", "markdown_strip", "numeric", "casefold", "kana"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"NormalizeFlags.{name} must be a bool, got {getattr(self, name)!r}")
        if not isinstance(self.punctuation, PunctuationMode):
            raise TypeError(f"NormalizeFlags.punctuation must be a PunctuationMode, got {self.punctuation!r}")
        if not isinstance(self.whitespace, WhitespaceMode):
            raise TypeError(f"NormalizeFlags.whitespace must be a WhitespaceMode, got {self.whitespace!r}")
        if not isinstance(self.equivalences, frozenset) or not all(
            isinstance(e, Equivalence) for e in self.equivalences
        ):
            raise TypeError(
                f"NormalizeFlags.equivalences must be a frozenset of Equivalence, got {self.equivalences!r}"
            )
        if not isinstance(self.punctuation_chars, str):
            raise TypeError("NormalizeFlags.punctuation_chars must be a str")
        if self.punctuation is not PunctuationMode.KEEP and not self.punctuation_chars:
            raise ValueError("NormalizeFlags.punctuation_chars is empty but punctuation is not KEEP")
