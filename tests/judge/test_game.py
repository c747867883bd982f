"""The game's state machine ``GameState`` (pure), its replies and the puzzle catalog."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sadame.judge import AnswerCheck, Judge, PuzzlePack
from sadame.judge.engine._errors import GameFinished
from sadame.judge.game import GameError, GameState, GameStatus, measure_difficulty, puzzle_catalog
from sadame.judge.game._catalog import parse_status
from sadame.judge.game._game import MAX_MOVE_CHARS, MAX_QUESTIONS, PlayRecord
from sadame.judge.game._messages import (
    REPHRASE,
    answer_feedback,
    answer_intro,
    answer_progress,
    question_feedback,
    result_summary,
)


def test_a_full_game(seed_pack: PuzzlePack) -> None:
    puzzle = seed_pack.puzzle("prod-only-images")
    judge = Judge(puzzle)
    state = GameState(puzzle.id)
    assert state.status is GameStatus.UNPLAYED
    assert state.ask(judge, "キャッシュ？").verdict == "NO"
    assert state.ask(judge, "  メモリ？ ").verdict == "UNKNOWN"
    assert state.history[-1][0] == "メモリ？", "moves are stored stripped"
    assert state.status is GameStatus.IN_PROGRESS
    partial = state.submit(puzzle, "大文字小文字の違い")
    assert answer_feedback(partial) == "惜しい、2つのうち1つは合っています"
    assert state.best_matched == 1 and not state.finished
    assert state.submit(puzzle, "ファイル名の大文字と小文字が食い違ってた").correct
    assert state.solved and state.status is GameStatus.SOLVED
    assert state.record() == PlayRecord(GameStatus.SOLVED, 2, 0, 2)
    with pytest.raises(GameFinished, match="もう解けています"):
        state.ask(judge, "まだ？")
    with pytest.raises(GameFinished):
        state.submit(puzzle, "ファイル名の大文字")
    restored = GameState.from_dict(json.loads(json.dumps(state.to_dict(), ensure_ascii=False)))
    assert restored == state


def test_give_up_and_wrong_puzzle(seed_pack: PuzzlePack) -> None:
    puzzle = seed_pack.puzzle("prod-only-images")
    with pytest.raises(GameError, match="another"):
        GameState("another").submit(puzzle, "x")
    state = GameState(puzzle.id)
    state.give_up()
    state.give_up()
    assert state.gave_up and state.finished and not state.solved
    with pytest.raises(GameFinished, match="ギブアップ済み"):
        state.submit(puzzle, "x")
    assert issubclass(GameFinished, GameError) and issubclass(GameError, ValueError)


@pytest.mark.parametrize("move", ["", "   ", "あ" * (MAX_MOVE_CHARS + 1), 3])
def test_bad_moves_get_a_japanese_game_error(seed_pack: PuzzlePack, move: object) -> None:
    puzzle = seed_pack.puzzle("prod-only-images")
    state = GameState(puzzle.id)
    with pytest.raises(GameError, match="質問"):
        state.ask(Judge(puzzle), move)
    with pytest.raises(GameError, match="答え"):
        state.submit(puzzle, move)
    assert state.history == [] and state.attempts == []


def test_question_limit(seed_pack: PuzzlePack) -> None:
    puzzle = seed_pack.puzzle("prod-only-images")
    judge = Judge(puzzle)
    state = GameState(puzzle.id)
    for _ in range(MAX_QUESTIONS):
        state.ask(judge, "キャッシュ？")
    with pytest.raises(GameError, match=f"{MAX_QUESTIONS}回まで"):
        state.ask(judge, "キャッシュ？")


def test_hints_one_at_a_time_and_counted(game_pack: PuzzlePack) -> None:
    puzzle = game_pack.puzzle("quiet-printer")
    state = GameState(puzzle.id)
    assert state.hints_shown(puzzle) == ()
    assert state.take_hint(puzzle) == puzzle.hints[0]
    assert state.status is GameStatus.IN_PROGRESS, "a hint starts the play"
    assert state.take_hint(puzzle) == puzzle.hints[1]
    assert state.hints_shown(puzzle) == puzzle.hints[:2]
    state.take_hint(puzzle)
    with pytest.raises(GameError, match="3つまで"):
        state.take_hint(puzzle)
    assert state.submit(puzzle, "節電のためのタイマー設定").correct
    assert state.record() == PlayRecord(GameStatus.SOLVED, 0, 3, 1)
    with pytest.raises(GameFinished):
        state.take_hint(puzzle)
    no_hints = game_pack.puzzle("late-bus")
    with pytest.raises(GameError, match="ヒントがありません"):
        GameState(no_hints.id).take_hint(no_hints)


def test_restart_keeps_the_finished_play(game_pack: PuzzlePack) -> None:
    puzzle = game_pack.puzzle("quiet-printer")
    judge = Judge(puzzle)
    state = GameState(puzzle.id)
    state.ask(judge, "故障？")
    with pytest.raises(GameError, match="途中"):
        state.restart()
    state.give_up()
    state.restart()
    assert (state.history, state.attempts, state.hints_used, state.finished) == ([], [], 0, False)
    assert state.status is GameStatus.GAVE_UP, "a fresh replay shows how the last play ended"
    assert state.best_solve() is None
    state.take_hint(puzzle)
    state.ask(judge, "省エネ？")
    state.submit(puzzle, "節電のタイマー設定")
    assert state.best_solve() == PlayRecord(GameStatus.SOLVED, 1, 1, 1)
    state.restart()
    state.submit(puzzle, "節電のタイマー設定")
    assert state.best_solve() == PlayRecord(GameStatus.SOLVED, 0, 0, 1), "the best play wins"
    assert [p.outcome for p in state.past] == [GameStatus.GAVE_UP, GameStatus.SOLVED]
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@pytest.mark.parametrize("data", [
    [], {"puzzle_id": 1}, {"puzzle_id": "p", "history": [], "attempts": [], "solved": "yes", "gave_up": False},
    {"puzzle_id": "p", "history": [], "attempts": [], "solved": False, "gave_up": False, "hints_used": -1},
    {"puzzle_id": "p", "history": [], "attempts": [], "solved": False, "gave_up": False,
     "past": [{"outcome": "in_progress", "questions": 1, "hints": 0, "attempts": 0}]},
])
def test_from_dict_rejects_malformed_state(data: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        GameState.from_dict(data)  # type: ignore[arg-type]


def test_feedback_messages() -> None:
    from sadame.judge import JudgeResult

    assert answer_feedback(AnswerCheck(True, 2, 2, (0, 1))) == "正解です！"
    assert answer_feedback(AnswerCheck(False, 0, 3, ())).startswith("残念、まだ核心に届いていません")
    assert answer_feedback(AnswerCheck(False, 2, 3, (0, 2))) == "惜しい、3つのうち2つは合っています"
    assert question_feedback(JudgeResult("NO", None, "rules")) == "いいえ"
    assert question_feedback(JudgeResult("UNKNOWN", "別の言い方で聞いてみてください", "none")) == f"判定できません　{REPHRASE}"
    assert "一度に一つ" in REPHRASE and "はい／いいえ" in REPHRASE
    assert "3つ" in answer_intro(3) and "どれが合っているかは教えません" in answer_intro(3)
    assert answer_progress(2, 3).endswith("あと1つです。")
    assert result_summary("solved", 4, 2) == "質問 4 回・ヒント 2 回で正解しました"


def test_catalog_lists_progress_and_filters(game_pack: PuzzlePack, seed_pack: PuzzlePack) -> None:
    printer = game_pack.puzzle("quiet-printer")
    solved = GameState(printer.id)
    solved.take_hint(printer)
    solved.ask(Judge(printer), "省エネ？")
    solved.submit(printer, "節電のタイマー設定")
    states = {("game-test", printer.id): solved}
    catalog = puzzle_catalog([game_pack, seed_pack], states)
    assert [p.name for p in catalog] == ["game-test", "seed"]
    entry = catalog[0].puzzles[0]
    assert (entry.status, entry.questions, entry.hints_used, entry.hints, entry.difficulty) == (
        GameStatus.SOLVED, 1, 1, 3, 3)
    assert entry.best == PlayRecord(GameStatus.SOLVED, 1, 1, 1) and catalog[0].solved == 1
    assert "truth" not in json.dumps(entry.to_dict()) and printer.truth not in json.dumps(entry.to_dict())
    only_solved = puzzle_catalog([game_pack, seed_pack], states, status=GameStatus.SOLVED)
    assert [[e.id for e in p.puzzles] for p in only_solved] == [["quiet-printer"], []]
    unplayed = puzzle_catalog([game_pack, seed_pack], states, pack="game-test", status=parse_status("未挑戦"))
    assert [[e.id for e in p.puzzles] for p in unplayed] == [["late-bus"]]
    assert parse_status("") is None and parse_status("gave_up") is GameStatus.GAVE_UP
    with pytest.raises(GameError, match="という状態はありません"):
        parse_status("done")


def test_measured_difficulty_is_reproducible_and_documented(game_pack: PuzzlePack) -> None:
    printer, bus = game_pack.puzzle("quiet-printer"), game_pack.puzzle("late-bus")
    first = measure_difficulty(printer)
    assert first == measure_difficulty(printer)
    # Of 4 questions, 2 confirm one point each ("省エネの設定？" confirms both); any order needs <= 4.
    assert first.median_questions is not None and 1 <= first.median_questions <= 4
    assert first.questions == 4 and first.level == 1
    # late-bus: the two YES questions confirm one group each; the NO question confirms nothing.
    assert measure_difficulty(bus).median_questions in (2.0, 3.0)


def test_the_readme_gives_away_no_truth() -> None:
    """No sentence of any bundled puzzle's truth (真相) is quoted in the README."""
    from sadame.judge import bundled_pack
    from sadame.judge.engine._loader import bundled_names

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    sentences = [
        (puzzle.id, sentence.strip())
        for name in bundled_names()
        for puzzle in bundled_pack(name).puzzles.values()
        for sentence in puzzle.truth.replace("\n", "").split("。")
        if len(sentence.strip()) >= 8
    ]
    assert len(sentences) >= 40
    assert [(pid, s) for pid, s in sentences if s in readme] == []
