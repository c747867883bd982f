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
from itertools import pairwise

from sadame.lang import Token, analyze
from sadame.lang._can import ability_kept_up, past_fault_then_ability
from sadame.lang._change import change_of, has_progress_cue, has_return_cue, main_clause, now_contrast
from sadame.lang._findings import praise_is_negated
from sadame.lang._good_past import good_past_then_plain_now
from sadame.lang._lexicon import lexicon
from sadame.lang._point import fault_point_improved
from sadame.lang._polarity import is_negator, negations_after
from sadame.lang._predicate import (
    eases_an_excess,
    ends_can_now,
    fault_act_not_seen,
    former_fault_not_seen,
    is_manner_negation,
    manner_then_better,
    progress_then_result,
    read_clauses,
    unjudged_consequence,
)
from sadame.track._lost import good_past_gone, nearly_happened, not_noticed, not_yet_become

__all__ = ["KINDS", "SUBJECT_SEPARATOR", "clean_markup", "finding_meaning", "is_praise", "negative_is_resolved",
           "subject_of"]

SUBJECT_SEPARATOR = "@"
_LIST_MARKER = re.compile(
    r"^\s*(?:[-*+]\s+|[・•●○◆■□▶►‣]\s*|#{1,6}\s+|>+\s*"  # bullets, headings, quotes
    r"|\(?[0-9０-９]{1,3}(?:[.．](?![0-9０-９])|[)）、])\s*|[（(][0-9０-９]{1,3}[)）]\s*"  # 1. 1) (1) 1、
    r"|[①-⑳]\s*|[a-zA-Z][.)]\s+)"
)
_EMPHASIS = re.compile(r"(\*\*|__|\*|`|~~)")
_BRACKETS = str.maketrans("", "", "「」『』“”\"【】")
# Words after a problem word that say it went away (遅れがなくなった, ミスが減った, 不足が解消した).
_RESOLVED = frozenset({"なくなる", "無くなる", "解消", "減る", "消える", "収まる", "治る", "改善", "克服", "減少",
                       "解決", "直る", "少ない"})
# Predicates that say a problem is there; negated, they say it is not (問題は見当たらない).
_PRESENT = frozenset({"ある", "見当たる", "見られる", "見る", "見える", "目立つ", "残る", "出る", "起きる", "生じる"})
#: 〜とは言えない / 〜とは言い難い / 〜とまでは言い切れない: what precedes is said not to hold (not とは言え、).
_NOT_SAID = re.compile(r"と(?:まで)?は(?:言|い)(?:えな|えず|えま|いがた|い難|い切れな|い切れず|い切れま)")
_CONNECT = frozenset({"の", "が", "は", "も", "を", "に", "で"})
#: もう少し〜だと、 / もう少し〜れば、: what would be better if it were so is not so yet (a wish, a problem).
_WISH = re.compile(r"もう少し[^。、]{0,30}?(?:だと|ると|いと|ければ|れば|えば|たら|なら)[、 ]")
#: A change within one performance (途中で…、終わりには最初より速くなっていた; 途中から太くなっていた): a drift,
#: not progress since last time.
_DRIFT = re.compile(r"(?:(?:途中|終わり|後半|終盤)[^。]{0,20}?(?:最初|始め|出だし|冒頭)より|途中から)[^。、 ]{0,12}?"
                    r"(?:く|に)な(?:っ|り|る)")
#: Nouns of a habit or a manner shown (確認する姿, 確かめる関わり): as good as the clause before them.
#: 様子 and 動作 are said of faults as often (身構える様子が見られなくなった), so they are not among them:
#: they count only of an act of attending or checking (気を配る様子, 間合いを測る動作).
_SEEN = frozenset({"様子", "動作"})
_ATTEND = frozenset({"配る", "測る", "見極める", "確かめる", "見直す", "見返す"})
_HABIT = frozenset({"姿", "関わり", "習慣", "所作", "姿勢", "配慮", "気配り", "心がけ", "工夫"})
_HABIT_WORDS = tuple(_HABIT | _SEEN)
#: Acts of checking and preparing: a coach wants them done, so not doing them any more is a loss.
_CHECKS = ("確認", "点検", "停止", "準備", "声かけ", "声掛け", "挨拶", "報告", "連絡", "復唱", "指差し", "点呼", "手入れ",
           "片付け", "片づけ", "手洗い", "掃除", "準備運動", "ウォーミングアップ", "ストレッチ")
#: Words of "even more" after a good past (さらに分かりやすくなった): progress beyond it, not a loss.
_STILL = frozenset({"さらに", "更に", "一層", "いっそう", "一段", "一段と", "もっと", "より"})
#: Verbs of checking, and of telling and asking (読み上げる, 尋ねる): their count falling is a loss.
_CHECK_VERBS = frozenset({"確かめる", "見直す", "見返す", "読み上げる", "尋ねる", "問いかける", "話しかける", "呼びかける",
                          "伝える", "確認"})
#: Words between 〜を and しなくなった that say nothing of the act (〜を、最近はしなくなった).
_ASIDE = frozenset({"最近", "は", "もう", "あまり", "このところ", "近頃", "すっかり"})
#: Particles of "but" after a clause (良いが、/ 評価できるものの、/ 丁寧だけど、).
_BUT = frozenset({"が", "ものの", "けれど", "けれども", "けど"})
_PREDICATES = ("動詞", "形容詞", "助動詞", "形状詞")
_PAST_OR_STILL = frozenset({"前回", "以前", "先週", "先月", "引き続き", "相変わらず"})
_BUT_AT = re.compile(r"(?:が|ものの|反面|けど|けれど|けれども)[ 、,]")
#: A level or a target to reach (段階, 水準, 目標とする早さ) and the verbs of reaching it.
_TARGETS = ("段階", "水準", "レベル", "目標", "目指", "基準", "目安", "合格", "及第", "域")
_REACH = frozenset({"至る", "達する", "届く", "及ぶ", "到達", "達"})
#: Words of now after a past (以前は〜が、今回は〜).
_NOW_WORDS = frozenset({"今回", "今日", "本日", "今週", "今月", "今年", "今度"})
_NOW_AT = re.compile("今回|今日|本日|今週|今度")
#: A span of time (10分, 1時間, 30秒) and its length in seconds.
_DURATION = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(秒|分|時間|日)")
_UNIT_SECONDS = {"秒": 1.0, "分": 60.0, "時間": 3600.0, "日": 86400.0}
#: A time taken or waited, from one span to another (かかる時間が20分から10分に, 1時間後だったのが15分以内に).
_SPAN_TO_SPAN = re.compile(r"(?<![0-9.])([0-9]+(?:\.[0-9]+)?)\s*(秒|分|時間|日)(?:後|ほど|程度|くらい|ぐらい|前後)?"
                           r"(?:から|だったのが|かかっていたのが)[、 ]?(?:[^。、 ]{0,8}?)([0-9]+(?:\.[0-9]+)?)\s*(秒|分|時間|日)")
