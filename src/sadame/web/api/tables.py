"""Judge a question against a bundled rule table (FAQ routing and the like) over HTTP.

Unlike puzzles, a plain table has nothing to hide: the result names the rule that
fired and the word that matched.
"""

from __future__ import annotations

import threading
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict

from sadame.judge import Judge, bundled_table
from sadame.judge.engine._loader import bundled_names
from sadame.web.deps import ShortText
from sadame.web.schemas.tables import TableListing, TableVerdict

__all__ = ["TableQuestion", "router"]

router = APIRouter(prefix="/tables", tags=["tables"])

_judges: dict[str, Judge] = {}
_lock = threading.Lock()


class TableQuestion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: ShortText


def _judge(name: str) -> Judge:
    if name not in bundled_names("tables"):
        raise LookupError(f"no bundled rule table {name!r}")
    with _lock:
        judge = _judges.get(name)
        if judge is None:
            judge = _judges[name] = Judge(bundled_table(name))
        return judge


@router.get("", response_model=list[TableListing])
def list_tables() -> list[dict[str, Any]]:
    """The bundled rule tables with their answer sets and versions."""
    tables = []
    for name in bundled_names("tables"):
        table = bundled_table(name)
        tables.append({"name": table.name, "answers": list(table.answers), "rules": len(table.rules),
                       "version": table.version})
    return tables


@router.post("/{name}/judge", response_model=TableVerdict)
def judge(name: str, body: TableQuestion) -> dict[str, object]:
    """The verdict of the first matching rule (``UNKNOWN`` with source ``none`` when none matches)."""
    return _judge(name).ask(body.question).to_dict()
