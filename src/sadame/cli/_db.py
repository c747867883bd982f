"""``sadame db upgrade | current | check``: migrations as a deploy step.

A rolling deploy runs ``sadame db upgrade`` once, then restarts the app servers one by
one (they start with ``SADAME_WEB_MIGRATE=0``); ``sadame db check`` exits 1 while the
database lacks a migration of this release, so a deploy script or an init container can
wait for it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import click

from sadame.cli._output import echo_json
from sadame.cli._where import db_flag, shown_url

__all__ = ["register"]

_DB_HELP = "Database URL (default $SADAME_DB or sqlite:///sadame.db)."


@dataclass(frozen=True)
class _Report:
    database: str
    exists: bool
    current: list[str]
    heads: list[str]
    missing: list[str]
    unknown: list[str]
    behind: bool


def _state(db_url: str | None) -> tuple[str, _Report]:
    from sadame.db import make_engine, resolve_url
    from sadame.db._checks import sqlite_path
    from sadame.db._revisions import schema_state, shipped_heads

    url = resolve_url(db_url)
    path = sqlite_path(url)
    if path is not None and not path.exists():  # do not create an empty file to look at it
        return url, _Report(shown_url(url), False, [], list(shipped_heads()), ["(every migration)"], [], True)
    engine = make_engine(url)
    try:
        state = schema_state(engine)
    finally:
        engine.dispose()
    return url, _Report(shown_url(url), True, list(state.current), list(state.heads), list(state.missing),
                        list(state.unknown), state.behind)


def _describe(url: str, report: _Report) -> str:
    where = f"database {report.database}"
    if not report.exists:
        return f"{where} does not exist yet: create it with sadame db upgrade {db_flag(url)}"
    if report.behind:
        return (f"{where} is behind: {len(report.missing)} migration(s) to apply ({', '.join(report.missing)}); "
                f"run sadame db upgrade {db_flag(url)}")
    if report.unknown:
        return f"{where} is newer than this code (revisions {', '.join(report.unknown)}); nothing to apply"
    return f"{where} is up to date ({', '.join(report.current)})"


def schema_behind(db_url: str) -> str | None:
    """What ``sadame db check`` would say, when the database is missing or behind (None when current)."""
    url, report = _state(db_url)
    return _describe(url, report) if report.behind else None


@click.group("db", epilog="Example:\n\n    sadame db upgrade --db postgresql://me@db/sadame && sadame db check")
def db() -> None:
    """Migrate the database and show where its schema stands (upgrade, current, check)."""


@db.command("upgrade", epilog="Example:\n\n    SADAME_DB=postgresql://me@db/sadame sadame db upgrade")
@click.option("--db", "db_url", default=None, help=_DB_HELP)
def upgrade_command(db_url: str | None) -> None:
    """Apply every migration this release ships (creates the database's tables when new)."""
    from sadame.db import resolve_url, upgrade

    url = resolve_url(db_url)
    _url, before = _state(url)
    upgrade(url)
    _url, after = _state(url)
    if not before.behind:
        click.echo(f"database {after.database}: already up to date, nothing applied")
        return
    applied = [rev for rev in after.current if rev not in before.current]
    click.echo(f"database {after.database}: migrated to {', '.join(after.current)}"
               + (f" (new: {', '.join(applied)})" if applied else ""))


@db.command("current", epilog="Example:\n\n    sadame db current --json")
@click.option("--db", "db_url", default=None, help=_DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def current_command(db_url: str | None, as_json: bool) -> None:
    """Show the database's revisions beside the ones this release ships."""
    url, report = _state(db_url)
    if as_json:
        echo_json(asdict(report))
        return
    click.echo(_describe(url, report))
    click.echo(f"  applied: {', '.join(report.current) or 'none'}")
    click.echo(f"  shipped: {', '.join(report.heads)}")


@db.command("check", epilog="Example:\n\n    sadame db check || sadame db upgrade")
@click.option("--db", "db_url", default=None, help=_DB_HELP)
def check_command(db_url: str | None) -> None:
    """Exit 0 when the database has every migration of this release, 1 when it is behind."""
    url, report = _state(db_url)
    message = _describe(url, report)
    if report.behind:
        raise click.ClickException(message)
    click.echo(message)


def register(cli: click.Group) -> None:
    """Add the ``db`` group to the top-level command."""
    cli.add_command(db)
