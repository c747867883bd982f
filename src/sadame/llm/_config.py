"""Configuration of the LLM tier: environment variables or a TOML file.

The LLM is **off by default**: :func:`load_config` returns ``None`` unless a
provider is configured, and every caller then runs rules-only.

Environment (wins over the file):

==========================  ==========================================  =========
variable                    meaning                                     default
==========================  ==========================================  =========
``SADAME_LLM_PROVIDER``     ``openai`` (any OpenAI-compatible URL) or    ``openai``
                            ``gemini`` (native ``google-genai`` SDK)
``SADAME_LLM_BASE_URL``     e.g. ``http://localhost:11434/v1``           (unset = off)
``SADAME_LLM_MODEL``        model name sent with every request           required
``SADAME_LLM_API_KEY``      bearer token; never logged or shown          none
``SADAME_LLM_TIMEOUT``      seconds per HTTP attempt                     ``30``
``SADAME_LLM_MAX_RETRIES``  retries after the first attempt              ``2``
``SADAME_LLM_CONCURRENCY``  requests in flight per process               ``4``
``SADAME_LLM_CONFIG``       path of a TOML file with an ``[llm]`` table  none
==========================  ==========================================  =========

The TOML file uses the same names in lower case without the prefix
(``base_url``, ``model``, ``api_key`` or ``api_key_env`` ...).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sadame.llm._errors import LLMConfigError

__all__ = ["ENV_PREFIX", "LLMConfig", "Secret", "load_config"]

ENV_PREFIX = "SADAME_LLM_"

ProviderName = Literal["openai", "gemini"]


class Secret:
    """A string that does not print itself: ``repr``/``str`` show ``***``.

    Call :meth:`reveal` at the one place the value is sent (the auth header).
    """

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The secret value, for the request header only."""
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    def __str__(self) -> str:
        return "***"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __reduce__(self) -> Any:
        raise TypeError("a Secret cannot be pickled")


@dataclass(frozen=True)
class LLMConfig:
    """Everything needed to build a provider. ``api_key`` is a :class:`Secret`."""

    model: str
    provider: ProviderName = "openai"
    base_url: str | None = None
    api_key: Secret | None = field(default=None, repr=False)
    timeout: float = 30.0
    max_retries: int = 2
    concurrency: int = 4

    def __post_init__(self) -> None:
        if self.provider not in ("openai", "gemini"):
            raise LLMConfigError(f"unknown LLM provider {self.provider!r}: use 'openai' or 'gemini'")
        if not self.model:
            raise LLMConfigError("SADAME_LLM_MODEL (or `model` in the config file) is required")
        if self.provider == "openai" and not self.base_url:
            raise LLMConfigError("the openai provider needs SADAME_LLM_BASE_URL (or `base_url`)")
        if self.base_url is not None and not self.base_url.startswith(("http://", "https://")):
            raise LLMConfigError(f"base_url must start with http:// or https://, got {self.base_url!r}")
        if not self.timeout > 0:
            raise LLMConfigError(f"timeout must be > 0 seconds, got {self.timeout!r}")
        if self.max_retries < 0 or self.max_retries > 10:
            raise LLMConfigError(f"max_retries must be between 0 and 10, got {self.max_retries!r}")
        if self.concurrency < 1:
            raise LLMConfigError(f"concurrency must be >= 1, got {self.concurrency!r}")

    def __repr__(self) -> str:
        key = "***" if self.api_key is not None else None
        return (
            f"LLMConfig(provider={self.provider!r}, base_url={self.base_url!r}, model={self.model!r}, "
            f"api_key={key}, timeout={self.timeout!r}, max_retries={self.max_retries!r}, "
            f"concurrency={self.concurrency!r})"
        )


def _number(name: str, raw: Any, kind: type[int] | type[float]) -> Any:
    try:
        return kind(raw)
    except (TypeError, ValueError):
        raise LLMConfigError(f"{name} must be a number, got {raw!r}") from None


def _read_file(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LLMConfigError(f"LLM config file not found: {path}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise LLMConfigError(f"LLM config file {path} is not valid TOML: {exc}") from None
    section = data.get("llm", data)
    if not isinstance(section, dict):
        raise LLMConfigError(f"LLM config file {path}: [llm] must be a table")
    known = {
        "provider",
        "base_url",
        "model",
        "api_key",
        "api_key_env",
        "timeout",
        "max_retries",
        "concurrency",
    }
    unknown = sorted(set(section) - known)
    if unknown:
        raise LLMConfigError(f"LLM config file {path}: unknown keys {unknown}")
    return dict(section)


def load_config(path: str | Path | None = None, *, env: Mapping[str, str] | None = None) -> LLMConfig | None:
    """The configured LLM, or ``None`` when no provider is configured (LLM off).

    ``path`` (or ``$SADAME_LLM_CONFIG``) names a TOML file; environment
    variables override its values. Incomplete or invalid settings raise
    :class:`LLMConfigError` rather than silently running without the LLM.
    """
    environ = os.environ if env is None else env
    values: dict[str, Any] = {}
    file_path = path if path is not None else environ.get(ENV_PREFIX + "CONFIG") or None
    if file_path is not None:
        values.update(_read_file(Path(file_path)))
    for key in ("provider", "base_url", "model", "api_key", "timeout", "max_retries", "concurrency"):
        raw = environ.get(ENV_PREFIX + key.upper())
        if raw is not None and raw.strip() != "":
            values[key] = raw.strip()
    key_env = values.pop("api_key_env", None)
    if "api_key" not in values and key_env:
        if not isinstance(key_env, str):
            raise LLMConfigError("api_key_env must be the name of an environment variable")
        if environ.get(key_env):
            values["api_key"] = environ[key_env]
    provider = str(values.get("provider", "openai")).lower()
    configured = bool(values.get("base_url")) or (provider == "gemini" and bool(values.get("model")))
    if not configured:
        if values.get("model") or values.get("api_key"):
            raise LLMConfigError(
                "SADAME_LLM_MODEL/API_KEY are set but SADAME_LLM_BASE_URL is not: "
                "set the endpoint URL (or SADAME_LLM_PROVIDER=gemini)"
            )
        return None
    api_key = values.get("api_key")
    base_url = values.get("base_url")
    return LLMConfig(
        provider=provider,  # type: ignore[arg-type]  # validated in __post_init__
        base_url=str(base_url).rstrip("/") if base_url else None,
        model=str(values.get("model") or ""),
        api_key=Secret(str(api_key)) if api_key else None,
        timeout=float(_number("timeout", values.get("timeout", 30.0), float)),
        max_retries=int(_number("max_retries", values.get("max_retries", 2), int)),
        concurrency=int(_number("concurrency", values.get("concurrency", 4), int)),
    )
