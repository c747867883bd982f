"""Change in a finding: does it say something got better, came back, or still needs work?

Japanese puts the deciding predicate last, and a contrast (〜だが、〜ものの、〜のに、〜とはいえ)
hands the verdict to the clause after it. So a finding is read in its **main clause** (after the
last contrast), and in that clause the **last** cue wins:

* a *problem cue* -- excess or an unwanted aspect: 〜すぎる, 〜てしまう, 〜がち, まだ, 依然,
  止まる, 頭打ち, 横ばい, 欠ける;
* a *better cue* -- a change for the better: 〜ようになった (not negated), 〜なくなった /
  〜ことがなくなった (a negated predicate that changed), 改善された / 解消 / 克服 / 減った /
  少なくなった / 直った, 〜にくくなった after a problem verb, an adjective or adjectival noun
  + なる that is not a problem word (簡潔になった, 滑らかになった), a steadiness verb + てくる
  (安定してきた, はっきりしてきた); any of them negated afterwards (改善されていない) is a
  problem cue instead.

A *return cue* anywhere (また, 再び, 再発, ぶり返す, 逆戻り, 戻ってくる, 復活) says a problem came
back. A *comparison* (前回より, 以前は…今回は, 前回と比べて) and 引き続き / 相変わらず mark praise
as progress.

>>> change_of("肘の位置が安定するようになった", ())
'better'
>>> change_of("丁寧に構えすぎて、始動までに時間がかかっている", ())
'problem'
>>> change_of("前回より改善はしたものの、まだ転調部分で音程が不安定", ())
'problem'
>>> change_of("フォロースルーの途中で止まる癖が解消された", ())
'better'
>>> has_return_cue("また肩が上がる癖が出てきている")
True
>>> has_progress_cue("前回より回答が簡潔になった")
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Literal

from sadame.lang._analyzer import Token, analyze
from sadame.lang._findings import hedges_after
from sadame.lang._polarity import negations_after

__all__ = ["Change", "change_of", "has_progress_cue", "has_return_cue", "main_clause", "now_contrast"]

Change = Literal["better", "problem"] | None

_PROBLEM_LEMMAS = frozenset({"過ぎる", "すぎる", "しまう", "仕舞う", "がち", "まだ", "未だ", "依然", "止まる",
                             "頭打ち", "横ばい", "欠ける", "忘れる", "ばかり"})
_BETTER_LEMMAS = frozenset({"改善", "解消", "克服", "減る", "減少", "直る", "治る", "向上", "上達", "なくなる",
                            "無くなる", "改まる"})
_STEADY = frozenset({"安定", "はっきり", "落ち着く", "まとまる", "整う", "慣れる", "定まる", "揃う", "そろう",
                     "スムーズ", "明確", "自然"})
#: States that are progress when something became them (簡潔になった, 滑らかになった, 大きくなった).
_GOOD_STATES = frozenset({"簡潔", "滑らか", "具体的", "自然", "スムーズ", "明確", "丁寧", "安定", "静か", "正確",
                          "良い", "よい", "上手", "うまい", "上手い", "柔らか", "大きい", "明るい", "鮮明", "はっきり",
                          "的確", "論理的", "穏やか", "軽やか", "力強い", "豊か", "積極的", "簡単", "楽", "深い"})
#: Adjectives that are a problem when something "became" them (声が小さくなった, 遅くなった).
_BAD_STATES = frozenset({"小さい", "遅い", "弱い", "悪い", "長い", "多い", "狭い", "浅い", "低い", "硬い", "固い",
                         "重い", "早い", "速い", "雑", "曖昧", "単調", "不安定", "乱暴", "早口", "おろそか",
                         "強い", "高い", "大げさ", "下手", "苦手", "不正確", "不明確", "冗長"})
_PROBLEM_SURFACES = frozenset({"あまり", "余り"})
#: A noun that says a quality (具体性, 安定感, 説得力): appearing, it is progress.
_GOOD_SUFFIXES = ("性", "感", "力", "自信", "余裕", "メリハリ")
_NOW = frozenset({"今回", "今日", "本日", "今", "今週", "最近"})
_RETURN_LEMMAS = frozenset({"再び", "再度", "再発", "ぶり返す", "逆戻り", "復活", "再燃", "戻る"})
_PAST = frozenset({"前回", "以前", "前", "先週", "先月", "初回", "当初", "これまで", "今まで", "前々回", "昨日"})
_CONTINUING = frozenset({"引き続き", "相変わらず", "変わらず", "今回も"})


def _is_contrast(tokens: Sequence[Token], i: int) -> bool:
    t = tokens[i]
    if t.pos[0] == "助詞" and t.pos[1] == "接続助詞" and t.surface in ("が", "けど", "けれど", "けれども"):
        return not _stem_before(tokens, i)
    pair = tuple(x.surface for x in tokens[i : i + 3])
    pause = len(pair) == 3 and (pair[2] in ("、", ",") or tokens[i + 2].pos[0] in ("空白", "補助記号"))
    return (pair[:2] in (("もの", "の"), ("の", "に")) and pause) or pair == ("と", "は", "いえ")


def _stem_before(tokens: Sequence[Token], i: int) -> bool:
    """A verb stem before ``tokens[i]`` (書き忘れが増えた: Sudachi reads 忘れ + conjunctive が): a
    noun and its case particle, since the conjunctive が follows a finished predicate."""
    prev = tokens[i - 1] if i else None
    return prev is not None and prev.pos[0] == "動詞" and prev.surface != prev.lemma and prev.surface[-1:] != "る"


def main_clause(tokens: Sequence[Token]) -> Sequence[Token]:
    """The tokens after the last contrast (the whole finding when there is none)."""
    start = 0
    for i in range(len(tokens)):
        if _is_contrast(tokens, i):
            start = i + 1
    return tokens[start:]


def _negated(tokens: Sequence[Token], i: int) -> bool:
    """Negated (改善されていない) or hedged (良くなったとは言い難い) in its clause."""
    return (len(negations_after(tokens, i)) + hedges_after(tokens, i)) % 2 == 1


def _became(tokens: Sequence[Token], i: int, bad: Sequence[str]) -> Change:
    """``tokens[i]`` is なる: what did something become?"""
    prev = tokens[i - 1] if i else None
    if prev is None:
        return None
    if prev.surface == "に" and i >= 2 and tokens[i - 2].lemma == "よう":  # 〜ようになった
        before = tokens[i - 3] if i >= 3 else None
        if before is not None and (before.lemma in _PROBLEM_LEMMAS or any(w in before.surface for w in bad)):
            return "problem"
        return "problem" if _negated(tokens, i) else "better"
    if prev.lemma in ("ない", "無い") and i >= 2:  # 〜なくなった: a negated predicate that changed
        what = tokens[i - 2]
        return "problem" if what.lemma in ("できる", "出来る") or _negated(tokens, i) else "better"
    if (prev.lemma in ("難い", "にくい") or prev.normalized == "難い") and i >= 2:  # 乱れにくくなった: better only after a problem verb
        return "better" if any(w in tokens[i - 2].surface for w in bad) else None
    state = prev if prev.pos[0] == "形容詞" else tokens[i - 2] if prev.lemma == "だ" and i >= 2 else None
    if state is None or state.pos[0] not in ("形容詞", "形状詞", "名詞", "接尾辞"):
        return None
    if state.lemma in _BAD_STATES or any(w in state.surface for w in bad) or _negated(tokens, i):
        return "problem"
    good = state.lemma in _GOOD_STATES or state.lemma == "やすい" or any(w in state.surface for w in _GOOD_STATES)
    return "better" if good else None  # 古くなった, 日本語的になった: a change, not progress


def _cue(tokens: Sequence[Token], i: int, bad: Sequence[str]) -> Change:
    t = tokens[i]
    if t.lemma in ("なる", "成る") and t.pos[1] == "非自立可能":
        return _became(tokens, i, bad)
    if t.lemma in _PROBLEM_LEMMAS or t.surface in _PROBLEM_SURFACES:
        return "problem"
    if t.lemma == "少ない" and any(x.lemma in ("点", "所", "ところ", "部分", "こと") for x in tokens[max(0, i - 3) : i]):
        return "problem"  # 良くなっている点は少ない
    if i >= 1 and tokens[i - 1].pos[0] == "動詞" and t.surface == "だけ":  # なぞるだけ: only that
        return "problem"
    if t.surface == "と" and i >= 1 and tokens[i - 1].pos[0] == "動詞" and tokens[i - 1].surface.endswith("う") \
            and any(x.lemma in ("する", "為る") for x in tokens[i + 1 : i + 2]):
        return "problem"  # 上手く打とうとして: trying too hard at something
    if t.lemma in _BETTER_LEMMAS:
        nxt = tokens[i + 1 : i + 4]
        if any(x.lemma in ("余地", "必要", "点", "傾向", "課題", "ポイント", "案", "策", "目標", "対象") for x in nxt):
            return None
        return "problem" if _negated(tokens, i) else "better"
    if t.lemma in ("くる", "来る") and i >= 2 and tokens[i - 1].surface == "て":
        verb = tokens[i - 2] if tokens[i - 2].lemma not in ("する", "為る") or i < 3 else tokens[i - 3]
        if verb.lemma in _STEADY and not _negated(tokens, i):
            return "better"
        subject = tokens[i - 4] if i >= 4 and verb.lemma == "出る" and tokens[i - 3].surface == "が" else None
        if subject is not None and subject.surface.endswith(_GOOD_SUFFIXES):
            return "better"  # 具体性が出てきた
    return None


def change_of(text: str, bad: Sequence[str]) -> Change:
    """``better``, ``problem`` or None: the last change cue of the main clause of ``text``.
    ``bad`` are extra problem words (a ruleset's negative words) that make a "became" a problem."""
    tokens = analyze(text[:2_000])
    clause = main_clause(tokens)
    verdict: Change = None
    for i in range(len(clause)):
        cue = _cue(clause, i, bad)
        if cue is not None:
            verdict = cue
    return verdict


def _additive(tokens: Sequence[Token], i: int) -> bool:
    """The また at ``tokens[i]`` is no "again": 「また、」 opening a sentence adds a point (the issue
    normalizer leaves a space for its 、), and 又 joined to a noun is part of a word (又枝切り, 又聞き)."""
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if nxt is None:
        return False
    if nxt.pos[0] == "補助記号":
        return True
    opens = i == 0 or tokens[i - 1].surface in ("。", "．") or (
        tokens[i - 1].pos[0] == "空白" and i >= 2 and tokens[i - 2].pos[0] in ("助動詞", "動詞", "形容詞"))
    if nxt.pos[0] == "空白" and opens:
        return True
    return _kanji_prefix(tokens[i], nxt)


def _kanji_prefix(token: Token, nxt: Token) -> bool:
    """又 written in kanji straight before a noun (又枝切り): a word's first part."""
    return token.surface == "又" and nxt.pos[0] == "名詞" and nxt.begin == token.end


@functools.lru_cache(maxsize=20_000)
def has_return_cue(text: str) -> bool:
    """True when the finding says a problem came back (また / 再び / ぶり返す / 逆戻り ...)."""
    tokens = analyze(text[:2_000])
    for i, t in enumerate(tokens):
        if t.lemma in ("また", "又") and not _additive(tokens, i):
            return True
        if t.lemma in _RETURN_LEMMAS and (t.lemma != "戻る" or any(x.lemma in ("くる", "来る", "しまう")
                                                                   for x in tokens[i + 1 : i + 4])):
            return True
    return False


def now_contrast(text: str) -> str | None:
    """The part of ``text`` from 今回 / 今日 on when it follows a past word (以前は曖昧だった…今回は
    明確に合意できていた, 先週つまずいていた…今日はスムーズだった); None otherwise."""
    tokens = analyze(text[:2_000])
    past = False
    for t in tokens:
        if t.surface in _PAST:
            past = True
        elif past and t.surface in _NOW:
            return text[t.begin:]
    return None


def has_progress_cue(text: str) -> bool:
    """True for a comparison with the past (前回より, 以前は…今回は) or 引き続き / 相変わらず."""
    if now_contrast(text) is not None:
        return True
    tokens = analyze(text[:2_000])
    for i, t in enumerate(tokens):
        if t.surface in _CONTINUING or t.lemma in _CONTINUING:
            return True
        nxt = tokens[i + 1].surface if i + 1 < len(tokens) else ""
        if t.surface in _PAST and nxt in ("より", "に", "と", "は", "まで") and not (
                t.surface == "前" and nxt != "より"):  # 前回より, 前よりも; not スクリーンの前に
            return True
    return False
