"""The base of every error sadame raises on purpose: it knows how to present itself.

As click's ``ClickException.exit_code``, each error class says its HTTP status, a stable
machine code and a Japanese message, so the web API and the Japanese pages present an
error the same way and no code matches class names::

    SadameError                      http_status  code            (class attributes)
     ├── sadame.judge.JudgeError     400 ...      UnknownPuzzle 404, GameError 409
     ├── sadame.track.TrackError     400 ...      IssueNotFound 404, IllegalTransition / MergeError 409
     ├── sadame.quote.QuoteError     400
     ├── DataFileError               400          invalid_file
     └── web: BudgetExhausted 429, TenantNameError 400

:attr:`SadameError.japanese` is the message a Japanese page shows: the one given as
``japanese=`` when raised, else the message itself when it is written in Japanese (the
game's and the web service's own messages are), else the class's :attr:`message_ja`.
"""

from __future__ import annotations

import re
from typing import ClassVar

__all__ = ["SadameError", "is_japanese"]

_KANA = re.compile("[\u3040-\u30ff]")


def is_japanese(text: str) -> bool:
    """Whether ``text`` is written in Japanese (it has kana).

    >>> is_japanese("「x」という問題集はありません"), is_japanese("no such pack")
    (True, False)
    """
    return _KANA.search(text) is not None


class SadameError(Exception):
    """An error with its HTTP status, machine code and Japanese message.

    >>> class Missing(SadameError, LookupError):
    ...     http_status, code, message_ja = 404, "not_found", "見つかりません"
    >>> error = Missing("no issue 'x'")
    >>> error.http_status, error.code, str(error), error.japanese
    (404, 'not_found', "no issue 'x'", '見つかりません')
    >>> Missing("no issue 'x'", japanese="課題 x はありません").japanese
    '課題 x はありません'
    """

    #: The HTTP status a request that raised this gets.
    http_status: ClassVar[int] = 400
    #: The stable ``error`` field of the JSON body.
    code: ClassVar[str] = "bad_request"
    #: What a Japanese page says when the raiser gave no Japanese message.
    message_ja: ClassVar[str] = "この操作は受け付けられませんでした"

    def __init__(self, *args: object, japanese: str | None = None) -> None:
        super().__init__(*args)
        self._japanese = japanese

    def plain(self) -> str:
        """The message without ``KeyError``'s quotes."""
        return str(self.args[0]) if len(self.args) == 1 and isinstance(self.args[0], str) else str(self)

    @property
    def japanese(self) -> str:
        """The message for a Japanese page (see the module docstring)."""
        explicit = getattr(self, "_japanese", None)
        if explicit:
            return str(explicit)
        plain = self.plain()
        return plain if is_japanese(plain) else self.message_ja
