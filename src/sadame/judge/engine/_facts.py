"""Facts (pack format 3): what is *true* of the story, beside the rules that say what *matters*.

A rule says that a thing matters (「電子レンジは関係ある？」 -> はい). A question that
names the thing and wraps a detail around it (「電子レンジが壊れた？」) asserts more than
the rule states. In format 3 each puzzle lists ``facts``: short statements written
from the truth, one detail each (「氷は一度もとけていない」「振り子は金属の棒」). Then:

1. the **details** of a question are its content words (nouns, verbs, adjectives,
   numbers) outside every phrase a rule fired on, minus generic words (関係, 原因,
   ある, する...) and the words of the puzzle's statement (the player was told them);
2. no details: the rule answers, as in format 2 (a question about relevance);
3. details that one fact about the same thing states (every detail is a word of that
   fact, and the fact fires one of the question's rules): the fact answers -- YES
   when the question asserts it with the fact's polarity, NO when with the opposite
   (「氷はとけた？」 against 「氷は一度もとけていない」);
4. details no fact states, on a YES rule: the verdict is :data:`MATTERS`
   (「電子レンジは関係しています（その点は別の聞き方で）」), or the LLM fallback
   when one is configured; a NO rule keeps its NO (the thing does not matter, whatever
   is said of it);
5. a question no rule answers (no phrase, or an unclear polarity) is answered by a
   fact that states all its details.

A word counts as stated when its lemma, normalized form, surface or (typed in kana)
reading equals one of the fact's, so 「とけた」 meets 「溶けていない」; two verbs or
adjectives with the same kanji stem are one detail (入る/入れる, 上がる/上げる).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise

from sadame.judge.engine._loader import parse_yaml
from sadame.judge.engine._model import RuleTable
from sadame.judge.engine._natural import NaturalHit, NaturalOutcome, clean, fired_phrases, fold, natural_table
from sadame.lang import Token, analyze
from sadame.lang._question import Polarity, kansai_negation, question_polarity

__all__ = ["MATTERS", "Fact", "FactBook", "absent_thing", "fact_book", "token_keys", "truth_clauses", "weigh"]

#: The verdict "this matters, but the detail you asked is not something I can confirm".
MATTERS = "MATTERS"

_CONTENT_POS = frozenset({"名詞", "動詞", "形容詞", "形状詞"})
_SKIP_POS1 = frozenset({"代名詞", "非自立可能", "助数詞"})
#: Words that ask about relevance or carry no detail of their own.
_GENERIC = frozenset({
    "関係", "関係する", "関わる", "関連", "関連する", "無関係", "原因", "せい", "所為", "影響", "理由", "要因",
    "仕業", "犯人", "きっかけ", "切っ掛け", "ポイント", "鍵", "核心", "決め手", "重要", "大事", "大切", "絡む",
    "ある", "有る", "いる", "居る", "する", "為る", "なる", "成る", "できる", "出来る", "やる", "こと", "事",
    "もの", "物", "話", "問題", "本当", "実際", "何", "何か", "誰か", "感じ", "場合", "時", "とき", "方", "ほう",
    "様", "よう", "的", "辺", "気", "思う", "言う", "考える", "分かる", "わかる", "知る", "せる", "させる",
    "れる", "られる", "ちゃう", "しまう", "仕舞う", "みる", "おく", "くる", "いく", "何らか", "なにか", "だれか",
    "どこか", "いつか", "一種", "系", "さん", "くん", "ちゃん", "そう", "みたい", "ぽい", "っぽい",
    "ため", "為", "まま", "みんな", "皆", "自分", "全部", "全て", "結局", "やっぱり", "本当に",
    # pointers (「会議室のやつ」「こと自体」): grammar, not a detail (「…わけじゃない」 stays one: the
    # relevance flip misreads 「窓のほうが明るいわけじゃない」)
    "やつ", "奴", "自体",
})
#: Light nouns that name a place, state or part of a thing already named (「ドアのところ」
#: 「つながってない状態」「4年に1回の仕組み」「OSの違い」): never a detail of their own (they
#: still end a statement: 「見られない人がいた」 asserts 人).
_LIGHT_NOUNS = frozenset({
    "ところ", "所", "状態", "仕組み", "場所", "部分", "辺り", "あたり", "具合", "様子", "都合", "違い", "点",
    "人", "人たち", "人達", "たち", "達", "方法", "やり方", "中身", "前", "後", "あと", "最中", "途中",
    "とこ", "作り", "造り",
})
_FORMAL = frozenset({"わけ", "訳", "はず", "筈"})
#: The detail a formal noun asserts: a key no fact has, so the hedge stands (its reading わけ
#: would meet 分け in a fact).
_FORMAL_DETAIL = frozenset({"#formal"})


_INFLECTING = frozenset({"動詞", "形容詞"})
_KANJI_STEM = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff々]+")
_FOLDED_GENERIC = frozenset(fold(w) for w in _GENERIC | _LIGHT_NOUNS)


def token_keys(token: Token) -> frozenset[str]:
    """The folded spellings a token is compared by (lemma, normalized, surface; the
    reading when the token is kana, as the player typed it)."""
    keys = {fold(token.lemma), fold(token.normalized), fold(token.surface)}
    if all("\u3041" <= c <= "\u30ff" for c in token.surface):
        keys.add(fold(token.reading))
    if token.pos[0] in _INFLECTING:
        stem = "".join(_KANJI_STEM.findall(token.lemma))
        if stem:
            keys.add("~" + stem)  # 入る/入れる, 上がる/上げる: one detail, two voices (書く is not 書き換わる)
    keys.discard("")
    return frozenset(keys)


def is_content(token: Token) -> bool:
    """A token that can carry a detail (a number counts)."""
    if token.pos[0] not in _CONTENT_POS or token.pos[1] in _SKIP_POS1:
        return token.pos[1] == "数詞"
    return token.lemma not in _GENERIC and token.normalized not in _GENERIC


def _last_content(tokens: Sequence[Token]) -> int | None:
    """The last content word; a Kansai 〜てへん is an ending, not a noun (「冷えてへん？」)."""
    return max((i for i, t in enumerate(tokens) if is_content(t) and not _kansai_negation(tokens, i)), default=None)


def assertion_polarity(tokens: Sequence[Token]) -> Polarity:
    """Whether a statement (or question) asserts its last content word or its negation."""
    last = _last_content(tokens)
    if last is None:
        return "unclear"
    return question_polarity(tokens, last + 1)


def head_keys(tokens: Sequence[Token]) -> frozenset[str]:
    """The keys of the last content word: what the statement asserts or denies."""
    last = _last_content(tokens)
    return frozenset() if last is None else token_keys(tokens[last])


@dataclass(frozen=True, slots=True)
class Fact:
    """One statement of a puzzle's facts, analyzed."""

    text: str
    keys: frozenset[str]  #: the folded keys of its content words (all tokens, generic ones too)
    head: frozenset[str]  #: the keys of its last content word (the predicate it asserts or denies)
    polarity: Polarity
    rules: frozenset[int]  #: indexes of the rules that fire on the fact's own text
    words: frozenset[str]  #: the folded rule words that fire on it, and its keys
    rule_words: frozenset[str]  #: the folded rule words that fire on it
    context: frozenset[str]  #: its keys that are words of the statement
    relevance: bool = False  #: it states relevance itself (「先生の吐く息が原因ではない」)
    alternatives: frozenset[tuple[str, int]] = frozenset()  #: (contrast group, alternative) it names
    quantities: frozenset[tuple[str, str]] = frozenset()  #: (unit, number) pairs it names
    mood: frozenset[str] = frozenset()  #: its modality and aspect markers (:func:`mood`)
    denied: frozenset[str] = frozenset()  #: keys only in a clause it denies (「Aではなく B」: A's)
    counted: tuple[tuple[str, str], ...] = ()  #: its (unit, number) pairs, each time it names one


