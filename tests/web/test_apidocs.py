"""/docs is rendered on the server from the OpenAPI schema: it works offline."""

from __future__ import annotations

import html

from tests.web.conftest import LiveServer


def test_docs_page_lists_every_operation_of_the_schema_without_external_assets(live_server: LiveServer) -> None:
    with live_server.client() as client:
        spec = client.get("/openapi.json").json()
        page = client.get("/docs")
    assert page.status_code == 200
    body = html.unescape(page.text)
    operations = [(m.upper(), path) for path, item in spec["paths"].items() for m in item]
    assert len(operations) >= 15
    for method, path in operations:
        assert f"{method} {path}" in body, f"{method} {path} missing from /docs"
    assert "/api/track/ingest" in body and "Authorization: Bearer" in body
    # No script or stylesheet from another host: the page must work on a closed network.
    assert "cdn." not in body and "https://" not in body.replace("https://example", "")
