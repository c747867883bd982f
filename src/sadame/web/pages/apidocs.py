"""``/docs``: the API reference rendered on the server from the app's own OpenAPI schema.

FastAPI's default Swagger UI loads its JavaScript from a CDN and shows a blank page
offline; this page needs nothing but the schema, so it works wherever the app runs.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from sadame.web.pages._common import render

__all__ = ["router"]

router = APIRouter(include_in_schema=False)

_METHODS = ("get", "post", "put", "patch", "delete")


def _schema_name(content: dict[str, Any] | None) -> str | None:
    """The name of a request/response body schema (``SomeModel``), if it has one."""
    if not content:
        return None
    schema = content.get("application/json", {}).get("schema", {})
    ref = schema.get("$ref") or schema.get("items", {}).get("$ref")
    return str(ref).rsplit("/", 1)[-1] if ref else None


def _operations(spec: dict[str, Any]) -> list[dict[str, Any]]:
    operations: list[dict[str, Any]] = []
    for path, item in spec.get("paths", {}).items():
        for method in _METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            responses = operation.get("responses", {})
            operations.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "summary": operation.get("summary", ""),
                    "description": operation.get("description", ""),
                    "auth": bool(operation.get("security")),
                    "parameters": [
                        {
                            "name": p.get("name"),
                            "where": p.get("in"),
                            "required": p.get("required", False),
                            "description": p.get("description", ""),
                        }
                        for p in operation.get("parameters", [])
                    ],
                    "body": _schema_name(operation.get("requestBody", {}).get("content")),
                    "responses": [
                        {"status": status, "description": r.get("description", ""),
                         "schema": _schema_name(r.get("content"))}
                        for status, r in sorted(responses.items())
                    ],
                }
            )
    return operations


def _models(spec: dict[str, Any]) -> list[dict[str, Any]]:
    models = []
    for name, schema in sorted(spec.get("components", {}).get("schemas", {}).items()):
        required = set(schema.get("required", []))
        fields = [
            {
                "name": field,
                "type": prop.get("type") or str(prop.get("$ref", "")).rsplit("/", 1)[-1]
                or " | ".join(str(a.get("type", "")) for a in prop.get("anyOf", [])),
                "required": field in required,
                "description": prop.get("description", ""),
            }
            for field, prop in schema.get("properties", {}).items()
        ]
        models.append({"name": name, "description": schema.get("description", ""), "fields": fields})
    return models


@router.get("/docs", response_class=HTMLResponse)
def api_docs(request: Request) -> HTMLResponse:
    spec = request.app.openapi()
    return render(
        request,
        None,
        "api_docs.html",
        {"info": spec.get("info", {}), "operations": _operations(spec), "models": _models(spec)},
    )
