"""The answer checker in natural mode.

Like the seed's ``checkSolution`` (AND across solution groups, OR within a group),
with the natural matcher (token boundaries, readings, normalized forms, synonyms)
and three guards:

* **a denied concept does not count**: a group whose every mention is negated in
  its clause (「電子レンジもブレーカーも関係なく…」「ディスプレイではなく…」) is not
  matched -- an answer that names the solution only to deny it is not a solution;
* **a bare keyword list** (words side by side instead of an explanation:
  「電子レンジ、ケトル、ブレーカー」, see :func:`is_keyword_list`) earns partial
  credit at most;
* **an answer far longer than an honest explanation** (over the solution's
  ``max_chars``, twice the truth's length by default) earns partial credit at most.

In both last cases ``advice`` asks, in Japanese, for an explanation in a sentence,
and the reported partial credit stops one short of complete, so a dump does not
learn which of its words were right.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sadame.judge.engine._model import AnswerCheck, Rule, Solution
from sadame.judge.engine._natural import NaturalTable, clean, fired_phrases, fold
from sadame.lang import Token, analyze
from sadame.normalize import normalize

__all__ = ["KEYWORDS_ADVICE", "TOO_LONG_ADVICE"]

KEYWORDS_ADVICE = "キーワードを並べるだけでは正解になりません。何が起きたのかを文章で説明してください"
TOO_LONG_ADVICE = "答えが長すぎます。何が起きたのかを短い文章で説明してください"
#: Answers are analyzed up to this many characters (longer ones are too long anyway).
_MAX_ANALYZED = 5_000
_CACHE_ATTR = "_sadame_natural_groups"
_PREDICATES = frozenset({"動詞", "形容詞", "助動詞"})
_ARGUMENT_PARTICLES = frozenset({"が", "を", "に", "で", "へ", "は", "から", "まで", "より"})
_LIST_PARTICLES = frozenset({"と", "や", "か", "とか", "も", "及び", "および", "または"})


def _groups_table(solution: Solution) -> NaturalTable:
    cached = solution.__dict__.get(_CACHE_ATTR)
    if not isinstance(cached, NaturalTable):
        rules = [
            Rule(g, f"group-{g}", tuple(group), (), "YES", None,
                 tuple(normalize(w, preset="judge") for w in group), ())
            for g, group in enumerate(solution)
        ]
        cached = NaturalTable(rules, solution.synonyms)
        solution.__dict__[_CACHE_ATTR] = cached
    return cached


#: A denial of what comes before it in the clause: 「Xではなく」「Xわけでもない」「Xとは関係なく」.
_DENIAL = re.compile(
    r"(?:では|じゃ|で)(?:なく|ない|ありません|なかった)|わけ(?:では|じゃ|でも)(?:なく|ない)"
    r"|関係(?:なく|ない|ありません|なかった)|無関係"
)
_CLAUSE_END = re.compile(r"[、。，,．.！？!?\n]|けど|けれど")


_BACK_REFERENCE = re.compile(r"(?:けれど|けど)?[、，,]\s*(?:それ|そこ|その[^、，,。]{0,6})(?:と|に|で)?(?:は|も)?")


def _denied(text: str, end: int) -> bool:
    """Whether the mention ending at ``end`` is denied in its clause, or by the next
    clause when it points back (「Xは事実だが、それとは関係なく」). Only denials count
    (「Xではなく」「Xわけではない」「Xとは関係なく」); a negated verb is an absence that can be
    the point (「Xが入っていなかった」「Xされない」)."""
    stop = _CLAUSE_END.search(text, end)
    limit = stop.start() if stop else len(text)
    if _DENIAL.search(text, end, limit) is not None:
        return True
    back = _BACK_REFERENCE.match(text, limit) if stop else None
    if back is None:
        return False
    after = _CLAUSE_END.search(text, back.end())
    return _DENIAL.search(text, back.end(), after.start() if after else len(text)) is not None


def _matched_groups(solution: Solution, tokens: Sequence[Token], text: str) -> tuple[int, ...]:
    """Groups mentioned without being denied: a group denied anywhere in the answer
    (「猫よけではなく」) does not count even where it is named again, since the answer
    then explains another mechanism."""
    said: set[int] = set()
    denied: set[int] = set()
    for (group, _, end) in fired_phrases(_groups_table(solution), tokens):
        (denied if _denied(text, end) else said).add(group)
    return tuple(sorted(said - denied))


def _segments(tokens: Sequence[Token]) -> list[list[Token]]:
    """The text cut at punctuation and spaces (「電子レンジ、ケトル」 -> two segments)."""
    segments: list[list[Token]] = [[]]
    for token in tokens:
        if token.pos[0] in ("補助記号", "空白"):
            if segments[-1]:
                segments.append([])
        else:
            segments[-1].append(token)
    return [s for s in segments if s]


_SHORT_SEGMENT = 12


def _chars(segment: Sequence[Token]) -> int:
    return sum(len(t.surface) for t in segment)


def _bare(segment: Sequence[Token]) -> bool:
    """A segment that states nothing: it does not link an argument (が を に で へ
    は から まで) to a predicate. 「自身のディスク」「つながっていな」 are bare,
    「電子レンジを使い」「接続が切れ」 are not."""
    linked = any(t.pos[0] == "助詞" and t.surface in _ARGUMENT_PARTICLES for t in segment)
    return not (linked and any(t.pos[0] in _PREDICATES for t in segment))


def is_keyword_list(tokens: Sequence[Token]) -> bool:
    """Words side by side instead of an explanation: two or more content words with
    nothing linking them (no predicate, no particle but と や か も), or five or more
    pieces between commas/spaces of which at least 60% state nothing (no argument
    linked to a predicate), or a long text with fewer links than one per four
    content words.

    >>> from sadame.lang import analyze
    >>> is_keyword_list(analyze("電子レンジ、ブレーカー")), is_keyword_list(analyze("電子レンジでブレーカーが落ちた"))
    (True, False)
    """
    content = [t for t in tokens if t.is_content and t.pos[0] not in _PREDICATES]
    if len(content) < 2:
        return False
    links = sum(
        1 for t in tokens
        if t.pos[0] in _PREDICATES or (t.pos[0] == "助詞" and t.surface not in _LIST_PARTICLES)
    )
    if links == 0 or (len(content) >= 8 and links * 4 < len(content)):
        return True
    segments = _segments(tokens)
    bare = sum(map(_bare, segments))
    if len(segments) >= 3 and bare >= len(segments) - 1 and max(map(_chars, segments)) <= _SHORT_SEGMENT:
        return True  # 「999メートル、1000メートル、標高、石を積む」: short pieces, one verb among them
    return len(segments) >= 5 and bare * 5 >= len(segments) * 3


def natural_check(answer: object, solution: Solution) -> AnswerCheck:
    """Grade ``answer`` against a natural-mode solution (see the module docstring).

    >>> s = Solution([("電子レンジ", "ケトル"), ("ブレーカー", "容量")], max_chars=200)
    >>> natural_check("皆が電子レンジを使ったのでブレーカーが落ちた", s).correct
    True
    >>> natural_check("電子レンジもブレーカーも関係ない", s).matched
    0
    >>> natural_check("電子レンジ、ブレーカー", s).advice is not None
    True
    """
    total = len(solution)
    if not isinstance(answer, str) or not fold(answer):
        return AnswerCheck(False, 0, total, ())
    text = clean(answer)
    tokens = analyze(text[:_MAX_ANALYZED])
    matched = _matched_groups(solution, tokens, text)
    advice = None
    if len(text) > solution.max_chars:
        advice = TOO_LONG_ADVICE
    elif is_keyword_list(tokens):
        advice = KEYWORDS_ADVICE
    if advice is not None and total and len(matched) == total:
        matched = matched[: total - 1]
    correct = bool(total) and len(matched) == total
    return AnswerCheck(correct, len(matched), total, matched, advice)
