"""Every ``SADAME_*`` environment variable, in one settings object (pydantic-settings).

:class:`EnvSettings` is the single list: ``sadame serve`` and every worker read the
service's configuration from it (:func:`web_settings`), and the table of variables in
``docs/guide/web.md`` is generated from it (:func:`env_table`; a test fails when the two
disagree, and another when the source reads a ``SADAME_*`` name that is not here).

The ``SADAME_LLM_*`` variables are read by :mod:`sadame.llm` itself (its layer cannot
import this one); they are listed here so that the documentation has them all and a
typo in a number fails at start-up.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from sadame.web._settings import DEFAULT_MAX_BODY_BYTES, WebSettings

__all__ = ["ENV_PREFIX", "EnvSettings", "env_table", "load_env", "web_settings"]

ENV_PREFIX = "SADAME_"

_HOUR = 3600
_DAY = 24 * _HOUR

LogLevel = Literal["critical", "error", "warning", "info", "debug"]

# Fields of EnvSettings that are also WebSettings fields, by the same name.
_WEB_FIELDS = (
    "max_body_bytes", "cookie_secure", "session_absolute", "session_idle", "anonymous_ttl", "max_questions",
    "max_attempts", "budget_window", "client_sessions", "client_questions", "client_attempts",
    "client_daily_questions", "client_daily_answers", "quote_slots",
    "quote_wait", "metrics_key",
)


def _f(default: Any, text: str, *, where: str = "serve", **limits: Any) -> Any:
    return Field(default, description=text, json_schema_extra={"read_by": where}, **limits)


class EnvSettings(BaseSettings):
    """The environment of sadame (``SADAME_`` + the upper-cased field name)."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore", frozen=True, case_sensitive=False,
                                      env_ignore_empty=True)

    db: str | None = _f(None, "Database URL of every command and the server (`--db` wins); unset means "
                        "`sqlite:///sadame.db` in the working directory.", where="all")
    log_level: LogLevel = _f("info", "Log level of the server (`--log-level` wins).")
    log_format: Literal["json", "text"] = _f("json", "`json`: one JSON object per line with a request id; "
                                             "`text`: plain lines.")
    metrics_key: str | None = _f(None, "When set, `/metrics` needs `Authorization: Bearer <key>`; unset, it is open.",
                                 repr=False)
    web_migrate: bool = _f(True, "`0`: the server does not migrate the database at start-up "
                           "(run `sadame db upgrade` in the deploy instead).")
    web_balance: Literal["reuseport", "shared"] = _f(
        "reuseport", "How `--workers` > 1 share connections: `reuseport`, one `SO_REUSEPORT` listener per "
        "worker (the kernel hashes each connection to one, busy or not); `shared`, one listener every "
        "worker accepts from, one connection per wake-up (a free worker takes the next: more requests/s "
        "with a new connection per request, but on a busy machine one worker may take a whole burst).")
    cookie_secure: bool = _f(False, "`1`: mark cookies `Secure` (served over HTTPS).")
    trusted_origins: str = _f("", "Comma-separated origins besides the request's own host that may post forms.")
    allowed_hosts: str = _f("", "Comma-separated host names the `Host` header may name (`*`: any); unset: "
                            "localhost, 127.0.0.1, ::1 and the `--host` address.")
    trusted_proxies: str = _f("", "Comma-separated addresses or networks of reverse proxies whose "
                              "`X-Forwarded-For` names the client; unset: none (the header is ignored).")
    anonymous_ttl: int = _f(14 * _DAY, "Seconds an anonymous session lives after its last move.", ge=60)
    quote_slots: int = _f(2, "Quote checks running at once per worker; more wait.", gt=0)
    quote_wait: float = _f(30.0, "Seconds a quote check waits for a slot before 503.", gt=0)
    max_body_bytes: int = _f(DEFAULT_MAX_BODY_BYTES, "Largest request body in bytes (413 above).", gt=0)
    session_absolute: int = _f(12 * _HOUR, "Seconds a dashboard sign-in lasts at most.", gt=0)
    session_idle: int = _f(_HOUR, "Seconds a dashboard sign-in lasts without a request.", gt=0)
    max_questions: int = _f(300, "Questions per browser and puzzle.", gt=0)
    max_attempts: int = _f(100, "Answers per browser and puzzle.", gt=0)
    budget_window: int = _f(_DAY, "Seconds of one client-address budget window.", gt=0)
    client_sessions: int = _f(50, "New browser sessions per client address and window.", gt=0)
    client_questions: int = _f(900, "Questions per client address, puzzle and window.", gt=0)
    client_attempts: int = _f(300, "Answers per client address, puzzle and window.", gt=0)
    client_daily_questions: int = _f(1_500, "Questions per client address and window over all puzzles.", gt=0)
    client_daily_answers: int = _f(500, "Answers per client address and window over all puzzles.", gt=0)
    llm_provider: str | None = _f(None, "`openai` (any OpenAI-compatible URL, the default) or `gemini`.", where="llm")
    llm_base_url: str | None = _f(None, "Endpoint of the LLM, e.g. `http://localhost:11434/v1`; unset = LLM off.",
                                  where="llm")
    llm_model: str | None = _f(None, "Model name sent with every request (required when the LLM is on).",
                               where="llm")
    llm_api_key: str | None = _f(None, "Bearer token of the LLM; never logged or shown.", where="llm", repr=False)
    llm_timeout: float | None = _f(None, "Seconds per LLM HTTP attempt (unset: 30).", where="llm", gt=0)
    llm_max_retries: int | None = _f(None, "LLM retries after the first attempt (unset: 2).", where="llm", ge=0)
    llm_concurrency: int | None = _f(None, "LLM requests in flight per process (unset: 4).", where="llm", gt=0)
    llm_config: str | None = _f(None, "Path of a TOML file with an `[llm]` table (the variables above win).",
                                where="llm")


