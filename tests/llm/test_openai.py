"""The OpenAI-compatible client against the real loopback server."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from sadame.llm._errors import LLMHTTPError, LLMResponseError, LLMTransportError
from sadame.llm._openai import OpenAICompatProvider
from sadame.llm._provider import RetryPolicy, parse_retry_after
from sadame.llm.testing import FakeOpenAIServer, Reply
from tests.llm.conftest import FAST

MESSAGES = [{"role": "user", "content": "質問"}]


def test_request_shape_temperature_zero_and_model(
    server: FakeOpenAIServer, provider: OpenAICompatProvider
) -> None:
    server.script("YES")
    assert provider.complete(MESSAGES) == "YES"  # type: ignore[arg-type]
    [request] = server.chat_requests
    assert request.method == "POST"
    assert request.path == "/v1/chat/completions"
    assert request.json["temperature"] == 0
    assert request.json["model"] == "fake-model"
    assert request.json["messages"] == MESSAGES
    assert "response_format" not in request.json
    assert "Authorization" not in request.headers


def test_json_mode_asks_for_a_json_object(server: FakeOpenAIServer, provider: OpenAICompatProvider) -> None:
    server.script('{"a": 1}')
    provider.complete(MESSAGES, json=True)  # type: ignore[arg-type]
    assert server.chat_requests[0].json["response_format"] == {"type": "json_object"}


def test_retries_429_and_500_then_succeeds(server: FakeOpenAIServer, provider: OpenAICompatProvider) -> None:
    server.script(Reply(status=429), Reply(status=500), "NO")
    assert provider.complete(MESSAGES) == "NO"  # type: ignore[arg-type]
    assert server.request_count == 3


def test_retries_are_bounded(server: FakeOpenAIServer, provider: OpenAICompatProvider) -> None:
    server.default = Reply(status=503)
    with pytest.raises(LLMHTTPError) as info:
        provider.complete(MESSAGES)  # type: ignore[arg-type]
    assert info.value.status == 503
    assert server.request_count == 1 + FAST.max_retries


def test_client_errors_are_not_retried(server: FakeOpenAIServer, provider: OpenAICompatProvider) -> None:
    server.script(Reply(status=400, body='{"error": "bad request"}'))
    with pytest.raises(LLMHTTPError, match="HTTP 400"):
        provider.complete(MESSAGES)  # type: ignore[arg-type]
    assert server.request_count == 1


def test_retry_after_is_honoured(server: FakeOpenAIServer) -> None:
    server.script(Reply(status=429, headers={"Retry-After": "1"}), "YES")
    waits: list[float] = []
    client = OpenAICompatProvider(server.base_url, "m", retry_policy=FAST, sleep=waits.append)
    assert client.complete(MESSAGES) == "YES"  # type: ignore[arg-type]
    assert waits == [1.0]  # the server's delay, not the 0.01 s backoff


def test_exponential_backoff_without_retry_after(server: FakeOpenAIServer) -> None:
    server.script(Reply(status=500), Reply(status=500), Reply(status=500), "YES")
    waits: list[float] = []
    policy = RetryPolicy(max_retries=3, backoff_base=1.0, backoff_max=100.0, jitter=False)
    client = OpenAICompatProvider(server.base_url, "m", retry_policy=policy, sleep=waits.append)
    assert client.complete(MESSAGES) == "YES"  # type: ignore[arg-type]
    assert waits == [1.0, 2.0, 4.0]


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert parse_retry_after("-5") == 0.0


def test_slow_answer_times_out_then_retries(server: FakeOpenAIServer) -> None:
    # The slow reply takes 5 s: an answer well before that means the client gave up on it
    # (the margin is wide so that a loaded CI machine cannot fail it).
    server.script(Reply(content="YES", delay=5.0), "NO")
    client = OpenAICompatProvider(server.base_url, "m", timeout=0.2, retry_policy=FAST)
    started = time.monotonic()
    assert client.complete(MESSAGES) == "NO"  # type: ignore[arg-type]
    assert time.monotonic() - started < 3.0
    assert server.request_count == 2


def test_timeout_after_all_retries_is_a_transport_error(server: FakeOpenAIServer) -> None:
    server.default = Reply(content="YES", delay=0.6)
    client = OpenAICompatProvider(
        server.base_url, "m", timeout=0.1, retry_policy=RetryPolicy(max_retries=1, backoff_base=0.01)
    )
    with pytest.raises(LLMTransportError, match="timed out"):
        client.complete(MESSAGES)  # type: ignore[arg-type]


def test_connection_refused_is_a_transport_error() -> None:
    with FakeOpenAIServer() as stopped:
        url = stopped.base_url
    client = OpenAICompatProvider(url, "m", retry_policy=RetryPolicy(max_retries=1, backoff_base=0.01))
    with pytest.raises(LLMTransportError):
        client.complete(MESSAGES)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        "<html>502 Bad Gateway</html>",
        '{"choices": []}',
        '{"choices": [{"message": {"role": "assistant"}}]}',
        '{"object": "error"}',
        "[1, 2]",
    ],
)
def test_malformed_bodies_are_response_errors(
    server: FakeOpenAIServer, provider: OpenAICompatProvider, body: str
) -> None:
    server.script(Reply(body=body))
    with pytest.raises(LLMResponseError):
        provider.complete(MESSAGES)  # type: ignore[arg-type]
    assert server.request_count == 1  # a malformed 2xx is not retried


def test_content_parts_are_joined(server: FakeOpenAIServer, provider: OpenAICompatProvider) -> None:
    server.script(
        Reply(
            body='{"choices": [{"message": {"content": [{"type": "text", "text": "YE"}, {"type": "text", "text": "S"}]}}]}'
        )
    )
    assert provider.complete(MESSAGES) == "YES"  # type: ignore[arg-type]


def test_concurrency_is_limited_per_process(server: FakeOpenAIServer) -> None:
    server.default = Reply(content="YES", delay=0.15)
    # Two provider objects with the same limit share the process-wide semaphore.
    clients = [OpenAICompatProvider(server.base_url, "m", concurrency=2, retry_policy=FAST) for _ in range(2)]
    threads = [threading.Thread(target=clients[i % 2].complete, args=(MESSAGES,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert server.request_count == 8
    assert server.max_in_flight == 2


def test_api_key_is_sent_but_never_shown(server: FakeOpenAIServer, caplog: pytest.LogCaptureFixture) -> None:
    key = "sk-live-0123456789abcdef"
    # A hostile/buggy server that echoes the Authorization header in its error bodies.
    server.responder = lambda request: Reply(
        status=401, body=f'{{"error": "{request.headers.get("Authorization")}"}}'
    )
    client = OpenAICompatProvider(server.base_url, "m", api_key=key, retry_policy=FAST)
    caplog.set_level(logging.DEBUG)
    with pytest.raises(LLMHTTPError) as info:
        client.complete(MESSAGES)  # type: ignore[arg-type]
    assert server.chat_requests[0].headers["Authorization"] == f"Bearer {key}"
    shown = [repr(client), str(info.value), repr(info.value), caplog.text, repr(vars(client))]
    for text in shown:
        assert key not in text
    server.responder = lambda request: Reply(
        status=200, body=f'{{"broken": "{request.headers.get("Authorization")}"'
    )
    with pytest.raises(LLMResponseError) as again:
        client.complete(MESSAGES)  # type: ignore[arg-type]
    assert key not in str(again.value)
    assert key not in caplog.text
