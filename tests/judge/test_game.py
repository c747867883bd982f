"""``GameState`` (pure) and the terminal loop ``play``."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from sadame.judge import (
    AnswerCheck,
    GameFinished,
    GameState,
    Judge,
    JudgeError,
    PuzzlePack,
    answer_feedback,
    play,
)


def test_a_full_game(seed_pack: PuzzlePack) -> None:
    puzzle = seed_pack.puzzle("prod-only-images")
    judge = Judge(puzzle)
    state = GameState(puzzle.id)
    assert state.ask(judge, "キャッシュ？").verdict == "NO"
    assert state.ask(judge, "メモリ？").verdict == "UNKNOWN"
    partial = state.submit(puzzle, "大文字小文字の違い")
    assert answer_feedback(partial) == "惜しい、2つのうち1つは合っています"
    assert not state.finished
    assert state.submit(puzzle, "ファイル名の大文字と小文字が食い違ってた").correct
    assert state.solved and state.finished
    with pytest.raises(GameFinished):
        state.ask(judge, "まだ？")
    with pytest.raises(GameFinished):
        state.submit(puzzle, "ファイル名の大文字")
    restored = GameState.from_dict(json.loads(json.dumps(state.to_dict(), ensure_ascii=False)))
    assert restored == state


def test_give_up_and_wrong_puzzle(seed_pack: PuzzlePack) -> None:
    puzzle = seed_pack.puzzle("prod-only-images")
    state = GameState("another")
    with pytest.raises(JudgeError, match="another"):
        state.submit(puzzle, "x")
    state = GameState(puzzle.id)
    state.give_up()
    state.give_up()
    assert state.gave_up and state.finished and not state.solved
    with pytest.raises(GameFinished, match="given up"):
        state.submit(puzzle, "x")


def test_feedback_messages() -> None:
    assert answer_feedback(AnswerCheck(True, 2, 2, (0, 1))) == "正解です！"
    assert answer_feedback(AnswerCheck(False, 0, 3, ())).startswith("違います")
    assert answer_feedback(AnswerCheck(False, 2, 3, (0, 2))) == "惜しい、3つのうち2つは合っています"


@pytest.mark.parametrize("data", [[], {"puzzle_id": 1}, {"puzzle_id": "p", "history": [], "attempts": [],
                                                         "solved": "yes", "gave_up": False}])
def test_from_dict_rejects_malformed_state(data: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        GameState.from_dict(data)  # type: ignore[arg-type]


def _lines(*lines: str) -> Iterator[str]:
    yield from lines


def _run(pack: PuzzlePack, *lines: str, puzzle_id: str | None = None) -> tuple[list[GameState], str]:
    feed = _lines(*lines)
    out: list[str] = []

    def read_line(prompt: str) -> str | None:
        out.append(prompt)
        return next(feed, None)

    states = play(pack, read_line, out.append, puzzle_id=puzzle_id)
    return states, "\n".join(out)


def test_play_loop(seed_pack: PuzzlePack) -> None:
    states, text = _run(
        seed_pack, "9", "1", "ｷｬｯｼｭ？", "メモリ不足？", "/history", "/answer", "/answer 大文字の話",
        "/nope", "/help", "/answer ファイル名の大文字小文字", "/quit",
    )
    assert "「9」という問題はありません" in text
    assert "本番だけ画像が出ない" in text and "ローカルでは表示される" in text
    assert "→ NO（いいえ）" in text
    assert "別の言い方で聞いてみてください" in text
    assert "1. ｷｬｯｼｭ？ → NO（いいえ）" in text
    assert "使い方: /answer" in text
    assert "惜しい、2つのうち1つは合っています" in text
    assert "知らないコマンドです: /nope" in text
    assert "正解です！" in text and "【真相】参照している名前" in text
    assert "本番だけ画像が出ない ✓" in text
    [state] = states
    assert state.solved and len(state.history) == 2


def test_play_give_up_and_end_of_input(seed_pack: PuzzlePack) -> None:
    states, text = _run(seed_pack, "大文字？", "/giveup", puzzle_id="prod-only-images")
    assert "→ YES（はい）　そこが核心です" in text
    assert "【真相】" in text and text.endswith("またどうぞ")
    assert states[0].gave_up
    states, text = _run(seed_pack, "prod-only-images", "大文字？")
    assert len(states) == 1 and not states[0].finished and text.endswith("またどうぞ")