@dataclass(frozen=True, slots=True)
class FactBook:
    """A table's facts and the words of its statement (never details)."""

    facts: tuple[Fact, ...]
    context: frozenset[str]
    story: frozenset[str] = frozenset()  #: every key of the statement, truth, facts and rule words
    readings: tuple[str, ...] = ()  #: each fact's (and the statement's) whole reading, folded
    worded: frozenset[str] = frozenset()  #: every fact's words (a rule word a fact uses is told apart)

    def stating(self, details: Sequence[frozenset[str]], rules: frozenset[int]) -> tuple[Fact, ...]:
        """The facts about one of ``rules`` (or about any rule when ``rules`` is empty)
        that state every detail."""
        return tuple(
            f for f in self.facts
            if (not rules or f.rules & rules) and all(d & f.keys for d in details)
        )


_BOOK_ATTR = "_sadame_fact_book"
#: A fact is a statement: one written as a question has no polarity (lint J108).
_QUESTION_ENDS = ("？", "?", "か", "かな")
#: Where the truth is cut into clause facts: sentence and clause ends, and the
#: conjunctions of cause (a clause of cause and its effect are two facts).
_CLAUSE_CUT = re.compile(r"[。\n！？!?]|、|ため|ので|から|が、")
_MIN_CLAUSE = 3


def truth_clauses(truth: str) -> tuple[str, ...]:
    """The truth cut into clauses, each a fact (format 3 derives them; written facts add
    the details a clause does not carry, and the negations)."""
    return tuple(c.strip() for c in _CLAUSE_CUT.split(truth) if len(c.strip()) >= _MIN_CLAUSE)



def _analyze_fact(text: str, table: RuleTable, context: frozenset[str]) -> Fact:
    tokens = analyze(clean(text))
    keys: set[str] = set()
    for i, token in enumerate(tokens):
        if token.pos[0] in _CONTENT_POS or token.pos[1] == "数詞":
            keys |= token_keys(token) | {fold(token.reading)}  # a question typed in kana meets it
            keys |= _quantity(tokens, i) | _compound_head(token)
    ntable = natural_table(table)
    phrases = fired_phrases(ntable, tokens)
    fired = frozenset(ntable.rules[position].index for position, _, _ in phrases)
    words = frozenset(fold(ntable.rule_word(position, occ.word)) for (position, _, _), occ in phrases.items())
    ctx = frozenset(keys & context)
    polarity = "unclear" if text.rstrip().endswith(_QUESTION_ENDS) else assertion_polarity(tokens)
    if polarity == "positive" and _ends_in_zu(tokens):
        polarity = "negative"  # 「持っておらず」: a clause cut before its end, negated by ず
    return Fact(
        text, frozenset(keys), head_keys(tokens), polarity, fired, words | keys, words, ctx, _asks_relevance(tokens),
        alternatives_of(frozenset(keys) | _short_units(tokens)), _quantities(tokens), mood(tokens), _denied_keys(tokens),
        _counted_list(tokens),
    )


def _counted_list(tokens: Sequence[Token]) -> tuple[tuple[str, str], ...]:
    return tuple(
        (fold(tokens[i + 1].normalized), fold(tokens[i].normalized)) for i in range(len(tokens)) if _counted(tokens, i)
    )


def _as_often(fact: Fact, tokens: Sequence[Token]) -> bool:
    """The fact names each number with its unit at least as often as the question (「3時から3時に」
    is not stated by 「2時から3時へ」)."""
    asked = Counter(_counted_list(tokens))
    have = Counter(fact.counted)
    return all(have[q] >= n for q, n in asked.items())


