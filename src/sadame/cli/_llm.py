"""CLI commands of sadame.llm: ``llm check``, ``rules suggest``, ``track eval-matcher``.

``rules suggest`` joins the judge's ``rules`` group and ``track eval-matcher``
the tracker's ``track`` group; when a group is not there (a partial install),
it is created so the command still exists.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sadame.cli._output import echo_json

if TYPE_CHECKING:
    from sadame.llm import LLMConfig

__all__ = ["eval_matcher_command", "llm_check_command", "llm_group", "register", "suggest_command"]


def _config_or_fail(config_path: Path | None) -> LLMConfig | None:
    from sadame.llm import LLMError, load_config

    try:
        config = load_config(config_path)
    except LLMError as exc:
        raise click.ClickException(str(exc)) from None
    return config


@click.group(
    "llm",
    epilog="Example:\n\n    SADAME_LLM_BASE_URL=http://localhost:11434/v1 SADAME_LLM_MODEL=qwen2.5:7b sadame llm check",
)
def llm_group() -> None:
    """The optional LLM tier (off unless SADAME_LLM_BASE_URL or a config file sets it)."""


@llm_group.command(
    "check",
    epilog="Example:\n\n    SADAME_LLM_BASE_URL=http://localhost:11434/v1 SADAME_LLM_MODEL=qwen2.5:7b sadame llm check",
)
@click.option(
    "--config", "config_path", type=click.Path(dir_okay=False, path_type=Path), help="TOML config file."
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def llm_check_command(config_path: Path | None, as_json: bool) -> None:
    """Send one tiny request to the configured provider and report whether it answered.

    Exit status: 0 answered, 1 configured but failing, 2 not configured.
    """
    from sadame.llm import LLMError
    from sadame.llm._fallback import make_provider

    config = _config_or_fail(config_path)
    if config is None:
        message = "LLM: not configured (set SADAME_LLM_BASE_URL and SADAME_LLM_MODEL, or SADAME_LLM_CONFIG)"
        if as_json:
            echo_json({"configured": False, "ok": False, "error": message})
        else:
            click.echo(message)
        raise SystemExit(2)
    started = time.monotonic()
    try:
        provider = make_provider(config)
        reply = provider.complete(
            [{"role": "user", "content": "Reply with the single word OK."}], max_tokens=8
        )
        ok, error = True, None
    except LLMError as exc:
        reply, ok, error = "", False, str(exc)
    elapsed = time.monotonic() - started
    result = {
        "configured": True,
        "ok": ok,
        "provider": config.provider,
        "base_url": config.base_url,
        "model": config.model,
        "seconds": round(elapsed, 3),
        "reply": reply[:80],
        "error": error,
    }
    if as_json:
        echo_json(result)
    elif ok:
        click.echo(
            f"LLM ok: {config.provider} {config.model} at {config.base_url or 'Gemini API'} ({elapsed:.2f}s)"
        )
    else:
        click.echo(f"LLM failing: {config.provider} {config.model}: {error}")
    if not ok:
        raise SystemExit(1)


@click.command(
    "suggest",
    epilog="Example:\n\n    sadame rules suggest engineering --db sqlite:///sadame.db >> candidates.yaml",
)
@click.argument("table")
@click.option(
    "--db", "db_url", default=None, help="Database URL (default: $SADAME_DB or sqlite:///sadame.db)."
)
@click.option(
    "--all-versions", is_flag=True, help="Include verdicts given under earlier versions of the table."
)
@click.option("--json", "as_json", is_flag=True, help="Print the suggestions as JSON.")
def suggest_command(table: str, db_url: str | None, all_versions: bool, as_json: bool) -> None:
    """List cached LLM verdicts for TABLE as candidate rules (a YAML snippet to paste).

    TABLE is a table/pack file or a bundled name. Questions the current rules
    already answer are left out.
    """
    from sadame.judge import JudgeError
    from sadame.judge.engine._loader import resolve_table
    from sadame.llm._cache import VerdictCache
    from sadame.llm._suggest import render_suggestions, suggest_rules

    try:
        loaded = resolve_table(table)
    except JudgeError as exc:
        raise click.ClickException(str(exc)) from None
    suggestions = suggest_rules(loaded, VerdictCache(db_url), all_versions=all_versions)
    if as_json:
        echo_json([s.to_dict() for s in suggestions])
    else:
        click.echo(render_suggestions(suggestions, table_name=loaded.name), nl=False)


@click.command(
    "eval-matcher", epilog="Example:\n\n    sadame track eval-matcher evals/matcher/pairs.jsonl --llm"
)
@click.argument("pairs", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--llm",
    "use_llm",
    is_flag=True,
    help="Also score the configured LLM matcher (alone and behind the rules).",
)
@click.option(
    "--ruleset",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Ruleset file (default: bundled).",
)
@click.option(
    "--config", "config_path", type=click.Path(dir_okay=False, path_type=Path), help="LLM TOML config file."
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def eval_matcher_command(
    pairs: Path, use_llm: bool, ruleset: Path | None, config_path: Path | None, as_json: bool
) -> None:
    """Precision, recall and false-merge rate on labelled PAIRS (JSONL) for rules-only and each matcher."""
    from sadame.llm import LLMMatcher
    from sadame.llm._eval import EvalSetError, evaluate_matchers, load_pairs
    from sadame.llm._fallback import make_provider
    from sadame.track import TrackError, load_ruleset

    try:
        loaded = load_pairs(pairs)
        rs = load_ruleset(ruleset) if ruleset is not None else None
    except (EvalSetError, TrackError) as exc:
        raise click.ClickException(str(exc)) from None
    matchers = []
    if use_llm:
        config = _config_or_fail(config_path)
        if config is None:
            raise click.ClickException(
                "--llm needs a configured LLM (SADAME_LLM_BASE_URL and SADAME_LLM_MODEL)"
            )
        matchers.append(LLMMatcher(make_provider(config)))
    report = evaluate_matchers(loaded, matchers, ruleset=rs)
    if as_json:
        echo_json(report.to_dict())
    else:
        click.echo(report.to_markdown())


def _group(cli: click.Group, name: str, help_text: str) -> click.Group:
    found = cli.commands.get(name)
    if isinstance(found, click.Group):
        return found
    group = click.Group(name, help=help_text)
    cli.add_command(group)
    return group


def register(cli: click.Group) -> None:
    """Add ``llm``; attach ``suggest`` to ``rules`` and ``eval-matcher`` to ``track``."""
    cli.add_command(llm_group)
    _group(cli, "rules", "Rule tables.").add_command(suggest_command)
    _group(cli, "track", "Issue tracking.").add_command(eval_matcher_command)
