"""The native Gemini provider on the ``google-genai`` SDK (optional extra ``gemini``).

The SDK is imported lazily, on first construction without an injected
client, so ``import sadame.llm`` never needs it; without it you get
:class:`~sadame.llm.LLMUnavailable` naming the extra to install. Most users can
instead point :class:`~sadame.llm.OpenAICompatProvider` at Gemini's
OpenAI-compatible endpoint.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from typing import Any

from sadame.llm._config import LLMConfig, Secret
from sadame.llm._errors import (
    LLMConfigError,
    LLMError,
    LLMHTTPError,
    LLMResponseError,
    LLMTransportError,
    LLMUnavailable,
    redact,
)
from sadame.llm._provider import ChatMessage, RetryPolicy, call_with_retries, process_semaphore

__all__ = ["GeminiProvider", "gemini_request"]

_INSTALL_HINT = "the Gemini provider needs the google-genai package: pip install 'sadame[gemini]'"


def gemini_request(messages: Sequence[ChatMessage], *, json: bool, max_tokens: int) -> dict[str, Any]:
    """The keyword arguments for ``client.models.generate_content`` (minus ``model``).

    System messages become ``config.system_instruction``; user and assistant
    turns become ``contents`` with roles ``user`` / ``model``. Plain dicts are
    used, which the SDK accepts in place of its typed objects.
    """
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    contents = [
        {"role": "model" if m["role"] == "assistant" else "user", "parts": [{"text": m["content"]}]}
        for m in messages
        if m["role"] != "system"
    ]
    config: dict[str, Any] = {"temperature": 0, "max_output_tokens": max_tokens, "candidate_count": 1}
    if system:
        config["system_instruction"] = system
    if json:
        config["response_mime_type"] = "application/json"
    return {"contents": contents, "config": config}


class GeminiProvider:
    """Calls ``genai.Client(api_key=...).models.generate_content`` at temperature 0."""

    def __init__(
        self,
        model: str,
        *,
        api_key: str | Secret | None = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        concurrency: int = 4,
        client: Any | None = None,
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
        self._client = client if client is not None else self._make_client()

    def _make_client(self) -> Any:
        try:
            genai = importlib.import_module("google.genai")
        except ImportError:
            raise LLMUnavailable(_INSTALL_HINT) from None
        options: dict[str, Any] = {"http_options": {"timeout": int(self._timeout * 1000)}}
        if self._key is not None:
            options["api_key"] = self._key.reveal()
        return genai.Client(**options)

    @classmethod
    def from_config(cls, config: LLMConfig) -> GeminiProvider:
        """The provider described by ``config``; the key may also come from ``GOOGLE_API_KEY``."""
        return cls(
            config.model,
            api_key=config.api_key,
            timeout=config.timeout,
            max_retries=config.max_retries,
            concurrency=config.concurrency,
        )

    @property
    def model(self) -> str:
        return self._model

    def __repr__(self) -> str:
        key = "***" if self._key is not None else None
        return f"GeminiProvider(model={self._model!r}, api_key={key})"

    def complete(self, messages: Sequence[ChatMessage], *, json: bool = False, max_tokens: int = 256) -> str:
        """The model's reply text. SDK errors are mapped to LLMError subclasses."""
        request = gemini_request(messages, json=json, max_tokens=max_tokens)
        return call_with_retries(lambda: self._attempt(request), self._policy, sleep=self._sleep)

    def _attempt(self, request: dict[str, Any]) -> str:
        secret = self._key.reveal() if self._key is not None else None
        with self._semaphore:
            try:
                response = self._client.models.generate_content(model=self._model, **request)
            except LLMError:
                raise
            except TimeoutError:
                raise LLMTransportError(f"Gemini request timed out after {self._timeout:g}s") from None
            except Exception as exc:
                status = getattr(exc, "code", None) or getattr(exc, "status_code", None)
                kind = type(exc).__name__
                if isinstance(status, int):
                    raise LLMHTTPError(
                        redact(f"Gemini answered HTTP {status} ({kind})", secret), status=status
                    ) from None
                raise LLMTransportError(redact(f"Gemini request failed: {kind}", secret)) from None
        text = getattr(response, "text", None)
        if not isinstance(text, str):
            raise LLMResponseError("Gemini answered without text")
        return text
