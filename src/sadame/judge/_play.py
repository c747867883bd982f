"""The terminal game loop behind ``sadame play``: line in, text out.

Pure of terminals: it reads lines from ``read_line`` (None at end of input) and
writes through ``write``, so it runs the same on a tty, a pipe, CliRunner or tmux.
All state of a puzzle in progress lives in a :class:`GameState`.
"""

from __future__ import annotations

from collections.abc import Callable

from sadame.judge._game import GameState, answer_feedback
from sadame.judge._judge import Judge, JudgeFallback
from sadame.judge._model import Puzzle, PuzzlePack

__all__ = ["HELP_TEXT", "play"]

HELP_TEXT = """\
質問をそのまま入力すると、出題者が YES / NO / IRRELEVANT / UNCERTAIN で答えます。
  /history        これまでの質問と答え
  /answer 文章    真相を答える（部分点あり）
  /giveup         降参して真相を見る
  /list           問題一覧に戻る
  /quit           終了"""

_VERDICT_JA = {"YES": "はい", "NO": "いいえ", "IRRELEVANT": "関係ありません", "UNCERTAIN": "どちらとも言えません",
               "UNKNOWN": "わかりません"}

ReadLine = Callable[[str], str | None]  # prompt -> line, None at end of input
Write = Callable[[str], None]


def _verdict_text(verdict: str) -> str:
    ja = _VERDICT_JA.get(verdict)
    return f"{verdict}（{ja}）" if ja else verdict


def _menu(pack: PuzzlePack, write: Write, solved: set[str]) -> None:
    write(f"== {pack.title}（{len(pack.puzzles)}問）==")
    for number, puzzle in enumerate(pack.puzzles.values(), start=1):
        mark = " ✓" if puzzle.id in solved else ""
        write(f"  {number:>2}. {puzzle.title}{mark}")
    write("番号か問題IDを入力してください（/quit で終了）")


def _pick(pack: PuzzlePack, choice: str) -> Puzzle | None:
    puzzles = list(pack.puzzles.values())
    if choice.isdecimal() and 1 <= int(choice) <= len(puzzles):
        return puzzles[int(choice) - 1]
    return pack.puzzles.get(choice)


def _play_puzzle(puzzle: Puzzle, judge: Judge, read_line: ReadLine, write: Write) -> tuple[GameState, bool]:
    """Play one puzzle; returns the final state and whether the player quit."""
    state = GameState(puzzle.id)
    write("")
    write(f"【{puzzle.title}】")
    write(puzzle.statement.rstrip())
    write("")
    write("質問をどうぞ（/help でコマンド一覧）")
    while True:
        line = read_line("質問> ")
        if line is None:
            return state, True
        text = line.strip()
        if not text:
            continue
        command, _, rest = text.partition(" ")
        if command == "/quit":
            return state, True
        if command == "/list":
            return state, False
        if command == "/help":
            write(HELP_TEXT)
        elif command == "/history":
            if not state.history:
                write("まだ質問していません")
            for number, (question, result) in enumerate(state.history, start=1):
                write(f"  {number:>2}. {question} → {_verdict_text(result.verdict)}")
        elif command == "/answer":
            if not rest.strip():
                write("使い方: /answer 真相だと思う文章")
                continue
            check = state.submit(puzzle, rest.strip())
            write(answer_feedback(check))
            if check.correct:
                write(f"【真相】{puzzle.truth.rstrip()}")
                write(f"質問 {len(state.history)} 回で正解しました")
                return state, False
        elif command == "/giveup":
            state.give_up()
            write(f"【真相】{puzzle.truth.rstrip()}")
            return state, False
        elif command.startswith("/"):
            write(f"知らないコマンドです: {command}（/help で一覧）")
        else:
            result = state.ask(judge, text)
            write(f"→ {_verdict_text(result.verdict)}" + (f"　{result.note}" if result.note else ""))


def play(
    pack: PuzzlePack,
    read_line: ReadLine,
    write: Write,
    *,
    fallback: JudgeFallback | None = None,
    puzzle_id: str | None = None,
) -> list[GameState]:
    """Run the game until ``/quit`` or end of input; returns the states of the
    puzzles played (in order). ``puzzle_id`` starts directly on that puzzle.

    ``read_line(prompt)`` shows the prompt and returns one line (None at end of
    input); ``write(text)`` prints one line."""
    played: list[GameState] = []
    solved: set[str] = set()
    start = pack.puzzle(puzzle_id) if puzzle_id is not None else None
    while True:
        if start is None:
            _menu(pack, write, solved)
            line = read_line("番号> ")
            if line is None or line.strip() == "/quit":
                break
            choice = line.strip()
            if not choice:
                continue
            puzzle = _pick(pack, choice)
            if puzzle is None:
                write(f"「{choice}」という問題はありません")
                continue
        else:
            puzzle, start = start, None
        state, quit_now = _play_puzzle(puzzle, Judge(puzzle, fallback), read_line, write)
        played.append(state)
        if state.solved:
            solved.add(puzzle.id)
        if quit_now:
            break
    write("またどうぞ")
    return played