#: Words that make a span a time taken (所要時間, 〜にかかる時間, 送信が1時間後): shorter is progress.
_TAKEN = re.compile(r"かか|所要|要する|後だったのが|手間")


def clean_markup(text: str) -> str:
    """The finding without Markdown, list markers, numbering and quoting brackets."""
    out = text.strip()
    for _ in range(3):  # "- 1. **x**": marker, numbering, emphasis, in any order
        stripped = _LIST_MARKER.sub("", _EMPHASIS.sub("", out)).strip()
        if stripped == out:
            break
        out = stripped
    return out.translate(_BRACKETS).strip()


def _predicate_after(tokens: Sequence[Token], index: int) -> int | None:
    """The first predicate after ``tokens[index]`` in its clause: a verb, an adjective, a
    negator, or a word that says a problem is present or gone (解消, 見当たる)."""
    for position in range(index + 1, len(tokens)):
        token = tokens[position]
        if token.pos[0] == "補助記号" or (token.pos[0] == "助詞" and token.pos[1] == "接続助詞"):
            return None
        if token.lemma in _RESOLVED or token.normalized in _RESOLVED or token.lemma in _PRESENT:
            return position
        nominal = position + 1 < len(tokens) and tokens[position + 1].pos[0] == "接尾辞" and tokens[
            position + 1].surface in ("さ", "み")  # 小ささ, 弱み: a noun, not the predicate
        if token.pos[0] in ("動詞", "形容詞") and not nominal:
            return position
    return None


def negative_is_resolved(text: str, word: str) -> bool:
    """True when every occurrence of the problem ``word`` is said to be absent (不足はない,
    問題は見当たらない) or gone (遅れがなくなった, 冗長な表現が解消された), judged by the first
    predicate after it; 遅れがなくなっていない and 原因が分からない leave it standing."""
    tokens = analyze(text)
    start, found, resolved = text.find(word), 0, 0
    while start != -1:
        found += 1
        end = start + len(word)
        last = next((i for i, t in enumerate(tokens) if t.begin < end <= t.end), None)
        head = None if last is None else _predicate_after(tokens, last)
        if head is not None:
            t = tokens[head]
            negated = (1 if t.normalized in ("ない", "無い") and t.pos[0] == "形容詞" else 0) + len(
                negations_after(tokens, head))
            if t.lemma in _RESOLVED or t.normalized in _RESOLVED:
                resolved += negated % 2 == 0
            elif t.lemma in _PRESENT or t.normalized in ("ない", "無い"):
                resolved += negated % 2 == 1
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


_NEGATING_PREFIXES = ("不", "非", "無", "未")


def _ends_negated(text: str) -> bool:
    tokens = [t for t in analyze(text) if t.pos[0] not in ("空白", "補助記号")]
    return any(negations_after(tokens, i) for i in range(max(0, len(tokens) - 4), len(tokens)))


#: What a finding says: a problem, praise, or an improvement (change for the better).
KINDS = ("problem", "praise", "improvement")


def finding_meaning(text: str, positive: Sequence[str], negative: Sequence[str]) -> str:
    """``problem``, ``praise`` or ``improvement`` for the normalized finding ``text``.

    A return cue (また, 再び, ぶり返す) makes it a problem; otherwise the final predicate of the main
    clause is read with the polarity lexicon (:mod:`sadame.lang._predicate`): a problem or an
    improvement stands, praise stands unless a ruleset problem word is left standing. When the
    lexicon cannot tell, the last change cue of the main clause decides (see :mod:`sadame.lang._change`): 〜すぎる / まだ are problems,
    〜ようになった / 〜なくなった / 改善された are improvements. Without one, praise in the main
    clause (after the last 〜が、/ 〜ものの) is praise -- an improvement when it compares with
    the past or continues (前回より, 引き続き) -- and anything else is a problem.

    A named thing that got better, then a residual (〜が整ってきたが、まだ少し〜 / 〜ようになった。
    ただ、〜ときだけ〜) is an improvement with a caveat, read before all that; progress said of
    nothing in particular (前回より改善したが、まだ結論が曖昧) leaves the problem standing.

    >>> finding_meaning("かかと着地がなくなった", ("良い",), ("遅れ",))
    'improvement'
    >>> finding_meaning("ヒアリングは上手だが、提案につなげられていない", ("上手",), ())
    'problem'
    >>> finding_meaning("資料の説明は引き続き分かりやすい", ("分かりやす",), ())
    'improvement'
    >>> finding_meaning("足さばきが整ってきたが、後ろ足はまだ少し床につく", (), ())
    'improvement'
    """
    if has_return_cue(text) or _NOT_SAID.search(text):
        return "problem"  # 小さくなったとは言えず、: a change or praise said not to hold
    tokens = analyze(text[:2_000])
    if _vetoed(text, tokens, negative) or (_BUT_AT.search(text) and _praise_then_but(text, tokens, positive, negative)):
        return "problem"  # もう少し具体的だと、: a wish; 確認する姿が見られなくなった: a good habit gone
    if good_past_then_plain_now(tokens, negative):
        return "problem"  # 前回までは理由を伝えられていたが、今回は無言で保留にしていた: an ability lost
    if ("から" in text or "のが" in text) and _took_less_time(text):
        return "improvement"  # かかる時間が30分から15分程度に短縮された
    if unjudged_consequence(tokens, negative):
        return "problem"  # 切り込んでいるため、ほぞが細くなり、がたつきが出ている: a cause, then its result
    if _progress_then_residual(tokens, negative) or _progress_then_former_note(tokens, negative) \
            or fault_act_not_seen(tokens, negative):
        return "improvement"  # 慌てて背中を叩く対応は見られなくなった: a fault act, no longer seen
    if ability_kept_up(tokens) or past_fault_then_ability(tokens, negative) or fault_point_improved(tokens, negative):
        return "improvement"  # 引き続き、〜を付けられている / 前回は〜ていたが、今回は〜聞き取れていた
    clause = main_clause(tokens)
    if _former_fault_then(tokens, clause, negative) or _conceded_fault_then_now(tokens, negative):
        return "improvement"
    by_clause = _main_clause_meaning(text, tokens, clause, negative)
    if by_clause is not None:
        return by_clause
    change = change_of(text, negative)
    if change is not None:
        return "improvement" if change == "better" else "problem"
    return _without_a_change_cue(text, tokens, positive, negative)


