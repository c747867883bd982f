"""Meaning of a finding for the tracker: content terms, negated praise, the subject of a word.

Built on :func:`sadame.lang.analyze` and :func:`sadame.lang.negations_after`; the tracker
uses it for its ruleset format 2 (negation-aware praise, keys that keep the subject) and
for similar-issue suggestions.

>>> sorted(content_terms("踏み込みが弱い").lemmas)
['弱い', '踏み込み']
>>> praise_is_negated("安定性が向上していない", "向上")
True
>>> praise_is_negated("遅れがなくなった", "なくなっ")
False
>>> praise_is_negated("対応は良好とは言い難い", "良好")
True
>>> subject_before("踏み込みの弱さが目立つ", "弱")
'踏み込み'
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Sequence
from dataclasses import dataclass

from sadame.lang._analyzer import Token, analyze
from sadame.lang._polarity import negations_after

__all__ = ["FindingTerms", "content_terms", "hedges_after", "praise_is_negated", "subject_before"]

# Verbs and nouns that carry no topic of their own (する, いる, こと, 点 ...).
_LIGHT_LEMMAS = frozenset({"する", "いる", "ある", "なる", "れる", "られる", "こと", "もの", "よう", "ため", "点",
                           "方", "感じ", "部分", "様子", "傾向", "場合", "全体", "やや", "少し", "まだ", "より",
                           "もう", "さらに", "ない", "無い", "見る", "見える", "思う", "言う", "言える"})
# Words after a praise word that turn it into "not yet" (向上の余地がある, 改善が必要).
_NEEDS_WORK = frozenset({"余地", "必要", "求める", "欲しい", "べき", "課題", "不足", "不十分", "足りる"})
# A negated negator reads as praise again only with an explicit double negation; we keep it simple:
# an odd number of negators after the word negates it.
_MAX_TERMS = 64


@dataclass(frozen=True)
class FindingTerms:
    """The content words of a text: normalized lemmas and their readings."""

    lemmas: frozenset[str]
    readings: frozenset[str]


def _is_term(token: Token) -> bool:
    if not token.is_content or token.pos[1] == "数詞":
        return False
    if token.pos[0] == "動詞" and token.pos[1] == "非自立可能":
        return False
    return token.normalized not in _LIGHT_LEMMAS and token.lemma not in _LIGHT_LEMMAS


@functools.lru_cache(maxsize=20_000)
def content_terms(text: str) -> FindingTerms:
    """Normalized lemmas and readings of the content words of ``text`` (cached)."""
    tokens = [t for t in analyze(text[:2_000]) if _is_term(t)][:_MAX_TERMS]
    return FindingTerms(frozenset(t.normalized for t in tokens), frozenset(t.reading for t in tokens if t.reading))


def _token_at(tokens: Sequence[Token], offset: int, begins: Sequence[int] | None = None) -> int | None:
    """The index of the token that covers ``offset``. With ``begins`` (the tokens' begins, in order)
    it is found by bisection, so a text with many occurrences is not scanned from the start for
    each; a token found that does not cover ``offset`` falls back to the scan (same answer)."""
    if begins is not None:
        i = bisect.bisect_right(begins, offset) - 1
        if i >= 0 and tokens[i].begin <= offset < tokens[i].end:
            return i
    for i, token in enumerate(tokens):
        if token.begin <= offset < token.end:
            return i
    return None


def _needs_work_after(tokens: Sequence[Token], index: int) -> bool:
    for token in tokens[index + 1 : index + 6]:
        if token.pos[0] == "補助記号":
            return False
        if token.normalized in _NEEDS_WORK or token.lemma in _NEEDS_WORK:
            return True
    return False


def hedges_after(tokens: Sequence[Token], index: int) -> int:
    """How many 「…とは言い難い」-style hedges follow ``tokens[index]`` in its clause: a 難い
    suffix (難い, がたい, にくい) after 言う says "cannot be called", and 少ない says "hardly",
    both negations of praise."""
    count = 0
    for position in range(index + 1, len(tokens)):
        token = tokens[position]
        if token.pos[0] == "補助記号" or (token.pos[0] == "助詞" and token.pos[1] == "接続助詞"
                                         and token.surface in ("が", "けど", "けれど", "けれども")):
            break
        cannot_say = (token.pos[0] == "接尾辞" and token.normalized == "難い"
                      and tokens[position - 1].lemma in ("言う", "認める"))
        hardly = token.normalized == "少ない" and token.pos[0] == "形容詞"  # 良くなった点は少ない
        count += cannot_say or hardly
    return count


def praise_is_negated(text: str, word: str) -> bool:
    """True when every occurrence of the praise ``word`` in ``text`` is negated in its clause
    (向上していない, 良好とは言えない) or marked as still needed (向上の余地がある).
    A ``word`` that does not occur is not negated."""
    tokens = analyze(text)
    begins = [t.begin for t in tokens]
    found, negated = 0, 0
    start = text.find(word)
    while start != -1:
        found += 1
        last = _token_at(tokens, start + len(word) - 1, begins)
        negators = len(negations_after(tokens, last)) + hedges_after(tokens, last) if last is not None else 0
        if last is not None and (negators % 2 == 1 or _needs_work_after(tokens, last)):
            negated += 1
        start = text.find(word, start + len(word))
    return found > 0 and negated == found


def subject_before(text: str, word: str) -> str | None:
    """The noun a problem ``word`` is about: the last content noun before its first occurrence,
    in the same clause (踏み込みが弱い -> 踏み込み, 栄養バランス -> 栄養). None when there is none."""
    start = text.find(word)
    if start == -1:
        return None
    tokens = analyze(text)
    index = _token_at(tokens, start)
    if index is None:
        return None
    for token in reversed(tokens[:index]):
        if token.pos[0] == "補助記号" or (token.pos[0] == "助詞" and token.pos[1] == "接続助詞"):
            return None
        if token.pos[0] == "名詞" and token.pos[1] != "数詞" and _is_term(token):
            return token.normalized
    return None