def _denied_keys(tokens: Sequence[Token]) -> frozenset[str]:
    """The keys of the content words of a clause the statement denies before it goes on
    (「新しく書いたものではなく古い」「鍵を持たず、歩いて帰った」): a clause ended by a continuing
    negation (なく, ず) with more content after it. Keys also used in the rest are not denied."""
    denied: set[str] = set()
    start = 0
    for i, token in enumerate(tokens):
        if token.pos[0] == "補助記号" or (token.pos[0] == "助詞" and token.pos[1] == "接続助詞"):
            start = i + 1
            continue
        continuing = (token.lemma == "ない" and token.pos[5].startswith("連用形")) or token.lemma == "ず"
        if continuing and any(is_content(t) for t in tokens[i + 1:]):
            for j in range(start, i):
                if is_content(tokens[j]):
                    denied |= token_keys(tokens[j])
            start = i + 1
    if not denied:
        return frozenset()
    kept: set[str] = set()
    for j in range(start, len(tokens)):
        if is_content(tokens[j]):
            kept |= token_keys(tokens[j])
    return frozenset(denied - kept)


_MIN_HEAD = 2


def _short_units(tokens: Sequence[Token]) -> frozenset[str]:
    """The folded short units of the compound nouns (「夏時間」 -> 夏, 時間): where a contrast
    hides inside a compound."""
    found: set[str] = set()
    for token in tokens:
        if token.pos[0] == "名詞" and token.parts and not token.oov:
            cuts = (token.begin, *token.parts, token.end)
            found |= {fold(token.surface[a - token.begin:b - token.begin]) for a, b in pairwise(cuts)}
    return frozenset(found)


def _compound_head(token: Token) -> frozenset[str]:
    """The last short unit of a compound noun (「Webサーバー」 -> サーバー): a fact about a Web
    server states what a question says of a server (the head names what the compound is)."""
    if token.pos[0] != "名詞" or not token.parts or token.oov:
        return frozenset()
    tail = token.surface[token.parts[-1] - token.begin:]
    return frozenset({fold(tail)}) if len(tail) >= _MIN_HEAD else frozenset()


def _ends_in_zu(tokens: Sequence[Token]) -> bool:
    last = _last_content(tokens)
    return last is not None and any(t.pos[0] == "助動詞" and t.lemma == "ず" for t in tokens[last + 1:])


#: Modality and aspect a fact must share with a question it confirms: a condition (〜たら, 〜ば,
#: 〜なら), an obligation (〜べき), a wish (〜たい), ease (〜やすい, 〜にくい), excess (〜すぎる),
#: an event about to happen (〜かける), exclusivity (〜だけ, 〜しか).
_MOOD_LEMMAS = {
    "べし": "must", "たい": "want", "やすい": "ease", "にくい": "ease", "づらい": "ease", "辛い": "ease",
    "すぎる": "excess", "過ぎる": "excess", "かける": "about-to", "だけ": "only", "しか": "only", "のみ": "only",
}


def _same_mood(fact: Fact, asked: frozenset[str], head: frozenset[str]) -> bool:
    """The fact has the question's modality; a condition of the fact is no difference when both
    end on one predicate (「OSを更新すれば直る」 states 「OSのアップデートで直る？」), only when the
    condition leads to another (「対策ソフトを入れたら新人のPCも遅くなる」 is not 「…が入ってる？」)."""
    have = fact.mood
    if "purpose" in asked | have:  # 「下げるため」 is stated by 「下げたい」, 「下げる」 or 「下げるため」
        asked, have = asked - _PURPOSE, have - _PURPOSE
    if have == asked:
        return True
    return have ^ asked == {"condition"} and bool(head & fact.head)


_PURPOSE = frozenset({"purpose", "want"})


def mood(tokens: Sequence[Token]) -> frozenset[str]:
    """The modality and aspect markers of a statement or question (see :data:`_MOOD_LEMMAS`)."""
    found: set[str] = set()
    for i, token in enumerate(tokens):
        if token.pos[5].startswith("仮定形"):
            found.add("condition")
        if token.lemma in ("ため", "為") and i and tokens[i - 1].pos[0] == "動詞":
            found.add("purpose")  # 「温度を下げるため」: stated by 「下げたい」 or by 「下げる」
        kind = _MOOD_LEMMAS.get(token.lemma)
        if kind is None or (token.pos[0] in ("名詞", "形容詞") and token.pos[1] != "非自立可能"):
            continue
        if kind in ("excess", "about-to") and not (i and tokens[i - 1].pos[0] in _INFLECTING):
            continue  # 「かける」「すぎる」 after a verb's stem only (切れかけ, 強すぎ)
        found.add(kind)
    return frozenset(found)


def fact_book(table: RuleTable) -> FactBook:
    """The table's analyzed facts, built on first use and kept on the table."""
    cached = table.__dict__.get(_BOOK_ATTR)
    if isinstance(cached, FactBook):
        return cached
    context: set[str] = set()
    told = analyze(clean(table.context)) if table.context else ()
    for i, token in enumerate(told):
        if is_content(token):
            context |= token_keys(token) | _quantity(told, i)
    frozen = frozenset(context)
    texts = (*table.facts, *truth_clauses(table.truth))
    facts = tuple(_analyze_fact(text, table, frozen) for text in texts)
    spoken = tuple(fold("".join(t.reading for t in analyze(clean(text)))) for text in (*texts, table.context or ""))
    worded = frozenset(w for f in facts for w in f.words)
    book = FactBook(facts, frozen, _story(table, facts, frozen), tuple(r for r in spoken if r), worded)
    object.__setattr__(table, _BOOK_ATTR, book)
    return book


