"""The native Gemini provider on the ``google-genai`` SDK (optional extra ``gemini``).

The SDK is imported lazily, on first construction without an injected
client, so ``import sadame.llm`` never needs it; without it you get
:class:`~sadame.llm.LLMUnavailable` naming the extra to install. Most users can
instead point :class:`~sadame.llm.OpenAICompatProvider` at Gemini's
OpenAI-compatible endpoint.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from sadame.llm._config import LLMConfig, Secret
from sadame.llm._errors import (
    LLMError,
    LLMHTTPError,
    LLMResponseError,
    LLMTransportError,
    LLMUnavailable,
    redact,
)
from sadame.llm._provider import ChatMessage, RetryingProvider, RetryPolicy

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


class GeminiProvider(RetryingProvider):
    """Calls ``genai.Client(api_key=...).models.generate_content`` at temperature 0.

    >>> GeminiProvider("gemini-2.5-flash", api_key="secret", client=object())
    GeminiProvider(model='gemini-2.5-flash', api_key=***)
    """

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
        super().__init__(
            model, api_key=api_key, timeout=timeout, max_retries=max_retries, concurrency=concurrency,
            retry_policy=retry_policy, sleep=sleep,
        )
        self._client = client if client is not None else self._make_client()

    def _make_client(self) -> Any:
        try:
            genai = importlib.import_module("google.genai")
        except ImportError:
            raise LLMUnavailable(_INSTALL_HINT) from None
        options: dict[str, Any] = {"http_options": {"timeout": int(self._timeout * 1000)}}
        secret = self._secret()
        if secret is not None:
            options["api_key"] = secret
        return genai.Client(**options)

    @classmethod
    def from_config(cls, config: LLMConfig) -> GeminiProvider:
        """The provider described by ``config``; the key may also come from ``GOOGLE_API_KEY``."""
        return cls(config.model, **cls.config_options(config))

    def _request(self, messages: Sequence[ChatMessage], *, json: bool, max_tokens: int) -> dict[str, Any]:
        return gemini_request(messages, json=json, max_tokens=max_tokens)

    def _attempt(self, request: dict[str, Any]) -> str:
        secret = self._secret()
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
