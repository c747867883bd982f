"""The native Gemini provider: a clear error without the SDK, and the request mapping.

``google-genai`` is not installed in the test environment. The mapping test
uses a stand-in with the SDK's call shape (``client.models.generate_content(
model=..., contents=..., config=...)`` returning an object with ``.text``) and
checks only what we send and how we read the answer.
"""

from __future__ import annotations

import sys
from types import SimpleNamespace
from typing import Any

import pytest

from sadame.llm import LLMConfig
from sadame.llm._errors import LLMHTTPError, LLMUnavailable
from sadame.llm._fallback import make_provider
from sadame.llm._gemini import GeminiProvider, gemini_request
from sadame.llm._provider import RetryPolicy

MESSAGES: list[Any] = [
    {"role": "system", "content": "判定だけを返す"},
    {"role": "user", "content": "質問1"},
    {"role": "assistant", "content": "NO"},
    {"role": "user", "content": "質問2"},
]


class _FakeModels:
    def __init__(self, replies: list[Any]) -> None:
        self.replies = replies
        self.calls: list[dict[str, Any]] = []

    def generate_content(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return SimpleNamespace(text=reply)


class _ApiError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def _provider(*replies: Any, key: str | None = None) -> tuple[GeminiProvider, _FakeModels]:
    models = _FakeModels(list(replies))
    client = SimpleNamespace(models=models)
    policy = RetryPolicy(max_retries=2, backoff_base=0.001)
    return GeminiProvider("gemini-2.0-flash", api_key=key, client=client, retry_policy=policy), models


def test_missing_sdk_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "google.genai", None)  # as if not installed
    with pytest.raises(LLMUnavailable, match=r"pip install 'sadame\[gemini\]'"):
        GeminiProvider("gemini-2.0-flash", api_key="k")
    with pytest.raises(ImportError):
        make_provider(LLMConfig(model="gemini-2.0-flash", provider="gemini"))


def test_request_mapping() -> None:
    request = gemini_request(MESSAGES, json=True, max_tokens=16)
    assert request["contents"] == [
        {"role": "user", "parts": [{"text": "質問1"}]},
        {"role": "model", "parts": [{"text": "NO"}]},
        {"role": "user", "parts": [{"text": "質問2"}]},
    ]
    assert request["config"] == {
        "temperature": 0,
        "max_output_tokens": 16,
        "candidate_count": 1,
        "system_instruction": "判定だけを返す",
        "response_mime_type": "application/json",
    }


def test_complete_calls_generate_content_and_reads_text() -> None:
    provider, models = _provider("YES")
    assert provider.complete(MESSAGES, max_tokens=8) == "YES"
    [call] = models.calls
    assert call["model"] == "gemini-2.0-flash"
    assert call["config"]["temperature"] == 0
    assert "response_mime_type" not in call["config"]


def test_rate_limits_are_retried_and_errors_mapped() -> None:
    provider, models = _provider(_ApiError(429, "quota"), "NO")
    assert provider.complete(MESSAGES) == "NO"
    assert len(models.calls) == 2
    failing, _ = _provider(_ApiError(400, "bad"), key="AIza-secret-key")
    with pytest.raises(LLMHTTPError) as info:
        failing.complete(MESSAGES)
    assert info.value.status == 400
    assert "AIza-secret-key" not in str(info.value) + repr(failing)


def test_a_reply_without_text_is_an_error() -> None:
    from sadame.llm._errors import LLMResponseError

    provider, _ = _provider(None)
    with pytest.raises(LLMResponseError):
        provider.complete(MESSAGES)


def test_importing_the_package_does_not_import_the_gemini_sdk() -> None:
    import subprocess
    import sys

    code = "import sys, sadame.llm; print('google.genai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
