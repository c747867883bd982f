"""How a request that raised an exception is answered: the one place the API's JSON errors
and the dashboard's Japanese error pages take their status and message from."""

from __future__ import annotations

from dataclasses import dataclass

from sadame._errors import SadameError, is_japanese

__all__ = ["Presented", "present"]


@dataclass(frozen=True, slots=True)
class Presented:
    """How a request that raised an exception is answered."""

    status: int
    code: str
    message: str  #: the library's message (English, or Japanese where the library speaks it)
    japanese: str  #: what a Japanese page shows


#: What a Japanese page says for an error the library did not word in Japanese.
_GENERIC_JA = {400: "入力を受け付けられませんでした", 404: "見つかりません"}


def present(exc: Exception) -> Presented:
    """Status, code and messages of ``exc``: a :class:`~sadame._errors.SadameError` carries
    its own; any other LookupError is 404 and ValueError/TypeError 400.

    >>> from sadame.track import MergeError
    >>> present(MergeError("issue a is already merged into b", japanese="統合済みです"))
    Presented(status=409, code='merge_conflict', message='issue a is already merged into b', japanese='統合済みです')
    >>> present(KeyError("x")).status
    404
    """
    if isinstance(exc, SadameError):
        return Presented(exc.http_status, exc.code, exc.plain(), exc.japanese)
    message = str(exc.args[0]) if len(exc.args) == 1 and isinstance(exc.args[0], str) else str(exc)
    status, code = (404, "not_found") if isinstance(exc, LookupError) else (400, "bad_request")
    return Presented(status, code, message, message if is_japanese(message) else _GENERIC_JA[status])
