"""CLI commands of sadame.track: ``sadame track ...`` (thin wrappers over :class:`Tracker`)."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any, TypeVar

import click

from sadame.cli._output import echo_json

__all__ = ["register", "track"]

F = TypeVar("F", bound=Callable[..., Any])


def _common(fn: F) -> F:
    """--db and --tenant on every command; TrackError becomes a clean CLI error."""

    @click.option("--db", "db", default=None, metavar="URL",
                  help="Database URL (default: $SADAME_DB or sqlite:///sadame.db).")
    @click.option("--tenant", default="default", show_default=True, help="Tenant whose data to use.")
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from sadame.track import TrackError

        try:
            return fn(*args, **kwargs)
        except (TrackError, ValueError) as exc:
            from sadame.cli._where import where

            try:
                context = where(kwargs.get("db"), kwargs.get("tenant"))
            except ValueError:  # the database URL itself is what is wrong
                raise click.ClickException(str(exc)) from None
            raise click.ClickException(f"{exc} ({context})") from None

    return wrapper  # type: ignore[return-value]


def _tracker(db: str | None, tenant: str, ruleset: str | None = None) -> Any:
    from sadame.track import Tracker, load_ruleset

    return Tracker(db, tenant=tenant, ruleset=load_ruleset(ruleset) if ruleset else None)


def _say_where(db: str | None, tenant: str, what: str) -> None:
    """On standard error: what was written, and where (the data on standard output stays clean)."""
    from sadame.cli._where import where

    click.echo(f"{what} ({where(db, tenant)})", err=True)


def _say_no_users(db: str | None, tenant: str) -> None:
    from sadame.cli._where import no_users_message

    click.echo(no_users_message(db, tenant), err=True)


def _say_nothing(db: str | None, tenant: str, what: str) -> None:
    """On standard error, when a command found nothing: where it looked, and which tenants have data."""
    from sadame.cli._where import tenant_has_users

    if tenant_has_users(db, tenant):
        _say_where(db, tenant, what)
    else:
        _say_no_users(db, tenant)


_USER = click.option("--user", "user", required=True, help="User whose issues to use.")
_JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


@click.group(epilog="Example:\n\n    echo '[\"安定性が不足している\"]' | sadame track ingest --user u1 --session s1 -")
def track() -> None:
    """Track LLM findings as issues with stable ids across sessions (seed 000)."""


@track.command(epilog="Example:\n\n    sadame track ingest --user u1 --session 2026-01-05 findings.json --json\n\n"
               "    sadame track ingest --jsonl year.jsonl    # one session per line, with a progress bar")
@click.argument("source", type=click.File("r", encoding="utf-8"))
@click.option("--session", "session", default=None, help="Session id (ingest is idempotent per session).")
@click.option("--at", "at", default=None, help="Session time, ISO 8601 (default: now, UTC).")
@click.option("--ruleset", default=None, help="Ruleset file or bundled name (default: the tenant's active one).")
@click.option("--user", "user", default=None, help="User whose findings these are.")
@click.option("--jsonl", is_flag=True,
              help='SOURCE holds many sessions, one JSON object a line: {"user_id", "session_id", "insights", "at"?}.')
@click.option("--batch", type=click.IntRange(1, 10_000), default=100, show_default=True,
              help="With --jsonl: sessions per transaction (1: one commit per session).")
@_JSON
@_common
def ingest(source: Any, session: str | None, at: str | None, ruleset: str | None, user: str | None, jsonl: bool,
           batch: int, as_json: bool, db: str | None, tenant: str) -> None:
    """Ingest one session: SOURCE is a JSON list of strings or {text, confidence?, kind?} ('-' = stdin).
    With --jsonl, SOURCE is a stream of sessions (back-filling history), --batch of them per
    transaction; what the progress bar counted is stored, and a rerun replays it."""
    if jsonl:
        if user or session or at:
            raise click.ClickException("--jsonl takes user_id, session_id and at from each line, not options")
        _ingest_stream(source, ruleset, batch, as_json, db, tenant)
        return
    if not user or not session:
        raise click.ClickException("--user and --session are required (or give --jsonl)")
    try:
        insights = json.load(source)
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"{source.name}: not valid JSON: {exc}") from None
    except RecursionError:
        raise click.ClickException(f"{source.name}: JSON nested too deeply") from None
    except UnicodeDecodeError as exc:
        raise click.ClickException(f"{source.name}: not UTF-8 (byte {exc.start})") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise click.ClickException(f"{source.name}: {exc}") from None
    when = None
    if at:
        try:
            when = datetime.fromisoformat(at)
        except ValueError:
            raise click.ClickException(f"--at {at!r} is not an ISO 8601 time") from None
    report = _tracker(db, tenant, ruleset).ingest(user, session, insights, at=when)
    _say_where(db, tenant, f"session {session} of user {user!r} " + ("replayed" if report.replayed else "ingested"))
    if as_json:
        echo_json(report.to_dict())
        return
    if report.replayed:
        click.echo(f"session {session} was already ingested; stored report:")
    from sadame.track._labels import tracker_labels

    marks = tracker_labels().markers
    regressed = {e.issue_id for e in report.regressions}  # a part of remaining: one state per issue
    remaining = [e for e in report.remaining if e.issue_id not in regressed]
    for label, entries, mark in (("new", report.new, "new"), ("remaining", remaining, "continuing"),
                                 ("improvements", report.improvements, "improved"),
                                 ("regressions", report.regressions, "regressed"),
                                 ("absent", report.absent, "absent"), ("resolved", report.resolved, "resolved"),
                                 ("deferred", report.deferred, "deferred"),
                                 ("filtered", report.filtered, None), ("ignored", report.ignored, None),
                                 ("duplicates", report.duplicates, None)):
        state = marks[mark][0] if mark else "-"
        for entry in entries:
            iid = (entry.issue_id or "-")[:12]
            click.echo(f"{label:<12} {iid:<12} {state}  {entry.key}  {entry.text}")
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)


def _stream_lines(source: Any) -> Iterator[dict[str, Any]]:
    """The sessions of a JSONL stream; a bad line is a one-line error naming it."""
    try:
        for n, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise click.ClickException(f"{source.name}: line {n}: not valid JSON: {exc.msg}") from None
            except RecursionError:
                raise click.ClickException(f"{source.name}: line {n}: JSON nested too deeply") from None
            except ValueError as exc:
                raise click.ClickException(f"{source.name}: line {n}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise click.ClickException(f"{source.name}: not UTF-8 (byte {exc.start} of a line)") from None


def _ingest_stream(source: Any, ruleset: str | None, batch: int, as_json: bool, db: str | None, tenant: str) -> None:
    totals = {"sessions": 0, "replayed": 0, "new": 0}
    tracker = _tracker(db, tenant, ruleset)
    sized = source.seekable() if hasattr(source, "seekable") else False
    length = None
    if sized:
        length = sum(1 for line in source if line.strip())
        source.seek(0)
    reports = tracker.ingest_many(_stream_lines(source), batch=batch)
    with click.progressbar(reports, length=length, label="sessions", file=sys.stderr,
                           show_pos=True, show_eta=length is not None) as bar:
        for report in bar:
            totals["sessions"] += 1
            totals["replayed"] += report.replayed
            totals["new"] += 0 if report.replayed else len(report.new)
    tracker.close()
    if as_json:
        echo_json(totals)
    else:
        click.echo(f"{totals['sessions']} session(s) ({totals['replayed']} already stored), "
                   f"{totals['new']} new issue(s)")


@track.command(name="list", epilog="Example:\n\n    sadame track list --user u1 --status open")
@click.option("--status", default=None,
              type=click.Choice(["candidate", "open", "resolved", "ignored", "expired"]), help="Only this status.")
@_USER
@_JSON
@_common
def list_(status: str | None, user: str, as_json: bool, db: str | None, tenant: str) -> None:
    """List a user's issues, with what the latest session did to each (改善, 今回は指摘なし, 再発 ...)."""
    from sadame.track._labels import tracker_labels

    t = _tracker(db, tenant)
    views = t.list_issues(user, status)
    if not views:
        _say_nothing(db, tenant, f"user {user!r} has no{' ' + status if status else ''} issues")
    if as_json:
        echo_json([v.to_dict() for v in views])
        return
    markers, labels = t.latest_markers(user), tracker_labels().markers
    for v in views:
        mark = labels[markers[v.issue_id]][0] if v.issue_id in markers else "-"
        click.echo(f"{v.issue_id[:12]}  {v.status:<9} x{v.occurrence_count:<3} {mark}  {v.key}  {v.title}")