def _main_clause_meaning(text: str, tokens: Sequence[Token], clause: Sequence[Token],
                         negative: Sequence[str]) -> str | None:
    """What the main clause's predicates say (:func:`read_clauses`), or None when they tell nothing:
    a problem or a change for the better stands; praise stands unless a problem word is left standing."""
    reading = read_clauses(clause, negative)
    if reading == "problem" and manner_then_better(clause, negative):
        reading = "better"  # 口を挟まず、待てるようになった: "without X" is how, not a fault
    if reading == "problem" and progress_then_result(clause, negative):
        reading = "better"  # 塗り厚が均一になり、縮みじわが出なくなった: progress, then what it brought
    if reading == "problem" or reading == "better":
        return "improvement" if reading == "better" else "problem"
    if reading != "praise":
        return None
    main = now_contrast(text) or (text[clause[0].begin:] if clause else text)
    standing = any(_stands(main, w) and not negative_is_resolved(main, w)
                   and not praise_is_negated(main, w) for w in negative)  # 崩れない: negated, not standing
    if standing:
        return "problem"
    return "improvement" if has_progress_cue(text) or _progress_sentence_first(tokens, negative) else "praise"


def _progress_sentence_first(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """A sentence of progress, then one of praise (〜が減ったね。ちゃんと前を向いて歌えてた): the praise says
    how the progress shows; the finding is the progress. Sentences end in a final form or a sentence-final
    particle (ね, よ) before the normalizer's space."""
    start = 0
    for i in range(1, len(tokens) - 1):
        prev = tokens[i - 1]
        if tokens[i].pos[0] == "空白" and (_sentence_end(prev) or prev.pos[1] == "終助詞"):
            if read_clauses(tokens[start:i], negative) == "better":
                return True
            start = i + 1
    return False


def _without_a_change_cue(text: str, tokens: Sequence[Token], positive: Sequence[str], negative: Sequence[str]) -> str:
    """The end of :func:`finding_meaning`, when no clause reading and no change cue decided:
    a contrast with now, a practice kept up, or praise against the problem words."""
    for word in positive:  # 不適切, 不自然, 無計画: a negating prefix makes praise a problem word
        for prefix in _NEGATING_PREFIXES:
            text = text.replace(prefix + word, "□" * (len(word) + 1))
    now = now_contrast(text)
    if now is not None and not any(w in now and _stands(now, w) for w in negative) and not _ends_negated(now) \
            and not _also_now(now) and not _falls_short(text[: len(text) - len(now)], now, negative):
        before = read_clauses(analyze(text[: len(text) - len(now)]), negative)
        if before in ("praise", "better") and not is_praise(now, positive, negative):
            return "problem"  # 前回は守れていた安全確認を、今回は省略していた: a good past, nothing good now
        return "improvement"  # 以前は曖昧だった…今回は明確に合意できていた
    clause = main_clause(analyze(text[:2_000]))
    main = text[clause[0].begin:] if clause else text
    if _kept_up(tokens, negative) and not any(w in text and _stands(text, w) for w in negative):
        return "improvement"  # 引き続き、作業前にお客様へ所要時間を伝えている: a practice kept up
    if not is_praise(main, positive, negative) or not is_praise(text, positive, [w for w in negative if w in main]):
        return "problem"
    return "improvement" if has_progress_cue(text) else "praise"


def _vetoed(text: str, tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """Constructions that report a problem in words of progress, read before anything else."""
    if _WISH.search(text) or _DRIFT.search(text):  # each test below only where its words are
        return True
    if any(w in text for w in _HABIT_WORDS) and _good_habit_lost(tokens, negative):
        return True
    if ("しなく" in text or "頻度" in text or "回数" in text) and _check_dropped(tokens):
        return True
    if "られなく" in text and _lost_ability(tokens):
        return True
    if any(w in text for w in _TARGETS) and _target_not_reached(tokens, negative):
        return True
    if ("でき" in text or "出来" in text) and _fault_formed(tokens, negative):
        return True
    if "一方" in text and _good_then_contrast(tokens, negative):
        return True
    if good_past_gone(tokens, negative) or ("なって" in text and not_yet_become(tokens, negative)) \
            or ("そうにな" in text and nearly_happened(tokens)) or not_noticed(tokens):
        return True  # 一時は減っていた言い間違いが、今日は; まだ分かる順番になっていない; ぶつかりそうになった
    if not text.startswith(tuple(lexicon().past_words)):
        return False
    return _good_past_lost(tokens, negative) or _done_then_skipped(tokens, negative) or _took_longer(text)


def _done_then_skipped(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """A past of doing something (前回までは天気図を確認していたが、), then now the same act or a check not done
    (今日は確認しないまま出港していた; 洗わずに始めていた): a step dropped, not a fault gone. A former fault
    (焦って確認せずに), one done too often (何度も確かめていた), a crutch (見ながら) or a "can" now (見ずに話せて
    いた) leaves it as it reads."""
    now = next((i for i, t in enumerate(tokens) if t.surface in _NOW_WORDS), None)
    if now is None or now < 3:
        return False
    former, lex = tokens[:now], lexicon()
    faults = lex.problem_verbs | lex.negative_states | lex.problem_nouns  # 迷っていたが、今回は迷わずに: a fault gone
    later = tokens[now:]  # 以前はメモを見ながら話していたが、今回は見ずに話せていた: a crutch dropped, and "can"
    if any(x.lemma in ("できる", "出来る", "られる", "れる") or _potential_form(x) for x in later) or ends_can_now(later) \
            or any(x.surface == "ながら" or x.lemma == "頼る" for x in former):
        return False
    if any(x.lemma in ("ない", "無い", "ず", "ぬ", "多い", "目立つ") or x.lemma in faults for x in former) \
            or _excessive(former, often=True) or read_clauses(former, negative) == "problem":
        return False
    done = {x.lemma for x in former if x.pos[0] in ("動詞", "名詞") and x.lemma not in ("する", "為る", "いる", "居る")}
    for j in range(now + 1, len(tokens) - 1):
        t, nxt = tokens[j], tokens[j + 1]
        skipped = t.lemma in ("ず", "ぬ") or (t.lemma == "ない" and t.pos[0] == "助動詞" and nxt.surface in ("まま", "で"))
        head = j - 1 if tokens[j - 1].lemma not in ("する", "為る") or j < 2 else j - 2
        if skipped and head > now and tokens[head].lemma not in faults \
                and (tokens[head].lemma in done or _checking(tokens[head])):
            return True
    return False


def _potential_form(token: Token) -> bool:
    """A godan verb's potential (走れる, 話せる): Sudachi gives it a lemma one kana longer than its normalized form."""
    return token.pos[0] == "動詞" and token.lemma != token.normalized and len(token.lemma) == len(token.normalized) + 1 \
        and token.lemma.endswith("る")


_KANJI_DIGITS = {c: n for n, c in enumerate("〇一二三四五六七八九")}
_KANJI_NUMBER = re.compile(r"([一二三四五六七八九]?十[一二三四五六七八九]?|[〇一二三四五六七八九])(?=秒|分|時間|日)")


def _kanji_value(found: re.Match[str]) -> str:
    """A kanji numeral below 100 (三, 十五, 四十) as digits; a bare 十分 is じゅうぶん (enough), kept."""
    word = found.group(1)
    if word == "十" and found.string.startswith("分", found.end()):
        return word
    if "十" not in word:
        return str(_KANJI_DIGITS[word])
    tens, _, ones = word.partition("十")
    return str(_KANJI_DIGITS.get(tens, 1) * 10 + _KANJI_DIGITS.get(ones, 0))


def _took_less_time(text: str) -> bool:
    """A time taken, from a longer span to a shorter one (付箋の整理にかかる時間が20分から10分に縮まった): progress,
    when nothing follows it as a contrast (〜に縮まったが、仕上がりが雑になった reads as it reads)."""
    found = _SPAN_TO_SPAN.search(_KANJI_NUMBER.sub(_kanji_value, text))
    if found is None or not _TAKEN.search(text) or _BUT_AT.search(text[found.end():]):
        return False
    before = float(found.group(1)) * _UNIT_SECONDS[found.group(2)]
    return float(found.group(3)) * _UNIT_SECONDS[found.group(4)] < before


def _took_longer(text: str) -> bool:
    """A past time, then now a longer one taken (先週は10分で済んでいた聞き取りに、今回は30分以上かかっていた):
    a loss, whatever the act; a shorter one reads as before."""
    split = next((m.start() for m in _NOW_AT.finditer(text)), None)
    if split is None or "かか" not in text[split:]:
        return False
    arabic = _KANJI_NUMBER.sub(_kanji_value, text)  # 三時間台 / 五時間以上: numerals in kanji compare too
    split = next((m.start() for m in _NOW_AT.finditer(arabic)), split)
    before, after = _DURATION.findall(arabic[:split]), _DURATION.findall(arabic[split:])
    if not before or not after:
        return False
    def seconds(found: tuple[str, str]) -> float:
        return float(found[0]) * _UNIT_SECONDS[found[1]]
    return seconds(after[0]) > seconds(before[-1])


def _praise_then_but(text: str, tokens: Sequence[Token], positive: Sequence[str], negative: Sequence[str]) -> bool:
    """Praise that changes nothing, then 〜が、/ 〜ものの、/ 〜反面、/ 〜けど、 and a clause with no praise of
    its own: the coach's point is what follows (スピードは申し分ないが、技が流れてしまい極めが見えない). Progress
    before the contrast (良くなったが、まだ…: a residual) and praise after it (〜も丁寧だった) read as before."""
    for i in range(1, len(tokens) - 1):
        t, nxt = tokens[i], tokens[i + 1]
        but = (t.surface in _BUT and t.pos[1] == "接続助詞") or (t.surface == "反面" and tokens[i - 1].pos[0] != "名詞") \
            or (t.surface == "の" and tokens[i - 1].surface == "もの" and i > 1 and tokens[i - 2].pos[0] in _PREDICATES)
        if not but or nxt.pos[0] not in ("空白", "補助記号"):
            continue
        end = i - 1 if t.surface == "の" else i  # 評価できるものの: the clause ends before もの
        before, after = text[: tokens[end].begin], text[nxt.end :]
        if any(x.lemma == "なる" or x.surface in _PAST_OR_STILL for x in tokens[:i]):
            return False  # 良くなったが、まだ: progress, then a residual
        reading = read_clauses(tokens[:end], negative)
        praised = reading == "praise" or (any(w in before for w in positive) and is_praise(before, positive, negative))
        if not praised or reading == "better" or has_progress_cue(before):
            return False
        rest = tokens[i + 2 :]
        return len(rest) > 1 and not (is_praise(after, positive, negative) and read_clauses(rest, negative) != "problem")
    return False


def _good_past_lost(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """前回まではできていた、〜が今回は抜けていた: an opener that says a thing was done well in the past
    (a past word, then praise in 〜ていた / 〜た), then anything but praise (今回もできていた) or progress
    beyond it (さらに分かりやすくなった)."""
    words = [t for t in tokens if t.pos[0] not in ("空白", "補助記号")]
    if len(words) < 6 or words[0].surface not in lexicon().past_words:
        return False
    end = next((j for j in range(2, min(8, len(words))) if words[j].surface == "た" and words[j].pos[0] == "助動詞"), None)
    if end is None or read_clauses(words[: end + 1], negative) != "praise":
        return False
    rest = read_clauses(words[end + 1 :], negative)  # 以前は丁寧だった説明が、今回はさらに分かりやすく: better still
    return rest != "praise" and not (rest == "better" and any(t.surface in _STILL for t in words[end + 1 :]))


def _target_not_reached(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """A level or a target + に + 至る / 達する / 届く / 及ぶ, negated (任せられる段階に至っていない, 目標とする早さに
    届いていない): not good enough yet. A fault before it (大きな事故に至っていない) is no target."""
    lex = lexicon()
    if any(x.lemma in lex.problem_nouns or x.lemma in lex.problem_verbs for x in tokens) \
            or any(w in "".join(x.surface for x in tokens) for w in negative):
        return False
    for i in range(2, len(tokens)):
        at = i - 2 if tokens[i - 1].surface in ("は", "も", "まで") else i - 1  # 段階には至っていない
        if tokens[i].lemma not in _REACH or tokens[at].surface != "に":
            continue
        after = [x.lemma for x in tokens[i + 1 : i + 5]]
        if ("ない" in after or "ず" in after) and any(x.surface.startswith(_TARGETS) for x in tokens[:i]):
            return True
    return False


def _fault_formed(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """A fault noun + が + できる (ダマがいくつもできていた, 破れが多くできた): the fault formed, not "can";
    negated (ダマができなくなった) or in a purpose (できないように) it reads as before."""
    faults = lexicon().problem_nouns
    for i in range(len(tokens) - 2):
        if tokens[i + 1].surface != "が" or not (tokens[i].lemma in faults or tokens[i].surface in negative):
            continue
        for k in range(i + 2, min(i + 5, len(tokens))):
            if tokens[k].lemma in ("できる", "出来る"):
                return not any(x.lemma in ("ない", "無い", "ず", "ぬ") or x.surface == "よう" for x in tokens[k + 1 : k + 5])
            if tokens[k].pos[0] not in ("副詞", "形容詞", "名詞") and tokens[k].surface not in ("も", "に"):  # 多く, いくつも
                break
    return False


def _lost_ability(tokens: Sequence[Token]) -> bool:
    """出 + られ + なく + なる: 出られる is "can go out", not "(a fault) shows"; no longer able is a loss
    (馬が前に出られなくなった). 見られなくなった stays "no longer seen"."""
    return any(a.lemma in ("出る", "入る") and b.lemma == "られる" and c.lemma in ("ない", "無い") and d.lemma == "なる"
               for a, b, c, d in zip(tokens, tokens[1:], tokens[2:], tokens[3:], strict=False))


#: How many 一方 a finding's contrast check reads (a real finding has one or two).
_MAX_CONTRASTS = 8


def _good_then_contrast(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """Something good, then 一方(で)、 and a clause that reads as nothing good on its own: the coach's
    point is what follows the contrast (正確になった一方で、停車時の衝動が大きくなっている); a clause in
    〜も (ミスが減った一方で、スピードも上がった) adds a gain and reads as before."""
    seen = 0
    for i in range(2, len(tokens) - 2):
        t, prev = tokens[i], tokens[i - 1]
        if t.surface != "一方" or prev.pos[0] not in ("助動詞", "動詞", "形容詞", "形状詞"):
            continue
        seen += 1
        if seen > _MAX_CONTRASTS:  # each one reads both sides of the finding: a bound on hostile text
            return False
        k = i + 1
        while k < len(tokens) and (tokens[k].surface in ("で", "では") or tokens[k].pos[0] in ("空白", "補助記号")):
            k += 1
        also = any(x.surface == "も" and x.pos[0] == "助詞" for x in tokens[k:])  # スピードも上がった: one more gain
        if not also and read_clauses(tokens[:i], negative) in ("praise", "better") \
                and read_clauses(tokens[k:], negative) not in ("praise", "better"):
            return True
    return False


def _good_habit_lost(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """A clause that is no problem + a habit noun (確認する姿, 確かめる関わり) + が / は, then 見られなく
    なった / 少なくなった / 減った: a good habit gone (肘が下がる動作が見られなくなった stays progress);
    様子 / 動作 only of attending or checking (気を配る様子; 身構える様子が見られなくなった stays progress)."""
    for i in range(1, len(tokens) - 2):
        t = tokens[i]
        if (t.lemma not in _HABIT and t.lemma not in _SEEN) or tokens[i - 1].pos[0] not in ("動詞", "助動詞") \
                or tokens[i + 1].surface not in ("が", "は", "も"):
            continue
        start = i - 1
        while start > 0 and tokens[start - 1].pos[0] not in ("空白", "補助記号") and tokens[start - 1].pos[1] != "接続助詞":
            start -= 1
        rest = [x for x in tokens[i + 2 :] if x.pos[0] not in ("空白", "補助記号")]
        lemmas = [x.lemma for x in rest]
        gone = any(lemmas[j : j + 3] == ["見る", "られる", "ない"] for j in range(len(lemmas) - 2))
        gone |= any(a in ("少ない", "減る") for a in lemmas[:6])
        attends = t.lemma in _HABIT or any(_checking(x) or x.lemma in _ATTEND for x in tokens[start:i])
        if gone and attends and read_clauses(tokens[start:i], negative) != "problem" \
                and not _excessive(tokens[:i], often=t.lemma in _SEEN):  # 何度も確認する姿: careful
            return True
    return False


def _excessive(tokens: Sequence[Token], often: bool) -> bool:
    """A needless or faulty act (余計な, 緊張して), or with ``often`` a too frequent one (何度も手元を確かめる
    様子): seeing less of it is progress."""
    lex = lexicon()
    return any((often and x.surface in ("何度", "何回", "いちいち")) or x.lemma in lex.negative_modifiers
               or x.lemma in lex.problem_nouns for x in tokens)


def _check_dropped(tokens: Sequence[Token]) -> bool:
    """A check or a preparation (後方確認, 一時停止, 声かけすること) no longer done (〜をしなくなった) or
    done less often (確認する頻度が低くなった, 味を確かめる回数が減った); 無駄な確認をしなくなった (a needless
    one) and 何度も見直す回数が減った (one done too often) are progress."""
    lex = lexicon()  # 無駄な確認, 無理なストレッチ: a needless or forced one
    if any(x.lemma in lex.negative_modifiers or x.lemma in lex.problem_nouns for x in tokens):
        return False
    # 何度も見直す: one done too often; where the first such word is, once (not a scan per position)
    often = next((k for k, x in enumerate(tokens) if x.surface in ("何度", "何回", "いちいち", "二度")), len(tokens))
    for i in range(2, len(tokens) - 2):
        t = tokens[i]
        if t.lemma in ("する", "為る") and tokens[i + 1].lemma in ("ない", "無い") and tokens[i + 2].lemma == "なる":
            k = i - 1
            while k > 0 and (tokens[k].pos[0] in ("空白", "補助記号") or tokens[k].surface in _ASIDE):
                k -= 1
            done = k - 1  # 声かけすることを: the check is the clause before こと
            if done >= 2 and tokens[done].lemma in ("こと", "事") and tokens[done - 1].lemma in ("する", "為る"):
                done -= 2
            if tokens[k].surface == "を" and _checking(tokens[done]):
                return True
        c = i + 2 if tokens[i + 1].lemma in ("する", "為る") else i + 1  # 確認する頻度, 確かめる回数
        floor = t.lemma == "振る" and tokens[i - 2].lemma == "話"  # 話を振る: giving someone the floor, a telling
        if (_checking(t) or floor) and often >= i and not _mastered_before(tokens, i) and c + 2 < len(tokens) and tokens[c].lemma in ("頻度", "回数") and tokens[c + 1].surface == "が" \
                and any(x.lemma in ("低い", "少ない", "減る", "下がる") for x in tokens[c + 2 : c + 6]):
            return True
    return False


def _mastered_before(tokens: Sequence[Token], i: int) -> bool:
    """Something learned as the cause of the check at ``i`` (道順を覚えたことで / 配置に慣れたおかげで,
    地図を確認する回数が減った): the check is needed less, which is progress. Only a learning verb
    counts (急いだことで、確認する回数が減った stays a check dropped)."""
    for j in range(1, i - 1):
        cause = (tokens[j].lemma in ("こと", "事") and tokens[j + 1].surface == "で") or tokens[j].lemma == "おかげ"
        if cause and any(
            x.lemma in _LEARNING or (x.lemma == "入れる" and k > 1 and tokens[k - 2].lemma == "頭")
            for k, x in enumerate(tokens[:j])
        ):
            return True
    return False


#: Verbs of learning a thing (覚える, 慣れる, 把握する): a cause that makes a check needed less.
_LEARNING = frozenset({"覚える", "慣れる", "把握", "理解", "習得", "暗記", "記憶", "身に付ける", "身につける"})


def _checking(token: Token) -> bool:
    """An act of checking or preparing: a noun ending in one (後方確認) or 確かめる / 見直す."""
    return token.surface.endswith(_CHECKS) or token.lemma in _CHECK_VERBS


#: Words that make what follows a residual: still a little, only sometimes, only there.
_RESIDUAL = frozenset({"まだ", "未だ", "少し", "少々", "やや", "多少", "若干", "わずか", "僅か", "ちょっと", "だけ",
                       "のみ", "時々", "ときどき", "時折", "たまに", "一部", "ところどころ", "所々", "部分的"})
#: Residual words that say nothing of degree (まだ, だけ): with an excess, the excess stands in full.
_STILL_ONLY = frozenset({"まだ", "未だ", "だけ", "のみ"})
#: Nouns of progress in general (良い変化が見られたが): they name no thing that got better.
_PROGRESS = frozenset({"伸び", "成果", "効果", "手応え", "変化", "兆し", "進歩", "成長", "上達", "向上", "改善", "前進"})
#: Words of "every time": what follows them is no residual but a fault that stands.
_ALWAYS = frozenset({"毎回", "いつも", "必ず", "常に", "毎度", "全く", "全然", "一向に", "多い", "目立つ", "頻繁", "しばしば",
                     "たびたび", "度々"})  # 〜ことが多い: often, no residual
#: Openers of a second sentence that qualifies the first (〜てきた。ただ、〜).
_QUALIFY = frozenset({"ただ", "ただし", "でも", "しかし", "一方", "なお"})
#: Openers of a caveat sentence (〜が改善された。ただ、〜): the point is made and closed before it, so what
#: follows is a residual unless it says "every time" (毎回, 全く); a 〜が、まだ〜すぎる clause is the point itself.
_CAVEAT = frozenset({"ただ", "ただし"})
#: Nouns that name no particular thing (良くなった部分もあるが, 改善した点は): progress of nothing named.
_GENERIC = frozenset({"部分", "点", "ところ", "所", "面", "方", "全体", "全般", "前回", "以前", "今回", "前", "これ",
                      "それ"})


def _split_residual(tokens: Sequence[Token]) -> int | None:
    """Where the last contrast (〜が、 / 〜ものの / 〜けど) or qualifying sentence (。ただ、) starts."""
    split = None
    for i in range(len(tokens) - 1):
        t, nxt = tokens[i], tokens[i + 1]
        contrast = (t.pos[1] == "接続助詞" and t.surface in ("が", "けど", "けれど", "けれども")) or (
            t.surface == "もの" and nxt.surface == "の")
        pause = t.surface in ("。", "．") or t.pos[0] == "空白"  # the normalizer leaves a space for 。
        if contrast or (pause and (nxt.surface in _QUALIFY or (i >= 1 and _sentence_end(tokens[i - 1])))):
            split = i  # 〜てきた。ただ、〜 / 〜和らいだ。まだ〜 / 〜そろってきた。疲れてくると少し〜
    return split


def _said_before(tokens: Sequence[Token], k: int) -> bool:
    """A subject in が / は before ``tokens[k]``: a fault stated before a condition (締めが甘く荷重をかけると
    緩んでしまう), so the condition is no "only when" (疲れると少し戻る, 緊張すると声が震える)."""
    return any(t.surface in ("が", "は") and t.pos[0] == "助詞" for t in tokens[:k])


def _sentence_end(token: Token) -> bool:
    """``token`` ends a sentence: a past or polite auxiliary (た, ます, です) or a verb or adjective
    in its final form (そろう, 良い), not a continuative (和らぎ、) nor a particle."""
    if token.pos[0] == "助動詞":
        return token.surface in ("た", "だ", "ます", "です")  # 和らいだ (Sudachi: だ), not the で of ので
    return token.pos[0] in ("動詞", "形容詞") and token.surface == token.lemma


def _also_now(now: str) -> bool:
    """今回も / 今日も: what was is so again now, no contrast (前回は…波打っていたが、今回も同じように)."""
    tokens = analyze(now[:40])
    return len(tokens) >= 2 and tokens[1].surface == "も"


#: Verbs that say "only so far" or "made do" (3にとどまった, 目測で済ませていた): less than before.
_LIMIT_VERBS = frozenset({"とどまる", "留まる", "止まる", "済ませる", "済ます"})
#: Verbs of leaving out or slipping away: of a good practice (身につけた手順が抜け落ちていた) a loss.
_SLIP_VERBS = frozenset({"抜け落ちる", "抜ける", "落ちる", "欠ける", "忘れる", "抜かす", "飛ばす", "途切れる", "消える"})
#: Verbs that say something is left standing now (跡が何本も残っていた).
_LEFT_VERBS = frozenset({"残る", "目立つ"})


def _falls_short(before: str, now: str, negative: Sequence[str]) -> bool:
    """What is done now, after a past that was no fault, falls short: done hastily (今回は急いで引き上げ),
    only so far or made do with (今回は3にとどまった, 目測で済ませていた, 一人の証言だけで書き始めている),
    a practice slipped away (手順が今回はすっかり抜け落ちていた) or a mark left (跡が今回は何本も残っていた),
    each an un-negated verb of the now part read with the analyzer. A past fault or a fault word
    anywhere (ミスが10件あったが、今回は2件にとどまった) and a "can" now (5分だけで終えられた) leave it as before."""
    if _hasty(now):
        return True
    tokens, lex = analyze(now[:400]), lexicon()
    faults = lex.problem_nouns | lex.problem_verbs | lex.negative_states
    past = analyze(before[:400])
    words = list(past) + list(tokens)
    if read_clauses(past, negative) == "problem" or any(t.lemma in faults or t.normalized in faults for t in words) \
            or any(w in t.surface for t in words if t.pos[0] == "名詞" for w in negative) or ends_can_now(tokens) \
            or any(t.lemma in ("できる", "出来る", "られる", "れる") or _can_form(t) for t in tokens):
        return False  # a fault word is a noun (遅れ, ミス); 抜け of 抜け落ちる is the verb itself
    for i, t in enumerate(tokens):
        if negations_after(tokens, i):
            continue
        only = t.surface in ("だけ", "しか", "のみ") and i + 1 < len(tokens) and tokens[i + 1].surface == "で" \
            and not (i + 2 < len(tokens) and tokens[i + 2].lemma in ("ない", "無い"))
        made_do = t.lemma == "済む" and i + 1 < len(tokens) and tokens[i + 1].lemma == "せる"  # 済ませる
        verb = t.pos[0] == "動詞" and (t.lemma in _LIMIT_VERBS | _SLIP_VERBS | _LEFT_VERBS or t.normalized in _LIMIT_VERBS)
        if only or made_do or verb:
            return True
    return False


def _can_form(token: Token) -> bool:
    """A godan potential (話せる -> 話す), stricter than :func:`_potential_form`: とどまる / 留まる is not one."""
    lemma, base = token.lemma, token.normalized
    return token.pos[0] == "動詞" and len(lemma) == len(base) + 1 and len(base) >= 2 and lemma[:-2] == base[:-1]


def _hasty(now: str) -> bool:
    """急いで / 慌てて / 焦って as the manner of what is done now (今回は急いで引き上げ、蜂を興奮させていた):
    a fault's manner, so a former state then this is no progress by default."""
    tokens = analyze(now)
    return any(t.lemma in ("急ぐ", "慌てる", "焦る") and n.surface in ("て", "で") for t, n in pairwise(tokens))


#: Parts of a session or a task as a topic (ただ、後半は〜): what follows holds of that part only.
_SCOPES = frozenset({"後半", "終盤", "序盤", "前半", "最後", "終わり", "途中", "最初", "出だし", "冒頭"})


def _names_a_thing(clause: Sequence[Token], progress: frozenset[str]) -> bool:
    """A clause of progress names what got better when it holds a common noun that is no time, no
    generic word and no word of progress itself (前方回転受け身で肩から入れるようになった; not
    前回より良くなった nor 全体的に改善した): progress of a thing, whatever particle marks it."""
    return any(t.pos[0] == "名詞" and t.pos[1] == "普通名詞" and t.pos[2] not in ("副詞可能", "形状詞可能")
               and not {t.lemma, t.surface} & (_GENERIC | progress | _NOW_TOPIC) for t in clause)


def _progress_then_residual(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """A named thing got better, then what is left is a residual (まだ, 少し, だけ, 時々, 〜と)."""
    split = _split_residual(tokens)
    if split is None or split < 3:
        return False
    before, after = tokens[:split], tokens[split + 1 :]
    progress = lexicon().better_words | _PROGRESS  # 改善はしたものの: progress, not a thing (習慣 is one)
    named = any(n.surface in ("が", "は", "も", "を") and n.pos[0] == "助詞" and t.pos[0] in ("名詞", "接尾辞")
                and not {t.lemma, t.surface} & (_GENERIC | progress) for t, n in pairwise(before)) \
        or ends_can_now(before) or _names_a_thing(main_clause(before), progress)  # 肩から入れるようになった
    conditional = any(t.surface == "と" and p.pos[0] == "動詞" and p.surface == p.lemma
                      and not _said_before(after, k) for k, (p, t) in enumerate(pairwise(after)))  # 疲れると少し戻る
    always = any((t.surface in _ALWAYS or t.lemma in _ALWAYS) and not (t.lemma == "多い" and n.lemma in ("すぎる", "過ぎる"))
                 for t, n in pairwise([*after, after[-1]]))  # 4球にすると毎回崩れる: no residual; 多すぎる: an excess
    soft = any((t.lemma in _RESIDUAL or t.surface in _RESIDUAL) and t.surface not in _STILL_ONLY for t in after)
    words = [t for t in after if t.pos[0] not in ("空白", "補助記号")]
    caveat = tokens[split + 1].surface in _CAVEAT  # 〜が定着してきた。ただ、〜: a caveat, said after the point
    always |= not soft and not caveat and any(t.lemma in ("すぎる", "過ぎる") for t in words[-4:])  # まだ倒れすぎている
    scoped = any(t.surface in _SCOPES and n.surface == "は" for t, n in pairwise(after))  # ただ、後半は〜: a part only
    residual = not always and (caveat or conditional or scoped
                               or any(t.lemma in _RESIDUAL or t.surface in _RESIDUAL for t in after))
    if not (named and residual):
        return False
    clause = main_clause(before)  # 前回は〜離れていたが、今回は〜使えていた。ただ、まだ〜: a former fault, now not
    fewer_checks = any(t.lemma in ("減る", "減少", "少ない") for t in clause) and any(_checking(t) for t in clause)
    last = next((k + 1 for k in range(len(clause) - 1, 0, -1)  # the sentence just before the caveat: read
                 if (clause[k].surface in ("。", "．") or clause[k].pos[0] == "空白") and _sentence_end(clause[k - 1])), 0)
    if caveat and not fewer_checks and change_of("".join(t.surface for t in clause[last:]), negative) == "better":
        return True  # 傾く回数が減りました。ただ、〜: progress before the caveat (not 声かけが減った: a loss)
    return read_clauses(clause, negative) == "better" or _former_fault_then(before, clause, negative) \
        or _conceded_fault_then_now(before, negative)


def _progress_then_former_note(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """Progress, then a last sentence of how it was (〜ができるようになってきた。前回は回った後に横へ倒れ込んで
    いた。): a past topic, a past ending, no word of now, a fault: the note says what got better."""
    past = lexicon().past_words
    start = next((i + 1 for i in range(len(tokens) - 3, 0, -1)
                  if (tokens[i].surface in ("。", "．") or tokens[i].pos[0] == "空白") and _sentence_end(tokens[i - 1])
                  and tokens[i + 1].surface in past and tokens[i + 2].surface == "は"), None)
    if start is None or start < 4:
        return False
    note, before = tokens[start:], tokens[: start - 1]
    words = [t for t in note if t.pos[0] not in ("空白", "補助記号")]
    if not words or words[-1].surface != "た" or any(t.surface in _NOW_TOPIC for t in note):
        return False
    return read_clauses(note, negative) == "problem" and read_clauses(main_clause(before), negative) == "better"


def _former_fault_then(tokens: Sequence[Token], clause: Sequence[Token], negative: Sequence[str]) -> bool:
    """以前は指示待ちだったが、自分から取りかかれている: a fault said of the past (a past word as the
    topic), then a main clause that reads as no problem."""
    split = len(tokens) - len(clause) - 1
    past = lexicon().past_words
    if split < 3 or not any(t.surface in past and n.surface == "は" for t, n in pairwise(tokens[:4])):
        return False
    if read_clauses(tokens[:split], negative) != "problem":
        return False
    main = "".join(t.surface for t in clause)
    reading = read_clauses(clause, negative)
    fewer = reading == "problem" and (_fewer_only(tokens[:split], clause)
                                      or eases_an_excess(tokens[:split], clause, negative))  # 速さを落とし
    return (reading != "problem" or fewer) and not any(
        w in main and _stands(main, w) and not negative_is_resolved(main, w) for w in negative)


#: Words that open what is so now (今日は, 今回は), after a fault conceded of the past.
_NOW_TOPIC = frozenset({"今回", "今日", "本日", "今週", "今月", "今"})
#: Nouns of a tendency or an occasion (〜傾向があった, 〜癖があった, 〜ことがあった).
_TENDENCY = frozenset({"傾向", "癖", "くせ", "こと", "場面", "とき", "時"})


#: How many 〜たが、今回は contrasts :func:`_conceded_fault_then_now` reads (a finding has one, seldom two).
_MAX_CONCEDED = 2


def _conceded_fault_then_now(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """A fault conceded in the past (〜傾向があったものの、 / 〜癖があったが、), then 今日は / 今回は and
    a clause with no problem: the fault was, and today it is not (今日はカーブを投げられていました).
    今日も (also today) is no contrast, and a main clause that reads as a problem stays one. At most
    :data:`_MAX_CONCEDED` contrasts are read (each reads the whole finding: a hostile repetition of
    〜たが、今回は was quadratic)."""
    tried = 0
    for i in range(2, len(tokens) - 3):
        t = tokens[i]
        conceded = (t.surface == "が" and t.pos[1] == "接続助詞") or (t.surface == "もの" and tokens[i + 1].surface == "の")
        nominal = t.surface == "が" and tokens[i - 1].surface == "の" and tokens[i - 2].surface == "た"  # ずれていたのが、
        if not nominal and (not conceded or tokens[i - 1].surface != "た" or tokens[i - 1].pos[0] != "助動詞"):
            continue
        k = i + (2 if t.surface == "もの" else 1)
        while k < len(tokens) and tokens[k].pos[0] in ("空白", "補助記号"):
            k += 1
        if k + 1 >= len(tokens) or tokens[k].surface not in _NOW_TOPIC or tokens[k + 1].surface != "は":
            continue
        tried += 1
        if tried > _MAX_CONCEDED:
            return False
        before, after = tokens[: i - 1 if nominal else i], tokens[k + 2 :]
        main = "".join(x.surface for x in after)
        habit = len(before) >= 4 and before[-2].lemma in ("ある", "有る") and before[-3].surface == "が" \
            and before[-4].surface in _TENDENCY  # 腕の振りが緩む傾向があった: a tendency said of the past
        former = read_clauses(before, negative)
        past = lexicon().past_words  # 前回は腰が壁から離れていたが、今回は: what was is contrasted with now
        topic = any(x.surface in past and n.surface == "は" for x, n in pairwise(before[:4]))
        if (habit or former == "problem" or (topic and former not in ("praise", "better"))) \
                and (_now_reads_well(after, negative, nominal and former == "problem")
                     or former_fault_not_seen(before, after, negative)) \
                and not any(w in main and _stands(main, w) and not praise_is_negated(main, w) for w in negative):
            return True
    return False


def _now_reads_well(after: Sequence[Token], negative: Sequence[str], unjudged: bool) -> bool:
    """What is so now reads as praise or progress, or (``unjudged``: after 〜ていたのが、 of a fault)
    as nothing at all (毎回遅れていたのが、今回は時間どおりに始められた)."""
    reading = read_clauses(after, negative)
    return reading in ("praise", "better") or (unjudged and reading is None)


def _kept_up(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """引き続き (or 引き続いて) opening the finding, then one clause of the learner's own action on an
    object (〜を / 〜に + a verb in 〜ている, nothing negated, no subject in が / は): a practice kept up.
    引き続き is the coach's "keep it up"; a fault that goes on is told with 相変わらず / 依然 / まだ."""
    words = [t for t in tokens if t.pos[0] not in ("空白", "補助記号")]
    if len(words) < 5 or words[0].surface not in ("引き続き", "引き続いて"):
        return False
    body = words[1:]
    said = any(t.surface in ("が", "は") and t.pos[0] == "助詞" for t in body)
    if said or any(is_negator(body[j]) and not is_manner_negation(body, j) for j in range(1, len(body))):
        return False  # 腕振りを止めずに入れている: a negation of manner, not of the practice
    if any(t.pos[1] == "接続助詞" and t.surface in ("が", "けど", "ながら") for t in body[:-2]):
        return False
    acts = any(t.surface in ("を", "に") and t.pos[0] == "助詞" for t in body)
    progressive = len(body) >= 2 and body[-1].lemma in ("いる", "居る", "ます") and any(
        t.surface in ("て", "で") and t.pos[0] == "助詞" for t in body[-3:])
    return acts and progressive and read_clauses(list(body), negative) in (None, "praise", "better")


def _count(tokens: Sequence[Token]) -> float | None:
    """The first number in ``tokens`` (10回以上 -> 10), None when there is none."""
    for t in tokens:
        if t.pos[1] == "数詞":
            try:
                return float(t.surface)
            except ValueError:
                return None
    return None


def _fewer_only(before: Sequence[Token], clause: Sequence[Token]) -> bool:
    """前回は言いよどみが10回以上あったが、今回は2回だけだった: 〜だけ after a count smaller than
    the former fault's, so "only" of fewer faults, not a limit."""
    only = any(t.surface in ("だけ", "のみ") and i >= 2 and clause[i - 2].pos[1] == "数詞"
               for i, t in enumerate(clause))
    was, now = _count(before), _count(clause)
    return only and was is not None and now is not None and now < was


def _stands(text: str, word: str) -> bool:
    """The problem ``word`` is said of the finding's subject somewhere in ``text``: not only as
    the object or place of an action (ミスを, 問題で) or the first part of a compound (エラーログ,
    問題文), where it names a thing, not a problem."""
    tokens = analyze(text)
    start = text.find(word)
    while start != -1:
        end = start + len(word)
        last = next((i for i, t in enumerate(tokens) if t.begin < end <= t.end), None)
        nxt = tokens[last + 1] if last is not None and last + 1 < len(tokens) else None
        inside = last is not None and tokens[last].end > end
        names = nxt is not None and (nxt.pos[0] in ("名詞", "接尾辞") or nxt.surface == "まで"  # 抜けまで走る
                                     or (nxt.pos[1] == "格助詞" and nxt.surface not in ("が", "の")))
        if last is None or not (inside or names):
            return True
        start = text.find(word, end)
    return False


def _noun_chain(tokens: Sequence[Token], end: int) -> tuple[str, int]:
    """The compound noun ending at ``tokens[end - 1]`` (normalized, joined) and where it starts."""
    start = end
    while start > 0 and (tokens[start - 1].pos[0] in ("名詞", "接頭辞")
                         or (tokens[start - 1].pos[0] == "接尾辞" and start > 1)):
        start -= 1
    return "".join(t.normalized for t in tokens[start:end]), start


def subject_of(text: str, word: str, other_words: Sequence[str]) -> str | None:
    """The noun phrase ``word`` is about: the compound noun joined to it directly or by
    の/が/は/も/を/に/で, with one ``Xの`` modifier before it (朝食の栄養バランス -> 朝食の栄養).
    None when there is none or when it is a word of another matched pattern."""
    start = text.find(word)
    tokens = [t for t in analyze(text[:start]) if t.pos[0] != "空白"]
    end = len(tokens)
    if end and tokens[-1].pos[0] == "助詞":
        if tokens[-1].surface not in _CONNECT:
            return None
        end -= 1
    chain, begin = _noun_chain(tokens, end)
    if not chain or any(w in chain or chain in w for w in other_words):
        return None
    if begin >= 2 and tokens[begin - 1].surface == "の" and tokens[begin - 2].pos[0] == "名詞":
        modifier, _ = _noun_chain(tokens, begin - 1)
        if modifier and not any(w in modifier for w in other_words):
            chain = f"{modifier}の{chain}"
    return chain
