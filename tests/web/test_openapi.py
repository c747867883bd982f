"""Every API route declares its response model: ``/openapi.json`` describes every answer,
errors included, and ``/docs`` shows a Japanese summary for each operation."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.routing import APIRoute

from sadame._errors import is_japanese
from sadame.web import create_app
from sadame.web.api import FEATURE_ROUTERS, SUMMARIES
from tests.web.conftest import LiveServer, running


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    schema: dict[str, Any] = create_app(f"sqlite:///{tmp_path_factory.mktemp('openapi') / 'a.db'}").openapi()
    return schema


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method.upper(), path, op) for path, item in spec["paths"].items() if path.startswith("/api/")
            for method, op in item.items()]


def test_every_api_route_declares_a_response_model() -> None:
    routes = [r for feature in FEATURE_ROUTERS for r in feature.routes if isinstance(r, APIRoute)]
    assert len(routes) >= 24
    assert [r.path for r in routes if r.response_model is None] == []


def test_every_operation_describes_its_answer_and_its_errors(spec: dict[str, Any]) -> None:
    operations = _operations(spec)
    assert len(operations) >= 24
    for method, path, op in operations:
        ok = op["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok not in ({}, {"title": "Response"}), (method, path)
        for code in ("400", "413", "422"):
            error = op["responses"][code]["content"]["application/json"]["schema"]
            assert error["$ref"].endswith(("/ErrorResponse", "/ValidationErrorResponse")), (method, path, code)
        if path.startswith("/api/track/"):
            assert {"401", "404", "409"} <= set(op["responses"]), path


def test_every_operation_has_a_japanese_summary(spec: dict[str, Any]) -> None:
    summaries = [op["summary"] for _, _, op in _operations(spec)]
    assert len(summaries) == len(SUMMARIES) and all(is_japanese(s) for s in summaries)


def test_the_docs_page_shows_the_japanese_summaries(sqlite_url: str) -> None:
    server: LiveServer
    with running(sqlite_url) as server, server.client() as client:
        page = client.get("/docs").text
    for summary in SUMMARIES.values():
        assert summary in page