@track.command(epilog="Example:\n\n    sadame track show 35df17c0f114cd9c0b9d173efe98ccfa39fcb7f2 --user u1")
@click.argument("issue_id")
@_USER
@_JSON
@_common
def show(issue_id: str, user: str, as_json: bool, db: str | None, tenant: str) -> None:
    """Show one issue with its keys, detections and history."""
    detail = _tracker(db, tenant).show(user, issue_id)
    if as_json:
        echo_json(detail.to_dict())
        return
    i = detail.issue
    click.echo(f"{i.issue_id}  {i.status}  {i.title}\nkey: {i.key}  seen {i.occurrence_count}x, "
               f"first {i.first_detected_at}, last {i.last_detected_at}")
    for k in detail.keys:
        click.echo(f"  key ({k['kind']}): {k['key']}")
    for d in detail.detections:
        conf = "" if d.link_confidence is None else f" {d.link_confidence:.2f}"
        click.echo(f"  detection {d.session_id} [{d.tier}{conf}] {d.text}")
    for e in detail.events:
        click.echo(f"  {e.at} {e.event}: {e.from_state} -> {e.to_state} by {e.actor} ({e.reason})")


def _user_action(name: str, verb: str) -> None:
    @track.command(name=name, help=f"{verb} (a user decision, recorded in the event log).", epilog=f"Example:\n\n    sadame track {name} 35df17c0f114 --user u1 --reason '対応済み'")
    @click.argument("issue_id")
    @click.option("--reason", default=None, help="Why (kept in the event log).")
    @click.option("--actor", default="user", show_default=True, help="Who does it (kept in the event log).")
    @_USER
    @_JSON
    @_common
    def action(issue_id: str, reason: str | None, actor: str, user: str, as_json: bool, db: str | None,
               tenant: str) -> None:
        view = getattr(_tracker(db, tenant), name)(user, issue_id, actor=actor, reason=reason)
        echo_json(view.to_dict()) if as_json else click.echo(f"{view.issue_id}  {view.status}  {view.title}")



