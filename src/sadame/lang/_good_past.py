"""A good past, then a now that says nothing good (前回までは理由を伝えられていたが、今回は無言で保留にしていた).

The contrast of a past with now (前回は…、今回は…) is read as progress by default, because coaches
mostly contrast a fault with what is so now. When the past is what was good (an ability:
伝えられていた, できていた; or praise: 明瞭だった, 合っていた) and what is so now reads as neither
praise nor progress and holds no ability, the contrast is a loss: a regression.

>>> from sadame.lang import analyze
>>> good_past_then_plain_now(analyze("前回までは手順を声に出して確認できていたが、今回は黙って作業を始めていた"))
True
>>> good_past_then_plain_now(analyze("前回は手順を確認できていなかったが、今回は声に出して確かめていた"))
False
>>> good_past_then_plain_now(analyze("先週は丁寧だった説明が、今日は要点だけになっていた"))
True
"""

from __future__ import annotations

from collections.abc import Sequence

from sadame.lang._analyzer import Token
from sadame.lang._can import is_can
from sadame.lang._lexicon import lexicon
from sadame.lang._predicate import read_clauses

__all__ = ["good_past_then_plain_now"]

_NOW = frozenset({"今回", "今日", "本日", "今週", "今月", "今年"})
_NEGATORS = frozenset({"ない", "無い", "ず", "ぬ", "ん"})
#: Words of "even more" (さらに良くなった): progress beyond a good past, not a loss.
_STILL = frozenset({"さらに", "更に", "一層", "いっそう", "一段と", "もっと", "より"})
_SKIP = ("補助記号", "空白")


def _able(tokens: Sequence[Token], i: int, passive_too: bool = False) -> bool:
    """``tokens[i]`` is a "can" (できる, a godan potential; with ``passive_too`` 〜られる after a verb, which
    of a past is as often a passive: 指摘されていた, 叩かれていた) not negated after it."""
    return is_can(tokens, i, passive_too=passive_too) and not any(x.lemma in _NEGATORS for x in tokens[i + 1 : i + 5])


def _now_at(words: Sequence[Token]) -> int | None:
    """Where 今回は / 今日は opens what is so now, after a past word opening the finding."""
    past = lexicon().past_words
    if not any(t.surface in past for t in words[:3]):
        return None
    return next((i for i in range(3, len(words) - 2)
                 if words[i].surface in _NOW and words[i + 1].surface in ("は", "では")), None)


def _praised(before: Sequence[Token], negative: Sequence[str]) -> bool:
    """The past part, up to its last predicate (前回までは明瞭だった合図が: 明瞭だった), reads as praise. A
    negation of manner in it (速力を落とさず〜叩かれていた) is how a fault was done, not praise of the past."""
    last = next((k for k in range(len(before) - 1, -1, -1)
                 if before[k].pos[0] in ("動詞", "形容詞", "助動詞", "形状詞")), None)
    if last is None or any(t.lemma == "ず" for t in before[: last + 1]):
        return False
    return read_clauses(before[: last + 1], negative) == "praise"


def good_past_then_plain_now(tokens: Sequence[Token], negative: Sequence[str] = ()) -> bool:
    """A past word opening the finding, a past that holds an un-negated ability or reads as praise up to
    its last predicate, then 今回は / 今日は and a now with no ability, no "even more", that reads as
    neither praise nor progress."""
    words = [t for t in tokens if t.pos[0] not in _SKIP]
    n = _now_at(words)
    if n is None:
        return False
    before, after = words[:n], words[n + 2 :]
    if not any(_able(before, i) for i in range(len(before))) and not _praised(before, negative):
        return False
    if any(_able(after, i, passive_too=True) for i in range(len(after))) or any(t.surface in _STILL for t in after):
        return False
    return read_clauses(after, negative) not in ("praise", "better")
