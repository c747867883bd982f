"""``sadame serve`` and ``sadame web create-key|list-keys|revoke-key``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from sadame.cli import cli
from sadame.db import make_engine
from sadame.web._store import KeyStore
from tests.web.conftest import _free_port


def test_create_list_and_revoke_keys(sqlite_url: str) -> None:
    runner = CliRunner()
    created = runner.invoke(cli, ["web", "create-key", "--tenant", "acme", "--db", sqlite_url, "--json"])
    assert created.exit_code == 0, created.output
    data = json.loads(created.output)
    assert data["tenant"] == "acme" and data["key"].startswith("sdm_") and len(data["key"]) > 40
    keys = KeyStore(make_engine(sqlite_url))
    assert keys.tenant_for_key(data["key"]) == "acme"

    listed = runner.invoke(cli, ["web", "list-keys", "--db", sqlite_url, "--json"])
    assert data["key"] not in listed.output
    assert json.loads(listed.output)[0]["prefix"] == data["prefix"]

    revoked = runner.invoke(cli, ["web", "revoke-key", data["prefix"], "--db", sqlite_url])
    assert revoked.exit_code == 0 and "revoked 1" in revoked.output
    assert keys.tenant_for_key(data["key"]) is None
    again = runner.invoke(cli, ["web", "revoke-key", data["prefix"], "--db", sqlite_url])
    assert again.exit_code == 1 and "no active key" in again.output


def test_bad_tenant_names_are_refused(sqlite_url: str) -> None:
    for name in ["", "has space", "日本語", "x" * 101]:
        result = CliRunner().invoke(cli, ["web", "create-key", "--tenant", name, "--db", sqlite_url])
        assert result.exit_code == 2 and "invalid tenant name" in result.output


@pytest.mark.slow
def test_serve_starts_the_app_and_says_how_to_get_a_key(tmp_path: Path) -> None:
    port = _free_port()
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    sadame = Path(sys.executable).parent / "sadame"
    process = subprocess.Popen(
        [str(sadame), "serve", "--port", str(port), "--db", db],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                home = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.TransportError:
                assert process.poll() is None, process.stdout.read() if process.stdout else ""
                assert time.monotonic() < deadline, "sadame serve did not answer within 60 s"
                time.sleep(0.2)
        assert home.status_code == 200 and "謎解き" in home.text
        assert httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=5).json()["info"]["title"] == "sadame"
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=20)
    assert "sadame web create-key --tenant NAME" in output
    assert f"http://127.0.0.1:{port}/" in output
    assert f"sadame: database {db}; " in output  # the start-up line names its database
