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
repeated run take seconds); the index is PyPI, as for a user. The builds and the commands run in
the virtualenvs start in the background when collection finishes (``_build.py``, ``conftest.py``):
each test here asserts on what its own jobs produced.
"""

from __future__ import annotations

import re
import subprocess
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from tests.release._build import ROOT, Builds, Core, Smoke, run

MAX_CORE_BYTES = 25 * 1024 * 1024

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(builds: Builds) -> dict[str, Path]:
    """The sdist, and the wheel built from it (``uv build``: the wheel is built from the sdist)."""
    built: dict[str, Path] = builds.result("dist")
    return built


def _assert_smoke(smoke: Smoke) -> None:
    """The README's examples (every extra), natural mode, the contract record and the web app."""
    assert "example block(s) passed" in smoke.examples
    assert '"verdict": "YES"' in smoke.verdict
    assert re.search(r'"sudachipy": "0\.[7-9]', smoke.contract)
    assert smoke.web.split() == ["200", "きゃっしゅ"]


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
    tracked = run(["git", "ls-files", "tests", "evals"], cwd=ROOT).stdout.split()
    missing = sorted(set(tracked) - names)
    assert missing == [], f"the sdist lacks {missing[:10]}"
    assert {"README.md", "README.ja.md", "CHANGELOG.md", "LICENSE", "mkdocs.yml", "Makefile"} <= names


def test_the_core_install_is_small_light_and_runs_the_core_examples(builds: Builds) -> None:
    core: Core = builds.result("core")
    assert core.site_bytes <= MAX_CORE_BYTES, f"core install is {core.site_bytes / 1e6:.1f} MB"
    assert core.heavy_present == []
    out = core.examples
    assert "skipped README.md" in out and "needs ja, track" in out  # the tracker block, and only it
    assert re.search(r"^[1-9]\d* example block\(s\) passed", out, re.M)
    failed = core.track
    assert failed.returncode != 0
    assert failed.stderr.strip().splitlines() == [
        "Error: the tracker needs SQLAlchemy, which is not installed: pip install 'sadame[track]'"
    ]
    natural = core.natural
    assert natural.stderr.strip().splitlines()[-1].endswith("pip install 'sadame[ja]'")
    assert len(natural.stderr.strip().splitlines()) == 1


def test_sadame_all_runs_everything(builds: Builds) -> None:
    _assert_smoke(builds.result("all"))


def test_the_lowest_allowed_versions_run_the_smoke_subset(builds: Builds) -> None:
    listed, smoke = builds.result("lowest")
    listed = listed.lower()
    assert "click==8.5.0" in listed and "sudachipy==0.7.0" in listed  # the floors were really used
    _assert_smoke(smoke)


def test_beside_ginza_5_the_resolver_reports_the_sudachipy_conflict(builds: Builds) -> None:
    refused: subprocess.CompletedProcess[str] = builds.result("ginza")
    assert refused.returncode != 0
    assert "sudachipy" in refused.stderr and "unsatisfiable" in refused.stderr
