"""A fault described, then the point of it improved (〜てしまう点が改善された, 〜でもたれかかる傾向が改善した).

A coach names what got better by a neutral noun of a point or a tendency (点, 傾向, ところ) and
describes the fault in the clause before it. When that clause has a continuative of its own
(小さくまとまってしまう, 不十分で, 入りすぎて), the clause reader splits it off and reads it as a
fault said of the learner now; it is what the point is, and the point has improved.

>>> from sadame.lang import analyze
>>> fault_point_improved(analyze("語尾が弱く聞き取りにくい点が改善された"))
True
>>> fault_point_improved(analyze("語尾が弱く聞き取りにくい点はまだ改善されていない"))
False
>>> fault_point_improved(analyze("語尾が弱く聞き取りにくい点は改善の余地がある"))
False
"""

from __future__ import annotations

from collections.abc import Sequence

from sadame.lang._analyzer import Token
from sadame.lang._lexicon import lexicon
from sadame.lang._predicate import read_clauses

__all__ = ["fault_point_improved"]

#: Neutral nouns of a point or a tendency that a fault clause describes (the 癖 and 失敗 of a fault
#: are problem nouns and read already).
_POINTS = frozenset({"点", "傾向", "ところ", "所", "部分"})
#: Auxiliaries a fault clause ends in (〜てしまう, 〜すぎる, 〜にくい).
_FAULT_MARKS = frozenset({"しまう", "ちゃう", "すぎる", "過ぎる", "にくい", "づらい", "がち"})
#: What may come between the word of progress and the end of its clause (改善されてきています).
_CHAIN = frozenset({"する", "為る", "れる", "られる", "てくる", "くる", "来る", "て", "で", "いる", "居る", "ます", "た",
                    "つつ", "ある", "有る"})
_NOT = frozenset({"ない", "無い", "ず", "ぬ", "ん", "まだ", "未だ"})
_SKIP = ("補助記号", "空白")


def _progress_at(words: Sequence[Token], start: int) -> int | None:
    """The first word of progress after ``start`` with no subject and no contrast before it."""
    better = lexicon().better_words
    for j in range(start, len(words)):
        t = words[j]
        if t.pos[0] == "助詞" and (t.surface in ("が", "は") or (t.pos[1] == "接続助詞" and t.surface in ("けど", "ものの"))):
            return None
        if t.lemma in _NOT or t.surface in _NOT:
            return None
        if t.lemma in better or t.surface in better:
            return j
    return None


def fault_point_improved(tokens: Sequence[Token], negative: Sequence[str] = ()) -> bool:
    """〜点が改善された: a point (点, 傾向, ところ) described by a fault clause (one that reads as a
    problem, or ends in 〜てしまう / 〜すぎる / 〜にくい) is the subject of a word of progress, not
    negated, not "not yet", and any clause after it reads as no problem."""
    words = [t for t in tokens if t.pos[0] not in _SKIP]
    for i in range(2, len(words) - 2):
        point, particle = words[i], words[i + 1]
        if point.lemma not in _POINTS or point.pos[0] != "名詞" or particle.surface not in ("が", "は", "も") \
                or particle.pos[0] != "助詞":
            continue
        modifier = words[:i]
        if not (any(t.lemma in _FAULT_MARKS for t in modifier) or read_clauses(modifier, negative) == "problem"):
            return False
        j = _progress_at(words, i + 2)
        if j is None:
            return False
        if words[j].pos[0] != "動詞" and (j + 1 >= len(words) or words[j + 1].lemma not in ("する", "為る")):
            return False  # 改善の余地がある, 改善が必要: a noun of progress that is not said to have happened
        k = j + 1
        while k < len(words) and (words[k].lemma in _CHAIN or words[k].surface in _CHAIN):
            k += 1
        if k < len(words) and (words[k].lemma in _NOT or words[k].surface in _NOT):
            return False  # 改善されていない: the chain stops at its negation
        rest = words[k:]
        return not rest or read_clauses(rest, negative) in (None, "praise", "better")
    return False
