"""Every contract version bump ships its report, and the report is not stale.

The report (``docs/contract-changes/nc<N>.md``) says what the bump changes on the project's
own evaluation sets; ``python scripts/contract_change_report.py`` writes it.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from sadame.normalize import CONTRACT_VERSION

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "contract_change_report.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("contract_change_report", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_current_version_has_its_report() -> None:
    path = ROOT / "docs" / "contract-changes" / f"nc{CONTRACT_VERSION}.md"
    assert path.is_file(), f"contract version {CONTRACT_VERSION} has no report: run python {SCRIPT.name}"


def test_the_report_is_not_stale() -> None:
    committed = (ROOT / "docs" / "contract-changes" / f"nc{CONTRACT_VERSION}.md").read_text(encoding="utf-8")
    assert committed == _script().build_report(), f"stale report: run python scripts/{SCRIPT.name}"


def test_the_quote_default_change_loses_no_quote() -> None:
    """The nc2 bump made `quote` the default: on our sets nothing may become missing."""
    text = _script().build_report()
    assert "| newly_found | newly_missing | span_changed |" in text
    for line in text.splitlines():
        if line.startswith("| `evals/quote/"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            assert int(cells[3]) > 0 and cells[4] == "0", line


def test_the_check_mode_fails_on_a_missing_report(tmp_path: Path) -> None:
    module = _script()
    module.ROOT = tmp_path  # a tree with the evaluation sets but no report
    (tmp_path / "evals").symlink_to(ROOT / "evals")
    assert module.main(["--check"]) == 1
    assert module.main([]) == 0
    assert module.main(["--check"]) == 0
    assert (tmp_path / "docs" / "contract-changes" / f"nc{CONTRACT_VERSION}.md").is_file()


def test_the_script_runs_as_a_command() -> None:
    result = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
