"""Readings that keep a problem from being read as praise or progress (issue 20, "problems lost").

Each test here says a finding is a problem although its words look like progress; the meaning
reader (:mod:`sadame.track._meaning`) asks them before anything else, so a lost problem -- never
filed -- becomes a problem again. Every one reads the analyzer's tokens and the polarity lexicon.

* :func:`good_past_gone`: a good past, then now (前回までは背筋が伸びていた構えが、今回は前かがみに
  なっていた; 一時は減っていた言い間違いが、今日は何度も出た): the good held then, not now.
* :func:`not_yet_become`: 〜になっていない at the end, of no fault (まだ初心者にも分かる順番になっていない):
  the good state is not reached, whatever the clause before it says.
* :func:`nearly_happened`: a near miss at the end (自転車とぶつかりそうになった): a problem, not a change.
* :func:`not_noticed`: a verb of noticing, negated at the end (〜していない子がいたのに気づかなかった): a
  problem, though what went unnoticed is a fault (a fault's negation reads as praise elsewhere).
"""

from __future__ import annotations

from collections.abc import Sequence

from sadame.lang import Token
from sadame.lang._lexicon import lexicon
from sadame.lang._polarity import negations_after
from sadame.lang._predicate import read_clauses

__all__ = ["good_past_gone", "nearly_happened", "not_noticed", "not_yet_become"]

#: Words after a temporary word that make it another word (一度に, 一度も, 一時的, 一度目).
_NOT_TEMPORARY = frozenset({"に", "も", "で", "の", "目", "きり", "だけ", "しか"})
#: Words of "even more" or "also" in the now part (今回はさらに, 今回も): no loss.
_STILL = frozenset({"さらに", "更に", "一層", "いっそう", "一段", "一段と", "もっと", "引き続き", "変わらず"})
_GOOD = ("praise", "better")


def _past_was_good(past: Sequence[Token], negative: Sequence[str], strict: bool) -> bool:
    """The past clause says something good (丁寧だった, できていた, 問題のなかった) or a fault gone
    (減っていた, なくなっていた, 収まっていた), not a fault (目立っていた, 足りなくなっていた). ``strict``:
    its own last part is praise (手を止めずに相手に押されていた is no praise of 押されていた; 〜が出てきた
    is no progress), and a verb of decrease that also names a fault (落ちる, 下がる) is none."""
    lex = lexicon()
    if strict:
        cut = max((i + 1 for i, t in enumerate(past) if t.lemma == "ず" or t.surface == "、"), default=0)
        past = past[cut:]
    reading = read_clauses(past, negative)
    if reading == "praise" or (reading == "better" and not strict):
        return True
    gone = (lex.decrease_verbs - lex.problem_verbs) | lex.better_words
    return reading != "problem" and any(
        (t.lemma in gone or t.normalized in gone) and not negations_after(past, i) for i, t in enumerate(past))


def _names_a_fault(head: Sequence[Token], negative: Sequence[str]) -> bool:
    """The noun the past clause is said of names a fault (見落とし, 漏れ): its past is a fault's."""
    lex = lexicon()
    return any(t.lemma in lex.problem_nouns or t.surface in lex.problem_nouns
               or any(w in t.surface for w in negative) for t in head if t.pos[0] in ("名詞", "接尾辞"))


def _fault_word(past: Sequence[Token]) -> bool:
    """A fault's word in the past clause, not negated (遅れがちだった; not 遅れのなかった)."""
    lex = lexicon()
    faults = lex.problem_verbs | lex.problem_nouns | lex.negative_states
    return any(t.lemma in faults and not negations_after(past, i) for i, t in enumerate(past))


