"""Fuzz the HTTP API from its own OpenAPI schema (schemathesis): no request may get a 5xx.

Runs against the real uvicorn server on SQLite and PostgreSQL, with a valid API key so
the tracker routes are exercised past authentication. Every operation of the schema
gets a bounded number of generated requests (derandomized, so a failure reproduces),
which keeps the test well under the suite's time budget.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.web.conftest import LiveServer

pytestmark = pytest.mark.slow

EXAMPLES_PER_OPERATION = 40


def test_api_never_answers_with_a_server_error(live_server: LiveServer) -> None:
    headers = {"Authorization": f"Bearer {live_server.key('fuzz')}"}
    schema = schemathesis.openapi.from_url(f"{live_server.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    paths = {op.path for op in operations}
    assert {"/api/normalize", "/api/quote/check", "/api/track/ingest", "/api/puzzles/{pack}/{puzzle_id}/ask"} <= paths
    tried: list[str] = []

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def fuzz(case: Any) -> None:
            case.call_and_validate(
                headers=headers, checks=[not_a_server_error, response_schema_conformance], timeout=30
            )

        fuzz()
        tried.append(f"{operation.method.upper()} {operation.path}")
    assert len(tried) == len(operations) >= 15
