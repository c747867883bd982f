"""Errors of the LLM tier.

::

    LLMError                      base of everything below
    ├── LLMConfigError            bad or incomplete configuration (also a ValueError)
    ├── LLMUnavailable            the provider's optional package is not installed (also an ImportError)
    ├── LLMTransportError         timeout / connection failure after the bounded retries
    ├── LLMHTTPError              the endpoint answered with an HTTP error status
    ├── LLMResponseError          the endpoint answered 2xx but not with a usable completion
    └── EvalSetError              a matcher evaluation file is unreadable (also a ValueError;
                                  defined in ``_eval``)

Messages never contain the API key (see :func:`redact`), and never contain the
model's reply text, so they are safe to log and to store as a ``reason``.
"""

from __future__ import annotations

__all__ = [
    "LLMConfigError",
    "LLMError",
    "LLMHTTPError",
    "LLMResponseError",
    "LLMTransportError",
    "LLMUnavailable",
    "redact",
]


class LLMError(Exception):
    """Base class of every error raised by :mod:`sadame.llm`."""


class LLMConfigError(LLMError, ValueError):
    """The configuration (environment or TOML file) is invalid or incomplete."""


class LLMUnavailable(LLMError, ImportError):
    """A provider's optional dependency is missing (e.g. ``pip install 'sadame[gemini]'``)."""


class LLMTransportError(LLMError):
    """The request did not get an answer: timeout or connection failure, retries exhausted."""


class LLMHTTPError(LLMError):
    """The endpoint answered with an HTTP error status (after retries, for retryable ones)."""

    def __init__(self, message: str, *, status: int, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        #: seconds the server asked us to wait (``Retry-After``), if it said
        self.retry_after = retry_after


class LLMResponseError(LLMError):
    """The endpoint answered 2xx, but the body is not a chat completion we can read."""


def redact(text: str, secret: str | None) -> str:
    """``text`` with every occurrence of ``secret`` replaced by ``***``.

    A defence in depth: error messages are built without the key, but a server
    that echoes request headers back in its error body must not leak it either.
    """
    if not secret:
        return text
    return text.replace(secret, "***")
