"""The flags of the normalization contract and the character sets they use.

Every flag must be given: ``NormalizeFlags`` has no defaults, so no call site can
silently omit a step (seed 002, blind spot #2). Most callers use a named preset
instead of raw flags.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "ISSUE_PUNCTUATION",
    "JS_WHITESPACE",
    "JUDGE_PUNCTUATION",
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
    7. ``whitespace`` -- :class:`WhitespaceMode` applied to :data:`JS_WHITESPACE`.
    """

    nfkc: bool
    markdown_strip: bool
    numeric: bool
    casefold: bool
    kana: bool
    punctuation: PunctuationMode
    punctuation_chars: str
    whitespace: WhitespaceMode

    def __post_init__(self) -> None:
        for name in ("nfkc", "markdown_strip", "numeric", "casefold", "kana"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"NormalizeFlags.{name} must be a bool, got {getattr(self, name)!r}")
        if not isinstance(self.punctuation, PunctuationMode):
            raise TypeError(f"NormalizeFlags.punctuation must be a PunctuationMode, got {self.punctuation!r}")
        if not isinstance(self.whitespace, WhitespaceMode):
            raise TypeError(f"NormalizeFlags.whitespace must be a WhitespaceMode, got {self.whitespace!r}")
        if not isinstance(self.punctuation_chars, str):
            raise TypeError("NormalizeFlags.punctuation_chars must be a str")
        if self.punctuation is not PunctuationMode.KEEP and not self.punctuation_chars:
            raise ValueError("NormalizeFlags.punctuation_chars is empty but punctuation is not KEEP")