_user_action("ignore", "Ignore an issue for good; it stays ignored whatever the LLM says")
_user_action("reopen", "Reopen an ignored, resolved, expired or candidate issue")


@track.command(epilog="Example:\n\n    sadame track merge 35df17c0f114 fd48bc7f5293 --user u1")
@click.argument("target")
@click.argument("sources", nargs=-1, required=True)
@click.option("--reason", default=None, help="Why (kept in the event log).")
@_USER
@_JSON
@_common
def merge(target: str, sources: tuple[str, ...], reason: str | None, user: str, as_json: bool,
          db: str | None, tenant: str) -> None:
    """Merge SOURCES into TARGET (their keys become aliases of TARGET)."""
    view = _tracker(db, tenant).merge(user, target, list(sources), reason=reason)
    echo_json(view.to_dict()) if as_json else click.echo(f"{view.issue_id}  {view.status}  {view.title}")


@track.command(epilog="Example:\n\n    sadame track unmerge 35df17c0f114 --user u1")
@click.argument("issue_id")
@_USER
@_JSON
@_common
def unmerge(issue_id: str, user: str, as_json: bool, db: str | None, tenant: str) -> None:
    """Undo merges of ISSUE_ID (or into it), restoring the originals from stored detections."""
    views = _tracker(db, tenant).unmerge(user, issue_id)
    if as_json:
        echo_json([v.to_dict() for v in views])
        return
    for v in views:
        click.echo(f"{v.issue_id}  {v.status}  {v.title}")


@track.command(epilog="Example:\n\n    sadame track migrate --ruleset rulesets/v2.yaml          # dry run\n"
                      "    sadame track migrate --ruleset rulesets/v2.yaml --apply")
@click.option("--ruleset", "ruleset", required=True, help="The new ruleset file (or bundled name).")
@click.option("--apply", "apply", is_flag=True, help="Carry it out (default: only show what would change).")
@click.option("--allow-splits", is_flag=True, help="Also apply splits of issues (read the dry run first).")
@_JSON
@_common
def migrate(ruleset: str, apply: bool, allow_splits: bool, as_json: bool, db: str | None, tenant: str) -> None:
    """Recompute keys under a new ruleset: show (or apply) merges, splits and re-keys."""
    from sadame.track import load_ruleset

    plan = _tracker(db, tenant).migrate(load_ruleset(ruleset), apply=apply, allow_splits=allow_splits)
    if as_json:
        echo_json(plan)
        return
    click.echo(f"ruleset {plan['from_version'][:12]} -> {plan['to_version'][:12]}"
               f" ({'applied' if apply else 'dry run: nothing changed, add --apply'})")
    for user, changes in plan["users"].items():
        for m in changes["merges"]:
            click.echo(f"merge   {user}: {', '.join(i[:12] for i in m['issues'])} -> {m['into'][:12]} ({m['key']})")
        for s in changes["splits"]:
            for move in s["moves"]:
                dest = (move["to"] or "new issue")[:12]
                click.echo(f"split   {user}: {s['issue_id'][:12]} -> {dest} "
                           f"({move['key']}, {len(move['detections'])} detection(s))")
        for r in changes["rekeys"]:
            click.echo(f"rekey   {user}: {r['issue_id'][:12]} {r['old_key']} -> {r['new_key']}")
    s = plan["summary"]
    click.echo(f"{s['merges']} merge(s), {s['splits']} split(s), {s['rekeys']} re-key(s)")