def good_past_gone(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """A finding that opens on a past (前回は, 先月の練習では) or a time that held and ended (一時は,
    一度, 前回までは), says in 〜た what was so then, and goes on with now (今回は, 今日は): a loss when
    the past was good (先月は板書が丁寧だったのに、今日は走り書きだった; 一度減った言い間違いが、今日は5回出た). After
    一時 / 一度 / 〜まで any past counts (前回までは規定どおりだった間隔が、今回は広めに空いていた),
    unless it was a fault's (前回まで目立っていた猫背は、今回は見られなかった; 遅れがちだった返信が);
    after 〜たのに、 (先週は時間どおりに始められていたのに、今日は) any past but a fault's counts when now
    reads as nothing good; after a plain past only a good one counts, and not when now is praise, "also" or "even more"
    (今回も, さらに)."""
    words = [t for t in tokens if t.pos[0] != "空白"]
    lex = lexicon()
    if len(words) < 6:
        return False
    opener = words[0].surface
    temporary = opener in lex.temporary_words and words[1].surface not in _NOT_TEMPORARY
    if not temporary and opener not in lex.past_words:
        return False
    held = temporary or words[1].surface == "まで"
    now = next((i for i in range(2, len(words)) if words[i].surface in lex.now_words), None)
    end = next((j for j in range(1, now or 0) if words[j].surface == "た" and words[j].pos[0] == "助動詞"), None)
    if now is None or end is None:
        return False
    past, head, after = words[1 : end + 1], words[end + 1 : now], words[now + 1 :]
    if (after and after[0].surface == "も") or any(t.surface in _STILL or t.lemma in _STILL for t in after[:4]):
        return False
    good = _past_was_good(past, negative, strict=not held)
    now_reads = read_clauses(after, negative)
    concessive = [t.surface for t in head[:1]] == ["のに"] or [t.surface for t in head[:2]] == ["の", "に"]
    if held or concessive:
        absent = any(t.lemma in ("ない", "無い") and t.pos[0] == "形容詞" for t in past) \
            and _names_a_fault(head, negative)  # 前回まではなかった漏れが: a fault absent then
        fault_past = not (good or absent) and (read_clauses(past, negative) == "problem" or _fault_word(past)
                                               or _names_a_fault(head, negative))  # 遅れがちだった返信が
        return not fault_past and not (concessive and not held and now_reads in _GOOD)
    return good and now_reads != "praise"


#: Nouns before 〜になる that make a phrase, not a state (気になる: to mind).
_PHRASE_NOUNS = frozenset({"気", "癖", "くせ", "問題", "課題"})


def _is_fault_noun(token: Token, negative: Sequence[str]) -> bool:
    """A fault's noun (遅れ, 妨げ, 猫背), a noun of a fault verb's stem included (妨げ -> 妨げる)."""
    lex = lexicon()
    faults = lex.problem_nouns | lex.negative_states
    return token.lemma in faults or token.surface in faults or token.lemma + "る" in lex.problem_verbs \
        or token.lemma in _PHRASE_NOUNS or any(w in token.surface for w in negative)


def not_yet_become(tokens: Sequence[Token], negative: Sequence[str]) -> bool:
    """The finding ends on a noun + に + なる, negated (初心者にも分かる順番になっていない, すれ違える広さには
    なっていない): what it should be it is not, however good the clause that names it. Of a fault
    (隣の人の妨げになっていない, 猫背になっていない) it is praise, and so left alone."""
    words = [t for t in tokens if t.pos[0] not in ("空白", "補助記号")]
    for i in range(len(words) - 1, 2, -1):
        if words[i].lemma != "なる":
            continue
        at = i - 2 if words[i - 1].surface in ("は", "も") else i - 1  # 言い方にはなっていない
        noun = words[at - 1]
        if words[at].surface != "に" or noun.pos[0] != "名詞" or _is_fault_noun(noun, negative):
            return False
        negators = negations_after(words, i)
        return bool(negators) and len(negators) % 2 == 1 and negators[-1] >= len(words) - 3
    return False


#: What may follow the なる of a near miss (〜そうになっていた, 〜そうになってしまった).
_END_AUXILIARIES = frozenset({"て", "で", "いる", "居る", "た", "だ", "ます", "しまう", "仕舞う", "ちゃう", "おる"})


def nearly_happened(tokens: Sequence[Token]) -> bool:
    """The finding ends on a verb + そう + に + なる (ぶつかりそうになった, こぼしそうになっていた): a near
    miss, as much a problem as the mishap. Not of a good verb or a "can" (できそうになった), nor in
    〜てきた (立てそうになってきた: coming within reach), nor negated."""
    words = [t for t in tokens if t.pos[0] not in ("空白", "補助記号")]
    lex = lexicon()
    good = lex.positive_states | lex.better_words | lex.success_verbs | {"できる", "出来る"}
    for i in range(len(words) - 1, 2, -1):
        if words[i].lemma != "なる":
            continue
        verb, tail = words[i - 3], words[i + 1 :]
        if words[i - 2].lemma != "そう" or words[i - 1].normalized not in ("だ", "に") or verb.pos[0] != "動詞":
            return False
        if verb.lemma in good or verb.lemma in ("れる", "られる") or any(
                t.lemma not in _END_AUXILIARIES and t.normalized not in _END_AUXILIARIES for t in tail):
            return False
        return not negations_after(words, i)
    return False


def not_noticed(tokens: Sequence[Token]) -> bool:
    """The finding ends on a verb of noticing (気づく, 見抜く), negated, not a causative (気づかせない):
    a thing went unnoticed. 合図に気づかずに走り出すことがなくなった ends elsewhere and is left alone."""
    words = [t for t in tokens if t.pos[0] not in ("空白", "補助記号")]
    notice = lexicon().notice_verbs
    for i in range(len(words) - 1, max(0, len(words) - 6), -1):
        if words[i].lemma not in notice and words[i].normalized not in notice:
            continue
        if any(t.lemma in ("せる", "させる") for t in words[i + 1 : i + 3]):
            return False
        negators = negations_after(words, i)
        return len(negators) % 2 == 1 and negators[-1] >= len(words) - 3
    return False
