"""Where a database stands against the migrations this code ships (``sadame db current|check``, ``/readyz``).

Three sets: the **heads** this code ships (the newest revision of every feature), the
revisions **applied** in the database (``alembic_version`` and their ancestors), and the
database's revisions this code does not know (**unknown**: a newer release migrated it).

A database is *behind* when a head is not applied: this code needs a migration first.
It is *not* behind when it carries unknown revisions: in a rolling deploy the database
is migrated first, while servers of the previous release still run, and migrations are
written to be compatible with the release before them (an unknown revision's ancestors
cannot be read from this code, so nothing is counted missing then).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

__all__ = ["SchemaState", "schema_state", "shipped_heads"]


@dataclass(frozen=True)
class SchemaState:
    """The revisions of one database compared with the code's."""

    current: tuple[str, ...]  #: rows of ``alembic_version`` (empty: never migrated)
    heads: tuple[str, ...]  #: newest revision of every feature, as shipped
    missing: tuple[str, ...]  #: revisions this code needs that are not applied, oldest first
    unknown: tuple[str, ...]  #: applied revisions this code does not know

    @property
    def behind(self) -> bool:
        """Whether ``sadame db upgrade`` has something to apply."""
        return bool(self.missing)


@functools.lru_cache(maxsize=1)
def _script() -> Any:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    return ScriptDirectory.from_config(config)


def shipped_heads() -> tuple[str, ...]:
    """The newest revision of every feature in this code."""
    return tuple(sorted(_script().get_heads()))


def schema_state(engine: Engine) -> SchemaState:
    """Where ``engine``'s database stands (one query). Connection errors propagate."""
    from alembic.runtime.migration import MigrationContext

    script = _script()
    with engine.connect() as connection:
        current = tuple(sorted(MigrationContext.configure(connection).get_current_heads()))
    ordered = [rev.revision for rev in script.walk_revisions("base", "heads")]  # newest first
    known = tuple(rev for rev in current if rev in set(ordered))
    applied = {rev.revision for rev in script.iterate_revisions(known, "base")} if known else set()
    unknown = tuple(sorted(set(current) - set(known)))
    # An unknown revision's ancestors cannot be known here: a newer release migrated the
    # database, so nothing this code ships is taken as missing.
    missing = () if unknown else tuple(rev for rev in reversed(ordered) if rev not in applied)
    return SchemaState(current, shipped_heads(), missing, unknown)