@track.command(epilog="Example:\n\n    sadame track export > backup.jsonl")
@_common
def export(db: str | None, tenant: str) -> None:
    """Print all of the tenant's tracker data as JSON lines."""
    out = sys.stdout
    written = 0
    for row in _tracker(db, tenant).export():
        out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
        written += 1
    if not written:
        _say_nothing(db, tenant, "nothing to export")


@track.command(name="import", epilog="Example:\n\n    sadame track import backup.jsonl")
@click.argument("source", type=click.File("r", encoding="utf-8"))
@_JSON
@_common
def import_(source: Any, as_json: bool, db: str | None, tenant: str) -> None:
    """Restore JSON lines written by `export` (all or nothing; the users must not exist yet)."""
    rows = []
    for n, line in enumerate(source, 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise click.ClickException(f"{source.name}: line {n}: not valid JSON: {exc.msg}") from None
        except RecursionError:
            raise click.ClickException(f"{source.name}: line {n}: JSON nested too deeply") from None
        except ValueError as exc:  # an integer of more digits than Python converts
            raise click.ClickException(f"{source.name}: line {n}: {exc}") from None
    counts = _tracker(db, tenant).import_rows(rows)
    _say_where(db, tenant, "imported")
    echo_json(counts) if as_json else click.echo(", ".join(f"{k} {v}" for k, v in counts.items()))


@track.command(name="delete-user", epilog="Example:\n\n    sadame track delete-user --user u1 --yes")
@click.option("--yes", is_flag=True, help="Do it without asking (the data cannot be recovered without an export).")
@click.option("--actor", default="user", show_default=True, help="Who asks for it (kept in the tenant log).")
@_USER
@_JSON
@_common
def delete_user(yes: bool, actor: str, user: str, as_json: bool, db: str | None, tenant: str) -> None:
    """Erase every finding, issue and event of one user (logged without content)."""
    if not yes:
        click.confirm(f"delete all tracker data of user {user!r} in tenant {tenant!r}?", abort=True)
    counts = _tracker(db, tenant).delete_user(user, actor=actor)
    if any(counts.values()):
        _say_where(db, tenant, f"user {user!r} deleted")
    else:
        _say_nothing(db, tenant, f"user {user!r} has no tracker data")
    echo_json(counts) if as_json else click.echo(", ".join(f"{k} {v}" for k, v in counts.items()))


@track.command(epilog="Example:\n\n    sadame track similar 35df17c0f114 --user u1")
@click.argument("issue_id")
@click.option("--limit", default=5, show_default=True, type=click.IntRange(1, 50), help="How many to show.")
@_USER
@_JSON
@_common
def similar(issue_id: str, limit: int, user: str, as_json: bool, db: str | None, tenant: str) -> None:
    """Issues of the same user most similar to ISSUE_ID (suggestions; merge with `track merge`)."""
    found = _tracker(db, tenant).similar(user, issue_id, limit=limit)
    if as_json:
        echo_json([s.to_dict() for s in found])
        return
    for s in found:
        offer = "merge?" if s.merge_offered else "-     "
        click.echo(f"{s.score:.2f}  {offer}  {s.issue_id[:12]}  {s.status:<9} {s.title}")


@track.command(name="eval", epilog="Example:\n\n    sadame track eval evals/track")
@click.argument("directory", default="evals/track", type=click.Path(file_okay=False))
@click.option("--ruleset", default=None, help="Ruleset file or bundled name (default: the bundled default).")
@click.option("--llm", "use_llm", is_flag=True,
              help="Blind paraphrases through the LLM matcher from $SADAME_LLM_* (reports its cost and time-outs).")
@click.option("--matcher-timeout", default=5.0, show_default=True, type=click.FloatRange(min=0.01),
              help="Seconds the matcher may take per finding before the finding counts as new.")
@_JSON
def eval_(directory: str, ruleset: str | None, use_llm: bool, matcher_timeout: float, as_json: bool) -> None:
    """Run the tracker's evaluation sets: negated praise, same-word pairs, paraphrases (three tables);
    a directory holding the blind sets (track_meaning.jsonl, track_paraphrase.json) is scored with their tables."""
    from sadame.track import TrackError, load_ruleset
    from sadame.track._eval import format_track_eval, run_track_eval
    from sadame.track._eval_blind import format_blind, is_blind_dir, run_blind

    try:
        rs = load_ruleset(ruleset) if ruleset else None
        if is_blind_dir(directory):
            matcher = None
            if use_llm:
                from sadame.llm import LLMError, load_matcher_from_env

                try:
                    matcher = load_matcher_from_env()
                except LLMError as exc:
                    raise click.ClickException(str(exc)) from None
                if matcher is None:
                    raise click.ClickException("--llm needs SADAME_LLM_BASE_URL and SADAME_LLM_MODEL (see docs)")
            blind = run_blind(directory, rs, matcher=matcher, matcher_timeout=matcher_timeout)
            echo_json(blind.to_dict()) if as_json else click.echo(format_blind(blind))
            return
        report = run_track_eval(directory, rs)
    except TrackError as exc:
        raise click.ClickException(str(exc)) from None
    echo_json(report.to_dict()) if as_json else click.echo(format_track_eval(report))


@track.command(epilog="Example:\n\n    sadame track timeline --user u1 --json")
@_USER
@_JSON
@_common
def timeline(user: str, as_json: bool, db: str | None, tenant: str) -> None:
    """Per-session counts for charts: new, open, resolved, regressions."""
    points = _tracker(db, tenant).timeline(user)
    if not points:
        _say_nothing(db, tenant, f"user {user!r} has no sessions")
    if as_json:
        echo_json(points)
        return
    for p in points:
        click.echo(f"{p['at']}  {p['session_id']}  new {p['new']}  open {p['open']}  resolved {p['resolved']}"
                   f"  regressions {p['regressions']}")


@track.command(epilog="Example:\n\n    sadame track users")
@_JSON
@_common
def users(as_json: bool, db: str | None, tenant: str) -> None:
    """List the tenant's users."""
    names = _tracker(db, tenant).users()
    if as_json:
        echo_json(names)
    elif names:
        click.echo("\n".join(names))
    if not names:
        _say_no_users(db, tenant)


@track.group(epilog="Example:\n\n    sadame track rules test coaching-ja")
def rules() -> None:
    """Ruleset tooling: run its examples, lint it against stored findings, suggest patterns."""


@rules.command(name="test", epilog="Example:\n\n    sadame track rules test my-rules.yaml")
@click.argument("ruleset")
@_JSON
def rules_test(ruleset: str, as_json: bool) -> None:
    """Run the examples inside RULESET (a file or bundled name); exit 1 when one fails."""
    from sadame.track import TrackError, load_ruleset
    from sadame.track._rules import test_ruleset

    try:
        report = test_ruleset(load_ruleset(ruleset))
    except TrackError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        echo_json(report.to_dict())
    else:
        for line in report.failures:
            click.echo(f"FAIL {line}")
        click.echo(f"{report.passed} passed, {len(report.failures)} failed")
    if not report.ok:
        sys.exit(1)


@rules.command(name="lint", epilog="Example:\n\n    sadame track rules lint --ruleset my-rules.yaml --tenant acme")
@click.option("--ruleset", default=None, help="Ruleset to lint (default: the tenant's active one).")
@_JSON
@_common
def rules_lint(ruleset: str | None, as_json: bool, db: str | None, tenant: str) -> None:
    """Report tokens that give one key to stored findings about different subjects."""
    from sadame.track import load_ruleset

    found = _tracker(db, tenant).lint_ruleset(load_ruleset(ruleset) if ruleset else None)
    if as_json:
        echo_json([f.to_dict() for f in found])
        return
    for f in found:
        subjects = ", ".join(f"{s} ({n})" for s, n in f.subjects.items())
        click.echo(f"{f.token}: {f.findings} finding(s) about different things: {subjects}")
    click.echo(f"{len(found)} generic token(s)")


@rules.command(name="suggest", epilog="Example:\n\n    sadame track rules suggest --tenant acme --limit 10")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 200), help="How many.")
@_JSON
@_common
def rules_suggest(limit: int, as_json: bool, db: str | None, tenant: str) -> None:
    """Propose canonical words from the tenant's stored findings (frequent lemmas, with counts)."""
    found = _tracker(db, tenant).suggest_patterns(limit=limit)
    if as_json:
        echo_json([s.to_dict() for s in found])
        return
    for s in found:
        click.echo(f"{s.count:>5}  {s.lemma}  e.g. {' / '.join(s.examples)}")


def register(cli: click.Group) -> None:
    """Add this feature's commands to the top-level group."""
    cli.add_command(track)