def _story(table: RuleTable, facts: Sequence[Fact], context: frozenset[str]) -> frozenset[str]:
    """The keys of every word the story uses: statement, truth, facts and rule words."""
    keys: set[str] = set(context)
    for fact in facts:
        keys |= fact.keys
    for rule in table.rules:
        for word in (*rule.any, *rule.not_):
            keys.add(fold(word))
            for token in analyze(clean(word)):
                keys |= token_keys(token)
    for token in analyze(clean(table.context)) if table.context else ():
        keys |= token_keys(token) | {fold(token.reading)}
    return frozenset(keys)


def _is_hiragana(text: str) -> bool:
    return all("\u3041" <= c <= "\u309f" for c in text)


def absent_thing(tokens: Sequence[Token], table: RuleTable) -> Token | None:
    """The thing a question asks about when the story never names it (「その山には熊が出る？」:
    熊), or None. Only for a question on which no rule fired: its last noun is a word of
    neither statement, truth, facts nor rules, while another of its words is one of the
    story's (so the question is about this story, not a typo or a paraphrase of a rule word
    the analyzer could not read: a question with an unknown word is never called absent)."""
    if not table.weighs_details or not tokens or any(t.oov or t.lemma in _FORMAL for t in tokens):
        return None  # an unknown word, or 「…わけじゃない」: the question is about a claim, not a thing
    content = [t for t in tokens if is_content(t)]
    if any(_is_hiragana(t.surface) for t in content):
        return None  # kana typed for a word (「わいやれす」): the analyzer's cut is not a word
    nouns = [t for t in content if t.pos[0] == "名詞" and t.pos[2] != "形状詞可能" and t.lemma not in _LIGHT_NOUNS | _FORMAL]
    if not nouns:
        return None
    story = fact_book(table).story
    last = nouns[-1]
    if token_keys(last) & story or fold(last.reading) in story:
        return None
    present = any(token_keys(t) & story for t in content if t is not last)
    return last if present else None


# --------------------------------------------------------------------------- weighing


def _details(
    tokens: Sequence[Token], spans: Sequence[tuple[int, int]], context: frozenset[str],
    readings: Sequence[str] = (),
) -> list[frozenset[str]]:
    """The keys of each detail word: content tokens outside every fired phrase, not
    words of the statement, nor a fragment of kana that the story says aloud (:func:`_spoken`)."""
    details: list[frozenset[str]] = []
    typed_in_kana = bool(readings) and not any(_KANJI_STEM.search(t.surface) for t in tokens)
    for i, token in enumerate(tokens):
        if any(b < token.end and token.begin < e for b, e in spans) or _counted(tokens, i - 1):
            continue
        if _quoted_symbol(tokens, i):
            details.append(frozenset({fold(token.surface)}))  # 「@」: what is quoted is asserted
            continue
        if not (is_content(token) or _main_verb(tokens, i)) or _kansai_negation(tokens, i):
            continue
        if (typed_in_kana and _spoken(tokens, i, readings)) or _stray_letter(tokens, i):
            continue
        if token.lemma in _FORMAL:
            details.append(_FORMAL_DETAIL)  # 「…わけじゃない」: a claim no fact's words state (not 分ける)
            continue
        keys = _quantity(tokens, i) or token_keys(token)
        if keys & context or keys & _FOLDED_GENERIC:
            continue
        details.append(keys)
    return details


#: Verbs of coming, going and putting carry no detail of their own (「海釣りに行くんちゃう？」,
#: 「キッチンに置くのが大事？」 asks whether the place matters).
_MOTION = frozenset({"行く", "来る", "参る", "置く", "見せる"})


_MIN_SPOKEN = 3
_MAX_FRAGMENT = 2  #: a fragment the analyzer cut from a kana word is one or two kana


def _spoken(tokens: Sequence[Token], i: int, readings: Sequence[str]) -> bool:
    """A word typed in kana that the analyzer cut into fragments (「ふりこ|の|びる」 for 振り子が伸びる,
    「らい|と」 for ライト): a fragment of one or two kana in a run of kana tokens, 3 kana or more,
    that a fact or the statement says aloud -- it is that word, not a detail of its own. Only in a
    question typed without kanji (:func:`_details`)."""
    if not _is_hiragana(tokens[i].surface) or len(tokens[i].surface) > _MAX_FRAGMENT:
        return False
    first = last = i
    while first > 0 and _is_hiragana(tokens[first - 1].surface):
        first -= 1
    while last + 1 < len(tokens) and _is_hiragana(tokens[last + 1].surface):
        last += 1
    for begin in range(first, i + 1):
        for end in range(i + 1, last + 2):
            piece = fold("".join(t.surface for t in tokens[begin:end]))
            if len(piece) >= _MIN_SPOKEN and len(piece) > len(fold(tokens[i].surface)) and any(piece in r for r in readings):
                return True
    return False


def _quoted_symbol(tokens: Sequence[Token], i: int) -> bool:
    """A symbol the question quotes on its own (「@」「#」): a detail, though no content word."""
    return (0 < i < len(tokens) - 1 and tokens[i].pos[0] in ("補助記号", "記号")
            and tokens[i - 1].surface == "「" and tokens[i + 1].surface == "」")


def _stray_letter(tokens: Sequence[Token], i: int) -> bool:
    """One latin letter typed onto the end of kana (「みやぶるt？」「しくみですかl？」): a key
    slipped while typing, not a word."""
    token = tokens[i]
    if len(token.surface) != 1 or not (token.surface.isascii() and token.surface.isalpha()) or i == 0:
        return False
    previous = tokens[i - 1]
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    return (previous.end == token.begin and _is_hiragana(previous.surface[-1:])
            and (following is None or following.pos[0] == "補助記号"))


