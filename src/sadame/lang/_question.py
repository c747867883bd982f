"""The polarity of a yes/no question with respect to a phrase in it.

「電子レンジは関係ある？」 asks the proposition as it is (positive);
「電子レンジは関係ない？」 asks its negation; 「電子レンジのせいじゃない？」 is a guess
that it *is* so (a suggestion: positive); 「電子レンジのせいじゃないよね？」 confirms the
negative. :func:`question_polarity` reads the words after the phrase, up to the end
of its clause, and says which (or ``unclear`` when it cannot tell: a negation inside
a relative clause, an either-or question, 「〜以外」).

The reading, in steps:

1. the tail: the tokens after the phrase up to the end of its clause; when the
   question ends with a bare follow-up sentence (「関係ありますか？ないですか？」)
   that sentence's polarity is the one asked;
2. sentence-final material is stripped (か の ね よ な かな っけ, です/ます/でしょう,
   だろう); 「よね」「よな」 mark a confirmation;
3. a final suggestion marker is dropped: copula + ない (「じゃない？」「ではないか」
   「じゃなかった？」「ではありませんか」) or 「〜くない？」 after an adjective or a
   negator (「関係なくない？」); not when the question confirms (「じゃないよね」);
4. the negators left are counted: odd -> negative, even -> positive (double negatives
   cancel); a negator followed by a content word (「使わない人」) -> unclear.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from dataclasses import replace
from typing import Literal

from sadame.lang._analyzer import Token
from sadame.lang._polarity import is_negator

__all__ = ["Polarity", "is_wh_question", "kansai_negation", "question_polarity"]

Polarity = Literal["positive", "negative", "unclear"]

_FINAL_PARTICLES = frozenset({"か", "の", "ね", "ねえ", "ねぇ", "よ", "な", "なあ", "かな", "っけ", "け", "わ", "さ", "ぞ"})
_FINAL_AUX = frozenset({"です", "ます", "だ", "う", "よう", "だろう", "でしょう", "っす"})
_CONFIRM = (("よ", "ね"), ("よ", "な"), ("よ", "ねえ"), ("よ", "ねぇ"))
_CLAUSE_CONJUNCTIONS = frozenset({"が", "けど", "けれど", "けれども", "し", "から", "ので", "のに", "て", "で", "ば", "たら"})
_FORMAL_NOUNS = frozenset({"わけ", "訳", "こと", "事", "はず", "筈", "の", "ん"})
_LEXICAL_NEGATIVES = frozenset({"無関係", "関係無し", "関係なし"})
_EXCEPT = frozenset({"以外", "他", "ほか"})
#: Predicates that ask whether the phrase is relevant, the cause, or what it is:
#: a negation of these flips the verdict of a rule about the phrase.
_RELEVANCE = frozenset({
    "関係", "関係する", "関わる", "係わる", "関連", "関連する", "無関係", "原因", "せい", "所為", "影響",
    "仕業", "理由", "犯人", "要因", "きっかけ", "切っ掛け", "絡む", "鍵", "核心", "決め手", "ポイント",
})
_WH = frozenset({
    "誰", "何", "いつ", "何時", "どこ", "何処", "なぜ", "何故", "どう", "どうして", "どれ", "どの", "どんな",
    "いくつ", "幾つ", "いくら", "幾ら", "どちら", "どっち", "どれくらい", "どのくらい",
})
#: After an auxiliary-like verb, 「て」「で」 do not end the clause (「つないでない」).
_TE_CONTINUES = frozenset({"いる", "居る", "ある", "有る", "おく", "置く", "しまう", "仕舞う", "まう", "みる", "見る", "くる", "来る", "いく", "行く"})
_LIGHT_VERBS = frozenset({"する", "為る", "ある", "有る", "いる", "居る"})
_IDENTITY = frozenset({"じゃ", "で", "では", "でも"})


def _is_clause_end(token: Token) -> bool:
    if token.pos[0] == "補助記号" and token.pos[1] in ("句点", "読点", "一般"):
        return True
    return token.pos[0] == "助詞" and token.pos[1] == "接続助詞" and token.surface in _CLAUSE_CONJUNCTIONS


def _is_sentence_end(token: Token) -> bool:
    return token.pos[0] == "補助記号" and (token.pos[1] == "句点" or token.surface in ("?", "!", "？", "！"))


def _clause_tail(tokens: Sequence[Token], end: int) -> list[Token]:
    tail: list[Token] = []
    for i in range(end, len(tokens)):
        token = tokens[i]
        ends = _is_clause_end(token) and not (tail and _is_copula_te(tail[-1], token)) and not _te_continues(tokens, i)
        if ends and not (token.surface in ("て", "で") and _proposition_denied(tokens, i)):
            break
        tail.append(token)
    return tail


def _proposition_denied(tokens: Sequence[Token], start: int) -> bool:
    """The sentence ends 「…わけではない」「…わけじゃない」: the negation covers its 「て」
    clauses too (「読みたくて買ってるわけではない？」)."""
    for i in range(start, len(tokens) - 1):
        if _is_sentence_end(tokens[i]) or (tokens[i].pos[0] == "助詞" and tokens[i].surface in ("が", "けど", "から", "ので")):
            return False
        if tokens[i].surface in _PROPOSITION_NOUNS:
            j = i + 1
            while j < len(tokens) and (tokens[j].surface in _IDENTITY or tokens[j].surface == "は"):
                j += 1
            return j > i + 1 and j < len(tokens) and is_negator(tokens[j])
    return False


def _te_continues(tokens: Sequence[Token], i: int) -> bool:
    """「て」「で」 followed by ない/いる/ある/おく/しまう...: one predicate (「つないでない」)."""
    if tokens[i].surface not in ("て", "で") or i + 1 >= len(tokens):
        return False
    following = tokens[i + 1]
    return is_negator(following) or following.lemma in _TE_CONTINUES


def _is_copula_te(previous: Token, token: Token) -> bool:
    """「で」 of 「ではない」 is a particle/copula, not a clause conjunction."""
    return token.surface == "で" and previous.pos[0] in ("名詞", "助詞")


def _bare_followup(tokens: Sequence[Token], end: int) -> list[Token] | None:
    """The last sentence, if it comes after the phrase's sentence and has no content
    word besides ある/ない (「…ありますか？ないですか？」)."""
    starts = [i + 1 for i in range(end, len(tokens) - 1) if _is_sentence_end(tokens[i])]
    if not starts:
        return None
    last = [t for t in tokens[starts[-1]:] if t.pos[0] != "補助記号"]
    if not last or not any(is_negator(t) for t in last):
        return None
    if any(t.is_content and t.lemma not in ("ある", "無い", "ない") for t in last):
        return None
    return last


def _strip_ending(tail: list[Token]) -> tuple[list[Token], bool]:
    """Drop sentence-final particles and polite/copula auxiliaries; report 「よね」."""
    surfaces = [t.surface for t in tail]
    confirm = any(tuple(surfaces[i:i + 2]) in _CONFIRM for i in range(len(surfaces) - 1))
    asked = list(tail)
    while asked:
        last = asked[-1]
        if last.pos[0] == "補助記号" or last.pos[0] == "空白" or (last.pos[0] == "助詞" and last.pos[1] in ("終助詞", "準体助詞") and last.surface in _FINAL_PARTICLES | {"ん"}) or (last.pos[0] == "助動詞" and last.lemma in _FINAL_AUX and last.surface not in ("じゃ", "で")):
            asked.pop()
        else:
            break
    return asked, confirm


def _copula_before(head: Sequence[Token], ended_with_ka: bool) -> bool:
    """「じゃ」, or 「では」 when the question ends with か (「ではないか」, not 「ではない？」)."""
    if head and head[-1].surface == "じゃ":
        return True
    return ended_with_ka and len(head) >= 2 and head[-1].surface == "は" and head[-2].surface == "で"


def _drop_suggestion(asked: list[Token], ended_with_ka: bool, confirm: bool) -> list[Token]:
    """Remove a final suggestion marker (「じゃない？」「ではないか」「なくない？」)."""
    if confirm or len(asked) < 2:
        return asked
    index = len(asked) - 1
    if asked[index].surface == "た" and index >= 2:
        index -= 1  # 「じゃなかった？」
    negator = asked[index]
    if not is_negator(negator):
        return asked
    head = asked[:index]
    dropped = asked[:index] + asked[index + 1:]
    if negator.surface == "ん" and len(head) >= 2 and head[-1].lemma == "ます" and head[-2].lemma == "ある":
        return dropped if _copula_before(head[:-2], ended_with_ka) else asked  # 「ではありませんか」
    if _copula_before(head, ended_with_ka):
        return dropped
    previous = head[-1]
    adverbial = previous.surface.endswith("く") and (is_negator(previous) or previous.pos[0] == "形容詞")
    if negator.surface != "ん" and adverbial:
        return dropped  # 「関係なくない？」「おかしくない？」
    return asked


def _is_content_word(token: Token) -> bool:
    if not token.is_content or token.pos[0] == "接尾辞" or is_negator(token):
        return False
    return token.lemma not in _FORMAL_NOUNS and token.normalized not in _FORMAL_NOUNS


def is_wh_question(tokens: Sequence[Token], ignore: Container[int] = ()) -> bool:
    """True for a question word (誰 何 いつ どこ なぜ どう...) that asks for content,
    not yes or no; 「何か」「誰も」「どこか」 are indefinite and do not count, nor do
    tokens at the indexes in ``ignore`` (inside a matched phrase: 「どう|たい|けんち」).

    >>> from sadame.lang import analyze
    >>> is_wh_question(analyze("誰がディスプレイを設置した？")), is_wh_question(analyze("何か関係ある？"))
    (True, False)
    """
    for i, token in enumerate(tokens):
        if i in ignore:
            continue
        word = token.normalized if token.normalized in _WH else token.lemma
        if word not in _WH and not (token.surface.startswith("何") and token.pos[0] == "名詞" and len(token.surface) > 1):
            continue
        if token.pos[0] == "名詞" and token.pos[1] == "数詞":
            continue  # 「何か月も」
        if i > 0 and not _starts_phrase(tokens[i - 1]):
            continue  # a fragment of a kana word: 「きーぼー|どの」
        following = tokens[i + 1].surface if i + 1 < len(tokens) else ""
        if following not in ("か", "も", "でも"):
            return True
    return False


def _starts_phrase(previous: Token) -> bool:
    """Can a question word start right after ``previous``? After a particle,
    conjunction or punctuation yes; after a word or a long-vowel mark no."""
    if previous.pos[0] in ("補助記号", "空白"):
        return previous.surface not in "ー－-~〜"
    return previous.pos[0] in ("助詞", "接続詞", "感動詞")


def _ends_sentence(tokens: Sequence[Token], after: int) -> bool:
    """The clause runs to the end of its sentence (so a final 「じゃない」 can be a suggestion)."""
    return after >= len(tokens) or _is_sentence_end(tokens[after])


def _without_first_negator(asked: Sequence[Token]) -> list[Token]:
    index = next((i for i, t in enumerate(asked) if is_negator(t)), None)
    return list(asked) if index is None else [*asked[:index], *asked[index + 1:]]


def _negated_condition(tokens: Sequence[Token], after: int, tail: Sequence[Token]) -> bool:
    """A negated conditional clause: 「〜なければ」「〜ないと」「〜なかったら」."""
    if after >= len(tokens) or not any(is_negator(t) for t in tail):
        return False
    ending = tokens[after]
    conditional = ending.surface in ("ば", "と", "たら", "なら") and ending.pos[0] in ("助詞", "助動詞")
    return conditional or (bool(tail) and tail[-1].surface in ("たら", "なら"))


_CONDITIONALS = frozenset({"たら", "なら", "ば", "れば"})


def _prevents(tail: Sequence[Token]) -> bool:
    """A positive condition with a negated consequence (「Xしたら起きない」「Xなら落ちない」):
    the question proposes X as what would prevent it, i.e. that X matters."""
    cut = next((i for i, t in enumerate(tail) if t.surface in _CONDITIONALS and t.pos[0] in ("助詞", "助動詞")), None)
    if cut is None or any(is_negator(t) for t in tail[:cut]):
        return False
    consequence = tail[cut + 1:]
    return any(t.pos[0] in ("動詞", "形容詞") for t in consequence) and any(is_negator(t) for t in consequence)


_TOPIC_MARKERS = frozenset({"は", "が", "も", "って"})


def _relevance_topic(tail: Sequence[Token]) -> int:
    """「(首輪がない)のは関係ない？」: a clause made a topic by 「の」「こと」 and then asked
    for its relevance: the polarity is the relevance predicate's, not the clause's own
    (its negation is part of what is asked about). Returns how many tail tokens the
    topic takes (0 when the tail is not of that shape)."""
    for i in range(len(tail) - 2):
        nominal = tail[i].surface in ("の", "こと") and tail[i].pos[0] in ("助詞", "名詞")
        if nominal and tail[i + 1].surface in _TOPIC_MARKERS:
            rest = tail[i + 2:]
            if rest and (rest[0].lemma in _RELEVANCE or rest[0].normalized in _RELEVANCE):
                return i + 2
    return 0


def _kansai(previous: Token | None, token: Token) -> Token:
    """Kansai endings read as standard ones: 「するん？」 (ん after the dictionary form is
    の, not a negation), 「あらん」「あらへん」「せえへん」「冷えてへん」 (a negation; after
    て the analyzer reads へん as a noun)."""
    if previous is None:
        return token
    if kansai_negation(previous, token):
        return replace(token, lemma="ぬ", normalized="ず", pos=("助動詞", "*", "*", "*", "助動詞-ヌ", "終止形-撥音便"))
    if previous.pos[0] not in ("動詞", "助動詞", "形容詞"):
        return token
    form = previous.pos[5] if len(previous.pos) > 5 else ""
    if token.surface == "ん" and token.lemma == "ぬ" and form.startswith(("終止形", "連体形")):
        return replace(token, lemma="の", normalized="の", pos=("助詞", "準体助詞", "*", "*", "*", "*"))
    return token


def kansai_negation(previous: Token | None, token: Token) -> bool:
    """Whether ``token`` is a Kansai negation ending (the one place that decides it: the
    question's polarity and the judge's details both ask here). 〜へん / 〜ひん after a verb, an
    auxiliary or a て-form, whatever the analyzer made of it (an auxiliary ヘン in 「見えへん」,
    a noun in 「冷えてへん」「ならへん」, the verb ひる in 「できひん」), and 〜ん after a verb's
    irrealis form (「あらん」「せん」)."""
    if previous is None:
        return False
    if token.surface in ("へん", "ひん"):
        return previous.surface in ("て", "で") or previous.pos[0] in ("動詞", "助動詞", "形容詞")
    form = previous.pos[5] if len(previous.pos) > 5 else ""
    return (token.surface == "ん" and token.lemma == "む" and previous.pos[0] in ("動詞", "助動詞", "形容詞")
            and form.startswith("未然形"))


def _standard(tokens: Sequence[Token]) -> tuple[Token, ...]:
    return tuple(_kansai(tokens[i - 1] if i else None, t) for i, t in enumerate(tokens))


def _ends_in_verb(tokens: Sequence[Token], end: int) -> bool:
    """Does the phrase before ``tokens[end]`` end in a verb or adjective (possibly
    followed by its auxiliaries and a 「て」: 「反映されて」)?"""
    for token in reversed(tokens[:end]):
        if token.pos[0] in ("動詞", "形容詞"):
            return True
        if token.pos[0] == "助動詞" or (token.pos[0] == "助詞" and token.surface in ("て", "で")):
            continue
        return False
    return False


def _about_phrase(asked: Sequence[Token], negator: int, verb_phrase: bool) -> bool:
    """Does the negator at ``asked[negator]`` negate the phrase itself (its relevance,
    its identity, or the phrase's own verb) rather than another predicate?

    「Xは関係ない」「Xのせいではない」「Xの問題ではない」「Xじゃない」「Xリークじゃない」
    「(外に出)ない」 -> True; 「Xが動いてない」「Xがない」「Xしてない」「Xに問題はない」
    -> False (the rule says whether X matters, not whether X runs, exists or was done)."""
    if asked[negator].lemma in _LEXICAL_NEGATIVES or _denies_proposition(asked, negator):
        return True
    start = 0
    while start < negator and asked[start].pos[0] in ("名詞", "接尾辞") and not is_negator(asked[start]):
        start += 1  # a compound continues the phrase: 「メモリ|リーク」じゃない
    light = False
    for i in range(negator - 1, start - 1, -1):
        token = asked[i]
        if _is_relevance(asked, i):
            return True
        if verb_phrase and token.lemma in _TE_CONTINUES:
            continue  # 「(反映されて)いない」: いる after the phrase's own verb is aspect
        if token.surface in _FORMAL_NOUNS or token.surface in _QUOTATIVE:
            continue  # 「Xのせいって|わけじゃない」「Xのせいってことはない」
        if token.lemma in _LIGHT_VERBS or token.normalized in _LIGHT_VERBS:
            light = True
        elif token.is_content and not is_negator(token):
            return False
    if light:
        return False
    before = [t for t in asked[start:negator] if t.pos[0] != "補助記号"]
    if not before or (verb_phrase and start == 0):
        return True  # the phrase's own verb: 「(外に出)ない」「(ドメイン名は変わ)ってない」
    return before[0].surface in _IDENTITY  # 「Xじゃない」「Xではない」, not 「Xがない」


_PROPOSITION_NOUNS = frozenset({"わけ", "訳"})


def _denies_proposition(asked: Sequence[Token], negator: int) -> bool:
    """「(Xが…した)わけじゃない」「わけではない」: the negation is of the whole proposition,
    whatever its own predicate (so it flips the verdict like 「Xは関係ない」)."""
    i = negator - 1
    while i >= 0 and (asked[i].surface in _IDENTITY or asked[i].surface == "は"):
        i -= 1
    return i >= 0 and i < negator - 1 and asked[i].surface in _PROPOSITION_NOUNS


def _is_relevance(asked: Sequence[Token], i: int) -> bool:
    token = asked[i]
    if token.lemma in _RELEVANCE or token.normalized in _RELEVANCE:
        return True
    return token.lemma == "問題" and i > 0 and asked[i - 1].surface == "の"  # 「Xの問題」, not 「Xに問題は」


_QUOTATIVE = frozenset({"って", "という", "と", "いう"})
_SUBJECT_MARKERS = frozenset({"は", "が", "も", "って", "て"})


def _asks_another_noun(asked: Sequence[Token]) -> bool:
    """「ブラウザはchrome？」「OSはWindows？」「サーバーは1台？」: the phrase is the
    subject and the question is whether it *is* a particular named thing or number."""
    if not asked or asked[0].surface not in _SUBJECT_MARKERS or asked[0].pos[0] != "助詞":
        return False
    content = [t for t in asked[1:] if t.pos[0] not in ("助詞", "補助記号", "空白")]
    if not content or content[-1].pos[0] not in ("名詞", "接尾辞"):
        return False
    last = content[-1]
    named = last.pos[1] == "固有名詞" or (last.surface.isascii() and last.surface.isalnum())
    counted = len(content) >= 2 and content[-2].pos[1] == "数詞"
    return named or counted or last.pos[1] == "数詞"


def _count(asked: Sequence[Token], strict: bool = False, verb_phrase: bool = False) -> Polarity:
    negators = [i for i, t in enumerate(asked) if is_negator(t) or t.lemma in _LEXICAL_NEGATIVES]
    only = next((i for i, t in enumerate(asked) if t.surface == "しか" and t.pos[0] == "助詞"), None)
    if only is not None:
        negators = [i for i in negators if i < only] + [i for i in negators if i > only][1:]  # 「しか〜ない」
    if not negators:
        return "positive"
    for i in negators:
        after = asked[i + 1:]
        if any(_is_content_word(t) for t in after):
            return "unclear"  # 「使わない人」: the negation belongs to a relative clause
    if any(t.surface == "か" and t.pos[1] == "副助詞" for t in asked[: negators[-1]]):
        return "unclear"  # 「あるかないか」
    if len(negators) % 2 == 0:
        return "positive"
    if strict and not _about_phrase(asked, negators[0], verb_phrase):
        return "unclear"
    return "negative"


def question_polarity(tokens: Sequence[Token], end: int, *, strict: bool = False) -> Polarity:
    """How the question asks about the phrase ending before ``tokens[end]``.

    With ``strict``, a negation counts only when it negates the phrase itself (its
    relevance 「関係ない」「せいではない」, its identity 「じゃない」, or the phrase's
    own verb); the negation of another predicate (「Xが動いてない」「Xがない」) is
    ``unclear``: whether X matters does not say whether X runs or exists. So is a
    question whether the phrase *is* a named thing or a number (「ブラウザはchrome？」
    「サーバーは1台？」).

    >>> from sadame.lang import analyze
    >>> toks = analyze("電子レンジは関係ない？")
    >>> question_polarity(toks, 1)
    'negative'
    >>> question_polarity(analyze("電子レンジのせいじゃない？"), 1)
    'positive'
    >>> question_polarity(analyze("電子レンジのせいじゃないよね？"), 1)
    'negative'
    >>> question_polarity(analyze("電子レンジを使わない人が多い？"), 1)
    'unclear'
    """
    tokens = _standard(tokens)
    if end < len(tokens) and tokens[end].lemma in _EXCEPT:
        return "unclear"
    followup = _bare_followup(tokens, end)
    tail = followup if followup is not None else _clause_tail(tokens, end)
    if followup is None:
        topic = _relevance_topic(tail)
        if topic:
            end, tail = end + topic, tail[topic:]
    if followup is None and _prevents(tail):
        return "positive"  # 「UTCで動かしてたらこうはならない？」: X would prevent it, so X matters
    if followup is None and _negated_condition(tokens, end + len(tail), tail):
        return "unclear"  # 「Excelで開かなければ変わらない？」: a condition, not a denial
    ended_with_ka = any(t.surface == "か" and t.pos[1] == "終助詞" for t in tail[-3:])
    asked, confirm = _strip_ending(tail)
    if followup is not None or _ends_sentence(tokens, end + len(tail)):
        asked = _drop_suggestion(asked, ended_with_ka, confirm)  # not in 「容量じゃなくて…」
    if end > 0 and tokens[end - 1].surface == "しか":
        asked = _without_first_negator(asked)  # 「(4年に1回しか)ない」: only, not a negation
    verb_phrase = _ends_in_verb(tokens, end)
    if strict and _asks_another_noun(asked):
        return "unclear"
    return _count(asked, strict, verb_phrase)
