"""Configuration loading and directory walking: the allowed modules are exempt."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from sadame.lint import check_paths, lint_paths, load_config
from sadame.lint._config import LintConfig, LintConfigError, find_pyproject
from sadame.lint._paths import LintPathError

REPO = Path(__file__).resolve().parents[2]
BAD = "import unicodedata\nunicodedata.normalize('NFKC', 'x')\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small project: a contract package (allowed) and a feature module (not)."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "demo"\n\n[tool.sadame.lint]\nallowed = ["src/demo/contract/*.py"]\n', "utf-8"
    )
    contract = tmp_path / "src" / "demo" / "contract"
    contract.mkdir(parents=True)
    (contract / "core.py").write_text(BAD, "utf-8")
    (contract / "deeper").mkdir()
    (contract / "deeper" / "x.py").write_text(BAD, "utf-8")
    (tmp_path / "src" / "demo" / "feature.py").write_text(BAD, "utf-8")
    (tmp_path / "src" / "demo" / "notes.txt").write_text(BAD, "utf-8")
    hidden = tmp_path / "src" / ".venv"
    hidden.mkdir()
    (hidden / "vendored.py").write_text(BAD, "utf-8")
    return tmp_path


@pytest.fixture
def in_dir(project: Path) -> Iterator[Path]:
    old = Path.cwd()
    os.chdir(project / "src" / "demo")
    try:
        yield project
    finally:
        os.chdir(old)


def test_nearest_pyproject_is_found_upward(in_dir: Path) -> None:
    assert find_pyproject() == (in_dir / "pyproject.toml").resolve()
    config = load_config()
    assert config.allowed == ("src/demo/contract/*.py",)
    assert config.root == in_dir.resolve()


def test_allowed_glob_is_relative_to_the_pyproject_and_does_not_cross_directories(project: Path) -> None:
    config = load_config(project / "pyproject.toml")
    assert config.is_allowed(project / "src/demo/contract/core.py")
    assert not config.is_allowed(project / "src/demo/contract/deeper/x.py")
    assert not config.is_allowed(project / "src/demo/feature.py")
    assert not config.is_allowed(Path("/elsewhere/src/demo/contract/core.py"))


def test_double_star_spans_directories(project: Path) -> None:
    config = LintConfig(root=project, allowed=("src/**/contract/**",))
    assert config.is_allowed(project / "src/demo/contract/deeper/x.py")
    assert not config.is_allowed(project / "src/demo/feature.py")


def test_check_paths_exempts_the_contract_and_walks_only_python_files(project: Path) -> None:
    config = load_config(project / "pyproject.toml")
    found = check_paths([project / "src"], config)
    paths = sorted({Path(v.path).relative_to(project).as_posix() for v in found})
    assert paths == ["src/demo/contract/deeper/x.py", "src/demo/feature.py"]


def test_lint_paths_counts_exempt_files(in_dir: Path) -> None:
    report = lint_paths(["."])
    assert (report.files_checked, report.files_exempt) == (2, 1)
    assert not report.ok
    assert {v.path for v in report.violations} == {"feature.py", "contract/deeper/x.py"}


def test_no_pyproject_means_nothing_is_allowed(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(BAD, "utf-8")
    config = load_config(start=tmp_path)
    if config.source is None:  # no pyproject.toml above the temp dir
        assert config.allowed == ()
    assert len(check_paths([tmp_path / "m.py"], LintConfig(root=tmp_path, allowed=()))) == 1


def test_our_own_repository_config_allows_only_the_contract() -> None:
    config = load_config(REPO / "pyproject.toml")
    assert config.allowed == ("src/sadame/normalize/*.py",)
    assert config.is_allowed(REPO / "src/sadame/normalize/_steps.py")
    assert not config.is_allowed(REPO / "src/sadame/lint/_checker.py")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[tool.sadame.lint\nallowed = [", "not valid TOML"),
        ('[tool.sadame.lint]\nallowed = "src/*.py"\n', "must be a list"),
        ("[tool.sadame.lint]\nallowed = [1]\n", "must be a list"),
        ('[tool.sadame.lint]\nallowd = ["x"]\n', "unknown key"),
        ('[tool]\nsadame = "x"\n', "must be a table"),
    ],
)
def test_malformed_config_is_a_clear_error(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text(body, "utf-8")
    with pytest.raises(LintConfigError, match=message):
        load_config(path)


def test_missing_config_file_and_missing_path_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(LintConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")
    with pytest.raises(LintPathError, match="no such file"):
        check_paths([tmp_path / "missing"], LintConfig(root=tmp_path, allowed=()))
    with pytest.raises(ValueError, match="no paths"):
        lint_paths([])


def test_undecodable_file_is_a_diagnostic(tmp_path: Path) -> None:
    bad = tmp_path / "latin.py"
    bad.write_bytes(b"x = '\xff\xfe'\n")
    found = check_paths([bad], LintConfig(root=tmp_path, allowed=()))
    assert [v.code for v in found] == ["SDM000"]
    assert "cannot read" in found[0].message
