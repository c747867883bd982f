"""The settings object is the one list of ``SADAME_*`` variables: the docs' table is generated from
it, and the source reads no variable that it lacks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sadame.web._env import ENV_PREFIX, EnvSettings, env_table, load_env, web_settings

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "guide" / "web.md"
START, END = "<!-- env-table:start (scripts/env_table.py) -->", "<!-- env-table:end -->"


def test_the_docs_table_is_the_settings_object() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert START in text and END in text
    documented = text.split(START, 1)[1].split(END, 1)[0].strip()
    assert documented == env_table().strip(), "run .venv/bin/python scripts/env_table.py"
    names = set(re.findall(r"`(SADAME_[A-Z0-9_]+)`", documented))
    assert names == {ENV_PREFIX + name.upper() for name in EnvSettings.model_fields}


def test_every_variable_the_source_reads_is_a_setting() -> None:
    declared = {ENV_PREFIX + name.upper() for name in EnvSettings.model_fields}
    used: set[str] = set()
    for path in (ROOT / "src" / "sadame").rglob("*.py"):
        used |= set(re.findall(r"\bSADAME_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8")))
    used -= {"SADAME_LLM"}  # the prefix constant ``SADAME_LLM_``
    assert used - declared == set(), "declare these in sadame.web._env.EnvSettings"


def test_values_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SADAME_CLIENT_QUESTIONS", "7")
    monkeypatch.setenv("SADAME_WEB_MIGRATE", "0")
    monkeypatch.setenv("SADAME_LLM_TIMEOUT", "")  # empty is unset, as sadame.llm reads it
    settings = web_settings(load_env())
    assert settings.client_questions == 7 and settings.migrate is False
    monkeypatch.setenv("SADAME_QUOTE_SLOTS", "0")
    with pytest.raises(ValueError, match="SADAME_QUOTE_SLOTS"):
        load_env()
    monkeypatch.setenv("SADAME_QUOTE_SLOTS", "2")
    monkeypatch.setenv("SADAME_LOG_LEVEL", "loud")
    with pytest.raises(ValueError, match="SADAME_LOG_LEVEL"):
        load_env()
