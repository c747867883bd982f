from __future__ import annotations

from pathlib import Path

import pytest

from sadame.llm import LLMConfig, load_config, load_fallback_from_env
from sadame.llm._config import Secret
from sadame.llm._errors import LLMConfigError


def test_nothing_configured_means_llm_off() -> None:
    assert load_config(env={}) is None
    assert load_fallback_from_env(env={}) is None
    assert load_fallback_from_env(env={"SADAME_LLM_BASE_URL": "  "}) is None


def test_environment_configures_the_openai_provider() -> None:
    config = load_config(
        env={
            "SADAME_LLM_BASE_URL": "http://localhost:11434/v1/",
            "SADAME_LLM_MODEL": "qwen2.5:7b",
            "SADAME_LLM_API_KEY": "sk-top-secret",
            "SADAME_LLM_TIMEOUT": "12.5",
            "SADAME_LLM_MAX_RETRIES": "5",
            "SADAME_LLM_CONCURRENCY": "3",
        }
    )
    assert config is not None
    assert (config.provider, config.base_url, config.model) == (
        "openai",
        "http://localhost:11434/v1",
        "qwen2.5:7b",
    )
    assert (config.timeout, config.max_retries, config.concurrency) == (12.5, 5, 3)
    assert config.api_key == Secret("sk-top-secret")
    assert "sk-top-secret" not in repr(config)
    assert "sk-top-secret" not in str(config)


def test_toml_file_with_key_from_another_variable_and_env_override(tmp_path: Path) -> None:
    path = tmp_path / "llm.toml"
    path.write_text(
        '[llm]\nbase_url = "https://api.example.test/v1"\nmodel = "m1"\napi_key_env = "MY_KEY"\ntimeout = 9\n',
        encoding="utf-8",
    )
    config = load_config(path, env={"MY_KEY": "k-123", "SADAME_LLM_MODEL": "m2"})
    assert config is not None
    assert config.model == "m2"  # the environment wins over the file
    assert config.timeout == 9.0
    assert config.api_key is not None and config.api_key.reveal() == "k-123"
    via_env = load_config(env={"SADAME_LLM_CONFIG": str(path), "MY_KEY": "k-123"})
    assert via_env is not None and via_env.model == "m1"


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"SADAME_LLM_BASE_URL": "http://x/v1"}, "MODEL"),
        ({"SADAME_LLM_BASE_URL": "ftp://x", "SADAME_LLM_MODEL": "m"}, "http"),
        (
            {"SADAME_LLM_BASE_URL": "http://x", "SADAME_LLM_MODEL": "m", "SADAME_LLM_TIMEOUT": "soon"},
            "timeout",
        ),
        ({"SADAME_LLM_BASE_URL": "http://x", "SADAME_LLM_MODEL": "m", "SADAME_LLM_TIMEOUT": "0"}, "timeout"),
        (
            {"SADAME_LLM_BASE_URL": "http://x", "SADAME_LLM_MODEL": "m", "SADAME_LLM_MAX_RETRIES": "99"},
            "max_retries",
        ),
        (
            {"SADAME_LLM_BASE_URL": "http://x", "SADAME_LLM_MODEL": "m", "SADAME_LLM_CONCURRENCY": "0"},
            "concurrency",
        ),
        (
            {"SADAME_LLM_BASE_URL": "http://x", "SADAME_LLM_MODEL": "m", "SADAME_LLM_PROVIDER": "claude"},
            "provider",
        ),
        ({"SADAME_LLM_MODEL": "m"}, "BASE_URL"),
    ],
)
def test_bad_configuration_is_a_clear_error(env: dict[str, str], fragment: str) -> None:
    with pytest.raises(LLMConfigError, match=fragment):
        load_config(env=env)


def test_bad_config_files(tmp_path: Path) -> None:
    with pytest.raises(LLMConfigError, match="not found"):
        load_config(tmp_path / "missing.toml", env={})
    broken = tmp_path / "broken.toml"
    broken.write_text("[llm\nmodel=", encoding="utf-8")
    with pytest.raises(LLMConfigError, match="not valid TOML"):
        load_config(broken, env={})
    unknown = tmp_path / "unknown.toml"
    unknown.write_text('[llm]\nbase_url = "http://x"\nmodel = "m"\ntemperature = 1\n', encoding="utf-8")
    with pytest.raises(LLMConfigError, match="temperature"):
        load_config(unknown, env={})


def test_gemini_needs_no_base_url() -> None:
    config = load_config(env={"SADAME_LLM_PROVIDER": "gemini", "SADAME_LLM_MODEL": "gemini-2.0-flash"})
    assert config == LLMConfig(model="gemini-2.0-flash", provider="gemini")


def test_secret_never_prints_and_cannot_be_pickled() -> None:
    import pickle

    secret = Secret("sk-abc")
    assert repr(secret) == "Secret('***')"
    assert str(secret) == "***"
    assert f"{secret}" == "***"
    with pytest.raises(TypeError):
        pickle.dumps(secret)
