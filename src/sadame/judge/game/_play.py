"""The terminal game loop behind ``sadame play``: line in, text out.

Pure of terminals: it reads lines from ``read_line`` (None at end of input) and
writes through ``write``, so it runs the same on a tty, a pipe, CliRunner or tmux.
Every puzzle's progress lives in a :class:`GameState` (the same state machine the
web app stores), and every reply is worded by :mod:`sadame.judge.game._messages`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sadame.judge.engine._errors import GameError, UnknownPuzzle
from sadame.judge.engine._judge import Judge, JudgeFallback
from sadame.judge.engine._model import Puzzle, PuzzlePack
from sadame.judge.game._catalog import STATUS_LABELS, CatalogEntry, parse_status, puzzle_catalog
from sadame.judge.game._game import GameState, GameStatus, puzzle_hints
from sadame.judge.game._messages import (
    GIVE_UP_CONFIRM,
    answer_feedback,
    answer_intro,
    answer_progress,
    hint_line,
    question_feedback,
    result_summary,
)

__all__ = ["HELP_TEXT", "MENU_HELP", "load_progress", "play", "save_progress"]

HELP_TEXT = """\
質問をそのまま入力すると、出題者が はい／いいえ／関係ありません／どちらとも言えません で答えます。
一度に一つのことを、はい／いいえで答えられる形で聞いてください。
  /hint           ヒントを1つ見る（使った数は記録されます）
  /history        これまでの質問と答え
  /answer 文章    真相を答える（部分点あり）
  /giveup         ギブアップして真相を見る（確認があります）
  /again          解けた・ギブアップした問題をもう一度遊ぶ
  /list           問題一覧に戻る
  /quit           終了"""

MENU_HELP = """\
番号か問題IDで問題を選びます。
  /pack 名前      そのパックだけ表示（/pack だけで全パック）
  /status 状態    unplayed（未挑戦）／in_progress（挑戦中）／solved（正解）／gave_up（ギブアップ）で絞り込み（/status だけで全部）
  /quit           終了"""

ReadLine = Callable[[str], str | None]  # prompt -> line, None at end of input
Write = Callable[[str], None]
States = MutableMapping[tuple[str, str], GameState]

_YES = frozenset({"y", "yes", "はい", "ｙ", "う"})


@dataclass
class _Session:
    packs: Sequence[PuzzlePack]
    read_line: ReadLine
    write: Write
    fallback: JudgeFallback | None
    states: States
    pack_filter: str | None = None
    status_filter: GameStatus | None = None
    played: list[GameState] = field(default_factory=list)

    def state(self, pack: PuzzlePack, puzzle: Puzzle) -> GameState:
        key = (pack.name, puzzle.id)
        if key not in self.states:
            self.states[key] = GameState(puzzle.id)
        return self.states[key]


def _difficulty_text(entry: CatalogEntry) -> str:
    author = "★" * entry.difficulty + "☆" * (5 - entry.difficulty) if entry.difficulty else "－"
    median = entry.measured.median_questions
    measured = f"実測{median:g}問" if median is not None else "実測－"
    return f"難易度{author} {measured}"


def _entry_line(number: int, entry: CatalogEntry) -> str:
    progress = STATUS_LABELS[entry.status]
    if entry.status is not GameStatus.UNPLAYED:
        progress += f"（質問 {entry.questions} 回・ヒント {entry.hints_used} 回）"
    return f"  {number:>3}. {entry.title}　{_difficulty_text(entry)}　{progress}"


def _menu(session: _Session) -> list[tuple[PuzzlePack, Puzzle]]:
    """Print the (filtered) list; returns the numbered puzzles."""
    catalog = puzzle_catalog(session.packs, session.states, pack=session.pack_filter,
                             status=session.status_filter)
    by_name = {p.name: p for p in session.packs}
    numbered: list[tuple[PuzzlePack, Puzzle]] = []
    for pack in catalog:
        session.write(f"== {pack.title}（{pack.name}・{pack.total}問・正解 {pack.solved}）==")
        for entry in pack.puzzles:
            numbered.append((by_name[pack.name], by_name[pack.name].puzzles[entry.id]))
            session.write(_entry_line(len(numbered), entry))
    if not numbered:
        session.write("条件に合う問題はありません")
    session.write("番号か問題IDを入力してください（/help で絞り込み、/quit で終了）")
    return numbered


def _pick(session: _Session, numbered: list[tuple[PuzzlePack, Puzzle]],
          choice: str) -> tuple[PuzzlePack, Puzzle] | None:
    if choice.isdecimal() and 1 <= int(choice) <= len(numbered):
        return numbered[int(choice) - 1]
    for pack in session.packs:
        if choice in pack.puzzles:
            return pack, pack.puzzles[choice]
    return None


def _menu_command(session: _Session, command: str, rest: str) -> bool:
    """Handle a menu command; False when it is not one."""
    if command == "/help":
        session.write(MENU_HELP)
    elif command == "/pack":
        names = [p.name for p in session.packs]
        if rest and rest not in names:
            session.write(f"「{rest}」というパックはありません（{'、'.join(names)}）")
        else:
            session.pack_filter = rest or None
    elif command == "/status":
        try:
            session.status_filter = parse_status(rest)
        except GameError as exc:
            session.write(str(exc))
    else:
        return False
    return True


def _show_puzzle(session: _Session, puzzle: Puzzle, state: GameState) -> None:
    session.write("")
    session.write(f"【{puzzle.title}】")
    session.write(puzzle.statement.rstrip())
    session.write("")
    for number, hint in enumerate(state.hints_shown(puzzle), start=1):
        session.write(hint_line(number, hint))
    if state.finished:
        _show_result(session, puzzle, state)
        return
    hints = len(puzzle_hints(puzzle))
    session.write(answer_intro(len(puzzle.solution)))
    session.write(f"質問をどうぞ（ヒントは{hints}つ。/help でコマンド一覧）" if hints else "質問をどうぞ（/help でコマンド一覧）")


def _show_result(session: _Session, puzzle: Puzzle, state: GameState) -> None:
    record = state.record()
    if record is None:
        return
    session.write(f"【真相】{puzzle.truth.rstrip()}")
    session.write(result_summary(record.outcome, record.questions, record.hints))
    session.write("/again でもう一度遊べます（/list で一覧へ）")


def _answer(session: _Session, puzzle: Puzzle, state: GameState, text: str) -> None:
    if not text:
        session.write("使い方: /answer 真相だと思う文章")
        return
    check = state.submit(puzzle, text)
    session.write(f"→ {answer_feedback(check)}")
    if check.correct:
        _show_result(session, puzzle, state)
    else:
        session.write(answer_progress(state.best_matched, check.total))


def _give_up(session: _Session, puzzle: Puzzle, state: GameState) -> bool:
    """Confirm, then give up; False to quit (end of input or /quit at the confirmation)."""
    state.check_open(puzzle.id)
    line = session.read_line(f"{GIVE_UP_CONFIRM}（y/n）> ")
    if line is None or line.strip() == "/quit":
        return False
    if line.strip().lower() in _YES:
        state.give_up()
        _show_result(session, puzzle, state)
    else:
        session.write("続けましょう。質問をどうぞ")
    return True


def _history(session: _Session, state: GameState) -> None:
    if not state.history:
        session.write("まだ質問していません")
    for number, (question, result) in enumerate(state.history, start=1):
        session.write(f"  {number:>2}. {question} → {question_feedback(result)}")


def _move(session: _Session, puzzle: Puzzle, judge: Judge, state: GameState, text: str) -> bool | None:
    """One move; returns True to quit, False to go back to the list, None to stay."""
    command, _, rest = text.partition(" ")
    rest = rest.strip()
    if not command.startswith("/"):
        session.write(f"→ {question_feedback(state.ask(judge, text))}")
    elif command in ("/quit", "/list"):
        return command == "/quit"
    elif command == "/help":
        session.write(HELP_TEXT)
    elif command == "/history":
        _history(session, state)
    elif command == "/hint":
        hint = state.take_hint(puzzle)
        session.write(f"→ {hint_line(state.hints_used, hint)}")
    elif command == "/answer":
        _answer(session, puzzle, state, rest)
    elif command == "/giveup":
        if not _give_up(session, puzzle, state):
            return True
    elif command == "/again":
        state.restart()
        _show_puzzle(session, puzzle, state)
    else:
        session.write(f"知らないコマンドです: {command}（/help で一覧）")
    return None


def _play_puzzle(session: _Session, pack: PuzzlePack, puzzle: Puzzle) -> bool:
    """Play one puzzle until /list (False) or /quit or end of input (True)."""
    state = session.state(pack, puzzle)
    session.played.append(state)
    judge = Judge(puzzle, session.fallback)
    _show_puzzle(session, puzzle, state)
    while True:
        line = session.read_line("質問> ")
        if line is None:
            return True
        text = line.strip()
        if not text:
            continue
        try:
            outcome = _move(session, puzzle, judge, state, text)
        except GameError as exc:
            session.write(str(exc) + ("（/again でもう一度遊べます）" if state.finished else ""))
            continue
        if outcome is not None:
            return outcome


def _choose(session: _Session) -> tuple[PuzzlePack, Puzzle] | None:
    """Show the list until a puzzle is chosen; None to quit."""
    while True:
        numbered = _menu(session)
        line = session.read_line("番号> ")
        if line is None or line.strip() == "/quit":
            return None
        command, _, rest = line.strip().partition(" ")
        if not command or _menu_command(session, command, rest.strip()):
            continue
        chosen = _pick(session, numbered, line.strip())
        if chosen is not None:
            return chosen
        session.write(f"「{line.strip()}」という問題はありません")


def play(
    packs: PuzzlePack | Sequence[PuzzlePack],
    read_line: ReadLine,
    write: Write,
    *,
    fallback: JudgeFallback | None = None,
    puzzle_id: str | None = None,
    states: States | None = None,
    progress: Path | None = None,
) -> list[GameState]:
    """Run the game until ``/quit`` or end of input; returns the states of the
    puzzles played (in order of play). ``puzzle_id`` starts directly on that puzzle.

    ``read_line(prompt)`` shows the prompt and returns one line (None at end of
    input); ``write(text)`` prints one line. ``states`` (keyed by pack name and
    puzzle id) carries progress in and out; ``progress`` names a JSON file that
    is read first and written after each puzzle (see :func:`save_progress`)."""
    if states is None:
        states = load_progress(progress) if progress is not None else {}
    session = _Session(
        [packs] if isinstance(packs, PuzzlePack) else list(packs), read_line, write, fallback, states,
    )
    start = _start(session, puzzle_id)
    while True:
        chosen, start = start or _choose(session), None
        quit_now = chosen is None or _play_puzzle(session, *chosen)
        if progress is not None and chosen is not None:
            save_progress(progress, session.states)
        if quit_now:
            break
    write("またどうぞ")
    return session.played


_PROGRESS_FORMAT = "sadame.progress/1"


def load_progress(path: Path) -> dict[tuple[str, str], GameState]:
    """The states saved by :func:`save_progress` (empty when the file does not exist).

    A file that is not a progress file raises :class:`GameError` (it is never overwritten)."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != _PROGRESS_FORMAT:
            raise ValueError(f"not a {_PROGRESS_FORMAT} file")
        states = {}
        for key, doc in data["states"].items():
            pack, _, puzzle_id = key.partition("/")
            states[(pack, puzzle_id)] = GameState.from_dict(doc)
        return states
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise GameError(f"{path} は進み具合のファイルとして読めません: {exc}") from None


def save_progress(path: Path, states: States) -> None:
    """Write ``states`` as JSON (to a temporary file first, then renamed over ``path``)."""
    data = {"format": _PROGRESS_FORMAT,
            "states": {f"{pack}/{pid}": state.to_dict() for (pack, pid), state in states.items()}}
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(temporary, path)


def _start(session: _Session, puzzle_id: str | None) -> tuple[PuzzlePack, Puzzle] | None:
    if puzzle_id is None:
        return None
    for pack in session.packs:
        if puzzle_id in pack.puzzles:
            return pack, pack.puzzles[puzzle_id]
    if len(session.packs) == 1:
        session.packs[0].puzzle(puzzle_id)  # raises UnknownPuzzle naming the ids there are
    raise UnknownPuzzle(f"no pack has a puzzle {puzzle_id!r}")
