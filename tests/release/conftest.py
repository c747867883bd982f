"""The release checks' artefacts: built once per session, in the background from the end of
collection (``_build.Builds``), so the uv builds and the clean virtualenvs' smoke runs overlap the
rest of the suite instead of adding to it. Nothing starts unless a test of ``test_dist.py`` was
selected. Under pytest-xdist every worker collects everything, so there the builds start in the
worker that runs ``test_dist.py``, when its first test asks (the other worker keeps the second core
busy anyway)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.release._build import Builds

_HERE = Path(__file__).parent
_STARTED: list[Builds] = []


def pytest_collection_finish(session: pytest.Session) -> None:
    if session.config.option.collectonly or _STARTED or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if any(Path(str(item.path)).parent == _HERE and item.path.name == "test_dist.py" for item in session.items):
        builds = Builds()
        builds.start()
        _STARTED.append(builds)


def pytest_unconfigure(config: pytest.Config) -> None:
    while _STARTED:
        _STARTED.pop().close()


@pytest.fixture(scope="session")
def builds() -> Iterator[Builds]:
    if not _STARTED:  # under pytest-xdist: this worker runs test_dist.py
        started = Builds()
        started.start()
        _STARTED.append(started)
    yield _STARTED[0]