def _kansai_negation(tokens: Sequence[Token], i: int) -> bool:
    """Kansai 〜てへん / 〜ひん after a verb (「着きすぎてへん？」): the analyzer's noun へん is an ending."""
    return kansai_negation(tokens[i - 1] if i > 0 else None, tokens[i])


def _main_verb(tokens: Sequence[Token], i: int) -> bool:
    """A verb the dictionary marks as possibly auxiliary (見る, 見せる, もらう...) used as the
    question's own predicate (「UTCで時刻を見ていた？」): not after a て-form or a noun of action
    (「試してみる」), and not a て-form before another verb (「外から見て読める」)."""
    token = tokens[i]
    if token.pos[0] != "動詞" or token.pos[1] != "非自立可能" or token.lemma in _GENERIC | _MOTION:
        return False
    previous = tokens[i - 1] if i > 0 else None
    if previous is not None and (previous.surface in ("て", "で", "か") or previous.pos[0] in ("動詞", "助動詞")):
        return False  # an auxiliary (「試してみる」), or 「〜か見る」: checking, not a detail of its own
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    if following is None or following.surface not in ("て", "で"):
        return True
    return not any(t.pos[0] in _INFLECTING and t.pos[1] != "非自立可能" for t in tokens[i + 2:])


def _counted(tokens: Sequence[Token], i: int) -> bool:
    """``tokens[i]`` is a number whose unit is the next token (the pair is one detail)."""
    return i >= 0 and i + 1 < len(tokens) and tokens[i].pos[1] == "数詞" and _unit(tokens[i + 1])


def _unit(token: Token) -> bool:
    return token.pos[0] in ("名詞", "接尾辞") and token.pos[1] != "数詞"


def _quantity(tokens: Sequence[Token], i: int) -> frozenset[str]:
    """A number with its unit, one detail (「1時間」 is not stated by 「1週間」)."""
    if not _counted(tokens, i):
        return frozenset()
    number, unit = tokens[i], tokens[i + 1]
    return frozenset({fold(number.surface + unit.surface), fold(number.normalized + unit.normalized)})


def _denies(fact: Fact, asked: Polarity, head: frozenset[str], said: frozenset[str], setting: frozenset[str]) -> bool:
    """The fact denies what is asked, under no condition the question leaves out
    (「冬は振り子が伸びない」 does not deny 「振り子が伸びる？」)."""
    return (
        fact.polarity not in (asked, "unclear") and bool(head & fact.head)
        and fact.rule_words <= said and fact.context <= setting
    )


def _said(tokens: Sequence[Token], hits: Sequence[NaturalHit]) -> frozenset[str]:
    keys: set[str] = {fold(h.matched_word) for h in hits}
    for i, token in enumerate(tokens):
        keys |= token_keys(token) | _quantity(tokens, i)
    return frozenset(keys)


def _in_denied(fact: Fact, details: Sequence[frozenset[str]]) -> bool:
    """A detail the fact states only in a clause it denies (「新しく書いたものではなく古い」 does not
    state 「新しく書いた」)."""
    return bool(fact.denied) and any(d & fact.denied and not (d & (fact.keys - fact.denied)) for d in details)


def _fact_verdict(
    facts: Sequence[Fact], tokens: Sequence[Token], hits: Sequence[NaturalHit], setting: frozenset[str],
    details: Sequence[frozenset[str]] = (), worded: frozenset[str] = frozenset(),
) -> tuple[str | None, Fact | None]:
    """YES/NO from the facts that state the question's details (None when they
    disagree or the question's polarity is unclear). YES needs one fact naming every
    phrase the question's rules fired on (「夏に振り子が縮む」 is not 「冬は振り子が縮む」,
    though 夏 and 冬 are words of one rule); NO a fact that denies the very predicate
    asked. A fact that names a statement word the question does not, while the
    question names one the fact does not, is about another part of the story."""
    asked = assertion_polarity(tokens)
    if asked == "unclear":
        return None, None
    head, said, asked_mood = head_keys(tokens), _said(tokens, hits), mood(tokens)
    phrases = [fold(h.matched_word) for h in hits if h.rule.answer in ("YES", "NO")]
    if _asks_relevance(tokens):
        return _relevance_verdict(facts, asked, phrases, setting)
    named = [h for h in hits if h.rule.answer in _VERDICTS]
    required = setting - _proper_keys(tokens)  # 「送り主は恵子のお母さん？」 is stated by 「送り主はお母さん」
    found: dict[str, Fact] = {}
    for fact in facts:
        if fact.polarity == "unclear" or ((fact.context - setting) and (setting - fact.context)):
            continue
        if (fact.polarity == asked and all(_names(fact, h, worded) for h in named) and required <= fact.keys
                and _same_mood(fact, asked_mood, head) and not _in_denied(fact, details)
                and _as_often(fact, tokens)):
            found.setdefault("YES", fact)
        elif _denies(fact, asked, head, said, setting):
            found.setdefault("NO", fact)
    if len(found) != 1:
        return None, None
    return next(iter(found.items()))


_FOLDED_RELEVANCE = frozenset(fold(w) for w in (
    "関係", "関係する", "関わる", "関連", "関連する", "原因", "せい", "影響", "理由", "要因", "きっかけ", "鍵", "かぎ",
    "核心", "決め手", "ポイント", "重要", "大事", "証拠", "目的", "ため",
))


def _names(fact: Fact, hit: NaturalHit, worded: frozenset[str]) -> bool:
    """The fact names the phrase a rule fired on: the phrase itself, or a word that only asks
    why or whether (「歩く理由を作ってる？」 is stated by 「歩く口実を作った」: 理由 is the asking,
    not a detail), or -- the rule's words being one thing said several ways -- another word of
    the same rule, unless the two are alternatives of one contrast group (夏/冬)."""
    phrase = fold(hit.matched_word)
    if phrase in fact.words or phrase in _FOLDED_RELEVANCE:
        return True
    if hit.rule.index not in fact.rules or phrase in worded:
        return False  # a phrase other facts use is told apart from its rule's other words (ひらがな/カタカナ)
    places = _inner_alternatives(phrase)
    groups = {g for g, _ in places}
    theirs = fact.alternatives.union(*(_inner_alternatives(w) for w in fact.rule_words))
    return not any(g in groups and (g, n) not in places for g, n in theirs)


