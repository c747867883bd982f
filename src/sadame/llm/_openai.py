"""An OpenAI-compatible chat-completions client on httpx (sync).

One URL reaches OpenAI, Gemini's OpenAI-compatible endpoint, Ollama
(``http://localhost:11434/v1``), vLLM, llama.cpp server and LM Studio. Every
request is sent at temperature 0, with a timeout, bounded retries with
exponential backoff (honouring ``Retry-After``) and a per-process concurrency
limit. The API key is only ever placed in the ``Authorization`` header.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import httpx

from sadame.llm._config import LLMConfig, Secret
from sadame.llm._errors import LLMConfigError, LLMHTTPError, LLMResponseError, LLMTransportError, redact
from sadame.llm._provider import ChatMessage, RetryingProvider, RetryPolicy, parse_retry_after

__all__ = ["OpenAICompatProvider"]


class OpenAICompatProvider(RetryingProvider):
    """``POST {base_url}/chat/completions`` with ``temperature: 0``; returns the first choice's text.

    >>> p = OpenAICompatProvider("http://localhost:11434/v1", "qwen2.5:7b", api_key="sk-secret")
    >>> p
    OpenAICompatProvider(base_url='http://localhost:11434/v1', model='qwen2.5:7b', api_key=***)
    """

    _repr_fields = ("base_url", "model")

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | Secret | None = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        concurrency: int = 4,
        retry_policy: RetryPolicy | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise LLMConfigError(f"base_url must start with http:// or https://, got {base_url!r}")
        super().__init__(
            model, api_key=api_key, timeout=timeout, max_retries=max_retries, concurrency=concurrency,
            retry_policy=retry_policy, sleep=sleep,
        )
        self._base_url = base_url.rstrip("/")
        self._client = httpx.Client(timeout=httpx.Timeout(timeout), follow_redirects=False)

    @classmethod
    def from_config(cls, config: LLMConfig) -> OpenAICompatProvider:
        """The provider described by ``config`` (which must name a base URL)."""
        if not config.base_url:
            raise LLMConfigError("the openai provider needs a base_url")
        return cls(config.base_url, config.model, **cls.config_options(config))

    @property
    def base_url(self) -> str:
        return self._base_url

    def close(self) -> None:
        """Close the underlying HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> OpenAICompatProvider:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _request(self, messages: Sequence[ChatMessage], *, json: bool, max_tokens: int) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self._model,
            "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
            "temperature": 0,
            "max_tokens": max_tokens,
            "stream": False,
        }
        if json:
            body["response_format"] = {"type": "json_object"}
        return body

    def _attempt(self, request: dict[str, Any]) -> str:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        secret = self._secret()
        if secret is not None:
            headers["Authorization"] = f"Bearer {secret}"
        url = f"{self._base_url}/chat/completions"
        with self._semaphore:
            try:
                response = self._client.post(url, json=request, headers=headers)
            except httpx.TimeoutException:
                raise LLMTransportError(f"LLM request to {url} timed out after {self._timeout:g}s") from None
            except httpx.HTTPError as exc:
                kind = type(exc).__name__
                raise LLMTransportError(redact(f"LLM request to {url} failed: {kind}", secret)) from None
        if response.status_code >= 400:
            raise LLMHTTPError(
                f"LLM endpoint {url} answered HTTP {response.status_code}",
                status=response.status_code,
                retry_after=parse_retry_after(response.headers.get("retry-after")),
            )
        return _extract_text(response, url)


def _extract_text(response: httpx.Response, url: str) -> str:
    try:
        data = response.json()
    except (ValueError, UnicodeDecodeError):
        raise LLMResponseError(f"LLM endpoint {url} answered with a body that is not JSON") from None
    try:
        choice = data["choices"][0]
        message = choice["message"]
        content = message.get("content")
    except (KeyError, IndexError, TypeError, AttributeError):
        raise LLMResponseError(f"LLM endpoint {url} answered JSON without choices[0].message") from None
    if isinstance(content, list):  # some servers return content parts
        content = "".join(
            part.get("text", "")
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    if not isinstance(content, str):
        raise LLMResponseError(f"LLM endpoint {url} answered without text content")
    return content
