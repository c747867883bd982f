"""The Alembic revision 0001_track creates exactly the tables the models declare."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

import sadame.track._models  # noqa: F401  (registers the tables on Base)
from sadame.db import Base, make_engine, upgrade


def test_migration_matches_the_models(db_url: str) -> None:
    upgrade(db_url)
    engine = make_engine(db_url)
    with engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        tables = set(inspect(conn).get_table_names())
    engine.dispose()

    def about_track(diff: object) -> bool:
        return "track_" in repr(diff)

    ours = [d for d in diffs if about_track(d)]
    assert ours == [], ours
    assert {t for t in tables if t.startswith("track_")} == {
        "track_users", "track_rulesets", "track_sessions", "track_issues", "track_keys", "track_detections",
        "track_events"}
    for table in Base.metadata.sorted_tables:
        if table.name.startswith("track_"):
            assert "tenant_id" in table.c, table.name  # every tracker table is tenant-scoped
