"""The provider interface and what every provider shares: retries and a process-wide limit.

A provider turns chat messages into one reply string. It does nothing else:
prompts, parsing and caching live in the fallbacks that use it, so a new
backend is one small class.
"""

from __future__ import annotations

import email.utils
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol, TypedDict, TypeVar, runtime_checkable

from sadame.llm._config import LLMConfig, Secret
from sadame.llm._errors import LLMConfigError, LLMHTTPError, LLMTransportError

__all__ = [
    "RETRYABLE_STATUS",
    "ChatMessage",
    "LLMProvider",
    "RetryPolicy",
    "RetryingProvider",
    "call_with_retries",
    "parse_retry_after",
    "process_semaphore",
]

T = TypeVar("T")

#: HTTP statuses worth retrying: rate limited, or a transient server fault.
RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


class ChatMessage(TypedDict):
    """One chat message, as in the OpenAI protocol."""

    role: Literal["system", "user", "assistant"]
    content: str


@runtime_checkable
class LLMProvider(Protocol):
    """Something that answers chat messages with text, at temperature 0.

    ``model`` identifies the model in cache keys and reports. ``complete``
    raises :class:`~sadame.llm.LLMError` subclasses only; ``json`` asks the
    backend for a JSON object reply where it supports that.
    """

    @property
    def model(self) -> str: ...

    def complete(
        self, messages: Sequence[ChatMessage], *, json: bool = False, max_tokens: int = 256
    ) -> str: ...


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries with exponential backoff (and full jitter), honouring ``Retry-After``.

    ``max_retries`` counts retries after the first attempt. The wait before
    retry *n* is ``min(backoff_max, backoff_base * 2**n) * jitter``, or the
    server's ``Retry-After`` when it sent one (capped at ``retry_after_max``).
    """

    max_retries: int = 2
    backoff_base: float = 0.5
    backoff_max: float = 8.0
    retry_after_max: float = 30.0
    jitter: bool = True

    def delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return float(min(max(retry_after, 0.0), self.retry_after_max))
        base = min(self.backoff_max, self.backoff_base * (2.0**attempt))
        return base * (0.5 + random.random() / 2) if self.jitter else base


def call_with_retries(
    attempt: Callable[[], T],
    policy: RetryPolicy,
    *,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Run ``attempt`` until it succeeds, raises a non-retryable error, or retries run out.

    ``attempt`` signals a retryable failure by raising :class:`LLMTransportError`
    or :class:`LLMHTTPError` with a status in :data:`RETRYABLE_STATUS`; the
    ``retry_after`` attribute (seconds), if present, overrides the backoff.
    """
    tries = 0
    while True:
        try:
            return attempt()
        except (LLMTransportError, LLMHTTPError) as exc:
            retryable = isinstance(exc, LLMTransportError) or exc.status in RETRYABLE_STATUS
            if not retryable or tries >= policy.max_retries:
                raise
            retry_after: float | None = getattr(exc, "retry_after", None)
            sleep(policy.delay(tries, retry_after))
            tries += 1


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP date); None if absent/bad."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        parsed = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if parsed is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, parsed.timestamp() - current)


_SEMAPHORES: dict[int, threading.BoundedSemaphore] = {}
_SEMAPHORES_LOCK = threading.Lock()


def process_semaphore(limit: int) -> threading.BoundedSemaphore:
    """The process-wide semaphore for ``limit`` concurrent LLM requests.

    Providers created with the same limit share one semaphore, so building a
    provider per request (as a web handler might) still caps the process.
    """
    if limit < 1:
        raise ValueError(f"concurrency limit must be >= 1, got {limit}")
    with _SEMAPHORES_LOCK:
        sem = _SEMAPHORES.get(limit)
        if sem is None:
            sem = _SEMAPHORES[limit] = threading.BoundedSemaphore(limit)
        return sem


class RetryingProvider:
    """What every built-in provider shares: model, secret key, timeout, bounded retries, the
    process-wide concurrency limit, ``from_config`` and a ``repr`` that never shows the key.

    A subclass turns messages into a request (:meth:`_request`) and makes one attempt
    (:meth:`_attempt`); :meth:`complete` runs the attempts under the retry policy.
    """

    #: the class name shown by ``repr`` and the fields it lists before ``api_key``
    _repr_fields: ClassVar[tuple[str, ...]] = ("model",)

    def __init__(
        self,
        model: str,
        *,
        api_key: str | Secret | None = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        concurrency: int = 4,
        retry_policy: RetryPolicy | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        if not model:
            raise LLMConfigError("model is required")
        self._model = model
        self._key = api_key if isinstance(api_key, Secret) or api_key is None else Secret(api_key)
        self._timeout = timeout
        self._policy = retry_policy or RetryPolicy(max_retries=max_retries)
        self._semaphore = process_semaphore(concurrency)
        self._sleep = sleep if sleep is not None else time.sleep

    @staticmethod
    def config_options(config: LLMConfig) -> dict[str, Any]:
        """The keyword arguments every provider takes from a configuration."""
        return {
            "api_key": config.api_key,
            "timeout": config.timeout,
            "max_retries": config.max_retries,
            "concurrency": config.concurrency,
        }

    @property
    def model(self) -> str:
        return self._model

    def _secret(self) -> str | None:
        return self._key.reveal() if self._key is not None else None

    def __repr__(self) -> str:
        fields = [f"{name}={getattr(self, name)!r}" for name in self._repr_fields]
        fields.append(f"api_key={'***' if self._key is not None else None}")
        return f"{type(self).__name__}({', '.join(fields)})"

    def complete(self, messages: Sequence[ChatMessage], *, json: bool = False, max_tokens: int = 256) -> str:
        """The model's reply to ``messages`` (temperature 0). Raises LLMError subclasses only."""
        request = self._request(messages, json=json, max_tokens=max_tokens)
        return call_with_retries(lambda: self._attempt(request), self._policy, sleep=self._sleep)

    def _request(self, messages: Sequence[ChatMessage], *, json: bool, max_tokens: int) -> dict[str, Any]:
        raise NotImplementedError

    def _attempt(self, request: dict[str, Any]) -> str:
        raise NotImplementedError
