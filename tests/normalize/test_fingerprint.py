"""The contract fingerprint is stable, and any change to a preset's output must be deliberate.

If this test fails after you changed normalization behaviour: that is a contract
change. Bump ``CONTRACT_VERSION`` in ``sadame/normalize/_presets.py``, add a
CHANGELOG entry saying what changed, and regenerate the golden with
``python -m sadame.normalize._fingerprint --write-golden tests/normalize/data/fingerprint.json``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

from click.testing import CliRunner

from sadame.cli import cli
from sadame.normalize import CONTRACT_VERSION, fingerprint
from sadame.normalize._fingerprint import contract_info

GOLDEN = json.loads((Path(__file__).parent / "data" / "fingerprint.json").read_text(encoding="utf-8"))
ROOT = Path(__file__).resolve().parents[2]


def test_fingerprint_matches_the_golden_for_this_contract_version() -> None:
    info = contract_info()
    assert GOLDEN["contract_version"] == CONTRACT_VERSION, "contract version bumped: regenerate the golden"
    assert info.unidata_version == GOLDEN["unidata_version"] == unicodedata.unidata_version
    changed = {p for p, d in info.presets.items() if GOLDEN["presets"].get(p) != d}
    assert not changed, f"preset output changed without a contract version bump: {sorted(changed)}"
    assert info.fingerprint == GOLDEN["fingerprint"]


def test_changelog_mentions_the_current_contract_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"contract version {CONTRACT_VERSION}" in changelog.lower()


def test_fingerprint_is_the_same_in_a_fresh_process_with_another_hash_seed() -> None:
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", "from sadame.normalize import fingerprint; print(fingerprint())"],
        capture_output=True, text=True, check=True, env=env,
    )
    assert out.stdout.strip() == fingerprint()


def test_cli_contract_prints_the_fingerprint() -> None:
    result = CliRunner().invoke(cli, ["contract"])
    assert result.exit_code == 0
    assert result.output.strip() == fingerprint()
    result = CliRunner().invoke(cli, ["contract", "--json"])
    data = json.loads(result.output)
    assert data["fingerprint"] == fingerprint()
    assert set(data["presets"]) == {"judge", "decoration", "numeric", "issue", "quote"}
    assert data["probe_count"] >= 50


def test_previous_version_presets_reproduce_their_released_output() -> None:
    """``name@nc1`` is the rollback path: it must still print contract version 1's digests."""
    import hashlib

    from sadame.normalize import normalize
    from sadame.normalize._fingerprint import probe_corpus
    from sadame.normalize._presets import PREVIOUS_PRESETS

    released = json.loads((Path(__file__).parent / "data" / "fingerprint_nc1.json").read_text(encoding="utf-8"))
    assert released["contract_version"] == "1"
    assert sorted(PREVIOUS_PRESETS) == sorted(released["presets"])
    for name, expected in released["presets"].items():
        digest = hashlib.sha256()
        for probe in probe_corpus():
            digest.update(normalize(probe, preset=f"{name}@nc1").encode("utf-8", "surrogatepass"))
            digest.update(b"\x00")
        assert digest.hexdigest()[:16] == expected, name


def test_unknown_versions_and_names_are_clear_errors() -> None:
    import pytest

    from sadame.normalize import normalize

    with pytest.raises(ValueError, match="unknown contract version 'nc9'"):
        normalize("a", preset="judge@nc9")
    with pytest.raises(ValueError, match="unknown preset 'quote' in contract version nc1"):
        normalize("a", preset="quote@nc1")
