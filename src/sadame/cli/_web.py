"""CLI commands of sadame.web: ``sadame serve`` and ``sadame web create-key|list-keys|revoke-key``."""

from __future__ import annotations

import click

from sadame.cli._output import echo_json

__all__ = ["register"]


@click.command(
    "serve",
    epilog="Example:\n\n    sadame serve --port 8000 --workers 2 --db postgresql+psycopg://user@localhost/sadame\n\n"
    "    SADAME_COOKIE_SECURE=1 sadame serve --host 0.0.0.0   # behind a TLS proxy",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="TCP port.")
@click.option("--db", "db_url", default=None, help="Database URL (default $SADAME_DB or sqlite:///sadame.db).")
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Worker processes (default: one per core). All state is in the database.")
@click.option("--cookie-secure/--no-cookie-secure", default=None,
              help="Mark cookies Secure, for deployments behind TLS (default $SADAME_COOKIE_SECURE).")
@click.option("--anonymous-ttl", type=click.IntRange(60), default=None,
              help="Seconds an anonymous session lives after its last move (default 14 days).")
@click.option("--trusted-origin", "trusted_origins", multiple=True,
              help="An origin besides the Host that may post forms (e.g. https://example.org); repeatable.")
@click.option("--allowed-host", "allowed_hosts", multiple=True,
              help="A host name the Host header may name (default: localhost, 127.0.0.1, ::1 and --host; "
                   "'*' for any); repeatable.")
@click.option("--trusted-proxy", "trusted_proxies", multiple=True,
              help="Address or network of a reverse proxy whose X-Forwarded-For names the client; repeatable.")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info", "debug"]), default=None,
              help="Log level (default $SADAME_LOG_LEVEL or info).")
def serve_command(host: str, port: int, db_url: str | None, workers: int | None, cookie_secure: bool | None,
                  anonymous_ttl: int | None, trusted_origins: tuple[str, ...], allowed_hosts: tuple[str, ...],
                  trusted_proxies: tuple[str, ...], log_level: str | None) -> None:
    """Start the web app and HTTP API (puzzles, tracker dashboard, quote checker)."""
    from dataclasses import replace

    from sadame.cli._db import schema_behind
    from sadame.cli._where import db_flag, has_active_keys, shown_url
    from sadame.db import resolve_url
    from sadame.web import serve
    from sadame.web._env import load_env, web_settings
    from sadame.web._listen import PortInUse
    from sadame.web._serve import default_workers

    try:
        env = load_env()
        settings = web_settings(env)
        settings = replace(
            settings,
            cookie_secure=settings.cookie_secure if cookie_secure is None else cookie_secure,
            anonymous_ttl=anonymous_ttl or settings.anonymous_ttl,
            trusted_origins=trusted_origins or settings.trusted_origins,
            allowed_hosts=allowed_hosts or settings.allowed_hosts,
            trusted_proxies=trusted_proxies or settings.trusted_proxies,
        )
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    url = resolve_url(db_url if db_url is not None else env.db)
    count = workers or default_workers()
    click.echo(f"sadame: database {shown_url(url)}; {count} worker(s)")
    click.echo(f"sadame: open http://{host}:{port}/  (API docs: http://{host}:{port}/docs)")
    if not has_active_keys(url):
        click.echo(f"sadame: the tracker API needs a key for this database: sadame web create-key --tenant NAME "
                   f"{db_flag(url)}")
    if not settings.migrate:
        behind = schema_behind(url)
        if behind:  # the deploy was to migrate first: /readyz keeps this server out of rotation until then
            click.echo(f"sadame: {behind} (SADAME_WEB_MIGRATE=0: /readyz answers 503 until then)")
    try:
        serve(url, host=host, port=port, workers=count, settings=settings,
              log_level=log_level or env.log_level, log_format=env.log_format, balance=env.web_balance)
    except ValueError as exc:  # e.g. an incomplete SADAME_LLM_* configuration
        raise click.ClickException(str(exc)) from exc
    except PortInUse as exc:
        raise click.ClickException(str(exc.strerror)) from exc


@click.group("web", epilog="Example:\n\n    sadame web create-key --tenant acme")
def web() -> None:
    """Manage the web service's tenants and API keys."""


