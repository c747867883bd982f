"""The tracker's evaluation sets (evals/track): their shape, and the targets of issue 12."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sadame.cli import cli
from sadame.track._eval import TrackEvalError, run_track_eval

EVALS = Path(__file__).resolve().parents[2] / "evals" / "track"


def _rows(name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (EVALS / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_sets_are_big_enough_and_cover_six_domains() -> None:
    praise, same, para = (_rows(n) for n in ("negated_praise.jsonl", "same_word_pairs.jsonl",
                                              "paraphrase_pairs.jsonl"))
    assert len(praise) >= 40 and len(same) >= 60 and len(para) >= 120
    for rows in (praise, same, para):
        assert len({r["domain"] for r in rows}) >= 6
        assert len({r["id"] for r in rows}) == len(rows)
    assert sum(not r["praise"] for r in praise) >= 25  # mostly problems written as negated praise


@pytest.mark.slow
def test_the_default_ruleset_meets_the_targets() -> None:
    report = run_track_eval(EVALS)
    p, s, q = report.totals("praise"), report.totals("same_word"), report.totals("paraphrase")
    assert p["problems_dropped"] == 0 and p["praise_kept"] <= 1
    assert s["merged"] <= 0.02 * s["pairs"]
    assert q["found"] >= 0.7 * q["pairs"] and q["auto_merged"] == 0
    assert report.meets_targets()


@pytest.mark.slow
def test_the_seed_ruleset_fails_them_as_issue_12_describes() -> None:
    from sadame.track import load_ruleset

    report = run_track_eval(EVALS, load_ruleset("seed-example"))
    assert report.totals("praise")["problems_dropped"] > 0  # 向上していない was praise to the seed
    assert report.totals("same_word")["merged"] > 0  # 踏み込みが弱い == 握力が弱い
    assert not report.meets_targets()


@pytest.mark.slow
def test_eval_cli_prints_three_tables_and_bad_sets_are_clear_errors(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["track", "eval", str(EVALS)])
    assert out.exit_code == 0, out.output
    assert out.output.count("### ") == 3 and "Targets met: yes" in out.output
    (tmp_path / "negated_praise.jsonl").write_text('{"id": 1}\n', encoding="utf-8")
    bad = CliRunner().invoke(cli, ["track", "eval", str(tmp_path)])
    assert bad.exit_code != 0 and "negated_praise.jsonl:1: needs id (str)" in bad.output
    with pytest.raises(TrackEvalError, match="cannot read"):
        run_track_eval(tmp_path / "missing")
