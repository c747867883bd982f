"""A "can" said as what the learner does now or still does (〜できている, 〜出せています, 〜収められていた).

Two constructions of progress end in an ability kept up or shown now, and the words before that
predicate often carry a fault word used as a thing or a purpose (確認問題を出せています,
カバーを傷めないよう…付けられている, 必要な項目を聞き取れていた), which the clause reader takes for
a fault standing:

* 引き続き opening the finding, then a can-form in 〜ている (the coach's "keep it up" of an ability);
* a fault of the past as its topic (前回は…ていたが、), then 今回は / 今日は and a can-form.

Only the final predicate is read: an ability, not negated, with nothing after it but 〜ている /
〜ていた / 〜ます / 〜た. A contrast after the ability (〜できているが、), まだ, 〜すぎる or a negated
ability leaves the finding to the clause reader.

>>> from sadame.lang import analyze
>>> ends_in_ability(analyze("引き続き、値札を付けられている"))
True
>>> ends_in_ability(analyze("引き続き、値札を付けられていない"))
False
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from sadame.lang._analyzer import Token
from sadame.lang._lexicon import lexicon
from sadame.lang._predicate import read_clauses

__all__ = ["ability_kept_up", "ends_in_ability", "is_can", "past_fault_then_ability"]

#: What may follow the ability: 〜ている / 〜ていた / 〜ています / 〜た.
_AFTER = frozenset({"て", "で", "いる", "居る", "おる", "ます", "た"})
_NEGATORS = frozenset({"ない", "無い", "ず", "ぬ", "ん"})
_SKIP = ("補助記号", "空白")
#: Words that say the ability is not yet enough, or that a fault goes on.
_NOT_YET = frozenset({"まだ", "未だ", "相変わらず", "依然", "すぎる", "過ぎる", "しまう", "ちゃう"})
#: Particles of a contrast inside what follows the opening word (〜できているが、 / 〜けど).
_CONTRAST = frozenset({"が", "けど", "けれど", "けれども", "ものの", "のに", "ながら"})
_NOW = frozenset({"今回", "今日", "本日", "今週", "今月"})


def _potential(token: Token) -> bool:
    """A godan potential (出せる -> 出す, 聞き取れる -> 聞き取る): a lemma one kana longer than its base."""
    lemma, base = token.lemma, token.normalized
    return token.pos[0] == "動詞" and lemma.endswith("る") and len(lemma) == len(base) + 1 and len(base) >= 2 \
        and lemma[:-2] == base[:-1]


def is_can(tokens: Sequence[Token], i: int, *, passive_too: bool = False) -> bool:
    """``tokens[i]`` is a "can": できる or a godan potential; with ``passive_too`` also 〜られる / 〜れる
    after a verb (of a past as often a passive: 指摘されていた, so the caller says whether it counts)."""
    t = tokens[i]
    return t.lemma in ("できる", "出来る") or _potential(t) or (passive_too and (
        t.pos[0] == "助動詞" and t.lemma in ("られる", "れる") and i >= 1 and tokens[i - 1].pos[0] == "動詞"))


def ends_in_ability(tokens: Sequence[Token]) -> bool:
    """The last predicate of ``tokens`` is a "can" (できる, a potential, 〜られる), not negated, with
    only 〜ている / 〜ます / 〜た after it."""
    words = [t for t in tokens if t.pos[0] not in _SKIP]
    j = len(words) - 1
    while j >= 0 and (words[j].lemma in _AFTER or words[j].surface in _AFTER):
        j -= 1
    if j < 1 or any(t.lemma in _NEGATORS for t in words[j:]):
        return False
    return is_can(words, j, passive_too=True)


def _plain(body: Sequence[Token]) -> bool:
    """No contrast, no "not yet", no excess in ``body``."""
    return not any(t.lemma in _NOT_YET or t.surface in _NOT_YET for t in body) and not any(
        t.surface in _CONTRAST and t.pos[1] == "接続助詞" for t in body)


def ability_kept_up(tokens: Sequence[Token]) -> bool:
    """引き続き、〜できている / 〜出せています: an ability kept up (the practice the coach asked to keep).

    >>> from sadame.lang import analyze
    >>> ability_kept_up(analyze("引き続き、問題集の答え合わせを自分で進められている"))
    True
    >>> ability_kept_up(analyze("引き続き、答え合わせはできているが、見直しが雑だ"))
    False
    """
    words = [t for t in tokens if t.pos[0] not in _SKIP]
    if len(words) < 5 or words[0].surface not in ("引き続き", "引き続いて"):
        return False
    return _plain(words[1:]) and ends_in_ability(words)


def past_fault_then_ability(tokens: Sequence[Token], negative: Sequence[str] = ()) -> bool:
    """前回は〜ていたが、今回は〜できていた: the past is the topic and did not read as good, and what is
    so now is an ability shown. A past that was itself an ability (前回は確認できていたが、) is a loss,
    not progress, and is left alone.

    >>> from sadame.lang import analyze
    >>> past_fault_then_ability(analyze("前回は手順を飛ばしていたが、今回は順番どおりに組み立てられていた"))
    True
    >>> past_fault_then_ability(analyze("前回は順番どおりに組み立てられていたが、今回は手順を飛ばしていた"))
    False
    """
    words = [t for t in tokens if t.pos[0] not in _SKIP]
    past = lexicon().past_words
    if len(words) < 8 or not any(t.surface in past and n.surface in ("は", "まで") for t, n in pairwise(words[:4])):
        return False
    for i in range(3, len(words) - 3):
        if words[i].surface != "が" or words[i].pos[1] != "接続助詞" or words[i - 1].surface != "た":
            continue
        if words[i + 1].surface not in _NOW or words[i + 2].surface != "は":
            return False
        before, after = words[:i], words[i + 3:]
        able_before = any(is_can(before, k) for k in range(len(before)))
        return not able_before and read_clauses(before, negative) not in ("praise", "better") \
            and _plain(after) and ends_in_ability(after)
    return False