@web.command(
    "create-key",
    epilog="Example:\n\n    sadame web create-key --tenant acme\n\n"
    "    curl -H 'Authorization: Bearer sdm_...' http://127.0.0.1:8000/api/track/users",
)
@click.option("--tenant", required=True, help="Tenant name ([A-Za-z0-9._-], created when new).")
@click.option("--db", "db_url", default=None, help="Database URL (default $SADAME_DB or sqlite:///sadame.db).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def create_key_command(tenant: str, db_url: str | None, as_json: bool) -> None:
    """Create an API key for a tenant. The key is printed once and stored only hashed."""
    from sadame.cli._where import db_flag, shown_url
    from sadame.db import resolve_url
    from sadame.web._store import TenantNameError
    from sadame.web.admin import create_key

    url = resolve_url(db_url)
    try:
        created = create_key(url, tenant=tenant)
    except TenantNameError as exc:
        raise click.BadParameter(str(exc), param_hint="--tenant") from exc
    if as_json:
        echo_json({"tenant": created.tenant, "key": created.key, "prefix": created.prefix,
                   "database": shown_url(url)})
        return
    click.echo(created.key)
    click.echo(f"(tenant {created.tenant!r} in database {shown_url(url)}; shown once, stored hashed — keep it safe)\n"
               f"The key works only on a server of this database: sadame serve {db_flag(url)}"
               " (or SADAME_DB set to it)", err=True)


@web.command("list-keys", epilog="Example:\n\n    sadame web list-keys --json")
@click.option("--db", "db_url", default=None, help="Database URL.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def list_keys_command(db_url: str | None, as_json: bool) -> None:
    """List tenants and key prefixes (never the keys)."""
    from sadame.cli._where import db_flag, where
    from sadame.db import resolve_url
    from sadame.web.admin import list_keys

    url = resolve_url(db_url)
    rows = list_keys(url)
    if not rows:
        click.echo(f"no API keys in {where(url)}; create one: sadame web create-key --tenant NAME {db_flag(url)}",
                   err=True)
    if as_json:
        echo_json(rows)
        return
    for row in rows:
        state = f"revoked {row['revoked_at']}" if row["revoked_at"] else "active"
        click.echo(f"{row['tenant']}\t{row['prefix']}…\t{row['created_at']}\t{state}")


@web.command("revoke-key", epilog="Example:\n\n    sadame web revoke-key sdm_AbC123")
@click.argument("prefix")
@click.option("--db", "db_url", default=None, help="Database URL.")
def revoke_key_command(prefix: str, db_url: str | None) -> None:
    """Revoke the key(s) with this prefix (as shown by list-keys)."""
    from sadame.cli._where import where
    from sadame.db import resolve_url
    from sadame.web.admin import revoke_key

    url = resolve_url(db_url)
    try:
        count = revoke_key(url, prefix=prefix)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="PREFIX") from exc
    if count == 0:
        raise click.ClickException(f"no active key starts with {prefix!r} in {where(url)}")
    click.echo(f"revoked {count} key(s) in {where(url)}")


@web.command("purge-sessions", epilog="Example:\n\n    sadame web purge-sessions --anonymous-ttl 86400")
@click.option("--db", "db_url", default=None, help="Database URL.")
@click.option("--anonymous-ttl", type=click.IntRange(60), default=None,
              help="Seconds after its last move a session counts as stale (default 14 days).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def purge_sessions_command(db_url: str | None, anonymous_ttl: int | None, as_json: bool) -> None:
    """Delete stale browser sessions, their game states and finished client budgets.

    The server also does this by itself, at most once a minute after a move.
    """
    from sadame.cli._where import where
    from sadame.web.admin import purge_sessions

    counts = purge_sessions(db_url, anonymous_ttl=anonymous_ttl)
    if as_json:
        echo_json(counts)
        return
    click.echo(", ".join(f"{name}: {count}" for name, count in counts.items()) + f" purged in {where(db_url)}")


def register(cli: click.Group) -> None:
    """Add ``serve`` and the ``web`` group to the top-level command."""
    cli.add_command(serve_command)
    cli.add_command(web)