_MAX_INNER = 8


@cache
def _inner_alternatives(word: str) -> frozenset[tuple[str, int]]:
    """The contrast places of a folded rule word and of every piece of it (「冬時間」 -> 冬: a
    season), so that a rule's words that differ by a contrast inside them are not one thing."""
    if len(word) > _MAX_INNER:
        return alternatives_of(frozenset({word}))
    pieces = {word[a:b] for a in range(len(word)) for b in range(a + 1, len(word) + 1)}
    return alternatives_of(frozenset(pieces))


def _relevance_verdict(
    facts: Sequence[Fact], asked: Polarity, phrases: Sequence[str], setting: frozenset[str]
) -> tuple[str | None, Fact | None]:
    """A relevance question (「水の量が関係してる？」「…のは関係ない？」) whose details facts
    name: a fact that itself states relevance (「先生の吐く息が原因ではない」) answers with its
    polarity; otherwise a fact naming every detail and phrase says that they matter."""
    direct: dict[str, Fact] = {}
    implied: dict[str, Fact] = {}
    for fact in facts:
        if fact.polarity == "unclear" or not all(p in fact.words for p in phrases):
            continue
        if (fact.context - setting) and (setting - fact.context):
            continue
        if fact.relevance:
            direct.setdefault("YES" if fact.polarity == asked else "NO", fact)
        else:
            implied.setdefault("NO" if asked == "negative" else "YES", fact)
    found = direct or implied
    return next(iter(found.items())) if len(found) == 1 else (None, None)


def _replace(hit: NaturalHit, verdict: str, polarity: Polarity) -> NaturalHit:
    return NaturalHit(hit.rule, hit.matched_word, verdict, polarity, hit.begin, hit.end, hit.token_end)


def weigh(outcome: NaturalOutcome, tokens: Sequence[Token], table: RuleTable) -> NaturalOutcome:
    """Apply the facts of a format-3 table to a natural-mode outcome (see the module)."""
    if not table.weighs_details or not tokens:
        return outcome
    hit, hits = outcome.hit, outcome.candidates
    if not hits and outcome.reason is None:
        return _unfired(outcome, tokens, table)
    if not hits or (hit is not None and hit.rule.answer != "YES"):
        return outcome  # nothing fired, or a NO/IRRELEVANT rule speaks whatever the details
    book = fact_book(table)
    details = _details(tokens, outcome.spans, book.context, book.readings)
    if not details:
        if hit is not None and _unconfirmed_event(outcome, tokens, book):
            return NaturalOutcome(_replace(hit, MATTERS, hit.polarity), "no fact states these phrases together", hits)
        return _denied(outcome, tokens, book) if hit is not None else outcome
    rules = frozenset(h.rule.index for h in hits if h.rule.answer in ("YES", "NO"))
    setting = _setting(tokens, book.context)
    verdict, fact = _fact_verdict(book.stating(details, rules), tokens, hits, setting, details, book.worded)
    if verdict is not None and fact is not None:
        return NaturalOutcome(_replace(hit or hits[0], verdict, "positive"), f"fact: {fact.text}", hits)
    if hit is not None:
        against = _contradicting(book, tokens, details, rules, hits) or _denying_clause(book, tokens, details, rules)
        if against is not None:
            return NaturalOutcome(_replace(hit, "NO", "positive"), f"fact: {against.text}", hits)
        untold = _untold(book, tokens, details)
        if untold:
            return NaturalOutcome(_replace(hit, "NO", "positive"), "the story never says: " + "、".join(untold), hits)
        return NaturalOutcome(_replace(hit, MATTERS, hit.polarity), _unstated(tokens, details), hits)
    return outcome


_INDEFINITE = frozenset({"誰か", "何か", "どこか", "いつか", "だれか", "なにか", "誰", "だれ", "何", "なに", "どこ", "いつ"})


def _unfired(outcome: NaturalOutcome, tokens: Sequence[Token], table: RuleTable) -> NaturalOutcome:
    """A question on which no rule fired (「口実を作った？」) is answered by one fact that states
    every one of its content words (two or more written words; not a relevance question, none
    indefinite: 「誰かより先に」 is not 「本人より先に」), with its polarity (はい) or against it (いいえ
    when the fact denies the very predicate); the answer speaks through the first rule that
    fires on the fact's own text."""
    book = fact_book(table)
    details = _details(tokens, (), book.context, book.readings)
    in_kana = not any(_WRITTEN.search(t.surface) for t in tokens)
    if (len(details) < _UNTOLD or _asks_relevance(tokens) or any(t.lemma in _INDEFINITE or t.surface in _INDEFINITE for t in tokens)
            or any(not _written(tokens, i, in_kana) for i, t in enumerate(tokens) if token_keys(t) in details)):
        return outcome  # one word, a relevance question, 「誰かより先に」 or kana fragments: too little to go on
    verdict, fact = _fact_verdict(book.stating(details, frozenset()), tokens, (), _setting(tokens, book.context),
                                  details, book.worded)
    if verdict is None or fact is None or not fact.rules:
        return outcome
    rule = table.rules[min(fact.rules)]
    word = rule.any[0] if rule.any else ""
    spoken = NaturalHit(rule, word, verdict, "positive", 0, 0, 0)
    return NaturalOutcome(spoken, f"fact: {fact.text}", (spoken,))


