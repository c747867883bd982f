"""The check's deadline (issue 21): quotes not checked in time are counted, never guessed."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from sadame.cli import _quote as cli_quote
from sadame.cli import cli
from sadame.quote import check_output

SOURCE = "在庫は不足している。\n売上は1億2000万円。\n参加者は30名。"
OUTPUT = "「在庫は不足している」。「売上は1億2000万円」。「参加者は30名」。売上は1.2億円。"


def _ticking(step: float) -> Callable[[], float]:
    """A clock that moves ``step`` seconds each time it is read (no real time involved)."""
    ticks: Iterator[int] = iter(range(10**6))
    return lambda: next(ticks) * step


def test_a_check_in_time_is_the_check_without_a_deadline() -> None:
    plain = check_output(SOURCE, OUTPUT).to_dict()
    assert "timed_out" not in plain["summary"] and plain["summary"]["total"] == 3
    assert check_output(SOURCE, OUTPUT, deadline=10**6, clock=_ticking(1.0)).to_dict() == plain


def test_quotes_past_the_deadline_are_counted_as_timed_out() -> None:
    # clock reads: 0 (start), 1 (before verifying), 2 (quote 1), 3 (quote 2: past 2.5)
    late = check_output(SOURCE, OUTPUT, deadline=2.5, clock=_ticking(1.0))
    assert [q.extracted.text for q in late.quotes] == ["在庫は不足している"]
    assert late.summary["total"] == 1 and late.summary["timed_out"] == 2
    assert late.quotes[0].to_dict() == check_output(SOURCE, OUTPUT).quotes[0].to_dict()
    assert late.numbers.status == "grounded"  # the numbers are still grounded


def test_a_deadline_passed_before_verifying_checks_no_quote() -> None:
    none = check_output(SOURCE, OUTPUT, deadline=0.5, clock=_ticking(1.0))
    assert none.quotes == () and none.summary["timed_out"] == 3 and none.summary["total"] == 0


def test_cli_says_in_japanese_how_many_quotes_ran_out_of_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "source.md").write_text(SOURCE, encoding="utf-8")
    late = functools.partial(check_output, deadline=2.5, clock=_ticking(1.0))
    monkeypatch.setattr(cli_quote, "check_output", late)
    run = CliRunner().invoke(cli, ["quote", "check", "-s", str(tmp_path / "source.md"), "-"], input=OUTPUT)
    assert "時間内に確認できなかった引用が 2 件あります" in run.output, run.output
