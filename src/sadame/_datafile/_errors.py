"""The one error of every data file sadame reads (YAML, JSON, JSON lines).

A :class:`DataFileError` names the file, the line and column when the parser knows them,
and says the problem in English (``str()``, the CLI and logs) and in Japanese
(:attr:`DataFileError.japanese`, for the game, the dashboard and the quote checker). Each
feature wraps it in its own error class (``TableError``, ``RulesetError`` ...) with the
same words, so a duplicate key reads the same in a ruleset, a rule table and a puzzle pack.
"""

from __future__ import annotations

from typing import Any

from sadame._errors import SadameError

__all__ = ["MESSAGES", "DataFileError"]

#: code -> (English, Japanese) templates; ``str.format`` fields come from the error's params.
MESSAGES: dict[str, tuple[str, str]] = {
    "cannot_read": ("cannot read: {reason}", "読めません: {reason}"),
    "too_large": ("file is {size:,} bytes; the limit is {limit:,}",
                  "ファイルが {size:,} バイトあります（上限は {limit:,} バイトです）"),
    "line_too_long": ("line is {size:,} bytes; the limit is {limit:,}",
                      "行が {size:,} バイトあります（上限は {limit:,} バイトです）"),
    "not_utf8": ("not UTF-8 text ({reason} at byte {start})", "UTF-8 のテキストではありません（{start} バイト目）"),
    "empty": ("the file is empty (no document)", "ファイルが空です（中身がありません）"),
    "yaml": ("invalid YAML: {what}", "YAML の書き方に誤りがあります: {what}"),
    "json": ("invalid JSON: {what}", "JSON の書き方に誤りがあります: {what}"),
    "duplicate_key": ("duplicate key {key!r}", "キー「{key}」が 2 回書かれています"),
    "key_not_scalar": ("mapping keys must be plain scalars", "キーには文字列か数だけが使えます"),
    "anchor": ("YAML anchors and aliases (&name / *name) are not allowed",
               "YAML のアンカーと参照（&名前 / *名前）は使えません"),
    "tab": ("a tab character where YAML expects spaces (indent with spaces only)",
            "タブ文字があります（YAML の字下げには空白だけが使えます）"),
    "too_deep": ("nested deeper than {limit} levels", "入れ子が {limit} 段より深くなっています"),
    "big_int": ("an integer of {digits:,} digits (at most {limit} are allowed)",
                "{digits:,} 桁の整数があります（{limit} 桁までです）"),
    "not_a_number": ("{text} is not a JSON number", "{text} は JSON の数ではありません"),
}


class DataFileError(SadameError, ValueError):
    """A data file that cannot be read; nothing of it is used.

    >>> error = DataFileError("duplicate_key", file="rules.yaml", line=3, column=1, key="name")
    >>> str(error)
    "rules.yaml: invalid YAML: duplicate key 'name' (line 3, column 1)"
    >>> error.japanese
    'rules.yaml: YAML の書き方に誤りがあります: キー「name」が 2 回書かれています（3 行目、1 列目）'
    """

    code, message_ja = "invalid_file", "ファイルを読み込めません"

    def __init__(self, problem: str, *, file: str | None = None, line: int | None = None,
                 column: int | None = None, syntax: str | None = "yaml", **params: Any) -> None:
        self.problem = problem  #: the key of :data:`MESSAGES`
        self.file = file
        self.line = line
        self.column = column
        self.syntax = syntax
        self.params = params
        super().__init__(self._render(self.detail), japanese=self._render(self._text(japanese=True)))

    def _where(self, japanese: bool) -> str:
        if self.line is None:
            return ""
        if japanese:
            return f"（{self.line} 行目" + (f"、{self.column} 列目）" if self.column is not None else "）")
        return f" (line {self.line}" + (f", column {self.column})" if self.column is not None else ")")

    def _text(self, japanese: bool) -> str:
        english, ja = MESSAGES[self.problem]
        text = (ja if japanese else english).format(**self.params)
        if self.syntax is not None and self.problem in _SYNTAX_CODES:
            outer = MESSAGES[self.syntax][1 if japanese else 0]
            text = outer.format(what=text)
        return text + self._where(japanese)

    def _render(self, detail: str) -> str:
        return f"{self.file}: {detail}" if self.file else detail

    @property
    def detail(self) -> str:
        """The English message without the file name (line and column included)."""
        return self._text(japanese=False)

    @property
    def detail_ja(self) -> str:
        """The Japanese message without the file name."""
        return self._text(japanese=True)

    @property
    def japanese(self) -> str:
        """The Japanese message with the file name, for a Japanese UI."""
        return self._render(self.detail_ja)


#: Problems of the text's syntax: worded as "invalid YAML: ..." / "invalid JSON: ...".
_SYNTAX_CODES = frozenset({"duplicate_key", "key_not_scalar", "anchor", "tab", "not_a_number"})
