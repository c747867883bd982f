"""The built distributions, installed the way a user installs them (uv, clean virtualenvs).

* the sdist and the wheel build, and carry what they should (the sdist: the tests and their data);
* ``pip install sadame`` (the wheel) is at most 25 MB, has none of the heavy packages, runs the
  README's core examples against the *installed* package, and a call that needs an extra stops
  with one line naming it;
* ``sadame[all]`` runs every README example and the features behind the extras;
* the lowest versions the pyproject allows (uv ``--resolution lowest-direct`` over the flattened
  requirements) run the same smoke subset;
* beside GiNZA 5 (which pins SudachiPy < 0.7) the resolver refuses, naming the conflict (asked for
  any GiNZA, uv backtracks to GiNZA 4.0.6 with SudachiPy 0.7.0: docs/howto/packaging.md).

Every virtualenv and install goes through ``uv`` from the development set (its cache makes a
repeated run take seconds); the index is PyPI, as for a user.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "readme_examples.py"
HEAVY = ("sqlalchemy", "alembic", "psycopg", "fastapi", "uvicorn", "starlette", "sudachipy",
         "sudachidict_core", "httpx", "re2", "jinja2", "pydantic", "google")
MAX_CORE_BYTES = 25 * 1024 * 1024

pytestmark = pytest.mark.slow


def _uv() -> str:
    found = Path(sys.executable).with_name("uv")
    return str(found) if found.exists() else (shutil.which("uv") or "uv")


def _run(args: list[str | Path], cwd: Path | None = None, check: bool = True,
         timeout: int = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH"))}
    result = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                            env=env, timeout=timeout)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, args))} exited {result.returncode}:\n"
                             f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist, and the wheel built from it (``uv build``: the wheel is built from the sdist)."""
    out = tmp_path_factory.mktemp("dist")
    _run([_uv(), "build", "--quiet", "--out-dir", out, ROOT])
    return {"sdist": next(out.glob("sadame-*.tar.gz")), "wheel": next(out.glob("sadame-*.whl"))}


def _venv(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    where = tmp_path_factory.mktemp(name) / "venv"
    _run([_uv(), "venv", "--quiet", "--python", sys.executable, where])
    return where / "bin" / "python"


def _install(python: Path, *requirements: str | Path, options: tuple[str, ...] = ()) -> None:
    _run([_uv(), "pip", "install", "--quiet", "--python", python, *options, *requirements])


def _site_packages(python: Path) -> Path:
    return Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())


def _smoke(python: Path, work: Path) -> None:
    """The README's examples (every extra), natural mode, the contract record and the web app."""
    out = _run([python, EXAMPLES, "--all", ROOT / "README.md"], cwd=work).stdout
    assert "example block(s) passed" in out
    sadame = python.with_name("sadame")
    verdict = _run([sadame, "judge", "engineering", "--puzzle", "rainy-lunch-server", "雨の日は関係ある？"], cwd=work)
    assert '"verdict": "YES"' in verdict.stdout
    contract = _run([python, "-m", "sadame", "contract", "--json"], cwd=work).stdout
    assert re.search(r'"sudachipy": "0\.[7-9]', contract)
    code = ("from fastapi.testclient import TestClient; from sadame.web import create_app; "
            f"c = TestClient(create_app('sqlite:///{work}/web.db'), base_url='http://localhost'); "
            "r = c.post('/api/normalize', json={'text': 'ｷｬｯｼｭ？', 'preset': 'judge'}); "
            "print(r.status_code, r.json()['result'])")
    assert _run([python, "-c", code], cwd=work).stdout.split() == ["200", "きゃっしゅ"]