#: Predicates that ask whether a thing matters (a question ending in one asks relevance).
_RELEVANCE_HEADS = frozenset({
    "関係", "関係する", "関わる", "関連", "関連する", "無関係", "原因", "せい", "所為", "影響", "理由", "要因",
    "仕業", "きっかけ", "切っ掛け", "絡む", "鍵", "核心", "決め手", "ポイント", "重要", "大事",
})
_LIGHT = frozenset({"する", "為る", "ある", "有る", "いる", "居る", "ない", "無い", "なる", "成る", "の", "ん", "こと"})


def _asks_relevance(tokens: Sequence[Token]) -> bool:
    """The question's predicate asks relevance (「…は関係ない？」「…のせい？」「…が原因？」)."""
    for token in reversed(tokens):
        if token.pos[0] in ("助詞", "助動詞", "補助記号", "空白") or token.lemma in _LIGHT:
            continue
        return token.lemma in _RELEVANCE_HEADS or token.normalized in _RELEVANCE_HEADS
    return False


def _predicate_detail(tokens: Sequence[Token], detail: frozenset[str]) -> bool:
    """A detail that asserts a state, an event, a time or a number: a verb, an adjective,
    a numeral or a time noun (半年, 昨日); not a light verb (「キッチンに置くのが大事？」 asks
    whether the place matters)."""
    return any(
        ((is_content(t) and t.pos[0] in _INFLECTING) or t.pos[1] == "数詞" or t.pos[2] == "副詞可能")
        and token_keys(t) == detail
        for t in tokens
    ) or any(_quantity(tokens, i) == detail for i in range(len(tokens)))


#: Rule phrases (of this many rules or more) that together assert an event no fact states.
_EVENT_PHRASES = 4


def _unconfirmed_event(outcome: NaturalOutcome, tokens: Sequence[Token], book: FactBook) -> bool:
    """A question that asserts an event made only of rule phrases of four rules or more
    (「ヨウムはその音を半年前に覚えた？」), none of whose facts names them all: the phrases
    matter, the event is not stated (the hedge, not はい)."""
    hits = [h for h in outcome.candidates if h.rule.answer in _VERDICTS]
    if len({h.rule.index for h in hits}) < _EVENT_PHRASES or _asks_relevance(tokens):
        return False
    if assertion_polarity(tokens) != "positive" or _denied(outcome, tokens, book) is not outcome:
        return False
    phrases = [fold(h.matched_word) for h in hits]
    return not any(all(p in f.words for p in phrases) for f in book.facts if f.polarity == "positive")


#: A negative fact naming every content word (numbers aside) of a question of at least this many
#: denies it even when one rule phrase fired (「10円玉は旅行から帰ってから乗せたのではない」).
_WHOLE_QUESTION = 4


def _denied(outcome: NaturalOutcome, tokens: Sequence[Token], book: FactBook) -> NaturalOutcome:
    """A question made only of rule phrases (「冬に振り子が伸びる？」) that a written fact
    denies (「冬は振り子が伸びない」), or whose every content word a negative fact names: NO."""
    hit = outcome.hit
    assert hit is not None
    phrases = [fold(h.matched_word) for h in outcome.candidates if h.rule.answer in ("YES", "NO")]
    content = [token_keys(t) for t in tokens if is_content(t) and t.pos[1] != "数詞"]
    whole = len(content) >= _WHOLE_QUESTION
    if len(phrases) < 2 and not whole:
        return outcome
    asked, head = assertion_polarity(tokens), head_keys(tokens)
    if asked == "unclear":
        return outcome
    said, setting = _said(tokens, outcome.candidates), _setting(tokens, book.context)
    for fact in book.facts:
        named = len(phrases) >= 2 or all(k & fact.keys for k in content)
        if named and _denies(fact, asked, head, said, setting) and all(p in fact.words for p in phrases):
            return NaturalOutcome(_replace(hit, "NO", "positive"), f"fact: {fact.text}", outcome.candidates)
    return outcome


def _proper_keys(tokens: Sequence[Token]) -> frozenset[str]:
    """The keys of the question's proper nouns (the statement's people and places: a fact
    about them need not repeat their names)."""
    return frozenset(k for t in tokens if t.pos[1] == "固有名詞" for k in token_keys(t))


def _setting(tokens: Sequence[Token], context: frozenset[str]) -> frozenset[str]:
    """The question's words that are words of the statement."""
    keys: set[str] = set()
    for i, token in enumerate(tokens):
        if is_content(token):
            keys |= (token_keys(token) | _quantity(tokens, i)) & context
    return frozenset(keys)


def _unstated(tokens: Sequence[Token], details: Sequence[frozenset[str]]) -> str:
    words = [t.surface for t in tokens if token_keys(t) in details or (t.lemma in _FORMAL and _FORMAL_DETAIL in details)]
    return "no fact states: " + "、".join(words)


# --------------------------------------------------------------------------- contradicted details


@cache
def _contrast_index() -> dict[str, tuple[tuple[str, int], ...]]:
    """Folded word -> its (group, alternative) places in ``data/judge/contrasts.yaml``."""
    resource = resources.files("sadame") / "data" / "judge" / "contrasts.yaml"
    data = parse_yaml(resource.read_text("utf-8"), "contrasts.yaml")
    assert isinstance(data, dict)
    index: dict[str, list[tuple[str, int]]] = {}
    for group, alternatives in dict(data["groups"]).items():
        for number, words in enumerate(alternatives):
            for word in words:
                for key in {fold(str(word))} | {k for t in analyze(clean(str(word))) for k in token_keys(t)
                                                  if not k.startswith("~") and len(analyze(clean(str(word)))) == 1}:
                    index.setdefault(key, []).append((str(group), number))
    return {key: tuple(places) for key, places in index.items()}


