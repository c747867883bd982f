"""Question forms issue 25 item 5 names, and no-verdict replies that say what was understood."""

from __future__ import annotations

import copy

import pytest

from sadame.judge import Judge, PuzzlePack, parse_table
from sadame.judge.engine._judge import MISS_NOTE, UNKNOWN
from sadame.judge.game._messages import question_feedback

from .test_facts import PUZZLE

RULES = [
    {"id": "key", "any": ["合鍵"], "answer": "YES", "note": "合鍵が鍵です"},
    {"id": "utc", "any": ["UTC"], "answer": "YES"},
    {"id": "thunder", "any": ["雷"], "answer": "NO"},
    {"id": "outage", "any": ["ていでん"], "answer": "YES"},
]


def _judge(fmt: str) -> Judge:
    puzzle = {**copy.deepcopy(PUZZLE), "rules": RULES}
    puzzle.pop("facts")
    pack = parse_table({"format": fmt, "name": "t", "title": "t", "answers": ["YES", "NO"], "puzzles": [puzzle]})
    assert isinstance(pack, PuzzlePack)
    return Judge(pack.puzzle("ice"))


@pytest.mark.parametrize(("question", "verdict"), [
    ("合鍵のせいってわけじゃないよね？", "NO"),       # confirms the negative
    ("合鍵のせいってことはないよね？", "NO"),
    ("合鍵が原因なんじゃね？", "YES"),                 # suggestion
    ("UTCで動かしてたらこうはならない？", "YES"),      # X would prevent it: X matters
    ("UTCにしたら起きない？", "YES"),
    ("雷だったらこうはならない？", "NO"),
    ("合鍵は関係するん？", "YES"),                     # Kansai ん = の, not a negation
    ("合鍵使うん？", "YES"),
    ("合鍵は関係あらへんの？", "NO"),                  # Kansai へん / あらん = ない
    ("合鍵は関係あらん？", "NO"),
    ("合鍵は関係せえへん？", "NO"),
    ("ていでん？", "YES"),                           # the word's own ん, not a Kansai negation
    ("雷が鳴ったわけじゃないよね？", "YES"),          # the whole proposition denied: a NO rule flips
    ("合鍵を使ったわけじゃないよね？", "NO"),
    ("合鍵がないのは関係ない？", "NO"),              # the clause is the topic; 関係ない is what is asked
    ("合鍵は関係してへん？", "NO"),                  # Kansai 〜てへん: the analyzer's noun へん is a negation
    ("合鍵を使いたくて置いたわけではない？", "NO"),  # わけではない covers the て clause before it
    ("合鍵を使いたくて置いた？", "YES"),
    ("合鍵じゃないよね？", "NO"),
    ("スペア合鍵じゃないよね？", UNKNOWN),            # the rule word is the tail of a longer noun:
    ("スペア合鍵？", "YES"),                         # denying the whole noun does not deny it
])
@pytest.mark.parametrize("fmt", ["sadame.puzzles/2", "sadame.puzzles/3"])
def test_forms(fmt: str, question: str, verdict: str) -> None:
    assert _judge(fmt).ask(question).verdict == verdict


def test_a_no_verdict_reply_says_what_was_understood_in_format3() -> None:
    result = _judge("sadame.puzzles/3").ask("誰が合鍵を置いた？")
    assert result.verdict == UNKNOWN
    assert result.note == "「合鍵」についての質問として受け取りましたが、答え方が決められません。「合鍵は関係ありますか？」のように聞いてみてください"
    assert question_feedback(result).startswith("判定できません　「合鍵」についての質問")
    assert _judge("sadame.puzzles/2").ask("誰が合鍵を置いた？").note == MISS_NOTE  # format 2 as before
    assert _judge("sadame.puzzles/3").ask("ｚｚｚ？").note == MISS_NOTE  # nothing understood