def test_the_wheel_carries_the_package_and_its_data(dist: dict[str, Path]) -> None:
    with zipfile.ZipFile(dist["wheel"]) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    for needed in ("sadame/py.typed", "sadame/normalize/probe.txt", "sadame/data/puzzles/engineering.yaml",
                   "sadame/data/tables/faq-routing.yaml", "sadame/db/migrations/env.py"):
        assert needed in names, needed
    assert not [n for n in names if n.startswith("tests/") or "__pycache__" in n]
    meta = Parser().parsestr(metadata)
    import sadame

    assert meta["Version"] == sadame.__version__
    assert set(meta.get_all("Provides-Extra") or []) >= {"ja", "track", "postgres", "web", "llm", "gemini", "all"}
    assert "Typing :: Typed" in (meta.get_all("Classifier") or [])


def test_the_sdist_carries_the_tests_and_their_data(dist: dict[str, Path]) -> None:
    with tarfile.open(dist["sdist"]) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    tracked = _run(["git", "ls-files", "tests", "evals"], cwd=ROOT).stdout.split()
    missing = sorted(set(tracked) - names)
    assert missing == [], f"the sdist lacks {missing[:10]}"
    assert {"README.md", "README.ja.md", "CHANGELOG.md", "LICENSE", "mkdocs.yml", "Makefile"} <= names


def test_the_core_install_is_small_light_and_runs_the_core_examples(
    dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    python = _venv(tmp_path_factory, "core")
    _install(python, dist["wheel"])
    site = _site_packages(python)
    size = sum(f.stat().st_size for f in site.rglob("*") if f.is_file())
    assert size <= MAX_CORE_BYTES, f"core install is {size / 1e6:.1f} MB"
    present = [m for m in HEAVY if (site / m).exists()]
    assert present == []
    out = _run([python, EXAMPLES, ROOT / "README.md"], cwd=tmp_path).stdout
    assert "skipped README.md" in out and "needs ja, track" in out  # the tracker block, and only it
    assert re.search(r"^[1-9]\d* example block\(s\) passed", out, re.M)
    failed = _run([python, "-m", "sadame", "track", "list", "--user", "u1"], cwd=tmp_path, check=False)
    assert failed.returncode != 0
    assert failed.stderr.strip().splitlines() == [
        "Error: the tracker needs SQLAlchemy, which is not installed: pip install 'sadame[track]'"
    ]
    natural = _run([python, "-m", "sadame", "judge", "engineering", "--puzzle", "rainy-lunch-server", "雨？"],
                   cwd=tmp_path, check=False)
    assert natural.stderr.strip().splitlines()[-1].endswith("pip install 'sadame[ja]'")
    assert len(natural.stderr.strip().splitlines()) == 1


def test_sadame_all_runs_everything(
    dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    python = _venv(tmp_path_factory, "all")
    _install(python, f"sadame[all] @ {dist['wheel'].as_uri()}")
    _smoke(python, tmp_path)


def _flattened_requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    found = list(project["dependencies"])
    for extra, requirements in project["optional-dependencies"].items():
        if extra not in ("all", "dev"):
            found.extend(r for r in requirements if not r.startswith("sadame["))
    return found


def test_the_lowest_allowed_versions_run_the_smoke_subset(
    dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    python = _venv(tmp_path_factory, "lowest")
    _install(python, *_flattened_requirements(), options=("--resolution", "lowest-direct"))
    _install(python, dist["wheel"], options=("--no-deps",))
    listed = _run([_uv(), "pip", "list", "--python", python, "--format", "freeze"]).stdout.lower()
    assert "click==8.5.0" in listed and "sudachipy==0.7.0" in listed  # the floors were really used
    _smoke(python, tmp_path)


def test_beside_ginza_5_the_resolver_reports_the_sudachipy_conflict(
    dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    python = _venv(tmp_path_factory, "ginza")
    wheel = f"sadame[ja] @ {dist['wheel'].as_uri()}"
    refused = _run([_uv(), "pip", "install", "--dry-run", "--python", python, wheel, "ginza>=5"], check=False)
    assert refused.returncode != 0
    assert "sudachipy" in refused.stderr and "unsatisfiable" in refused.stderr
