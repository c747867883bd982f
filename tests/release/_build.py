"""The release checks' artefacts, built once per test session in the background.

``uv build`` of the sdist and wheel, the four clean virtualenvs (core, all, lowest, ginza) and the
commands run in them are subprocesses that wait on uv, the network and the venvs' interpreters,
not on the test process. ``tests/release/conftest.py`` starts them when collection finishes (only
if a test of ``test_dist.py`` was selected), so they run beside the rest of the suite; each test
of ``test_dist.py`` takes the results of its own jobs and asserts on them exactly as before. A
job that failed raises its error in the test that needs it, not elsewhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "readme_examples.py"
HEAVY = ("sqlalchemy", "alembic", "psycopg", "fastapi", "uvicorn", "starlette", "sudachipy",
         "sudachidict_core", "httpx", "re2", "jinja2", "pydantic", "google")

__all__ = ["EXAMPLES", "HEAVY", "ROOT", "Builds", "Core", "Smoke", "flattened_requirements", "run", "uv"]


def uv() -> str:
    found = Path(sys.executable).with_name("uv")
    return str(found) if found.exists() else (shutil.which("uv") or "uv")


def run(args: list[str | Path], cwd: Path | None = None, check: bool = True,
        timeout: int = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH"))}
    result = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                            env=env, timeout=timeout)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, args))} exited {result.returncode}:\n"
                             f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


def flattened_requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    found = list(project["dependencies"])
    for extra, requirements in project["optional-dependencies"].items():
        if extra not in ("all", "dev"):
            found.extend(r for r in requirements if not r.startswith("sadame["))
    return found


def _venv(where: Path) -> Path:
    run([uv(), "venv", "--quiet", "--python", sys.executable, where / "venv"])
    return where / "venv" / "bin" / "python"


def _install(python: Path, *requirements: str | Path, options: tuple[str, ...] = ()) -> None:
    run([uv(), "pip", "install", "--quiet", "--python", python, *options, *requirements])


def _site_packages(python: Path) -> Path:
    return Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())


@dataclass
class Smoke:
    """What the smoke subset printed in one virtualenv (``test_dist._assert_smoke`` asserts on it)."""

    examples: str
    verdict: str
    contract: str
    web: str


def smoke(python: Path, work: Path) -> Smoke:
    """The README's examples (every extra), natural mode, the contract record and the web app."""
    examples = run([python, EXAMPLES, "--all", ROOT / "README.md"], cwd=work).stdout
    sadame = python.with_name("sadame")
    verdict = run([sadame, "judge", "engineering", "--puzzle", "rainy-lunch-server", "雨の日は関係ある？"],
                  cwd=work).stdout
    contract = run([python, "-m", "sadame", "contract", "--json"], cwd=work).stdout
    code = ("from fastapi.testclient import TestClient; from sadame.web import create_app; "
            f"c = TestClient(create_app('sqlite:///{work}/web.db'), base_url='http://localhost'); "
            "r = c.post('/api/normalize', json={'text': 'ｷｬｯｼｭ？', 'preset': 'judge'}); "
            "print(r.status_code, r.json()['result'])")
    web = run([python, "-c", code], cwd=work).stdout
    return Smoke(examples, verdict, contract, web)


@dataclass
class Core:
    """The core wheel's virtualenv and what was run in it."""

    python: Path
    site_bytes: int
    heavy_present: list[str]
    examples: str
    track: subprocess.CompletedProcess[str]
    natural: subprocess.CompletedProcess[str]


def _core(where: Path, dist: dict[str, Path]) -> Core:
    python = _venv(where)
    _install(python, dist["wheel"])
    site = _site_packages(python)
    size = sum(f.stat().st_size for f in site.rglob("*") if f.is_file())
    present = [m for m in HEAVY if (site / m).exists()]
    work = where / "work"
    work.mkdir()
    examples = run([python, EXAMPLES, ROOT / "README.md"], cwd=work).stdout
    track = run([python, "-m", "sadame", "track", "list", "--user", "u1"], cwd=work, check=False)
    natural = run([python, "-m", "sadame", "judge", "engineering", "--puzzle", "rainy-lunch-server", "雨？"],
                  cwd=work, check=False)
    return Core(python, size, present, examples, track, natural)


def _all(where: Path, dist: dict[str, Path]) -> Smoke:
    python = _venv(where)
    _install(python, f"sadame[all] @ {dist['wheel'].as_uri()}")
    (where / "work").mkdir()
    return smoke(python, where / "work")


def _lowest_venv(where: Path) -> Path:
    python = _venv(where)
    _install(python, *flattened_requirements(), options=("--resolution", "lowest-direct"))
    return python


def _lowest(python: Path, where: Path, dist: dict[str, Path]) -> tuple[str, Smoke]:
    _install(python, dist["wheel"], options=("--no-deps",))
    listed = run([uv(), "pip", "list", "--python", python, "--format", "freeze"]).stdout
    (where / "work").mkdir()
    return listed, smoke(python, where / "work")


def _ginza(where: Path, dist: dict[str, Path]) -> subprocess.CompletedProcess[str]:
    python = _venv(where)
    wheel = f"sadame[ja] @ {dist['wheel'].as_uri()}"
    return run([uv(), "pip", "install", "--dry-run", "--python", python, wheel, "ginza>=5"], check=False)


def _build_dist(out: Path) -> dict[str, Path]:
    """The sdist, and the wheel built from it (``uv build``: the wheel is built from the sdist)."""
    run([uv(), "build", "--quiet", "--out-dir", out, ROOT])
    return {"sdist": next(out.glob("sadame-*.tar.gz")), "wheel": next(out.glob("sadame-*.whl"))}


@dataclass
class Builds:
    """The session's background jobs; ``start()`` once, ``result(name)`` in a test, ``close()`` at the end."""

    base: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="sadame-release-")))
    jobs: dict[str, Future[Any]] = field(default_factory=dict)
    pool: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(max_workers=3))

    def _where(self, name: str) -> Path:
        path = self.base / name
        path.mkdir()
        return path

    def start(self) -> None:
        # The lowest-direct environment needs no wheel: it starts at once, beside the build.
        self.jobs["dist"] = self.pool.submit(_build_dist, self._where("dist"))
        self.jobs["lowest-venv"] = self.pool.submit(_lowest_venv, self._where("lowest"))
        dist = self.jobs["dist"]
        self.jobs["core"] = self.pool.submit(lambda: _core(self._where("core"), dist.result()))
        self.jobs["all"] = self.pool.submit(lambda: _all(self._where("all"), dist.result()))
        self.jobs["lowest"] = self.pool.submit(
            lambda: _lowest(self.jobs["lowest-venv"].result(), self.base / "lowest", dist.result()))
        self.jobs["ginza"] = self.pool.submit(lambda: _ginza(self._where("ginza"), dist.result()))

    def result(self, name: str) -> Any:
        return self.jobs[name].result(timeout=1800)

    def close(self) -> None:
        for job in self.jobs.values():
            job.cancel()
        self.pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(self.base, ignore_errors=True)

