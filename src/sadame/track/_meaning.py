"""What ruleset format 2 adds to keys and praise: markup that never changes a key, praise that
is praise only when not negated, and generic problem words that keep their subject.

Format 1 (the seed's) is substring tests on normalized text; format 2 reads the finding with
the shared analyzer (:mod:`sadame.lang`), loaded on first use:

* markup: Markdown emphasis, headings, quotes, list markers, numbering and 「」『』 brackets
  are removed before anything else, so ``**1. 「踏み込みが弱い」**`` keys like ``踏み込みが弱い``;
* praise: a positive word counts only when it is not negated in its clause (向上していない,
  良好とは言えない, 改善の余地がある); a negative word counts only when it is not itself
  negated or resolved (遅れがなくなった, 不足はない are praise);
* subjects: a token whose pattern says ``subject: true`` carries the noun its word is about,
  joined by ``@`` (``insufficient_control@踏み込み``), so 踏み込みが弱い and 握力が弱い differ
  while 踏み込みが弱い and 踏み込みの弱さ agree.

>>> clean_markup("**1. 「踏み込みが弱い」**")
'踏み込みが弱い'
>>> is_praise("安定性が向上していない", ("向上",), ("不足",))
False
>>> is_praise("遅れがなくなった", ("向上",), ("遅れ",))
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sadame.lang import analyze, negations_after
from sadame.lang._findings import praise_is_negated, subject_before

__all__ = ["SUBJECT_SEPARATOR", "clean_markup", "is_praise", "negative_is_resolved", "subject_of"]

SUBJECT_SEPARATOR = "@"
_LIST_MARKER = re.compile(r"^\s*(?:[-*+・•●○◆■□▶►‣]|[#>]+|\(?[0-9０-９]{1,3}[.)．）、]|[（(][0-9０-９]{1,3}[)）]"
                          r"|[①-⑳]|[a-zA-Z][.)])\s*")
_EMPHASIS = re.compile(r"(\*\*|__|\*|`|~~)")
_BRACKETS = str.maketrans("", "", "「」『』“”\"【】")
# Words after a problem word that say it went away (遅れがなくなった, ミスが減った, 不足が解消した).
_RESOLVED = frozenset({"なくなる", "無くなる", "解消", "減る", "消える", "収まる", "治る", "改善", "克服", "減少",
                       "解決", "直る"})
_CONNECT = frozenset({"の", "が", "は", "も", "を"})


def clean_markup(text: str) -> str:
    """The finding without Markdown, list markers, numbering and quoting brackets."""
    out = text.strip()
    for _ in range(3):  # "- 1. **x**": marker, numbering, emphasis, in any order
        stripped = _LIST_MARKER.sub("", _EMPHASIS.sub("", out)).strip()
        if stripped == out:
            break
        out = stripped
    return out.translate(_BRACKETS).strip()


def negative_is_resolved(text: str, word: str) -> bool:
    """True when every occurrence of the problem ``word`` is negated (不足はない) or said to have
    gone away (遅れがなくなった), but not both (遅れがなくなっていない)."""
    tokens = analyze(text)
    start, found, resolved = text.find(word), 0, 0
    while start != -1:
        found += 1
        end = start + len(word)
        last = next((i for i, t in enumerate(tokens) if t.begin < end <= t.end), None)
        if last is not None:
            negators = negations_after(tokens, last)
            limit = negators[0] if negators else len(tokens)
            went_away = any(t.lemma in _RESOLVED or t.normalized in _RESOLVED for t in tokens[last + 1 : limit])
            if went_away != (len(negators) % 2 == 1):
                resolved += 1
        start = text.find(word, end)
    return found > 0 and resolved == found


def is_praise(text: str, positive: Sequence[str], negative: Sequence[str]) -> bool:
    """Praise: some positive word un-negated, or a problem word resolved, and no problem word
    left standing. ``text`` is the normalized finding; the words are normalized too."""
    present_neg = [w for w in negative if w in text]
    if any(not negative_is_resolved(text, w) for w in present_neg):
        return False
    if present_neg:
        return True
    return any(w in text and not praise_is_negated(text, w) for w in positive)


def subject_of(text: str, word: str, other_words: Sequence[str]) -> str | None:
    """The noun ``word`` is about, when it is joined to it directly or by の/が/は/も/を; None
    when there is none or when it is itself a word of another matched pattern."""
    subject = subject_before(text, word)
    if subject is None:
        return None
    start = text.find(word)
    tokens = analyze(text[:start])
    if not tokens:
        return None
    tail = [t for t in tokens if t.pos[0] != "空白"]
    if tail and tail[-1].pos[0] == "助詞" and tail[-1].surface not in _CONNECT:
        return None
    if tail and tail[-1].pos[0] == "助詞" and len(tail) >= 2 and tail[-2].normalized != subject:
        return None  # something else stands between the noun and the particle
    if any(w in subject or subject in w for w in other_words):
        return None
    return subject
