"""How a command names the database and tenant it used (password hidden).

Every command that touches a database says which one when it creates something or finds
nothing, so a key made in another directory, or data under another tenant, is never a
silent surprise.
"""

from __future__ import annotations

import os

__all__ = ["db_flag", "shown_url"]


def shown_url(url: str) -> str:
    """``url`` with its password replaced by ``***``; a SQLite file as an absolute path."""
    from sqlalchemy.engine import make_url

    from sadame.db import resolve_url

    resolved = resolve_url(url)
    parsed = make_url(resolved)
    if parsed.get_backend_name() == "sqlite" and parsed.database and not parsed.database.startswith("file:"):
        if parsed.database != ":memory:":
            return f"sqlite:///{os.path.abspath(parsed.database)}"
        return resolved
    return parsed.render_as_string(hide_password=True)


def db_flag(url: str) -> str:
    """The ``--db`` argument that names this database for another command (password hidden)."""
    return f"--db '{shown_url(url)}'"
