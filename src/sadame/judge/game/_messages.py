"""Every Japanese line the puzzle game says to a player, in one place.

The terminal (:mod:`sadame.judge.game._play`) and the browser (``sadame.web``) both
render a move with these functions, so the same move gets the same words
wherever it is played.
"""

from __future__ import annotations

from sadame.judge.engine._engine import AnswerCheck
from sadame.judge.engine._judge import MATTERS, MISS_NOTE, UNKNOWN, JudgeResult

__all__ = [
    "GIVE_UP_CONFIRM",
    "REPHRASE",
    "VERDICT_LABELS",
    "answer_feedback",
    "answer_intro",
    "answer_progress",
    "hint_line",
    "question_feedback",
    "reply_note",
    "result_summary",
    "verdict_label",
]

#: How each verdict reads in Japanese.
VERDICT_LABELS = {
    "YES": "はい",
    "NO": "いいえ",
    "IRRELEVANT": "関係ありません",
    "UNCERTAIN": "どちらとも言えません",
    MATTERS: "重要です",
    UNKNOWN: "判定できません",
}

#: What a no-verdict reply says: how to ask so that the judge can answer.
REPHRASE = (
    "一度に一つのことだけを、はい／いいえで答えられる形で聞いてみてください"
    "（例：「〜は関係ありますか？」「〜を使いましたか？」）"
)

#: The question asked before giving up (the truth is shown right after).
GIVE_UP_CONFIRM = "本当にギブアップしますか？ 真相が表示され、この回はギブアップとして記録されます。"


def verdict_label(verdict: str) -> str:
    """``はい`` for ``YES`` ...; an answer outside the usual set reads as itself.

    >>> verdict_label("IRRELEVANT")
    '関係ありません'
    """
    return VERDICT_LABELS.get(verdict, verdict)


def reply_note(result: JudgeResult) -> str | None:
    """The note shown with a verdict: the author's note, or how to rephrase when
    there is no verdict (never fallback text)."""
    if result.verdict == UNKNOWN:
        return result.note if result.note and result.note != MISS_NOTE else REPHRASE
    return result.note


def question_feedback(result: JudgeResult) -> str:
    """The whole reply to a question: verdict and note.

    >>> question_feedback(JudgeResult("YES", "いい線です", "rules"))
    'はい　いい線です'
    """
    note = reply_note(result)
    label = verdict_label(result.verdict)
    return f"{label}　{note}" if note else label


def answer_feedback(check: AnswerCheck) -> str:
    """The reply to an answer (partial credit says how many points, never which), with
    the checker's advice when a list of keywords or an overlong answer is not accepted.

    >>> answer_feedback(AnswerCheck(False, 1, 2, (0,)))
    '惜しい、2つのうち1つは合っています'
    >>> answer_feedback(AnswerCheck(False, 2, 2, (0, 1), advice="文章で説明してください"))
    '文章で説明してください'
    """
    if check.correct:
        return "正解です！"
    if check.advice and check.matched >= check.total:
        return check.advice
    if check.matched > 0:
        reply = f"惜しい、{check.total}つのうち{check.matched}つは合っています"
    else:
        reply = "残念、まだ核心に届いていません。もう少し考えてみてください"
    return f"{reply}。{check.advice}" if check.advice else reply


def answer_intro(total: int) -> str:
    """Shown before the first answer: how answers are graded.

    >>> answer_intro(2)
    '真相のポイントは2つです。回答すると、そのうちいくつ合っているかだけをお知らせします（どれが合っているかは教えません）。'
    """
    return (
        f"真相のポイントは{total}つです。回答すると、そのうちいくつ合っているかだけをお知らせします"
        "（どれが合っているかは教えません）。"
    )


def answer_progress(best: int, total: int) -> str:
    """After a wrong answer: the best so far and how many points remain.

    >>> answer_progress(1, 3)
    'これまでの最高は3つのうち1つ、残りはあと2つです。'
    >>> answer_progress(0, 2)
    'まだ2つのポイントのどれにも届いていません。'
    """
    if best <= 0:
        return f"まだ{total}つのポイントのどれにも届いていません。"
    return f"これまでの最高は{total}つのうち{best}つ、残りはあと{max(total - best, 0)}つです。"


def hint_line(number: int, hint: str) -> str:
    """``ヒント1：…``"""
    return f"ヒント{number}：{hint}"


def result_summary(outcome: str, questions: int, hints: int) -> str:
    """One line for a finished play.

    >>> result_summary("solved", 12, 1)
    '質問 12 回・ヒント 1 回で正解しました'
    >>> result_summary("gave_up", 5, 0)
    '質問 5 回・ヒント 0 回でギブアップしました'
    """
    ending = "正解しました" if outcome == "solved" else "ギブアップしました"
    return f"質問 {questions} 回・ヒント {hints} 回で{ending}"
