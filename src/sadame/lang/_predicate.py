"""Reading a finding by its final predicate: what it says of its subject, and how that changed.

A Japanese clause ends in its predicate, and the auxiliaries after the predicate say how it is
meant: negated (ない, ず), hedged (〜とは言えない, 〜わけではない, 〜とまではいかない), changed
(〜なった, 〜てきた, 〜ようになった), excessive (〜すぎる, 〜てしまう). So a clause is read from the
end: the auxiliary chain is peeled off, what is left is the **head**, and the head's polarity
comes from the polarity lexicon (``data/lang/polarity-ja.yaml``), often through its **subject**
(the noun before が/は/も):

* a state (美しい, 雑), a problem verb (崩れる, 遅刻する), a word of progress (改善, 上達, 前進);
* a decrease (減った, 収まった, 取れた) is progress of a problem or of anything neutral, and a
  problem of a quality (可読性が下がった); an increase (増えた, 目立つ) the other way round;
* being there (ある, 見られる, 出てきた) is as good as its subject: 迷いがない, 力みが見られなく
  なった are progress, 自信がない is a problem;
* a scalar adjective (少ない, 短い, 大きい) is good or bad by its subject (ミスが少ない) or,
  said of a neutral subject, by a comparison with the past (前回に比べて保留時間が短くなった);
* 〜ようになった of anything but a problem verb is progress (目を合わせられるようになった).

A negation flips the polarity (a negated neutral predicate is a problem: 音がそろわない, unless
its subject is a problem: 余計な力が入っていない). A positive reading with a change (なった,
てきた, a decrease, a word of progress) or a comparison (前回より, 以前と比べて, 引き続き) is an
improvement; a coordinate clause (〜で、〜) that reads as a problem makes the finding one.

>>> read_clause_text("キックの無駄な力みが取れてきた")
'better'
>>> read_clause_text("手際が良いとは言えない")
'problem'
>>> read_clause_text("暗譜が完璧で、最後まで迷いがない")
'praise'
>>> read_clause_text("前回より話が長くなった")
'problem'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from sadame.lang._analyzer import Token, analyze
from sadame.lang._lexicon import Lexicon, lexicon
from sadame.lang._polarity import is_negator

__all__ = ["Reading", "eases_an_excess", "ends_can_now", "fault_act_not_seen", "former_fault_not_seen",
           "is_manner_negation", "manner_then_better", "progress_then_result", "read_clause", "read_clause_text",
           "read_clauses", "unjudged_consequence"]

Reading = Literal["better", "praise", "problem"] | None

_AUX_AFTER_TE = frozenset({"いる", "居る", "くる", "来る", "しまう", "仕舞う", "いく", "行く", "おる", "おく", "置く",
                           "みる", "見る", "ある", "有る", "ちゃう"})
_HEDGE_VERBS = frozenset({"言う", "いう", "言える", "いえる", "いく", "行く", "見える", "思う", "思える", "呼ぶ",
                          "呼べる", "至る"})
_CHAIN_PARTICLES = frozenset({"て", "で", "は", "も", "まで", "と", "に", "じゃ", "では", "ほど", "くらい", "ぐらい",
                              "つつ", "きり", "切り"})
_SUBJECT_PARTICLES = frozenset({"が", "は", "も"})
_FINAL_SKIP = frozenset({"終助詞", "補助記号", "空白"})
_EVIDENTIAL = frozenset({"見える", "思える", "感じる", "感じられる", "聞こえる", "映る"})
_CONTINUING = frozenset({"引き続き", "相変わらず", "変わらず", "依然として"})
#: Adverbs of "still not there": with a neutral or bad predicate the clause is a problem.
#: Time nouns that set a scope (今回は), never a subject.
_NOW_WORDS = frozenset({"今回", "今日", "本日", "今", "最近", "今週", "今月", "前回", "以前", "当初", "最初"})
#: Verbs of leaving: said of a problem (癖が抜ける, 力みが外れる) they say it went away.
_LEAVE = frozenset({"抜ける", "外れる", "落ちる", "取れる"})
_STILL = frozenset({"まだ", "未だ", "依然", "いまだに", "未だに"})
#: What a performance is filled with (気持ちがこもる): こもる of them is good, of a sound a fault.
_FEELINGS = frozenset({"気持ち", "心", "思い", "想い", "感情", "熱", "熱意", "気合", "気合い", "魂", "情感", "力", "実感"})
#: Verbs of a body moving (肩が上がる, 膝が伸びる, 上体が起き上がる): a posture, not a change for the better.
_POSTURE = frozenset({"上がる", "下がる", "落ちる", "伸びる", "起き上がる", "開く", "浮く", "沈む", "曲がる"})
#: Prefixes that negate what follows (不揃い, 非効率, 無表情, 未完成).
_NEGATING_PREFIXES = frozenset({"不", "非", "無", "未"})
#: Verbs of perceiving or handling: 〜にくくなった of them is harder to read, see, use.
_PERCEIVE = frozenset({"読む", "見る", "聞く", "分かる", "わかる", "聞き取る", "扱う", "使う", "書く", "話す", "言う",
                       "理解", "見える", "聞こえる", "覚える", "気付く", "気づく"})
#: Verbs of knowing or perceiving as an ability: 〜なくなった of them is a loss (分からなくなった).
_KNOW = frozenset({"分かる", "わかる", "判る", "見える", "聞こえる", "気付く", "気づく", "理解", "把握", "思い出す"})
#: Intransitive verbs Sudachi keeps whole (取れる: come off) that, with an object in を, can only be the
#: potential of the transitive verb (写真を撮れる, 薪を割れる, 札を5枚抜けており); not 向ける / 続ける
#: (transitive). 抜ける of a path (トンネルを抜ける) reads as "can" too: a neutral statement a coach seldom
#: makes, while 札を抜けた / 肩の力を抜けている are what 抜ける with を means in a finding.
_OBJECT_POTENTIAL = frozenset({"取れる", "撮れる", "抜ける", "切れる", "焼ける", "割れる", "折れる", "売れる", "釣れる", "破れる"})
#: Adverbs of "even more" (さらに分かりやすくなった): a good former state, then more of it.
_FURTHER = frozenset({"さらに", "更に", "一層", "いっそう", "より一層", "ますます", "一段と"})
#: Verbs of showing: their potential with a fault as object is pointing it out (誤りを示せる).
_POINT_OUT = frozenset({"示す", "見せる", "指摘"})
#: Verbs of coming near: 〜に近づく is as good as what it comes near.
_APPROACH = frozenset({"近づく", "近付く", "迫る"})
#: Verbs of fading: of a fault they are progress (癖が弱まった), of anything else a loss (香りが薄れた).
_FADE = frozenset({"薄れる", "薄まる", "弱まる"})
#: Counts of one: 一つも / 一度も … ない is "not even one" (何も出てこなかった is not).
_NOT_ONE = frozenset({"一つ", "ひとつ", "一度", "一回", "一件", "一箇所", "一か所", "一本", "一切"})
#: Verbs of an amount changing: in 〜ている too they tell a change.
_AMOUNT = frozenset({"減る", "減少", "増える", "増加", "増す", "縮まる", "短縮", "薄れる", "和らぐ"})
#: Nouns of an occasion (意見を求める場面, 話す機会): that it never came is no fault gone.
_OCCASIONS = frozenset({"場面", "機会", "こと", "事", "時", "瞬間", "シーン", "場", "チャンス"})
#: Increase verbs that say a fault shows (目立つ, 多発): of a neutral subject, a problem.
_SHOWS = frozenset({"目立つ", "多発", "頻発", "急増"})
#: Words that mark a change as a fault (太りがち, 遅れ気味, 一向に, ばかり, 水っぽくなった, 時間切れ寸前).
_FAULT_MARKS = frozenset({"がち", "気味", "ぎみ", "一向", "ばかり", "余計", "かえって", "却って", "逆に", "っぽい",
                          "くさい", "臭い", "寸前", "直前", "ぎりぎり", "ギリギリ", "危うく"})
#: Verbs that frame an opinion (〜と思う, 〜と感じる); negated they are hedges (〜とは思えない).
#: How many tokens before a noun its relative clause is read from (each nested one is shorter).
_RELATIVE_WINDOW = 24
_OPINION = frozenset({"思う", "感じる", "考える", "見る", "言える"})
#: 今回は / 今日は: a topic that contrasts this session with the earlier ones.
_THIS_TIME = frozenset({"今回", "今日", "本日", "今週", "今月"})
#: Past words that say "since then" with から (前回から一度も起きていない); not 最初から.
_SINCE = frozenset({"前回", "前々回", "先週", "先月", "以前", "昨年", "去年", "前年", "これまで"})
#: 一度も, 一回も: "not even once", never a subject.
_ONCE = frozenset({"一度", "一回", "一つ", "ひとつ", "一切", "何", "誰", "一人", "一本", "一箇所", "一か所"})
#: Verbs of settling into a good state: in the continuative (呼吸が整い、) they tell a change.
_SETTLE = frozenset({"変わる", "整う", "落ち着く", "揃う", "そろう", "まとまる", "定まる", "締まる", "安定", "早まる",
                     "深まる", "改善", "向上", "解消"})
#: Directions: 後ろに, 内側へ make a movement of what follows, not a success.
_DIRECTIONS = frozenset({"後ろ", "前", "上", "下", "横", "内側", "外側", "手前", "奥", "左", "右"})
#: Two-way directions (左右に振れる, 上下に揺れる): what moves that way sways, it does not "can".
_SWAYS = frozenset({"左右", "上下", "前後"})
#: Stems of a problem verb that name a movement (打球後の戻り: the recovery), not a problem.
_NOT_STEMS = frozenset({"戻り"})
#: 速くなった / 早くなった of an action is progress (切り替えが速くなった); of a pace it is not.
#: Verbs of removing: as good as their object is bad (不要な葉を落とす, 無駄を省く); of anything else they
#: are read as usual (ボールを落とす, 確認を省く).
_REMOVE = frozenset({"落とす", "省く", "捨てる"})
#: Verbs of haste whose 〜て is a bad manner (慌てて, 焦って).
_HASTE = frozenset({"慌てる", "焦る", "急ぐ"})
_QUICK = frozenset({"速い", "早い", "素早い"})
_PACE = ("スピード", "テンポ", "ペース", "速度", "速さ", "話し方", "口調", "呼吸", "息", "リズム", "拍", "展開", "語尾")
_U_ROW, _E_ROW, _I_ROW = "うくぐすつぬぶむる", "えけげせてねべめれ", "いきぎしちにびみり"


@dataclass
class _Chain:
    """What the auxiliaries after the head say."""

    negations: int = 0
    became: bool = False
    came: bool = False
    habit: bool = False
    excess: bool = False
    ease: int = 0
    progressive: bool = False
    past: bool = False
    #: 〜そうに見える, 〜ように聞こえる: how it looks, the head is before
    evidential: bool = False
    #: negated, then なる: 〜なくなった (no longer)
    no_longer: bool = False
    #: 〜られる after the head (始められている): passive or "can"
    rareru: bool = False
    #: 〜すぎず / 〜すぎない: "not too much", no excess
    not_too: bool = False


def _lemma_in(token: Token, words: frozenset[str]) -> bool:
    return token.lemma in words or token.normalized in words or token.surface in words


def _potential(token: Token, quoted: bool = False) -> bool:
    """A godan verb's potential form (話せる, 握れる, 出せる: Sudachi normalizes it to 話す): "can do";
    not 思える, nor 言える after a quotation (``quoted``: 〜と言える)."""
    lemma, base = token.lemma, token.normalized
    if token.pos[0] != "動詞" or len(lemma) != len(base) + 1 or not base or lemma[:-2] != base[:-1]:
        return False
    row = _U_ROW.find(base[-1])
    hedge = lemma in _EVIDENTIAL or ((lemma in _HEDGE_VERBS or base in _HEDGE_VERBS) and (quoted or base != "言う"))
    return row >= 0 and lemma.endswith(_E_ROW[row] + "る") and not hedge


def _can_form(token: Token) -> bool:
    """A verb that says "can" (a potential form, or one Sudachi keeps whole: 弾ける beside 弾く)."""
    if _potential(token):
        return True
    lemma = token.lemma
    row = _E_ROW.find(lemma[-2]) if len(lemma) >= 3 and lemma.endswith("る") else -1
    if token.pos[0] != "動詞" or row < 0 or lemma != token.normalized:
        return False
    base, whole = analyze(lemma[:-2] + _U_ROW[row]), analyze(lemma)
    said = len(whole) == 1 and whole[0].reading[:-2] == base[0].reading[:-1] if base else False  # not 逸れる (それる) beside 逸る (はやる)
    return len(base) == 1 and base[0].pos[0] == "動詞" and base[0].lemma == lemma[:-2] + _U_ROW[row] \
        and base[0].pos[4].startswith("五段") and said  # not 流る (classical) beside 流れる


def _problem_stem(token: Token, lex: Lexicon) -> bool:
    """A noun that is the stem of a problem verb (途切れ, 淀み, 詰まり): a problem noun."""
    word = token.surface
    if token.pos[0] != "名詞" or len(word) < 2:
        return False
    row = _I_ROW.find(word[-1])
    if word in _NOT_STEMS:
        return False
    return word + "る" in lex.problem_verbs or (row >= 0 and word[:-1] + _U_ROW[row] in lex.problem_verbs)


def _after_te(tokens: Sequence[Token], j: int) -> bool:
    return j >= 1 and tokens[j - 1].surface in ("て", "で") and tokens[j - 1].pos[0] in ("助詞", "助動詞")


def _is_hedge(tokens: Sequence[Token], j: int, chain: _Chain) -> bool:
    """``tokens[j]`` is the 言う of 〜とは言えない / 〜ようには見えない / 〜とまではいかない."""
    if not (_lemma_in(tokens[j], _HEDGE_VERBS) and chain.negations):
        return False
    k = j - 1
    while k >= 0 and tokens[k].surface in ("は", "も", "まで"):
        k -= 1
    return k >= 0 and tokens[k].surface in ("と", "に", "とは")


def _peel_one(tokens: Sequence[Token], j: int, chain: _Chain) -> bool:
    """Peel ``tokens[j]`` off the auxiliary chain (True) or say it is the head (False)."""
    t = tokens[j]
    kind = t.pos[0]
    if kind == "助動詞":
        negator = is_negator(t)
        chain.negations += negator
        chain.no_longer |= negator and chain.became
        chain.past |= t.lemma == "た"
        chain.rareru |= t.lemma == "られる"
        return True
    if kind == "形容詞" and t.pos[1] == "非自立可能" and t.lemma in ("ない", "無い"):
        if j >= 1 and tokens[j - 1].surface in _SUBJECT_PARTICLES | {"の"} and tokens[j - 1].pos[0] == "助詞":
            chain.negations += 1
            chain.no_longer |= chain.became
            return False  # 迷いがない: the head is "there is none"
        chain.negations += 1
        chain.no_longer |= chain.became
        return True
    if kind == "助詞" and (t.surface in _CHAIN_PARTICLES or t.pos[1] == "終助詞"):
        return True
    if kind == "接尾辞":
        if t.normalized == "難い" and j >= 1 and _lemma_in(tokens[j - 1], _HEDGE_VERBS):
            chain.negations += 1
            return True
        chain.excess |= t.lemma in ("すぎる", "過ぎる", "がち", "気味", "ぎみ")  # 叩きがちだった: a tendency to a fault
        chain.ease = 1 if t.lemma == "やすい" else -1 if t.normalized in ("難い", "辛い") or t.lemma == "づらい" else 0
        return t.pos[1] != "名詞的"
    return _peel_verb(tokens, j, chain)


def _peel_verb(tokens: Sequence[Token], j: int, chain: _Chain) -> bool:
    t = tokens[j]
    if t.lemma in ("なる", "成る") and t.pos[1] == "非自立可能" and j >= 1:
        chain.became = True
        return True
    if t.lemma in ("すぎる", "過ぎる") and t.pos[0] == "動詞":
        chain.excess = True
        chain.not_too |= chain.negations % 2 == 1  # 深くなりすぎず: the negation is after すぎる
        return True
    if t.lemma in ("ある", "有る") and j >= 1 and tokens[j - 1].surface == "つつ":
        chain.came = True  # 解消されつつある: under way
        return True
    if t.lemma in _AUX_AFTER_TE and _after_te(tokens, j):
        chain.came |= t.lemma in ("くる", "来る")
        chain.progressive |= t.lemma in ("いる", "居る")
        chain.excess |= t.lemma in ("しまう", "仕舞う", "ちゃう")
        return True
    if t.lemma in _EVIDENTIAL and j >= 2 and tokens[j - 1].lemma == "だ" and tokens[j - 2].lemma in ("そう", "よう"):
        chain.evidential = True
        return True
    if t.lemma == "そう" and t.pos[1] == "助動詞語幹":
        return True  # 苦しそうになった, なさそうに見える
    if t.lemma == "よう" and t.pos[1] == "助動詞語幹" and j >= 1 and tokens[j - 1].lemma == "た" \
            and j + 1 < len(tokens) and tokens[j + 1].lemma == "だ":
        return True  # 分からなくなったようで: "it seems", the clause before is what is said
    verb_before = j >= 1 and tokens[j - 1].pos[0] in ("動詞", "助動詞")  # 言えるようになった, not 三連符のようになる
    if t.lemma == "よう" and ((chain.became and verb_before) or chain.evidential):
        chain.habit = not chain.evidential
        return True
    if t.lemma in ("わけ", "訳") and chain.negations:
        return True
    if t.lemma in _OPINION and not chain.negations and j >= 2 and tokens[j - 1].surface == "と":
        return True  # 安定してきたと思います: the opinion frames the clause before と
    return _is_hedge(tokens, j, chain)


def _head(tokens: Sequence[Token]) -> tuple[int, _Chain] | None:
    j = len(tokens) - 1
    while j >= 0 and tokens[j].pos[0] in _FINAL_SKIP:
        j -= 1
    chain = _Chain()
    while j >= 0 and _peel_one(tokens, j, chain):
        j -= 1
    if j < 0:
        return None
    if tokens[j].lemma in ("ある", "有る") and j >= 2 and tokens[j - 1].surface == "に" and tokens[j - 2].lemma == "傾向":
        j -= 2  # 改善傾向にある: the trend is the head
    if tokens[j].lemma == "傾向" and j >= 1 and tokens[j - 1].pos[0] == "名詞":
        j -= 1  # 減少傾向: a trend of a decrease
        chain.came = True
    t = tokens[j]
    if t.lemma in ("する", "為る") and j >= 1 and tokens[j - 1].pos[0] in ("名詞", "副詞", "形状詞"):
        j -= 1  # 改善した, 遅刻する, はっきりしている: the noun is the head
    elif t.lemma in ("できる", "出来る") and j >= 1 and _lemma_in(tokens[j - 1], lexicon().better_words):
        j -= 1  # 克服できている: the word of progress is the head
    return j, chain


def _ends_in(text: str, words: frozenset[str]) -> bool:
    """``text`` ends in one of ``words`` of two characters or more: a set lookup per suffix of
    ``text`` (as many as its length), not an ``endswith`` per word of the list."""
    return any(text[i:] in words for i in range(len(text) - 1))


def _in_words(token: Token, words: frozenset[str]) -> bool:
    return _lemma_in(token, words) or _ends_in(token.surface, words)


def _noun_polarity(tokens: Sequence[Token], lex: Lexicon, negative: Sequence[str]) -> int:
    text = "".join(t.surface for t in tokens)
    if any(_in_words(t, lex.problem_nouns) or _lemma_in(t, lex.negative_states) or t.lemma in ("にくい", "づらい")
           or _problem_stem(t, lex) for t in tokens) or any(w in text for w in negative) \
            or _ends_in(text, lex.problem_nouns) \
            or (text.endswith(lex.problem_suffixes) and len(text) >= 2):
        return -1
    last = tokens[-1] if tokens else None
    if last is None:
        return 0
    quality = (last.surface.endswith(lex.quality_suffixes) or text.endswith(lex.quality_suffixes)) \
        and len(text) >= 2 and last.lemma != "力み"  # 正答 + 率: a suffix over two tokens
    return 1 if quality or any(_lemma_in(t, lex.positive_nouns) or _lemma_in(t, lex.positive_states)
                               for t in tokens) else 0


def _count_polarity(tokens: Sequence[Token], start: int, lex: Lexicon, negative: Sequence[str]) -> int:
    """A count (回数, 量) is as good or bad as what it counts (ミスの回数, 発言の回数)."""
    if start >= 2 and tokens[start - 1].surface == "の":
        begin = start - 1
        while begin > 0 and tokens[begin - 1].pos[0] in ("名詞", "接頭辞", "接尾辞", "感動詞"):
            begin -= 1
        if begin < start - 1:
            return _noun_polarity(tokens[begin : start - 1], lex, negative)
    return 0


def _subject(tokens: Sequence[Token], head: int, lex: Lexicon, negative: Sequence[str]) -> int:
    """The polarity of the subject of the head: the noun before the last が/は/も before it
    (before を for a verb that acts on its object: ミスを減らせた, 誤解を招く)."""
    passive = head + 1 < len(tokens) and tokens[head + 1].lemma in ("られる", "れる")  # 癖が抑えられ
    acts = (_lemma_in(tokens[head], lex.decrease_transitive | lex.cause_verbs) or tokens[head].lemma in _REMOVE) \
        and not passive
    particles = frozenset({"を"}) if acts else _SUBJECT_PARTICLES
    if tokens[head].lemma in ("する", "為る") and head >= 2 and tokens[head - 1].surface in ("を", "は", "も"):
        particles = frozenset({tokens[head - 1].surface})  # ミスをする, 読み上げることはしなくなった: the object
    elif tokens[head].lemma in _APPROACH and head >= 2 and tokens[head - 1].surface == "に":
        particles = frozenset({"に"})  # 一方的な講義に近づいている: as good as what it comes near
    elif (tokens[head].lemma in ("ない", "無い") or tokens[head].pos[0] == "形容詞") and head >= 2 \
            and tokens[head - 1].surface == "の":  # 再現性の高いフォーム: the の of a relative clause's subject
        particles = frozenset({"の"})  # ムラのない塗り, 迷いのない: の marks the subject in a relative clause
    k = head
    while True:
        k -= 1
        while k >= 0 and not (tokens[k].surface in particles and tokens[k].pos[0] == "助詞"):
            k -= 1
        if k < 1:
            return 0
        end, start = k, k
        while start > 0 and tokens[start - 1].pos[0] in ("名詞", "接頭辞", "接尾辞", "感動詞", "代名詞"):
            start -= 1
        scope = tokens[k - 1].pos[0] == "助詞" and particles is _SUBJECT_PARTICLES  # 今回のコードでは
        once = tokens[k].surface == "も" and (any(x.pos[1] == "数詞" for x in tokens[start:end])
                                              or tokens[end - 1].surface in _ONCE)
        if not (scope or once or (end - start == 1 and tokens[start].surface in _NOW_WORDS)):
            break  # 癖は今回は見られなかった: the subject is 癖, not 今回
    if tokens[start].pos[0] == "接尾辞" and tokens[start].surface in ("さ", "み") and start >= 1 \
            and tokens[start - 1].pos[0] in ("形容詞", "形状詞"):
        start -= 1  # 美しさ, 弱さ: as good or bad as the adjective
    if tokens[end - 1].surface.endswith(tuple(lex.count_nouns)):  # ミスの頻度: what it counts, first
        counted = _count_polarity(tokens, start, lex, negative)
        if counted:
            return counted
    polarity = _noun_polarity(tokens[start:end], lex, negative) or _examples(tokens, start, lex, negative)
    if not polarity and start >= 2 and tokens[start - 1].surface == "の" and tokens[start - 2].surface == "まで":
        return -1  # 返信までの時間, 電話に出るまでのコール数: how long it takes, the less the better
    if not polarity and start >= 1 and tokens[start - 1].pos[0] == "動詞":  # 待ち時間: a verb stem in the compound
        polarity = min(0, _noun_polarity(tokens[start - 1 : end], lex, negative))
    room = _lemma_in(tokens[end - 1], lex.room_nouns)
    if (not polarity or room) and start >= 1 and _adnominal(tokens[start - 1]):
        return _relative(tokens[:start], negative)  # 集中が続く時間, 口を挟む隙
    if polarity or start == 0:
        return polarity
    before = tokens[start - 1]
    modifier = tokens[start - 2] if before.lemma == "だ" and start >= 2 else before
    if _lemma_in(modifier, lex.negative_modifiers | lex.negative_states | lex.problem_verbs):
        return -1  # 無駄な力み, 焦がすこと, 遮ること
    if before.surface == "の" and start >= 2 and tokens[start - 2].lemma in ("気味", "ぎみ", "がち"):
        return -1  # 圧迫気味の口調, 遅れがちの入り: a tendency to a fault
    return 0


def _examples(tokens: Sequence[Token], start: int, lex: Lexicon, negative: Sequence[str]) -> int:
    """A noun introduced by its examples (えー・あのーといった言葉のつなぎ, ミスなどの失点, 遅刻のような
    問題) is as good or bad as they are; the noun may carry one 〜の modifier (言葉の).
    0 when there are no examples."""
    j = start
    if j >= 2 and tokens[j - 1].surface == "の":  # 言葉のつなぎ: skip the modifier
        m = j - 1
        while m > 0 and tokens[m - 1].pos[0] in ("名詞", "接頭辞", "接尾辞"):
            m -= 1
        j = m if m < start - 1 else j
    before = [x.lemma for x in tokens[max(0, j - 3) : j]]
    if before[-2:] == ["いう", "た"] or before[-1:] == ["いう"]:  # 〜といった, 〜という
        j -= len(before) - before.index("いう")
        if j < 1 or (tokens[j - 1].surface != "と" and tokens[j - 1].pos[0] != "感動詞"):
            return 0
        j -= tokens[j - 1].surface == "と"  # Sudachi reads えーと + いった: the filler took the と
    elif before[-2:] == ["など", "の"]:
        j -= 2
    elif before[-2:] in (["よう", "だ"], ["みたい", "だ"]):  # 〜のような, 〜みたいな
        j -= 2 + (j >= 3 and tokens[j - 3].surface == "の")
    else:
        return 0
    begin = j
    while begin > 0 and tokens[begin - 1].pos[0] in ("名詞", "接頭辞", "接尾辞", "感動詞"):
        begin -= 1
    return _noun_polarity(tokens[begin:j], lex, negative) if begin < j else 0


def _adnominal(token: Token) -> bool:
    """``token`` can end a relative clause before a noun (続く, 多い, た, 書きやすい's やすい)."""
    return token.pos[0] in ("動詞", "形容詞", "助動詞") or (token.pos[0] == "接尾辞" and token.pos[1] == "形容詞的")


def _relative_reading(tokens: Sequence[Token], negative: Sequence[str]) -> Reading:
    """The reading of a relative clause that ends just before its noun, from its last
    :data:`_RELATIVE_WINDOW` tokens (a relative clause is short; the window bounds the nesting)."""
    return read_clause(tokens[-_RELATIVE_WINDOW:], negative)


def _relative(tokens: Sequence[Token], negative: Sequence[str]) -> int:
    """The polarity of a relative clause that ends just before its noun (粘り強く考える時間: good)."""
    reading = _relative_reading(tokens, negative)
    return 1 if reading in ("better", "praise") else -1 if reading == "problem" else 0


def _scalar(token: Token, subject: int, lex: Lexicon) -> int | None:
    for words, sign in ((lex.scalar_less, -1), (lex.scalar_more, 1)):
        default = words.get(token.lemma)
        if default is not None:
            return sign * subject if subject else default
    return None


def _object_of(tokens: Sequence[Token], head: int) -> bool:
    """The head has its own object (準備を早めに始められている; not 手元を見る癖は…見られなかった)."""
    for x in reversed(tokens[:head]):
        if x.pos[0] == "助詞" and x.surface in _SUBJECT_PARTICLES:
            return False
        if x.pos[0] == "助詞" and x.surface == "を":
            return True
    return False


def _success(tokens: Sequence[Token], head: int, lex: Lexicon) -> bool:
    """The head says something works (声が通る, サーブが入る), not a movement (膝が内側に入る)."""
    if not _lemma_in(tokens[head], lex.success_verbs):
        return False
    directed = head >= 2 and tokens[head - 1].surface in ("に", "へ") and tokens[head].lemma in ("入る", "出る")
    return not directed


def _excess_before(tokens: Sequence[Token], head: int, chain: _Chain, lex: Lexicon) -> bool:
    """〜すぎて before the head (長すぎて), or 〜あまり (丁寧に説明しようとするあまり, 緊張のあまり: what
    follows is what the excess led to): not 押しすぎることがなくなった, nor 付けすぎて滑ることが
    なくなった, where the excess is part of the fault that is gone."""
    return any(((t.lemma in ("すぎる", "過ぎる") and tokens[i + 1].surface in ("て", "で")) or _too_much(tokens, i))
               and not _fault_gone(tokens, i + 2, head, chain, lex) for i, t in enumerate(tokens[:-1]))


def _too_much(tokens: Sequence[Token], i: int) -> bool:
    """``tokens[i + 1]`` is the あまり of 「〜するあまり」 / 「〜のあまり」 (so much that), not the adverb
    of あまり〜ない (ミスがあまり見られない): it follows a verb in its plain form or a noun + の."""
    nxt = tokens[i + 1]
    if nxt.lemma not in ("あまり", "余り") or i + 2 >= len(tokens):
        return False
    t = tokens[i]
    verb = (t.pos[0] in ("動詞", "助動詞") and t.surface in (t.lemma, "た", "だ") and t.pos[1] != "非自立可能") or (
        t.lemma in ("する", "為る") and t.surface == "する")
    noun = t.surface == "の" and t.pos[0] == "助詞" and i >= 1 and tokens[i - 1].pos[0] == "名詞"
    return (verb or noun) and tokens[i + 2].pos[0] in ("空白", "補助記号", "名詞", "代名詞", "接頭辞")


def _fault_gone(tokens: Sequence[Token], start: int, head: int, chain: _Chain, lex: Lexicon) -> bool:
    """An occasion or a fault (こと, 場面, 失敗, 癖) is the subject after ``start`` and the head says it
    is gone (なくなった, 見られなかった, 減った, 少なくなった, 改善された): what comes before it is inside the subject
    (付けすぎて滑ることが|なくなった), not a clause of its own; not 入れすぎて甘みがなくなった."""
    word = tokens[head]
    gone = chain.negations % 2 == 1 or word.lemma in ("なくなる", "無くなる", "減る", "減少") or (
        _lemma_in(word, lex.better_words) and not chain.negations) or (
        word.lemma == "少ない" and chain.became and not chain.negations)  # 癖が改善され, ことが少なくなった
    return gone and any(n.surface in _SUBJECT_PARTICLES and n.pos[0] == "助詞"
                        and (t.lemma in _OCCASIONS | {"の"} or _in_words(t, lex.problem_nouns))
                        for t, n in pairwise(tokens[start:head]))


def _not_only(tokens: Sequence[Token]) -> bool:
    """〜だけでなく / 〜ばかりではなく / 〜のみならず: "not only", which adds and judges nothing."""
    words = [t.surface for t in tokens if t.pos[0] not in _FINAL_SKIP]
    return len(words) >= 3 and (words[-3:] in (["だけ", "で", "なく"], ["ばかり", "で", "なく"], ["のみ", "なら", "ず"])
                                or words[-4:] in (["だけ", "で", "は", "なく"], ["ばかり", "で", "は", "なく"]))


def _no_more(tokens: Sequence[Token], head: int) -> bool:
    """もう before the head: 「もう〜ない」 says "no longer" (not もう少し, もう一度)."""
    return any(t.surface == "もう" and (i + 1 >= head or tokens[i + 1].surface not in ("少し", "ちょっと", "一度", "一歩",
                                                                                     "一つ", "少々"))
               for i, t in enumerate(tokens[:head]))


def _idiom_polarity(tokens: Sequence[Token], head: int, chain: _Chain, subject: int,
                    lex: Lexicon) -> tuple[int, bool] | None:
    """Heads read as a whole phrase: ない of its subject, 身につく, 〜が習慣になる, さまになる, 気になる,
    〜がる of a feeling; None for any other head."""
    t = tokens[head]
    if t.lemma in ("ない", "無い") and t.pos[0] == "形容詞":
        return subject, _no_more(tokens, head)
    if t.lemma in ("付く", "つく") and head >= 2 and tokens[head - 1].surface == "に" \
            and tokens[head - 2].surface in ("身", "板", "様"):
        return 1, True  # 身についてきた, 板についてきた
    if t.pos[0] == "名詞" and chain.became and _lemma_in(t, lex.positive_nouns):
        return 1, True  # 〜することが習慣になってきた
    if t.surface in ("様", "さま", "サマ") and chain.became:
        return 1, True  # 構えがさまになってきた
    if t.normalized == "籠もる" and head >= 2 and tokens[head - 1].surface in _SUBJECT_PARTICLES | {"の"} \
            and tokens[head - 2].lemma in _FEELINGS:
        return 1, False  # 気持ちがこもっている: feeling put in, not a muffled sound (音がこもる)
    if t.surface == "気" and chain.became:
        return -1, False  # 気になる: it bothers; 気にならなくなった is progress
    if t.pos[0] == "形容詞" and head + 1 < len(tokens) and tokens[head + 1].lemma == "がる" \
            and not _lemma_in(t, lex.positive_states):
        return -1, False  # 怖がる, 嫌がる, 恥ずかしがる: shows a feeling in the way (怖がらなくなった: gone)
    return None


def _ease_polarity(tokens: Sequence[Token], head: int, chain: _Chain, subject: int,
                   lex: Lexicon) -> tuple[int, bool]:
    """〜やすい / 〜にくい: as good as the verb, turned round for a problem verb; 〜にくくなった of
    what happens to its subject is progress (息が上がりにくくなった, 焼きムラが出にくくなった)."""
    t = tokens[head]
    bad = _lemma_in(t, lex.problem_verbs) or (t.pos[0] == "名詞" and (
        _lemma_in(t, lex.problem_nouns) or _problem_stem(t, lex) or _fault_compound(t, lex)))  # 空回りしやすい
    lost = _lemma_in(t, lex.decrease_verbs) and subject > 0  # 集中が切れにくくなった
    lost |= _lemma_in(t, lex.existence_verbs | lex.event_verbs) and subject < 0  # 焼きムラが出にくくなった
    if chain.ease < 0 and chain.became and not bad and (lost or _happens_to_subject(tokens, head, lex)):
        return 1, True  # what now happens less is what should not
    lost |= _lemma_in(t, lex.cause_verbs) and subject < 0  # 誤解を招きやすい
    return (-chain.ease if bad or lost else chain.ease), False  # ムラが出やすい, 誤解が起きにくい


def _fault_compound(token: Token, lex: Lexicon) -> bool:
    """A compound noun ending in the stem of a problem verb (音割れ: 割れる, 手ぶれ: ぶれる), which
    Sudachi keeps whole: + する, it is that fault happening (音割れしにくくなった)."""
    word = token.surface
    if token.pos[0] != "名詞" or len(word) < 3:
        return False
    for tail in (word[-2:], word[-3:]):
        row = _I_ROW.find(tail[-1])
        if tail not in _NOT_STEMS and (tail + "る" in lex.problem_verbs or (
                row >= 0 and tail[:-1] + _U_ROW[row] in lex.problem_verbs)):
            return True
    return False


def _polarity(tokens: Sequence[Token], head: int, chain: _Chain, subject: int, lex: Lexicon) -> tuple[int, bool]:
    """The head's polarity before negation, and whether the head itself says a change."""
    t = tokens[head]
    idiom = _idiom_polarity(tokens, head, chain, subject, lex)
    if idiom is not None:
        return idiom
    if chain.ease:
        return _ease_polarity(tokens, head, chain, subject, lex)
    if _lemma_in(t, lex.better_words):
        return 1, True
    if t.lemma == "保つ" and head + 1 < len(tokens) and tokens[head + 1].lemma in ("れる", "られる"):
        return (-1 if subject < 0 else 1), False  # 線が最後まで保たれていた: kept; 固まった状態が保たれていた
    if t.lemma in _APPROACH and head >= 1 and tokens[head - 1].surface == "に":
        return subject, True  # 理想の形に近づいてきた; 以前の癖に近づいている
    relaxed = head >= 2 and tokens[head - 2].surface == "力" and tokens[head - 1].surface in _SUBJECT_PARTICLES
    if t.lemma in _LEAVE and (subject < 0 or (relaxed and not subject)):
        return 1, True  # 訳す癖が抜けてきている: a problem leaving is a decrease; 肩の力が抜けた: relaxed
    if t.lemma in ("取れる", "とれる") and not subject and (chain.came or chain.past) and tokens[head - 1].surface == "が":
        return 1, True  # 声のこもりが取れてきた, バランスが取れてきた: gone, or achieved
    if t.lemma in _OBJECT_POTENTIAL and _object_of(tokens, head) and _can_form(t):
        return 1, False  # 第一声を正しい高さで取れている, 薪を割れる: "can", not something coming off
    if t.lemma in ("する", "為る") and head >= 1 and tokens[head - 1].surface in ("を", "は", "も"):
        return subject, False  # ミスをする: as good or bad as what is done
    if _lemma_in(t, lex.cause_verbs):
        shown = _potential(t) and t.normalized in _POINT_OUT  # 誤りを具体的に示せる: can point it out
        return (1 if _potential(t) and (not subject or shown) else subject), False  # 声を出せている: "can"
    if t.lemma in _REMOVE and subject < 0:
        return 1, False  # 不要な葉を落とす, 無駄な動きを省く: a fault removed (ボールを落とす is read as usual)
    if _lemma_in(t, lex.decrease_transitive):
        return -subject, True  # ミスを減らせた; an object that is neither good nor bad says nothing
    if t.lemma in ("取れる", "とれる") and subject > 0 and not _potential(t):
        return 1, False  # 統一感が取れている: a good thing achieved, not come off (統一感が取れていない: a problem)
    return _word_polarity(tokens, head, chain, subject, lex)


def _word_polarity(tokens: Sequence[Token], head: int, chain: _Chain, subject: int, lex: Lexicon) -> tuple[int, bool]:
    """The rest of :func:`_polarity`: what the head word's lexicon class says."""
    t = tokens[head]
    if _lemma_in(t, lex.decrease_verbs):  # of a neutral subject only 減った says "less of it", i.e. progress
        default = 1 if t.lemma in ("減る", "減少", "短縮", "縮まる") else -1 if t.lemma in ("下がる", "落ちる") else 0
        default = -1 if t.lemma in _FADE else default  # 香りが薄れてきた, 意識が弱まった: what fades was wanted
        if default > 0 and not subject and t.lemma in ("減る", "減少") and _telling(tokens, head, lost=True):
            default = -1  # 確認が減り, 発言の回数が減った: less of telling, asking, answering
        return (-subject if subject else default), True  # 肘が下がる, 球速が落ちた: a fault
    if _lemma_in(t, lex.increase_verbs):  # of a neutral subject the change decides (see _unmarked_change),
        if not subject and _counted_noun(tokens, head, lex):  # リテイクの回数が増えた: counts are read like a
            return -1, True  # problem's (count_nouns), so more of them is a fault, unless it is of telling
        return (subject if subject else -1 if t.lemma in _SHOWS else 0), True  # but what 目立つ shows is a fault
    if _lemma_in(t, lex.growth_verbs):  # 可動域が広がってきた; 語尾が伸びている is a state, not a growth
        grew = chain.came or (chain.past and not chain.progressive)
        return (subject if subject else 1 if grew and t.lemma != "上がる" else 0), True
    if _lemma_in(t, lex.event_verbs):
        return (subject if subject else -1), False  # 転倒は起きていない: what happens is a mishap
    if t.lemma in ("残る", "残存") and not subject and not chain.negations and head >= 1 \
            and tokens[head - 1].surface == "が":
        return -1, False  # 生地の中に空気が残っている: what is left is what should have gone
    if _lemma_in(t, lex.existence_verbs) or (t.lemma == "見る" and chain.rareru):  # 見 + られる: 見られる
        return subject, False
    quoted = head >= 1 and tokens[head - 1].surface in ("と", "とは", "は", "も")
    able = _potential(t, quoted) or (chain.rareru and t.pos[0] == "動詞" and _object_of(tokens, head))
    if able and (not (head >= 1 and tokens[head - 1].surface == "が") or subject > 0):
        return 1, False  # 主導権を握れている, 相手を崩せる, 習慣が保てている: "can do"; 肘が引けている is not "can pull"
    scalar = _scalar(t, subject, lex)
    if scalar is not None and not subject and t.lemma == "少ない" and _telling(tokens, head, lost=True):
        return -1, False  # 声かけが以前より少なくなった: less of telling, a loss
    if scalar is not None:
        return scalar, False
    if chain.habit and _lemma_in(t, lex.problem_verbs) and _can_form(t) and _object_of(tokens, head):
        return 1, False  # 空気を抜けるようになった: can remove it, not 抜ける (something slips)
    if _lemma_in(t, lex.problem_verbs) or _lemma_in(t, lex.negative_states) or _in_words(t, lex.problem_nouns) \
            or _compound(tokens, head) in lex.negative_states \
            or (chain.became and _problem_stem(t, lex)):  # 指示 + 待ち: Sudachi splits 指示待ち; 頼りきりになり
        return -1, False
    if t.lemma in ("できる", "出来る") and head >= 1 and tokens[head - 1].surface == "が":
        if head >= 2 and tokens[head - 2].lemma in ("こと", "事"):
            return 1, False  # 直すことができている: "can do"
        verbal_noun = head >= 2 and tokens[head - 2].pos[2] == "サ変可能" and tokens[head - 2].pos[0] == "名詞"
        return (1 if verbal_noun and not subject else subject), False  # 指導ができている: "can do"; すき間ができる
    if _lemma_in(t, lex.positive_states) or t.lemma in ("できる", "出来る"):
        verbal = t.pos[0] == "動詞" or (head + 1 < len(tokens) and tokens[head + 1].lemma in ("する", "為る"))
        if t.pos[0] == "動詞" and _bad_manner(tokens[: head + 1], lex):
            return -1, False  # 早口でまとめていた, 雑に整えている: a good act done badly
        return 1, verbal and chain.past and not chain.progressive  # 安定した (a change), 安定している (a state)
    if t.pos[0] == "名詞" and _lemma_in(t, lex.positive_nouns) and tokens[head + 1 : head + 2] \
            and tokens[head + 1].lemma == "だ":
        return 1, False  # 〜のは大きな強みだ: a good noun as the predicate
    return 0, False


#: Acts of telling, asking and answering (確認, 発言, 挨拶): a coach wants more of them, so fewer is a loss.
_TELLING = frozenset({"確認", "挨拶", "発言", "質問", "返事", "返答", "応答", "報告", "連絡", "相談", "発声", "声出し",
                      "声かけ", "声掛け", "呼びかけ", "呼び掛け", "相槌", "あいづち", "復唱", "共有", "会話", "対話",
                      "発問", "問いかけ", "問い掛け", "説明", "会釈", "目配り", "アイコンタクト", "合図", "指差し"})


def _counted_noun(tokens: Sequence[Token], head: int, lex: Lexicon) -> bool:
    """The subject is a count of a noun (息継ぎの回数, リテイクの件数), not of a clause (確認する頻度)
    nor of an act of telling (質問の数)."""
    k = head - 1
    while k >= 1 and not (tokens[k].surface in _SUBJECT_PARTICLES and tokens[k].pos[0] == "助詞"):
        k -= 1
    if k < 3 or not tokens[k - 1].surface.endswith(tuple(lex.count_nouns)) or tokens[k - 2].surface != "の":
        return False
    noun = tokens[k - 3]
    return noun.pos[0] == "名詞" and not _telling(tokens, head)


def _telling(tokens: Sequence[Token], head: int, lost: bool = False) -> bool:
    """The subject before the head (or what its count counts: 発言の回数) ends in an act of telling,
    asking or answering (声出し確認, 発言の回数). With ``lost`` (fewer of it is a loss), not 質問: whose
    questions they are is not said (質問が少なくなった may be the audience's, after a clearer talk)."""
    k = head - 1
    while k >= 1 and not (tokens[k].surface in _SUBJECT_PARTICLES and tokens[k].pos[0] == "助詞"):
        k -= 1
    if k < 1:
        return False
    noun = tokens[k - 1]
    if noun.surface.endswith(tuple(lexicon().count_nouns)) and k >= 3 and tokens[k - 2].surface == "の":
        noun = tokens[k - 3]
    return noun.pos[0] == "名詞" and _lemma_in(noun, _TELLING) and not (lost and noun.lemma == "質問")


def _without_problem(tokens: Sequence[Token], lex: Lexicon, negative: Sequence[str]) -> bool:
    """An adverbial "without a problem" before the head: a problem verb or noun + ずに / ないで / なく."""
    for i in range(len(tokens) - 1):
        t, nxt = tokens[i], tokens[i + 1]
        without = (nxt.normalized == "ず" and nxt.pos[0] == "助動詞") or (
            nxt.lemma in ("ない", "無い") and i + 2 < len(tokens) and tokens[i + 2].surface in ("で", "に"))
        without |= nxt.surface == "なく" and nxt.pos[0] == "形容詞"
        verb = tokens[i - 1] if t.lemma in ("する", "為る") and i >= 1 else t
        if without and (_lemma_in(verb, lex.problem_verbs) or _in_words(verb, lex.problem_nouns)
                        or any(w in verb.surface for w in negative)):
            return True
    return False


def _verbal(tokens: Sequence[Token], head: int) -> bool:
    """The head is a verb or a verbal noun with する (作れている, 確認している)."""
    return tokens[head].pos[0] == "動詞" or (head + 1 < len(tokens) and tokens[head + 1].lemma in ("する", "為る"))


def _good_manner(tokens: Sequence[Token], lex: Lexicon) -> bool:
    """An adverbial good state before a neutral verb head (きれいに作れている, 丁寧に説明している)."""
    for i in range(len(tokens) - 1):
        t, nxt = tokens[i], tokens[i + 1]
        adverbial = (nxt.surface == "に" and nxt.pos[0] in ("助動詞", "助詞")) or (
            t.pos[0] == "形容詞" and t.surface.endswith("く") and nxt.pos[0] != "補助記号") or (
            nxt.surface in ("て", "で") and t.pos[0] == "動詞") or (  # 落ち着いて話せている
            t.pos[0] == "副詞" and nxt.pos[0] == "動詞") or (  # すらすら出てくる
            nxt.lemma in ("する", "為る") and i + 2 < len(tokens) and tokens[i + 2].surface == "て")  # 集中して
        between = tokens[i + 1 :]  # 正しく理解できていない場面がある: the manner of another verb
        good = _lemma_in(t, lex.positive_states) or _lemma_in(t, lex.positive_nouns)
        if adverbial and good and not any(
                (b.surface in _SUBJECT_PARTICLES and b.pos[0] == "助詞") or is_negator(b) for b in between):
            return True
    return False


def _refrained(tokens: Sequence[Token], head: int, lex: Lexicon) -> bool:
    """A bad manner right before the negated head (無理に攻めず, 感情的に言い返さず, 慌てて搬送しようと
    せず): what was not done is the bad way of doing it. 丁寧に確認せず (a good manner) is not it."""
    verb = head
    if tokens[head].lemma in ("する", "為る") and head >= 2 and tokens[head - 1].surface == "と":
        verb = head - 2  # 登ろうとせず, 搬送しようとせず: the verb of 〜うとする
        if tokens[verb].lemma in ("う", "よう") and tokens[verb].pos[0] == "助動詞":
            verb -= 1
    k = verb - 1
    while k >= 0 and tokens[k].pos[0] in ("名詞", "助詞") and tokens[k].surface not in ("に", "て", "で"):
        k -= 1  # 無理に腕を回そうと: skip the object
    if k < 1:
        return False
    t, prev = tokens[k], tokens[k - 1]
    if t.surface == "に" and (prev.pos[0] == "形状詞" or "形状詞" in prev.pos[2]):  # not 課題に触れていない
        return _lemma_in(prev, lex.negative_states) or _lemma_in(prev, lex.negative_modifiers)
    return t.surface == "て" and prev.lemma in _HASTE


def _bad_manner(tokens: Sequence[Token], lex: Lexicon) -> bool:
    """An adverbial bad state before a verb head (無理に取ろうとしている, 雑に引いている, 早口でまとめていた)."""
    for i in range(len(tokens) - 1):
        t, nxt = tokens[i], tokens[i + 1]
        adverbial = nxt.surface == "に" and nxt.pos[0] in ("助動詞", "助詞") and t.pos[0] in ("形状詞", "名詞")
        fault = t.pos[0] == "名詞" and nxt.surface == "で" and _in_words(t, lex.problem_nouns)  # 早口で, 棒読みで
        bad = fault or (adverbial and (_lemma_in(t, lex.negative_states) or _lemma_in(t, lex.negative_modifiers)))
        between = tokens[i + 1 :]
        if bad and not any(
                (b.surface in _SUBJECT_PARTICLES and b.pos[0] == "助詞") or is_negator(b) for b in between):
            return True
    return False


def _manner(tokens: Sequence[Token], head: int, lex: Lexicon, negative: Sequence[str],
            change: bool) -> tuple[int, bool]:
    """How a neutral, un-negated head is done: without a problem (ペースを落とさずに泳げた) or in a
    good manner (きれいに作れている, 集中して弾けている: a manner, not a change) is praise, in a bad
    one (無理に) a problem."""
    if _without_problem(tokens[:head], lex, negative):
        return 1, change
    if not _verbal(tokens, head):
        return 0, change
    if _good_manner(tokens[: head + 1], lex):  # 正しく使い分けられている: the adverb just before the head
        return 1, False
    return (-1 if _bad_manner(tokens[: head + 1], lex) else 0), change


def _this_time(tokens: Sequence[Token]) -> bool:
    """今回は / 今日は: this session, set against the earlier ones."""
    scoped = any(t.surface in ("では", "は") for t in tokens)  # 今回の演習では
    return any(t.surface in _THIS_TIME and (n.surface == "は" or (n.surface == "の" and scoped))
               for t, n in pairwise(tokens))


def _progress_subject(tokens: Sequence[Token], head: int, lex: Lexicon) -> bool:
    k = head - 1
    while k >= 0 and not (tokens[k].surface in _SUBJECT_PARTICLES and tokens[k].pos[0] == "助詞"):
        k -= 1
    return k >= 1 and _lemma_in(tokens[k - 1], lex.better_words)


def _between_figures(tokens: Sequence[Token]) -> bool:
    """A change between two figures (8%から15%に, 5割から7割へ, 2日から半日まで): a comparison with
    the past, said in numbers."""
    start = next((i for i, t in enumerate(tokens) if t.surface == "から" and t.pos[0] == "助詞" and any(
        x.pos[1] == "数詞" for x in tokens[max(0, i - 3) : i])), None)
    if start is None:
        return False
    return any(t.surface in ("に", "へ", "まで") and t.pos[0] == "助詞" for t in tokens[start + 2 : start + 6])


def _figure(tokens: Sequence[Token]) -> float | None:
    """The last figure in ``tokens`` (52, 1.5, 7 of 7割), or None."""
    digits = ""
    for t in reversed(tokens):
        if t.pos[1] == "数詞" or (t.surface in (".", "．") and digits):
            digits = t.surface + digits
        elif digits:
            break
    try:
        return float(digits.translate(str.maketrans("０１２３４５６７８９．", "0123456789."))) if digits else None
    except ValueError:
        return None


def _figures_moved(tokens: Sequence[Token]) -> int:
    """+1 / -1 when the clause says a figure went up / down (AからBに), 0 when it does not."""
    start = next((i for i, t in enumerate(tokens) if t.surface == "から" and t.pos[0] == "助詞"), None)
    if start is None:
        return 0
    end = next((i for i in range(start + 1, min(len(tokens), start + 6))
                if tokens[i].surface in ("に", "へ", "まで") and tokens[i].pos[0] == "助詞"), None)
    left, right = tokens[max(0, start - 3) : start], tokens[start + 1 : end] if end else ()
    before, after = _figure(left), _figure(right)
    if before is None or after is None or before == after or _unit(left) != _unit(right):
        return 0  # 2センチから5ミリ: not one scale
    return 1 if after > before else -1


def _unit(tokens: Sequence[Token]) -> str:
    """What the last figure counts (回, %, 割): the token after it."""
    last = max((i for i, t in enumerate(tokens) if t.pos[1] == "数詞"), default=None)
    return tokens[last + 1].surface if last is not None and last + 1 < len(tokens) else ""


def _compares(tokens: Sequence[Token], lex: Lexicon) -> bool:
    if _between_figures(tokens):
        return True
    for i, t in enumerate(tokens):
        if t.lemma in ("比べる", "比較", "違う", "異なる") and any(
                x.surface in lex.past_words for x in tokens[max(0, i - 4) : i]):
            return True  # 前回と比べて, 前回と違って; not 周りと比べて (other people)
        if t.surface == "嘘" and i + 1 < len(tokens) and tokens[i + 1].surface in ("の", "みたい"):
            return True  # 以前の硬さが嘘のように
        if t.surface in _CONTINUING or t.lemma in _CONTINUING:
            return True
        nxt = tokens[i + 1].surface if i + 1 < len(tokens) else ""
        if t.surface in _SINCE and nxt == "から":  # 前回から一度も起きていない
            return True
        if t.surface in lex.past_words and nxt in ("より", "よりも", "ほど", "同様"):  # 前回より; not 最初から, 前に
            return True
        after = tokens[i + 2].lemma if i + 2 < len(tokens) else ""
        if t.surface in lex.past_words and nxt == "に" and after in ("続く", "引き続く"):  # 前回に続いて
            return True
    return False


def read_clause(tokens: Sequence[Token], negative: Sequence[str] = (), compares: bool = False) -> Reading:
    """The reading of one clause (see the module doc); None when the lexicon cannot tell."""
    lex, found = lexicon(), _head(tokens)
    if found is None or _not_only(tokens):
        return None  # OPACだけでなく、参考図書も使うようになった: the last clause decides
    head, chain = found
    if _suggestion(tokens, head) or (tokens[head].surface in ("だけ", "のみ") and tokens[head].pos[0] == "助詞"):
        return "problem"  # 声を張れるとよい: what is still to do; 打てるのは緩いボールだけだ: only that
    if not chain.negations and _left_as_is(tokens, head, lex, negative):
        return "problem"  # 席を立ったままになっていた, 誤った声調のまま定着しつつある
    if chain.not_too and not _excess_before(tokens, head, chain, lex):
        return None  # 爪の当て方が深くなりすぎず、: "not too deep" judges nothing by itself
    if chain.excess or _excess_before(tokens, head, chain, lex):
        return "problem"
    subject = 0 if chain.habit and _kind_by_negation(tokens, head, lex) else _subject(tokens, head, lex, negative)
    polarity, change = _polarity(tokens, head, chain, subject, lex)
    if not polarity and tokens[head].pos[0] == "名詞" and head >= 1 and _adnominal(tokens[head - 1]):
        reading = read_clause(tokens[:head][-_RELATIVE_WINDOW:], negative, compares)  # 意図の伝わるものになった
        polarity = 1 if reading in ("better", "praise") else -1 if reading == "problem" else 0
        change |= reading == "better"
    looks = _looks(tokens, head, lex) if chain.habit else None
    if looks is not None:  # 説明的に聞こえるようになった: as good as how it sounds; a seeming nothing
        polarity, change = (looks or -1), True  # judges is no progress (the safe side: a problem)
    elif chain.habit and not (chain.past or chain.came or chain.progressive) and _each_time(tokens):
        return "problem" if polarity <= 0 else "praise"  # 混雑すると、顔を見ずに対応するようになる: each time
    elif chain.habit:
        polarity, change = (polarity if polarity else 1), True
    if chain.negations % 2 and polarity <= 0 and subject <= 0 and _none_at_all(tokens, head, lex):
        polarity, subject, change = -1, -1, True  # ひび割れが一つもなかった: what is counted is a fault, gone
    if not chain.negations and subject <= 0 and _zero(tokens, head):
        return "better"  # 先月は3回あった遅刻が今月は0回だった
    moved = _figures_moved(tokens) if chain.became and subject and not chain.negations else 0
    if moved:
        return "better" if moved * subject > 0 else "problem"  # コール数が4回から2回になった: fewer of a delay
    absent = chain.negations % 2 == 1 and subject < 0  # 癖は今回は見られなかった
    if chain.negations % 2:
        final, polarity, change = _read_negated(tokens, head, chain, subject, polarity, change, lex)
        if final is not None:
            return final
    if any(t.lemma in _STILL for t in tokens) and polarity <= 0:
        return "problem"  # まだ結論が最後に来る
    if polarity == 0 and not chain.negations:
        polarity, change = _manner(tokens, head, lex, negative, change)
    seen = _lemma_in(tokens[head], lex.existence_verbs) or (tokens[head].lemma == "見る" and chain.rareru)
    if polarity > 0 and seen and _progress_subject(tokens, head, lex):
        change = True  # 成長が見られる
    scalar = _scalar(tokens[head], 0, lex) is not None
    continuing = any(t.surface in _CONTINUING or t.lemma in _CONTINUING for t in tokens)
    grows = _lemma_in(tokens[head], lex.growth_verbs) and tokens[head].lemma != "上がる"  # 先週より伸びている
    if polarity == 0 and _quicker(tokens, head, chain):
        return "better"  # 切り替えが速くなった; not テンポが速くなった
    if polarity == 0 and compares and not continuing and ((scalar and (chain.became or chain.came)) or grows
                                                          or _achieved(tokens, head, chain, lex)):
        return "better"  # 前回に比べて保留時間が短くなった; not 相変わらず語尾が伸びている, 前回より肘が下がってきた
    if polarity > 0:
        changed = change or compares or chain.became or chain.came or (absent and _this_time(tokens))
        return "better" if changed else "praise"
    if polarity == 0 and _unmarked_change(tokens, head, chain, lex):
        return "better"  # エッジの立ち方が鋭くなった, 気泡が消えた: a change that nothing marks as a fault
    return "problem" if polarity < 0 else None


def _read_negated(tokens: Sequence[Token], head: int, chain: _Chain, subject: int, polarity: int, change: bool,
                  lex: Lexicon) -> tuple[Reading, int, bool]:
    """For :func:`read_clause`, a clause with an odd number of negations: a final reading (or
    None), and the polarity and change read on with."""
    if chain.no_longer and tokens[head].surface in _SWAYS and head + 1 < len(tokens) \
            and tokens[head + 1].lemma in ("する", "為る") and subject <= 0:
        return "better", polarity, change  # 上体が上下しなくなった: a sway that stopped (not 左右する, to sway an outcome: no 〜なくなった)
    verb = tokens[head].pos[0] == "動詞"
    joined = tokens[-1].lemma in ("なる", "成る") and tokens[-1].surface in ("なり", "なっ")  # 動かなくなり、
    directed = any(x.surface in _DIRECTIONS | _SWAYS and n.surface in ("に", "へ")
                   for x, n in pairwise(tokens[:head]))  # 艇が左右に振れなくなった: a movement
    can = _can_form(tokens[head]) and not directed and (not _lemma_in(tokens[head], lex.decrease_verbs)
                                                        or tokens[head].lemma in ("取れる", "とれる"))  # 息が切れなくなった;
    # 連係が取れなくなった is a loss: 取れる of a neutral subject is achieved (バランスが取れてきた)
    movement = verb and not can and not _success(tokens, head, lex) \
        and not _ability(tokens[head])  # 弾けなくなった, 分からなくなった, 謡えなくなった
    if polarity == 0 and movement and subject <= 0 and chain.no_longer and (
            chain.past or chain.progressive or joined):
        return "better", polarity, change  # 膝が内側に入らなくなっている: no longer
    if polarity == 0 and subject == 0 and not chain.no_longer and _refrained(tokens, head, lex):
        return "praise", polarity, change  # 無理に登ろうとせず、: a bad way of acting that was not taken
    polarity = -polarity if polarity else (1 if subject < 0 else -1)
    change |= chain.no_longer or _no_more(tokens, head)
    return None, polarity, change


def _ability(token: Token) -> bool:
    """A verb of knowing or perceiving (分かる, 見える) or a potential whatever Sudachi normalizes it
    to (謡える -> 歌う): 〜なくなった of it is "can no longer", a loss."""
    lemma = token.lemma
    loose = len(lemma) >= 3 and lemma.endswith("る") and lemma[-2] in _E_ROW and lemma != token.normalized \
        and token.normalized[-1:] in _U_ROW and token.normalized[-1:] != "る"
    return lemma in _KNOW or token.normalized in _KNOW or loose


def _nonpast_habit(tokens: Sequence[Token]) -> bool:
    """The clause ends in a non-past 〜ようになる (not なった, なってきた, なっている)."""
    found = _head(tokens)
    return found is not None and found[1].habit and not (found[1].past or found[1].came or found[1].progressive)


def _each_time(tokens: Sequence[Token]) -> bool:
    """A conditional 〜と / 〜たら / 〜ば before a non-past 〜ようになる (混雑すると、…ようになる): what
    happens each time it comes, not a change reported."""
    return any(t.surface in ("と", "たら", "ば") and t.pos[1] == "接続助詞" for t in tokens)


def _looks(tokens: Sequence[Token], head: int, lex: Lexicon) -> int | None:
    """The head is a verb of seeming (聞こえる, 見える, 感じられる) after how it seems (説明的に, 自然に,
    幼く): the polarity of that word (0 when nothing judges it); None for any other head."""
    if tokens[head].lemma not in _EVIDENTIAL or head < 2:
        return None
    before = tokens[head - 1]
    if before.lemma == "だ" and before.surface == "に":
        word = tokens[head - 2]
    elif before.pos[0] == "形容詞" and before.surface.endswith("く"):
        word = before
    elif before.surface in ("て", "で") and before.pos[0] == "助詞" and tokens[head - 2].pos[0] == "動詞":
        word = tokens[head - 2]  # 濁って聞こえる, 落ち着いて見える
        if _lemma_in(word, lex.problem_verbs):
            return -1
    else:
        return None
    if _lemma_in(word, lex.positive_states):
        return 1
    bad = lex.negative_states | lex.negative_modifiers
    return -1 if _lemma_in(word, bad) or _in_words(word, lex.problem_nouns) else 0


def _happens_to_subject(tokens: Sequence[Token], head: int, lex: Lexicon) -> bool:
    """An intransitive verb said of its subject (息が上がる, 形が崩れる), not an action on an object
    (資料を読む) nor one that works (声が通る, 伝わる) or is perceived (読む, 見る, 分かる)."""
    t = tokens[head]
    if t.pos[0] != "動詞" or _success(tokens, head, lex) or t.lemma in _PERCEIVE or _can_form(t):
        return False
    return head >= 1 and tokens[head - 1].surface == "が" and not _object_of(tokens, head)


def _compound(tokens: Sequence[Token], head: int) -> str:
    """The compound noun that ends at the head (指示 + 待ち -> 指示待ち); the head alone otherwise."""
    start = head
    while start > 0 and tokens[head].pos[0] == "名詞" and tokens[start - 1].pos[0] == "名詞" and head - start < 3:
        start -= 1
    return "".join(t.surface for t in tokens[start : head + 1])


def _measured(tokens: Sequence[Token], head: int) -> bool:
    """The subject is a measure (高さ, 深さ: an adjective's noun in 〜さ), so 上がった says the figure
    went up, not a body part moving."""
    return any(n.surface in _SUBJECT_PARTICLES and n.pos[0] == "助詞" and t.surface.endswith("さ")
               and t.pos[0] in ("名詞", "接尾辞") for t, n in pairwise(tokens[:head]))


def _none_at_all(tokens: Sequence[Token], head: int, lex: Lexicon) -> bool:
    """「一つも / 一度も / 一件も … ない」 of being there or happening: not even one of it (not of
    an occasion or of a thing a clause describes: 意見を求める場面が一度もなかった, 主張を裏づける
    事例が一つも出てこない are problems)."""
    t = tokens[head]
    there = t.lemma in ("ない", "無い") or _lemma_in(t, lex.existence_verbs | lex.event_verbs)
    occasion = any((x.lemma in _OCCASIONS or _lemma_in(x, _TELLING) or (i >= 1 and _adnominal(tokens[i - 1])))
                   and n.surface in _SUBJECT_PARTICLES  # 主張を裏づける事例が, 声かけが一度もなかった
                   for i, (x, n) in enumerate(pairwise(tokens[:head])))
    return there and not occasion and any(
        x.surface == "も" and x.pos[0] == "助詞" and i >= 1 and (
            tokens[i - 1].surface in _NOT_ONE or (i >= 2 and tokens[i - 2].surface in ("一", "1", "１")))
        for i, x in enumerate(tokens[:head]))


def _zero(tokens: Sequence[Token], head: int) -> bool:
    """The predicate is a count of none (0回だった, ゼロ件): said of a neutral subject, it went."""
    t = tokens[head]
    nums = ("0", "０", "ゼロ", "零")
    return (t.surface in nums and t.pos[1] == "数詞") or (
        head >= 1 and tokens[head - 1].surface in nums and tokens[head - 1].pos[1] == "数詞"
        and t.pos[0] in ("接尾辞", "名詞"))


def _unmarked_change(tokens: Sequence[Token], head: int, chain: _Chain, lex: Lexicon) -> bool:
    """The clause tells a change (〜くなった, 〜になってきた, 〜てきた, a verb of decrease or growth)
    of something the lexicon cannot judge, and nothing in it marks a fault: a coach reports a
    change to say it went the right way, and says so when it did not (〜てしまった, また, まだ,
    〜すぎる, 〜気味, a problem word: those are read before this)."""
    if chain.negations or chain.excess or chain.evidential:
        return False
    t = tokens[head]
    if _scalar(t, 0, lex) is not None or (t.lemma in _POSTURE and not _measured(tokens, head)):
        return False  # 声かけが少なくなった, 差分が大きくなった: a scalar needs its subject or a comparison
    verb = _lemma_in(t, lex.decrease_verbs | lex.growth_verbs | lex.increase_verbs)
    amount = t.lemma in _AMOUNT  # 増えている: a change under way, not a posture (nor 朝食を抜いている)
    state = t.pos[0] in ("形容詞", "形状詞") or (t.pos[0] == "名詞" and t.pos[2].endswith("形状詞可能")) or (
        head >= 1 and _adnominal(tokens[head - 1]))  # 語りかける口調になってきた: the clause says what it became
    if chain.became and t.pos[0] != "動詞" and not state:
        return False  # 棒立ちになった, 一本調子になってきた: a thing it became, not a quality it gained
    negated = (t.surface[:1] in ("不", "非") and t.surface != "非常") or (
        head >= 1 and tokens[head - 1].pos[0] == "接頭辞" and tokens[head - 1].surface in _NEGATING_PREFIXES)
    changed = (chain.became and chain.past) or chain.came or (verb and chain.past and not chain.progressive) or (
        amount and chain.progressive)
    marked = negated or any(x.lemma in _FAULT_MARKS or x.surface in _FAULT_MARKS for x in tokens)
    marked |= _done_without(tokens, head)
    return changed and not marked and not _problem_verb_stem(t, lex) and not _made_thing(tokens, head)


def _done_without(tokens: Sequence[Token], head: int) -> bool:
    """A negation before the head, not followed by a verb of "can" (理解せずに貼り付けることが増えた:
    done without; 楽譜を見ずに弾ける曲が増えた is a skill)."""
    for i, x in enumerate(tokens[:head]):
        if is_negator(x):
            verb = next((v for v in tokens[i + 1 : head] if v.pos[0] == "動詞" and v.pos[1] != "非自立可能"), None)
            if verb is None or not (_potential(verb) or _can_form(verb) or verb.lemma in ("できる", "出来る")):
                return True
    return False


def _made_thing(tokens: Sequence[Token], head: int) -> bool:
    """The subject is something done or made before (別の人が入れた修正, 書いたメモ: a clause in 〜た
    just before it): its going is a loss, not a fault gone."""
    k = head - 1
    while k >= 0 and not (tokens[k].surface in _SUBJECT_PARTICLES and tokens[k].pos[0] == "助詞"):
        k -= 1
    start = k
    while start > 0 and tokens[start - 1].pos[0] in ("名詞", "接頭辞", "接尾辞"):
        start -= 1
    return 1 <= start < k and tokens[start - 1].lemma == "た" and tokens[start - 1].pos[0] == "助動詞" \
        and start >= 2 and tokens[start - 2].pos[0] == "動詞"


def _problem_verb_stem(token: Token, lex: Lexicon) -> bool:
    """A verb whose noun form (連用形) names a problem (ばらつく: ばらつき, ふらつく: ふらつき)."""
    lemma = token.lemma
    if token.pos[0] != "動詞" or len(lemma) < 2:
        return False
    row = _U_ROW.find(lemma[-1])
    stems = {lemma[:-1]} if lemma.endswith("る") else set()
    if row >= 0:
        stems.add(lemma[:-1] + _I_ROW[row])
    return any(len(stem) >= 2 and stem in lex.problem_nouns for stem in stems)


def _achieved(tokens: Sequence[Token], head: int, chain: _Chain, lex: Lexicon) -> bool:
    """A predicate that says something is done or works, not merely happens: a passive or "can"
    (伝えられている, 統一されている) or a success verb (目が届いている, 間に合っている); 後ろに体重が
    乗っている, 肩が上がっている, 言葉を探している say nothing of progress, even after 前回より."""
    if chain.negations:
        return False
    after = tokens[head + 1 :]
    made = tokens[head].pos[0] == "名詞" or (
        tokens[head].lemma in ("する", "為る") and head >= 1 and tokens[head - 1].pos[0] == "名詞")  # 統一されている
    passive = any(t.lemma == "られる" for t in after) or (made and any(t.lemma == "れる" for t in after))
    directed = any(t.surface in ("に", "へ") and x.surface in _DIRECTIONS
                   for x, t in pairwise(tokens[: head + 1]))  # 後ろに体重が乗っている
    return passive or _potential(tokens[head]) or (_success(tokens, head, lex) and not directed)


def _quicker(tokens: Sequence[Token], head: int, chain: _Chain) -> bool:
    """An action became quicker (反応が速くなってきた), not a pace (話すテンポが早くなった)."""
    if tokens[head].lemma not in _QUICK or not (chain.came or (chain.became and chain.past)) or chain.negations:
        return False  # 話になると急に説明が早くなる: a non-past なる tells what happens each time, no change
    k = head - 1
    while k >= 0 and not (tokens[k].surface in _SUBJECT_PARTICLES and tokens[k].pos[0] == "助詞"):
        k -= 1
    noun = k >= 1 and tokens[k - 1].pos[0] == "名詞" and tokens[k - 1].lemma not in ("こと", "事", "の")
    return noun and not tokens[k - 1].surface.endswith(_PACE)  # not 諦めるのが早くなった


def _left_as_is(tokens: Sequence[Token], head: int, lex: Lexicon, negative: Sequence[str]) -> bool:
    """〜ままになる / 〜ままにする (left as it was), or the head done in a fault kept (誤った声調のまま
    定着, 力んだまま振っている, 癖のまま): what it says is of a state that stayed. Not a good state kept
    (笑顔のまま, 姿勢を保ったまま打てる), nor a まま inside the subject (崩れたまま打つことがなくなった)."""
    for i in range(1, min(head + 1, len(tokens))):
        if tokens[i].lemma != "まま" or tokens[i].pos[0] != "名詞":
            continue
        nxt = tokens[i + 1 : i + 3]
        if len(nxt) == 2 and nxt[0].surface == "に" and nxt[1].lemma in ("なる", "成る", "する", "為る"):
            return True
        if any(x.pos[0] == "助詞" and x.surface in ("が", "は", "も", "を") for x in tokens[i + 1 : head]):
            continue  # the まま is in the subject's or object's own clause
        k = i - 1
        if tokens[k].surface == "の" and tokens[k].pos[0] == "助詞":
            start = k
            while start > 0 and tokens[start - 1].pos[0] in ("名詞", "接頭辞", "接尾辞"):
                start -= 1
            if start < k and _noun_polarity(tokens[start:k], lex, negative) < 0:
                return True  # 癖のまま
            k = start - 1
        if k >= 1 and tokens[k].lemma == "た" and tokens[k].pos[0] == "助動詞":
            k -= 1  # 誤った声調, 力んだまま
        if k >= 0 and tokens[k].pos[0] in ("動詞", "形容詞", "形状詞") and _lemma_in(
                tokens[k], lex.problem_verbs | lex.negative_states | lex.negative_modifiers):
            return True
    return False


def _suggestion(tokens: Sequence[Token], head: int) -> bool:
    """A suggestion (〜とよい, 〜ばいい, 〜ほうがよい, 〜てほしい, 〜べき, 〜ましょう): work still to do."""
    t = tokens[head]
    k = head - 1
    while k >= 0 and tokens[k].surface in ("なお", "さらに", "更に", "もっと", "より"):
        k -= 1
    before = tokens[k] if k >= 0 else None
    if t.lemma in ("良い", "よい", "いい") and before is not None and (
            (before.surface in ("と", "ば", "たら", "なら") and before.pos[0] in ("助詞", "助動詞"))
            or (before.surface == "が" and k >= 1 and tokens[k - 1].lemma in ("ほう", "方"))):
        return True
    if t.lemma in ("欲しい", "ほしい") and before is not None and (
            before.surface in ("て", "で") or before.pos[0] in ("副詞", "助詞")):
        return True  # 〜てほしい, 具体的な計画がもう少し欲しい, 配慮が欲しい: what is still missing
    return any(x.lemma in ("べし", "べき") or (x.lemma == "ます" and x.surface == "ましょう") for x in tokens[head:])


def _adjective_joint(tokens: Sequence[Token], i: int) -> bool:
    """``tokens[i]`` ends a clause joined without a comma: an adjective in 〜く or a state + で
    before a new predicate (リズムが甘く三連符のようになる, リズムが一定で安定している)."""
    if i + 1 >= len(tokens):
        return False
    t, nxt = tokens[i], tokens[i + 1]
    joint = (t.pos[0] == "形容詞" and t.pos[1] != "非自立可能" and t.surface.endswith("く")) or (
        t.lemma == "だ" and t.surface == "で" and i >= 1 and tokens[i - 1].pos[0] in ("形状詞", "名詞")) or (
        t.surface in ("て", "で") and t.pos[1] == "接続助詞" and i >= 1 and tokens[i - 1].pos[0] == "動詞"
        and nxt.pos[0] == "名詞") or (  # 手首が固まって力が抜けていない
        t.normalized == "ず" and t.pos[0] == "助動詞" and nxt.pos[0] == "名詞")  # 狙いが定まらず水が手前に落ちる
    both = t.pos[0] == "形容詞" and i + 3 < len(tokens) and tokens[i + 3].lemma in ("なる", "成る") and (
        nxt.pos[0] == "形状詞" or (nxt.pos[0] == "名詞" and "形状詞" in nxt.pos[2])) and tokens[i + 2].surface == "に"
    both |= t.pos[0] == "形容詞" and i + 2 < len(tokens) and nxt.pos[0] == "形容詞" and nxt.surface.endswith("く") \
        and tokens[i + 2].lemma in ("なる", "成る")  # 小さく一定になり, 細く長くなった: one change to two states
    if both:
        return False
    adverbial = t.pos[0] == "形容詞" and nxt.pos[0] == "動詞" and (
        _lexicon_change(nxt) or _potential(nxt) or nxt.lemma in ("できる", "出来る", "保つ"))  # ミスが大きく減った, 長く歌える, 長く保たれる
    return joint and not adverbial and nxt.pos[0] not in ("助動詞", "助詞", "補助記号") and nxt.pos[1] != "非自立可能"


def _lexicon_change(token: Token) -> bool:
    """A verb of decrease, increase or growth: an adjective in 〜く before it says how much."""
    lex = lexicon()
    return _lemma_in(token, lex.decrease_verbs | lex.increase_verbs | lex.growth_verbs | lex.better_words)


def _ends_predicate(tokens: Sequence[Token]) -> bool:
    """A pause (a space where the normalizer dropped a 、) after a predicate ends a clause
    (濃くなり、素材の…); after a particle or a noun it does not (合図が、適切な… / 今回、…)."""
    if not tokens:
        return False
    last = tokens[-1]
    if last.surface in _CONTINUING:
        return False  # 引き続き、…: an adverb, though Sudachi reads a verb
    if last.pos[0] == "助詞":
        return last.pos[1] == "接続助詞"  # 取れてきて、
    return last.pos[0] in ("動詞", "形容詞", "助動詞")


def _clauses(tokens: Sequence[Token]) -> list[Sequence[Token]]:
    out, start = [], 0
    said = False  # a subject particle among tokens[start:i], kept as i moves (one pass, not a scan per token)
    for i, t in enumerate(tokens):
        if said and _adjective_joint(tokens, i):  # リズムが甘く…; not 関数を小さく分けて (adverbial)
            out.append(tokens[start : i + 1])
            start = i + 1
        elif t.surface in ("、", ",", "，") and i >= 1 and tokens[i - 1].surface in ("は", "が") \
                and i >= 2 and tokens[i - 2].pos[0] in ("名詞", "接尾辞") and _adnominal_before(tokens, start, i - 2):
            pass  # 〜すぎてスカスカになる失敗は、今回は見られなかった: a long subject, then its predicate
        elif (t.pos[0] == "補助記号" and t.surface in ("、", ",", "，", "。", "．")) or (
                t.pos[0] == "空白" and i > start and _ends_predicate(tokens[i - 1 : i])):
            if i > start:
                out.append(tokens[start:i])
            start = i + 1
        said = start <= i and (said or (t.surface in _SUBJECT_PARTICLES and t.pos[0] == "助詞"))
    if start < len(tokens):
        out.append(tokens[start:])
    return out


def _adnominal_before(tokens: Sequence[Token], start: int, noun: int) -> bool:
    """The noun at ``noun`` is modified by a clause ending just before it (〜になる失敗)."""
    return noun > start and tokens[noun - 1].pos[0] == "動詞" and _adnominal(tokens[noun - 1])


def _former(tokens: Sequence[Token], negative: Sequence[str]) -> Reading:
    """A former state in a relative clause, then how it is now (以前は遅れがちだった合図が、…出せて
    いる): a former problem now not a problem is progress, a former good state now not good a problem."""
    lex = lexicon()
    topic = next((i for i in range(len(tokens) - 1)
                  if tokens[i].surface in lex.past_words and tokens[i + 1].surface == "は"), None)
    if topic is None:  # 前々回までは毎回行えていた〜が: until then
        topic = next((i + 1 for i in range(len(tokens) - 2) if tokens[i].surface in lex.past_words
                      and tokens[i + 1].surface == "まで" and tokens[i + 2].surface == "は"), None)
    if topic is None:
        return None
    for j in range(topic + 2, len(tokens) - 1):
        nxt = tokens[j + 1]
        stem = nxt.pos[0] == "動詞" and nxt.surface != nxt.lemma and nxt.surface[-1:] != "る" and j + 2 < len(
            tokens) and tokens[j + 2].surface in _SUBJECT_PARTICLES  # 染め出しが: Sudachi's verb stem, a noun here
        if tokens[j].lemma == "た" and tokens[j].pos[0] == "助動詞" and (
                nxt.pos[0] == "名詞" or stem or (nxt.surface == "の" and nxt.pos[0] == "助詞")):
            before = read_clause(tokens[topic + 2 : j + 1], negative)
            now = _read_parts(tokens[j + 1 :], negative, None)
            if before == "problem" and now != "problem":
                return "better"
            if before in ("praise", "better") and now not in ("praise", "better"):
                return "problem"
            if before in ("praise", "better") and now == "better" and not _good_word(tokens[j + 1 :], lex):
                return "problem"  # 以前は丁寧だった掃除が、最近は落ち葉を残したまま帰るようになった
            return None
    return None


def _good_word(tokens: Sequence[Token], lex: Lexicon) -> bool:
    """Some word of ``tokens`` is good in the lexicon, or a potential ("can"): a change said with it
    can be progress even against a good former state."""
    good = lex.positive_states | lex.positive_nouns | lex.better_words | _FURTHER
    return any(_lemma_in(t, good) or _potential(t) or _can_form(t) or t.lemma in ("できる", "出来る", "やすい")
               for t in tokens)


def read_clauses(tokens: Sequence[Token], negative: Sequence[str] = (), compares: bool | None = None) -> Reading:
    """The reading of a main clause: its last coordinate clause decides, unless an earlier one
    reads as a problem (音色はきれいで、タッチが弱い)."""
    former = _former(tokens, negative)
    return former if former is not None else _read_parts(tokens, negative, compares)


def _read_parts(tokens: Sequence[Token], negative: Sequence[str], compares: bool | None) -> Reading:
    """:func:`read_clauses` without the former-state contrast (read once, at the top)."""
    comp = _compares(tokens, lexicon()) or bool(compares)
    parts = _clauses(tokens)
    if not parts:
        return None
    last = read_clause(parts[-1], negative, comp)
    earlier = [read_clause(p, negative, comp) for p in parts[:-1]]
    if last is None and _pace_changed(parts[-1]):
        last = "problem"  # 操作が滑らかになり、カーブでの速度が速くなった: a pace, as it reads alone
    if last == "better" and _nonpast_habit(parts[-1]) and any(_each_time(p) for p in parts[:-1]) \
            and not _good_word(parts[-1], lexicon()):
        last = "problem"  # 混雑すると、お客様の顔を見ずに対応するようになる: what happens each time
    if last == "better" and _said_of_nominal(parts[-1]):  # 声が震えて言葉に詰まることが減った: the
        earlier = [None if r == "problem" and _te_joint(p) else r for r, p in zip(earlier, parts, strict=False)]
    if last == "better" and _can_now(parts[-1]):  # 質問をそのまま受け取らず、聞き返せるようになった
        earlier = [None if r == "problem" and _without(p) else r for r, p in zip(earlier, parts, strict=False)]
    if last == "better" and _now_so(parts[-1]):  # 間が詰まってきて、テンポよく聞こえるようになった
        earlier = [None if r == "problem" and _came_to(p, negative) else r for r, p in zip(earlier, parts, strict=False)]
    if last in ("better", "praise"):  # 相手の読みに惑わされず、自陣の札を守れている: not acted on, no fault
        earlier = [None if r == "problem" and _without(p) and _passive_end(p) else r
                   for r, p in zip(earlier, parts, strict=False)]
    if last == "better" and _fault_subject(parts[-1], negative):  # 保ちが以前より長くなり、急ぐ癖は見られなくなった
        earlier = [None if r == "problem" and _neutral_scalar(p, negative) else r
                   for r, p in zip(earlier, parts, strict=False)]
    if last != "problem" and "problem" in earlier:
        return "problem"
    if last in ("praise", None) and "better" in earlier:
        return "better"  # 言い間違いが減り、スムーズに唱えられている; 対応が改善し、落ち着いて場をつないだ
    if last in (None, "praise") and "problem" not in earlier and any(_change_clause(p) for p in parts[:-1]) \
            and read_clause(parts[-1], negative, True) in ("better", "praise"):
        return "better"  # 足運びが軽くなり、最後まで粘れている: a change, then what it brings
    if last is None and earlier and "problem" not in earlier and (
            earlier[-1] == "better" or (earlier[-1] == "praise" and _change_clause(parts[-2]))):
        return "better"  # 癖が抜け、テンポが上がった / 位置が安定し、絵が見えている: progress, then what nothing judges
    subjectless = not any(t.surface in _SUBJECT_PARTICLES and t.pos[0] == "助詞" for t in parts[-1])
    if last is None and subjectless and earlier and earlier[-1] is not None:
        return earlier[-1]  # 積極的に質問を返し、会話を広げている: a neutral last clause adds nothing
    return last


def _neutral_scalar(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """A neutral subject became more or less of a scalar than before (保ちが以前より長くなり): a
    problem only by default."""
    found = _head(tokens)
    if found is None:
        return False
    head, chain = found
    lex = lexicon()
    compared = any(t.surface in lex.past_words and n.surface == "より" for t, n in pairwise(tokens))
    return compared and chain.became and not chain.negations and _scalar(tokens[head], 0, lex) is not None \
        and _subject(tokens, head, lex, negative) == 0 and tokens[head].lemma not in lex.negative_states


def _fault_subject(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """The clause's subject is a fault (癖は見られなくなった), not 結論が見えなくなった."""
    found = _head(tokens)
    return found is not None and _subject(tokens, found[0], lexicon(), negative) < 0


def _kind_by_negation(tokens: Sequence[Token], head: int, lex: Lexicon) -> bool:
    """The head says "can do" and its subject is one noun after a negated neutral verb (「はい・いいえ」で
    終わらない質問ができるようになった): the negation names a kind of thing done, not a fault."""
    if not (tokens[head].lemma in ("できる", "出来る") or _can_form(tokens[head])) or head < 4:
        return False
    k = head - 1
    return tokens[k].surface == "が" and tokens[k - 1].pos[0] == "名詞" and tokens[k - 2].lemma in ("ない", "ぬ") \
        and tokens[k - 2].pos[0] == "助動詞" and tokens[k - 3].pos[0] == "動詞" \
        and not _lemma_in(tokens[k - 3], lex.problem_verbs)


def _can_now(tokens: Sequence[Token]) -> bool:
    """The clause says "can do now" (聞き返せるようになった, 確認できるようになった)."""
    found = _head(tokens)
    if found is None:
        return False
    head, chain = found
    return chain.habit and not chain.negations and (tokens[head].lemma in ("できる", "出来る")
                                                    or _can_form(tokens[head]))


#: A fault of too much (早口, 速い, 〜すぎる) and the acts that take some of it away (速さを落とし, 力を抑え).
_EXCESS = frozenset({"すぎる", "過ぎる", "早口", "速い", "早い", "強い", "多い", "急ぐ", "焦る", "力む", "せかせか"})
_EASE_OFF = frozenset({"落とす", "抑える", "減らす", "弱める", "緩める", "控える", "下げる"})


def eases_an_excess(before: Sequence[Token], now: Sequence[Token], negative: Sequence[str]) -> bool:
    """前回は早口で聞き取りにくかったが、今回は話す速さを落とし、…: the former fault is one of too much, and
    every clause of now that reads as a problem takes something away (〜を落とし, 〜を抑え), un-negated."""
    if not any(t.lemma in _EXCESS or t.normalized in _EXCESS for t in before):
        return False
    problems = [p for p in _clauses(now) if read_clause(p, negative) == "problem"]
    for part in problems:
        found = _head(part)
        if found is None or found[1].negations or part[found[0]].lemma not in _EASE_OFF \
                or not _object_of(part, found[0]):
            return False
    return bool(problems)


def ends_can_now(tokens: Sequence[Token]) -> bool:
    """The last clause of ``tokens`` says "can do now" (欠品時にすぐ報告できるようになった): an ability, a named thing."""
    parts = _clauses(tokens)
    return bool(parts) and _can_now(parts[-1])


def _now_so(tokens: Sequence[Token]) -> bool:
    """The clause ends in 〜ようになった, not negated (聞こえるようになった, 笑えるようになった)."""
    found = _head(tokens)
    return found is not None and found[1].habit and not found[1].negations


def _without(tokens: Sequence[Token]) -> bool:
    """A clause of manner in 〜ず / 〜ずに with no subject of its own (そのまま受け取らず、): how the
    new ability is used, not a fault of its own."""
    words = [t for t in tokens if t.pos[0] not in _FINAL_SKIP]
    said = any(t.surface in ("が", "は") and t.pos[0] == "助詞" for t in words)
    return not said and bool(words) and (words[-1].lemma == "ず" or (
        len(words) >= 2 and words[-2].lemma == "ず" and words[-1].surface == "に"))


def _came_to(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """A change in 〜てきて of a neutral subject, read as a problem only by its verb (間が詰まってきて,
    with no 〜てしまう, まだ, 〜すぎる): what it led to (〜ようになった) says which way it went."""
    words = [t for t in tokens if t.pos[0] not in _FINAL_SKIP]
    if len(words) < 4 or words[-1].surface != "て" or words[-2].lemma not in ("くる", "来る"):
        return False
    found = _head(words[:-1])
    if found is None:
        return False
    head, chain = found
    lex = lexicon()
    return chain.came and not chain.negations and not chain.excess and _lemma_in(words[head], lex.problem_verbs) \
        and _subject(words, head, lex, negative) == 0 and not any(t.lemma in _STILL | _FAULT_MARKS for t in words)


def _passive_end(tokens: Sequence[Token]) -> bool:
    """The clause ends in a passive + ず (惑わされず, 流されずに): not being acted on, which in Japanese
    is mostly not being troubled (the adverse passive), never a fault of the subject's own."""
    words = [t for t in tokens if t.pos[0] not in _FINAL_SKIP]
    if words and words[-1].surface == "に":
        words = words[:-1]
    return len(words) >= 3 and words[-1].lemma == "ず" and words[-2].lemma in ("れる", "られる") \
        and words[-2].pos[0] == "助動詞" and words[-3].pos[0] == "動詞"


def _said_of_nominal(tokens: Sequence[Token]) -> bool:
    """The clause's subject is a nominalized clause (〜ことが, 〜のが, 〜場面が): what came before it
    with 〜て may be part of that clause, not a clause of its own."""
    return any(t.lemma in _OCCASIONS | {"の"} and n.surface in _SUBJECT_PARTICLES and i >= 1
               and _adnominal(tokens[i - 1]) for i, (t, n) in enumerate(pairwise(tokens)))


def _te_joint(tokens: Sequence[Token]) -> bool:
    """The clause ends in 〜て / 〜で after a verb (震えて, 崩れて)."""
    words = [t for t in tokens if t.pos[0] not in _FINAL_SKIP]
    return len(words) >= 2 and words[-1].surface in ("て", "で") and words[-2].pos[0] == "動詞"


def _change_clause(tokens: Sequence[Token]) -> bool:
    """A continuative clause that tells a change (軽くなり、, 呼吸が整い、, 構えが安定し、)."""
    words = [t for t in tokens if t.pos[0] not in _FINAL_SKIP]
    if len(words) < 2 or not any(t.surface in _SUBJECT_PARTICLES and t.pos[0] == "助詞" for t in words):
        return False
    last = words[-1]
    verb = words[-2] if last.lemma in ("する", "為る") else last
    continuative = last.surface in ("なり", "し") or (last.pos[0] == "動詞" and last.surface in (
        last.lemma[:-1] + "い", last.lemma[:-1]))  # 整い、 / 増え、
    return continuative and (last.lemma in ("なる", "成る") or verb.lemma in _SETTLE or verb.lemma in _AMOUNT)


def former_fault_not_seen(before: Sequence[Token], after: Sequence[Token], negative: Sequence[str]) -> bool:
    """以前は〜を読み間違えることがあったが、今回は一度も見られなかった / 前回は中あんが透けていたが、今回は
    透けが見られなかった: the clause after a past fault says nothing is seen, either of no subject
    (the fault conceded before it, said a problem) or of the stem of the former clause's verb."""
    parts = _clauses(after)
    if not parts or any(read_clause(p, negative) == "problem" for p in parts[:-1]):
        return False
    found = _head(parts[-1])
    if found is None or found[1].negations % 2 == 0:
        return False
    head, chain = found
    lex = lexicon()
    word = parts[-1][head]
    if not (_lemma_in(word, lex.existence_verbs) or word.lemma in ("ない", "無い") or (word.lemma == "見る" and chain.rareru)):
        return False
    subjects = [t for t, n in pairwise(parts[-1][:head]) if n.surface in _SUBJECT_PARTICLES and n.pos[0] == "助詞"
                and t.pos[0] in ("名詞", "代名詞", "動詞") and t.surface not in _NOW_WORDS and t.surface not in _ONCE]
    if not subjects:
        return read_clauses(before, negative) == "problem"  # 一度も見られなかった: the fault conceded
    clauses = _clauses(before)
    former = _head(clauses[-1]) if clauses else None
    verb = clauses[-1][former[0]] if former is not None else None
    return verb is not None and verb.pos[0] == "動詞" and verb.lemma not in ("する", "為る") \
        and subjects[-1].surface == verb.surface and verb.surface != verb.lemma  # 透けていた -> 透けが


def read_clause_text(text: str, negative: Sequence[str] = ()) -> Reading:
    """:func:`read_clauses` of the whole ``text`` (for tests and examples)."""
    return read_clauses(analyze(text[:2_000]), negative)


#: Auxiliaries and verbs after which ため is a cause (切り込んでいるため, 切り上げたため, 多いため), not a purpose.
_CAUSE_BEFORE = frozenset({"た", "だ", "ない", "ず", "ぬ", "いる", "ある", "おる", "てる"})


def _cause_split(tokens: Sequence[Token]) -> int | None:
    """Where a cause in 〜ため、 ends (墨線の内側まで切り込んでいるため、): ため after a past, a
    negation, 〜ている or an adjective, followed by a pause or に; 上達するために (a purpose) is not one.
    A verb + すぎ、 (送りすぎ、麺の幅が太くなっていた) is a cause too."""
    for i in range(1, len(tokens) - 1):
        t, prev, nxt = tokens[i], tokens[i - 1], tokens[i + 1]
        if t.surface not in ("ため", "為") or t.pos[0] != "名詞":
            continue
        cause = prev.lemma in _CAUSE_BEFORE or prev.pos[0] == "形容詞"
        if cause and (nxt.pos[0] in ("空白", "補助記号") or nxt.surface == "に"):
            return i
    for i in range(1, len(tokens) - 1):  # こま板を送りすぎ、: an excess as the cause of what follows
        if tokens[i].surface == "すぎ" and tokens[i - 1].pos[0] == "動詞" and tokens[i + 1].pos[0] in ("空白", "補助記号"):
            return i
    return None


def _judged(tokens: Sequence[Token], lex: Lexicon, negative: Sequence[str]) -> bool:
    """Some word of ``tokens`` is judged by the lexicon: good (均一, そろう, a "can"; not a bare 〜やすい,
    浮きやすい) or a fault (崩れる, 落ちる, a problem word of the ruleset), negated or not."""
    good = lex.positive_states | lex.positive_nouns | lex.better_words | _FURTHER
    bad = lex.problem_verbs | lex.negative_states | lex.problem_nouns
    text = "".join(t.surface for t in tokens)
    can = [i for i, t in enumerate(tokens) if _potential(t) or _can_form(t) or t.lemma in ("できる", "出来る")]
    can = [i for i in can if i + 1 == len(tokens) or tokens[i + 1].lemma not in ("ず", "ない", "ぬ")]  # つかめずに
    return bool(can) or any(_lemma_in(t, good | bad) for t in tokens) or any(w in text for w in negative)


def _good_token(token: Token, good: frozenset[str]) -> bool:
    """``token`` is one of the ``good`` words: by its lemma for a verb (伸びなく is no 伸び), never an
    auxiliary (まし of ました is no まし)."""
    if token.pos[0] == "助動詞":
        return False
    return token.lemma in good or token.normalized in good or (token.pos[0] != "動詞" and token.surface in good)


def _omitted(tokens: Sequence[Token], lex: Lexicon) -> bool:
    """A step left out: a verb that is no fault, negated by 〜ず / 〜ずに / 〜ないで (考えずに, 確かめずに;
    not 崩さずに, 焦らずに, whose verb is a fault)."""
    return any(t.pos[0] == "動詞" and n.lemma in ("ず", "ない", "ぬ") and n.pos[0] == "助動詞"
               and not _lemma_in(t, lex.problem_verbs) for t, n in pairwise(tokens))


def unjudged_consequence(tokens: Sequence[Token], negative: Sequence[str] = ()) -> bool:
    """A cause in 〜ため、 that is nothing good, then a result that no word judges (切り込んでいるため、
    ほぞが細くなり、がたつきが出ている; 手のひらが外を向いているため、腕が空回りしやすい): a coach
    explains a cause to account for a fault, so the result's reading by default (an unmarked change, a
    neutral 〜なくなった, a neutral 〜やすい) does not make it progress. A good cause (丁寧に行ったため)
    or a judged result (崩れなくなった, 均一になってきた) is read as usual."""
    split = _cause_split(tokens)
    if split is None or split < 2:
        return False
    start = max((i + 1 for i in range(split) if tokens[i].surface in ("。", "．")), default=0)
    end = next((i for i in range(split, len(tokens)) if tokens[i].surface in ("。", "．")), len(tokens))
    cause, result = tokens[start:split], tokens[split + 1 : end]
    lex = lexicon()
    good = lex.positive_states | lex.positive_nouns | lex.better_words  # 詰めている: no "can" here
    reading = read_clauses(cause, negative)
    if result and tokens[split].surface == "すぎ":  # 送りすぎ、幅が太くなっていた: an excess, then its result
        return read_clauses(result, negative) != "praise" and not any(_lemma_in(t, lex.better_words) for t in result)
    if not result or any(_good_token(t, good) for t in cause) or reading in ("better", "praise"):
        return False
    if reading == "problem" and not any(_good_token(t, good) for t in result):
        return True  # 上体が突っ込んでいるため、球が高めに浮きやすい: a fault, then what it leads to
    if _omitted(cause, lex) and not any(_good_token(t, good) for t in result) \
            and read_clauses(result, negative) not in ("better", "praise"):
        return True  # 配置を考えずに書き始めたため、スペースがなくなり: a step left out, then its result
    return read_clauses(result, negative) != "problem" and not _judged(result, lex, negative)


def _pace_changed(tokens: Sequence[Token]) -> bool:
    """The clause says a pace became faster or slower (速度が速くなった, テンポが遅くなった): only the
    domain says which way is better, so after progress it stays what it reads alone, a problem (the safe
    side; known cost: 踏み込みが安定し、スイングのスピードが速くなった)."""
    found = _head(tokens)
    if found is None:
        return False
    head, chain = found
    return tokens[head].lemma in _QUICK | {"遅い"} and chain.became and not chain.negations and any(
        t.surface.endswith(_PACE) for t in tokens[:head])


#: Words that make a described act a fault when they stand un-negated in it (事実と違うことを言う).
_DEVIATE = frozenset({"違う", "異なる", "間違える", "誤る"})
#: Time and frequency words that say the absence is a change (もうない, 今回は見られなかった).
_NOW_OR_AGAIN = frozenset({"もう", "今回", "今日", "本日", "今月", "今週", "前回", "以前", "先週", "先月", "すっかり"})


def _negated_at(tokens: Sequence[Token], i: int) -> bool:
    """The verb at ``i`` is followed by a negator before the next content word (慌てずに)."""
    for t in tokens[i + 1 : i + 3]:
        if t.lemma in ("ない", "ず", "ぬ") and t.pos[0] in ("助動詞", "形容詞"):
            return True
        if t.pos[0] not in ("助動詞", "助詞", "接尾辞"):
            return False
    return False


#: Steps of care whose omission (確認せずに, 待たずに, 安全帯を付けず) makes the act that follows a fault.
_CARE_STEPS = frozenset({"待つ", "確認", "確かめる", "見る", "聞く", "測る", "読む", "考える", "見直す", "点検", "準備",
                         "計る", "量る", "調べる", "洗う", "消毒", "付ける", "着ける", "着用", "装着", "被る", "かぶる",
                         "締める", "掛ける", "かける", "履く", "固定", "施錠"})


def _skipped_step(tokens: Sequence[Token], verb: int) -> bool:
    """``tokens[verb]`` (before ず) is a step of care or a verb of "cannot" (待ちきれず, 我慢できず)."""
    t = tokens[verb]
    if t.lemma in ("する", "為る", "できる", "出来る") and verb >= 1:
        t = tokens[verb - 1] if t.lemma in ("する", "為る") else t
        if t.lemma in ("できる", "出来る"):
            return True
    return _lemma_in(t, _CARE_STEPS) or (t.pos[0] == "動詞" and t.lemma.endswith(("きれる", "切れる")))


def _fault_in_act(modifier: Sequence[Token], negative: Sequence[str]) -> bool:
    """The act a topic noun names is a fault: its modifier reads as a problem (つまずいて手が止まる),
    holds an un-negated fault verb (慌てて背中を叩く) or a deviation (事実と違うことを言う), a step
    left out (乾燥を待ちきれずに入る: a verb then ず), or was pointed out (前回指摘したアンダーカット)."""
    if not modifier or read_clauses(modifier, negative) == "problem":
        return bool(modifier)
    lex = lexicon()
    for i, t in enumerate(modifier):
        if t.pos[0] == "動詞" and (_lemma_in(t, lex.problem_verbs) or t.lemma in _DEVIATE) and not _negated_at(modifier, i):
            return True
        if t.lemma == "ず" and t.pos[0] == "助動詞" and i >= 1 and _skipped_step(modifier, i - 1):
            return True
    tail = [t.lemma for t in modifier[-3:]]
    return "指摘" in tail and all(t.surface != "を" for t in modifier[-4:])


def fault_act_not_seen(tokens: Sequence[Token], negative: Sequence[str] = ()) -> bool:
    """一つの文 「<a fault described> N は(、)(もう/今回は/一度も) 見られなくなった / 見られなかった / もうない /
    もうしなくなった」: the noun is neutral (箇所, 対応, 声かけ, こと, 癖), its modifying clause says the
    fault, and the negated seeing or existence after the topic says it is gone -- an improvement,
    whatever the topic noun is. A good act not seen (確認する様子は見られなかった) has no fault in
    its modifier and is left alone; so is an absence with no word of change (慌てる様子はない)."""
    body = [t for t in tokens if t.pos[0] != "空白"]
    while body and body[-1].pos[0] in _FINAL_SKIP:
        body.pop()
    if len(body) < 5 or any(t.surface in ("。", "．", "!", "?") for t in body):
        return False
    topic = max((i for i in range(1, len(body) - 1) if body[i].surface in ("は", "も") and body[i].pos[0] == "助詞"
                 and body[i - 1].pos[0] in ("名詞", "接尾辞") and body[i - 1].surface not in _NOW_WORDS
                 and body[i - 1].surface not in _ONCE), default=None)
    if topic is None:
        return False
    after = [t for t in body[topic + 1:] if t.surface not in ("、", ",", "，")]
    if any(t.surface == "が" and t.pos[0] == "助詞" for t in after):
        return False  # 〜点は、今回も改善が見られなかった: what is not seen is 改善, not the topic
    parts = _clauses(after)
    found = _head(parts[-1]) if parts else None
    if found is None or found[1].negations % 2 == 0 or any(read_clause(p, negative) == "problem" for p in parts[:-1]):
        return False
    chain, ends = found[1], parts[-1][found[0]:]  # もうない / もうしなくなった: the adverb is taken as the head
    word = ends[1] if len(ends) > 1 and ends[0].pos[0] == "副詞" else ends[0]
    exists = _lemma_in(word, lexicon().existence_verbs) or word.lemma in ("ない", "無い") \
        or (word.lemma == "見る" and chain.rareru) or (word.lemma in ("する", "為る") and body[topic - 1].lemma == "こと")
    changed = chain.no_longer or any(t.surface in _NOW_OR_AGAIN or t.surface in _ONCE for t in after)
    if not (exists and changed) or body[topic - 1].lemma in ("姿", "様子", "姿勢", "配慮", "工夫", "習慣"):
        return False
    start = max((i + 1 for i in range(topic - 1) if body[i].surface in _SUBJECT_PARTICLES and body[i].pos[0] == "助詞"
                 and body[i + 1].surface in ("、", ",")), default=0)
    noun = body[topic - 1]
    return _fault_in_act(body[start:topic - 1], negative) or _lemma_in(noun, lexicon().problem_nouns)


def _manner_negation(part: Sequence[Token]) -> int | None:
    """Where a clause ends in a negation of manner (使わず、/ 口を挟まずに / 頼らないで): the index of the
    negator, or None. 〜なくなり (no longer) and 〜ない (a final negation) are not manner."""
    body = [t for t in part if t.pos[0] not in _FINAL_SKIP]
    if len(body) < 2:
        return None
    k = len(body) - 1
    if body[k].surface in ("に", "で") and body[k].pos[0] == "助詞":
        k -= 1
        if body[k].surface == "ない" and body[k].pos[0] == "助動詞" and body[k + 1].surface == "で":
            return k  # 頼らないで
    return k if body[k].lemma in ("ず", "ぬ") and body[k].pos[0] == "助動詞" and k >= 1 else None


def manner_then_better(clause: Sequence[Token], negative: Sequence[str] = ()) -> bool:
    """「Xず(に)、Yようになった / Yが定着した」: clauses that end in a negation of manner ("without X")
    before a last clause read as progress are how the new practice is done, not a fault --
    リキャップせず、そのまま捨てる手順が定着した; 口を挟まず、待てるようになった. Leaving out a step of
    care (確認せずに作業を始めるようになった: a fault formed) stays a problem unless the last clause says
    "can" (メモを見ずに話せるようになった: a crutch dropped); so does a clause whose act, un-negated, is
    good (丁寧に説明せず)."""
    parts = _clauses(clause)
    if len(parts) < 2 or read_clause(parts[-1], negative) != "better":
        return False
    last = parts[-1]
    can = any(t.lemma in ("できる", "出来る") or _potential(t) for t in last) or ends_can_now(last)
    manner = 0
    for part in parts[:-1]:
        reading = read_clause(part, negative)
        if reading != "problem":
            continue
        body = [t for t in part if t.pos[0] not in _FINAL_SKIP]
        k = _manner_negation(part)
        if k is None or read_clause(body[:k], negative) in ("better", "praise"):
            return False
        verb = body[k - 1] if body[k - 1].lemma not in ("する", "為る") or k < 2 else body[k - 2]
        if not can and (_lemma_in(verb, _CARE_STEPS) or verb.lemma.endswith(("きれる", "切れる"))):
            return False
        manner += 1
    return manner > 0


def is_manner_negation(tokens: Sequence[Token], k: int) -> bool:
    """``tokens[k]`` negates a verb of manner (腕振りを止めずに入れている, 口を挟まず、): ず / ずに / ないで
    before more of the clause, of a verb that is no step of care (確認せずに is a step left out)."""
    t = tokens[k]
    nxt = tokens[k + 1] if k + 1 < len(tokens) else None
    if nxt is None or k < 1 or tokens[k - 1].pos[0] not in ("動詞", "助動詞"):
        return False
    manner = (t.lemma in ("ず", "ぬ") and t.pos[0] == "助動詞" and (nxt.surface == "に" or nxt.pos[0] in ("補助記号", "空白"))) \
        or (t.surface == "ない" and t.pos[0] == "助動詞" and nxt.surface == "で" and nxt.pos[0] == "助詞")
    return manner and not _skipped_step(tokens, k - 1)


#: Words of a time before that, in a first clause of progress, make it a progress of the past (一度は直り、
#: 以前より速くなり): what follows may be its undoing, so the rule below leaves such findings as they read.
_BEFORE_NOW = frozenset({"一度", "一時", "一時期", "以前", "前回", "先月", "先週", "これまで", "今まで"})
#: Verbs after which a result is an undoing (〜に戻ってしまった, 上体が流れるようになってしまう).
_UNDOING = frozenset({"しまう", "仕舞う", "戻る", "ちゃう"})


def progress_then_result(tokens: Sequence[Token], negative: Sequence[str] = ()) -> bool:
    """A first clause of progress and a last clause of what it brought (漆の塗り厚が均一になり、縮みじわが出なく
    なった; 伝え漏れが減り、今回は1件だけだった): the result is told in words that read as a fault alone
    (出ない, だけ, 残る), but the finding is an improvement. Only when the first clause changed for the
    better now (no 一度 / 以前 / 前回 in it), and the last has no undoing (戻ってしまった) nor a "cannot"
    (取り切れていません): 以前より説明が速くなり、生徒がノートを取り切れていない stays a problem."""
    parts = _clauses(tokens)
    if len(parts) != 2 or not _continuative(parts[0][-1]):
        return False  # one sentence: 〜が減り、〜 (not 〜が安定してきた。〜: a second point)
    lex = lexicon()
    comp = _compares(tokens, lex)
    first, last = parts[0], parts[-1]
    if any(t.lemma in ("回数", "頻度", "ばかり") or is_negator(t) for t in first):
        return False  # こねる回数が減り、/ 大技ばかり練習するようになり、/ 目分量で使わずに注ぐようになり、
    if any(t.lemma in lex.increase_verbs or t.lemma in ("多い", "長い") for t in last):
        return False  # 第一声が明るくなり、保留の時間が長くなった: more of a cost
    if any(is_negator(t) for t in last) and any(t.lemma in lex.positive_states for t in last):
        return False  # 〜ようになり、味が安定しない: a good state denied
    if read_clause(first, negative, comp) != "better" or read_clause(last, negative, comp) != "problem":
        return False
    if any(t.surface in _BEFORE_NOW or t.lemma in _BEFORE_NOW for t in first):
        return False
    undone = any(t.lemma in _UNDOING for t in last)
    can = any(t.lemma in ("できる", "出来る", "られる", "れる") or t.lemma.endswith("切れる") for t in last)
    return not undone and not (can and any(is_negator(t) for t in last))  # 取り切れていません: cannot


def _continuative(token: Token) -> bool:
    """``token`` ends a clause that goes on (減り、/ 均一になり、/ 改善され、/ 柔らかくなって、)."""
    if token.pos[0] == "助詞":
        return token.surface in ("て", "で")
    return token.pos[0] in ("動詞", "助動詞") and token.surface != token.lemma \
        and not token.surface.endswith(("た", "だ", "る", "う", "す", "い", "ん"))
