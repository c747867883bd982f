"""Errors of sadame.judge.

Hierarchy::

    ValueError
     └── JudgeError            anything sadame.judge refuses
          ├── TableError       a rule table / puzzle pack file that cannot be loaded
          ├── UnknownPuzzle    a puzzle id (or pack name) that does not exist (also a LookupError)
          └── GameError        a move the puzzle game does not accept (message in Japanese)
               └── GameFinished   the puzzle is already solved or given up
"""

from __future__ import annotations

from sadame._errors import SadameError

__all__ = ["GameError", "GameFinished", "JudgeError", "TableError", "UnknownPuzzle"]


class JudgeError(SadameError, ValueError):
    """Base class of every error sadame.judge raises on purpose."""

    message_ja = "判定できませんでした"


class TableError(JudgeError):
    """A table or pack that cannot be loaded; nothing of it is loaded.

    The message names the file, the puzzle (for packs), the rule (index and id)
    and the field, so an author can go straight to the line to fix.
    """

    code, message_ja = "invalid_table", "ルール表または問題集を読み込めません"

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        puzzle: str | None = None,
        index: int | None = None,
        rule_id: str | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.puzzle = puzzle
        self.index = index
        self.rule_id = rule_id
        self.field = field
        super().__init__(self._render())

    def _render(self) -> str:
        parts: list[str] = []
        if self.file is not None:
            parts.append(self.file)
        if self.puzzle is not None:
            parts.append(f"puzzle {self.puzzle!r}")
        if self.index is not None:
            rule = f"rule #{self.index}"
            if self.rule_id is not None:
                rule += f" (id {self.rule_id!r})"
            parts.append(rule)
        if self.field is not None:
            parts.append(f"field {self.field!r}")
        where = ": ".join(parts)
        return f"{where}: {self.message}" if where else self.message

    def to_dict(self) -> dict[str, object]:
        """The error as JSON-ready data (for the CLI's ``--json`` and the web API)."""
        return {
            "file": self.file,
            "puzzle": self.puzzle,
            "index": self.index,
            "rule_id": self.rule_id,
            "field": self.field,
            "message": self.message,
        }


class UnknownPuzzle(JudgeError, LookupError):
    """A puzzle id the pack does not contain."""

    http_status, code, message_ja = 404, "not_found", "その問題は見つかりません"


class GameError(JudgeError):
    """A move the puzzle game does not accept: an empty question, too many questions,
    no hint left, replaying a game still in progress ... The message is Japanese and
    meant for the player (the terminal prints it, the web shows it)."""

    http_status, code, message_ja = 409, "game_error", "その操作は今はできません"


class GameFinished(GameError):
    """The puzzle was already solved or given up; :meth:`GameState.restart` plays it again."""
