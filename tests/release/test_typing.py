"""The README's examples type-check as user code: ``mypy --strict`` and pyright (from PyPI).

Each ``python`` block of README.md becomes its own module in a temporary directory outside the
source tree, as a user's file would be; both checkers resolve ``sadame`` from this environment
(the installed package and its ``py.typed``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from readme_examples import blocks  # noqa: E402

pytestmark = pytest.mark.slow

#: mypy as a user runs it; the cache (kept beside the project's own) makes a repeated run quick.
_MYPY = [sys.executable, "-m", "mypy", "--strict", "--python-executable", sys.executable,
         "--cache-dir", str(ROOT / ".mypy_cache" / "user-code")]


@pytest.fixture(scope="module")
def user_code(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("user_code")
    python = [b for b in blocks((ROOT / "README.md").read_text("utf-8")) if b.language == "python"]
    assert len(python) >= 4
    for number, block in enumerate(python):
        (where / f"example_{number}.py").write_text(block.code, encoding="utf-8")
    return where


def _check(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)


def test_mypy_strict_accepts_the_readme_examples(user_code: Path) -> None:
    result = _check([*_MYPY, "."], user_code)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pyright_accepts_the_readme_examples(user_code: Path) -> None:
    pyright = Path(sys.executable).with_name("pyright")
    result = _check([str(pyright), "--pythonpath", sys.executable, "."], user_code)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors" in result.stdout


def test_both_checkers_reject_what_a_user_gets_wrong(tmp_path: Path) -> None:
    """The checks can fail: a wrong argument type is an error for both checkers."""
    bad = tmp_path / "bad.py"
    bad.write_text('import sadame\n\nsadame.normalize(b"x", preset="judge")\n', encoding="utf-8")
    result = _check([*_MYPY, str(bad)], tmp_path)
    assert result.returncode != 0 and "No overload variant" in result.stdout
    pyright = Path(sys.executable).with_name("pyright")
    result = _check([str(pyright), "--pythonpath", sys.executable, str(bad)], tmp_path)
    assert result.returncode != 0