def load_env() -> EnvSettings:
    """The settings the environment gives; a bad value raises ``ValueError`` naming the variable."""
    try:
        return EnvSettings()
    except ValidationError as exc:
        first = exc.errors()[0]
        name = ENV_PREFIX + str(first["loc"][0]).upper() if first["loc"] else ENV_PREFIX
        raise ValueError(f"{name}: {first['msg']} (got {first.get('input')!r})") from None


def web_settings(env: EnvSettings, base: WebSettings | None = None) -> WebSettings:
    """``base`` (default settings) with every value the environment set."""
    from dataclasses import replace

    base = base or WebSettings()
    given = env.model_fields_set
    changes: dict[str, Any] = {name: getattr(env, name) for name in _WEB_FIELDS if name in given}
    if "cookie_secure" in changes:
        changes["cookie_secure"] = changes["cookie_secure"] or base.cookie_secure
    for listed in ("trusted_origins", "allowed_hosts", "trusted_proxies"):
        if listed in given:
            values = tuple(v.strip() for v in getattr(env, listed).split(",") if v.strip())
            changes[listed] = values or getattr(base, listed)
    if "web_migrate" in given:
        changes["migrate"] = env.web_migrate
    return replace(base, **changes)


def _default(name: str) -> str:
    value = EnvSettings.model_fields[name].default
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "`1`" if value else "`0`"
    return f"`{value}`" if value != "" else "empty"


def env_table() -> str:
    """The Markdown table of every ``SADAME_*`` variable (written into docs/guide/web.md)."""
    rows = ["| variable | default | read by | meaning |", "|---|---|---|---|"]
    for name, info in EnvSettings.model_fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        where = {"all": "every command", "serve": "`sadame serve`", "llm": "the LLM tier"}[str(extra["read_by"])]
        rows.append(f"| `{ENV_PREFIX}{name.upper()}` | {_default(name)} | {where} | {info.description} |")
    return "\n".join(rows) + "\n"
