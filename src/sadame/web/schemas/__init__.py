"""The API's public models, one module per feature (as in the FastAPI project template).

Every route of ``/api`` declares its response model from here, so ``/openapi.json``
describes every answer (errors included: :mod:`sadame.web.schemas.errors`) and the
schema-based fuzzing checks the shapes of responses as well as their status codes.
"""

from __future__ import annotations

__all__: list[str] = []
