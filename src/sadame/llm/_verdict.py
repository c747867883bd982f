"""Reading a verdict out of an LLM reply: closed answer set, or nothing.

The model is told to answer with one word; it does not always. The rules:

1. Code fences are unwrapped; a JSON object reply is read from its ``verdict``
   (or ``answer``) field.
2. Otherwise the reply is read line by line; the first line that contains an
   answer of the closed set decides. Answers are matched case-insensitively
   with ASCII word boundaries, so ``NOT``, ``KNOWN``, ``NOTE`` and ``UNKNOWN``
   are not ``NO``. A line naming two different answers (``YES or NO``) is
   ambiguous: no verdict.
3. A Japanese reply is accepted only when the *whole* reply is one of a few
   fixed words (``はい`` -> YES, ``いいえ`` -> NO, ``関係ない``/``無関係`` ->
   IRRELEVANT, ``どちらとも言えない``/``わからない`` -> UNCERTAIN), compared
   after the ``judge`` preset, and only when that answer is in the table's set.
   Substrings are not used: ``はい`` hides inside too many Japanese words.

Anything else gives ``None``, which the judge turns into ``UNKNOWN``.

>>> parse_verdict("```\\nYES\\n```", ("YES", "NO"))
'YES'
>>> parse_verdict("NOT SURE", ("YES", "NO")) is None
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from sadame.normalize import normalize

__all__ = ["JAPANESE_ANSWERS", "parse_verdict"]

#: Whole-reply Japanese answers and the closed-set answer each stands for.
JAPANESE_ANSWERS: dict[str, str] = {
    "はい": "YES",
    "イエス": "YES",
    "いいえ": "NO",
    "ノー": "NO",
    "関係ない": "IRRELEVANT",
    "関係ありません": "IRRELEVANT",
    "無関係": "IRRELEVANT",
    "無関係です": "IRRELEVANT",
    "どちらとも言えない": "UNCERTAIN",
    "どちらとも言えません": "UNCERTAIN",
    "わからない": "UNCERTAIN",
    "わかりません": "UNCERTAIN",
}

_FENCE = re.compile(r"```[A-Za-z0-9_-]*\s*\n?(.*?)```", re.DOTALL)
_MAX_REPLY = 20_000


def _answer_pattern(answers: Sequence[str]) -> re.Pattern[str]:
    ordered = sorted({a for a in answers if a}, key=len, reverse=True)
    alternatives = "|".join(re.escape(a) for a in ordered)
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{alternatives})(?![A-Za-z0-9_])", re.IGNORECASE)


def _canonical(found: str, answers: Sequence[str]) -> str | None:
    for answer in answers:
        if answer.casefold() == found.casefold():
            return answer
    return None


def _from_json(text: str, answers: Sequence[str]) -> str | bool | None:
    """The verdict of a JSON object reply; False when the reply is not a JSON object."""
    try:
        data = json.loads(text)
    except ValueError:
        return False
    if not isinstance(data, dict):
        return False
    for key in ("verdict", "answer", "judgement", "judgment", "result"):
        value = data.get(key)
        if isinstance(value, str):
            return _canonical(value.strip(), answers)
    return None


def parse_verdict(text: str | None, answers: Sequence[str]) -> str | None:
    """The answer of ``answers`` that ``text`` gives, spelled as in ``answers``; else ``None``."""
    if not text or not answers:
        return None
    reply = text[:_MAX_REPLY]
    fenced = _FENCE.search(reply)
    if fenced:
        reply = fenced.group(1)
    reply = reply.strip()
    as_json = _from_json(reply, answers)
    if as_json is not False:
        return as_json if isinstance(as_json, str) else None
    whole = normalize(reply, preset="judge")
    for word, answer in JAPANESE_ANSWERS.items():
        if whole == normalize(word, preset="judge"):
            return _canonical(answer, answers)
    pattern = _answer_pattern(answers)
    for line in reply.splitlines():
        found = {m.group(0).casefold() for m in pattern.finditer(line)}
        if len(found) == 1:
            return _canonical(found.pop(), answers)
        if len(found) > 1:
            return None
    return None
