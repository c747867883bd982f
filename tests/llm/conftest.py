"""Fixtures of the LLM tests: a real loopback OpenAI-protocol server and providers pointed at it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sadame.llm._openai import OpenAICompatProvider
from sadame.llm._provider import RetryPolicy
from sadame.llm.testing import FakeOpenAIServer

#: Fast backoff for tests: the policy is the same, only the waits are short.
FAST = RetryPolicy(max_retries=2, backoff_base=0.01, backoff_max=0.05)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as running:
        yield running


@pytest.fixture
def provider(server: FakeOpenAIServer) -> Iterator[OpenAICompatProvider]:
    with OpenAICompatProvider(server.base_url, "fake-model", timeout=2.0, retry_policy=FAST) as client:
        yield client