def alternatives_of(keys: frozenset[str]) -> frozenset[tuple[str, int]]:
    """The (contrast group, alternative) places of a word's (or a fact's) keys."""
    index = _contrast_index()
    return frozenset(place for key in keys for place in index.get(key, ()))


def _quantities(tokens: Sequence[Token]) -> frozenset[tuple[str, str]]:
    """(unit, number) of every number with its unit (「999メートル」 -> (めーとる, 999))."""
    return frozenset(
        (fold(tokens[i + 1].normalized), fold(tokens[i].normalized))
        for i in range(len(tokens)) if _counted(tokens, i)
    )


def _contradicting(
    book: FactBook, tokens: Sequence[Token], details: Sequence[frozenset[str]], rules: frozenset[int],
    hits: Sequence[NaturalHit],
) -> Fact | None:
    """A fact that states another alternative of a detail no fact states: the same unit with
    another number (「998メートル」 against 「999メートル」), or another word of the detail's
    contrast group (「朝の5時に鳴る」 against 「夕方5時に鳴る」; 「縮む」 against 「膨らむ」). The fact
    is about one of the question's rules, asserts (not denies) and shares the question's
    predicate or names all its phrases -- so it speaks of the same event. Only a question
    asserting something (not its relevance, not its negation) is answered いいえ this way."""
    if assertion_polarity(tokens) != "positive" or _asks_relevance(tokens):
        return None
    asked = _quantities(tokens)
    phrases = [fold(h.matched_word) for h in hits if h.rule.answer in _VERDICTS]
    head = head_keys(tokens)
    same = [f for f in book.facts if f.rules & rules and (head & f.head or all(p in f.words for p in phrases))]
    stated = frozenset(k for f in same for k in f.keys)  # the detail, said of the same event
    for detail in details:
        if detail & stated:
            continue
        places = alternatives_of(detail)
        units = {unit: number for unit, number in asked if detail & {fold(number + unit)}} if not places else {}
        if not places and not units:
            continue
        for fact in same:
            if fact.polarity != "positive":
                continue
            other = {g for g, n in fact.alternatives if (g, n) not in places and any(g == pg for pg, _ in places)}
            numbers = any(u in units and n != units[u] for u, n in fact.quantities)
            if other or numbers:
                return fact
    return None


_VERDICTS = frozenset({"YES", "NO"})


#: Details the story never uses that make a question's event untold (one alone can be a
#: paraphrase), or one such detail among this many details (a claim of three details or more).
_UNTOLD = 2
_UNTOLD_AMONG = 3
_WRITTEN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff々\u30a1-\u30faA-Za-z]")


def _untold(book: FactBook, tokens: Sequence[Token], details: Sequence[frozenset[str]]) -> list[str]:
    """The surfaces of a question's untold details: words the story never uses -- in neither
    statement, truth, facts nor rule words -- two or more of them, or one among three details or
    more (「友達はけがで入院してる？」: けが, 入院). The story is the whole truth, so that event did
    not happen (いいえ). Only words as written (:func:`_written`: kana may be a fragment the
    analyzer cut from a word typed in kana), no adverbial noun (以外, 中), in a question with a
    verb (an event: an attribute the story leaves out is not denied by it), never a negated one;
    a relevance question about an untold event (「…ハイフンが入ってるせい？」) is answered いいえ
    too: what did not happen is not the cause. One such word among fewer than three details keeps the hedge:
    alone, one word is too often a paraphrase (「混線」 for 混信)."""
    if len(details) < _UNTOLD or assertion_polarity(tokens) != "positive":
        return []
    absent = [d for d in details if not d & book.story]
    if len(absent) < _UNTOLD and not (absent and len(details) >= _UNTOLD_AMONG):
        return []
    if not any(t.pos[0] == "動詞" for t in tokens):
        return []  # 「そのMacは会社の支給品？」 asks an attribute the story may leave out, not an event
    places = [i for i, t in enumerate(tokens) if token_keys(t) in absent]
    if len(absent) < _UNTOLD and any(tokens[i].pos[0] in ("形容詞", "形状詞") for i in places):
        return []  # 「チャイムは大きい音で鳴る？」: one untold manner of a told event is no denial
    in_kana = not any(_WRITTEN.search(t.surface) for t in tokens)
    if not places or any(tokens[i].pos[2] == "副詞可能" or not _written(tokens, i, in_kana) for i in places):
        return []
    return [tokens[i].surface for i in places]


def _written(tokens: Sequence[Token], i: int, in_kana: bool) -> bool:
    """A word as written, not a fragment the analyzer cut from kana: kanji, katakana or latin, or
    a kana word of two kana or more, between grammar or other scripts, in a question that also
    has kanji (「けがで入院」; not 「だく|てんが」, a kana run cut in two)."""
    token = tokens[i]
    if _WRITTEN.search(token.surface):
        return True
    if in_kana or len(token.surface) < _MIN_HEAD:
        return False
    neighbours = [tokens[j] for j in (i - 1, i + 1) if 0 <= j < len(tokens)]
    return not any(is_content(t) and _is_hiragana(t.surface) for t in neighbours)


def _denying_clause(
    book: FactBook, tokens: Sequence[Token], details: Sequence[frozenset[str]], rules: frozenset[int]
) -> Fact | None:
    """A fact about one of the question's rules that denies, in a clause of its own, every
    detail the question asserts (「新しく書いたビルドスクリプトのバグ？」 against 「ビルドのスクリプトは
    新しく書いたものではなく古い」): いいえ."""
    if not details or assertion_polarity(tokens) != "positive" or _asks_relevance(tokens):
        return None
    for fact in book.facts:
        if fact.denied and fact.rules & rules and all(d & fact.denied for d in details):
            return fact
    return None
