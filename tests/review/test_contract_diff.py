"""`sadame contract diff`: every changed outcome of a user's own data, counted by kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sadame.cli import cli
from sadame.review import ReviewError, contract_diff
from sadame.review._spec import SideError, parse_side
from sadame.track import Tracker

SOURCE = "# 議事録\n\n各ゲートは\n名前付きプリセット経由でのみ呼び出す。\n- **安定性**: 照合結果が不足している。\n"


def _quote_file(tmp_path: Path) -> Path:
    cases = [
        {"id": "wrap", "source": SOURCE, "quotes": ["各ゲートは名前付きプリセット経由でのみ呼び出す。"]},
        {"id": "bold", "source": SOURCE, "quotes": ["安定性: 照合結果が不足している。", "存在しない一文。"]},
    ]
    path = tmp_path / "cases.jsonl"
    path.write_text("# my cases\n" + "\n".join(json.dumps(c, ensure_ascii=False) for c in cases), encoding="utf-8")
    return path


def test_quotes_newly_found_and_newly_missing(tmp_path: Path) -> None:
    path = _quote_file(tmp_path)
    forward = contract_diff([path], "decoration", "numeric")
    assert forward.files[0].kind == "quote-eval" and forward.files[0].compared == 3
    assert dict(forward.counts()) == {"newly_found": 1}
    (change,) = forward.files[0].changes
    assert change.item.startswith("wrap:") and change.before == "missing"
    assert "名前付きプリセット" in change.after
    backward = contract_diff([path], "numeric", "decoration")
    assert dict(backward.counts()) == {"newly_missing": 1}
    assert backward.worse({"missing", "split"}) == ["missing"]
    assert contract_diff([path], "decoration", "decoration").counts() == {}


def test_rule_table_verdicts_flip_between_matching_modes(tmp_path: Path) -> None:
    table = {
        "format": "sadame.rules/2",
        "name": "t",
        "answers": ["YES", "NO", "IRRELEVANT"],
        "matching": "natural",
        "rules": [{"any": ["電子レンジ"], "answer": "YES"}, {"any": ["曜日"], "answer": "IRRELEVANT"}],
        "examples": [
            {"q": "電子レンジは関係ない？", "expect": "NO"},
            {"q": "曜日は関係ある？", "expect": "IRRELEVANT"},
        ],
    }
    path = tmp_path / "t.json"
    path.write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
    report = contract_diff([path], "matching=seed", "matching=natural")
    assert report.files[0].compared == 2
    (change,) = report.files[0].changes
    assert (change.kind, change.before, change.after) == ("verdict_flipped", "YES", "NO")
    assert report.worse({"flipped"}) == ["flipped"]


def _export(tmp_path: Path) -> Path:
    tracker = Tracker(f"sqlite:///{tmp_path / 't.db'}", tenant="acme")
    tracker.ingest("u1", "s1", ["踏み込みが弱い", "握力が不足している", "集中が切れる", "注意が散る"])
    path = tmp_path / "export.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in tracker.export()) + "\n", encoding="utf-8")
    return path


def _ruleset(
    tmp_path: Path, patterns: list[dict[str, object]], positive: tuple[str, ...] = ("向上",),
    negative: tuple[str, ...] = ("不足",),
) -> Path:
    data = {
        "format": "sadame.track-ruleset/1",
        "name": "custom",
        "labels": {"prefixes": ["課題"], "separators": ["：", ":"]},
        "patterns": patterns,
        "positive": list(positive),
        "negative": list(negative),
    }
    path = tmp_path / "custom.yaml"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_tracker_keys_merged_and_split_by_a_ruleset_change(tmp_path: Path) -> None:
    export = _export(tmp_path)
    # seed-example: 弱い and 不足 share insufficient_control; 集中 and 注意 share attention_issue.
    custom = _ruleset(tmp_path, [
        {"token": "weak", "words": ["弱い"]},
        {"token": "short", "words": ["不足"]},
        {"token": "focus", "words": ["集中", "注意"]},
    ])
    report = contract_diff([export], "ruleset=seed-example", f"ruleset={custom}")
    diff = report.files[0]
    assert diff.kind == "tracker-export" and diff.compared == 4
    assert dict(diff.counts()) == {"keys_split": 1, "key_renamed": 1}
    split = next(c for c in diff.changes if c.kind == "keys_split")
    assert split.before == "insufficient_control" and split.after == "short | weak"
    merged = contract_diff([export], f"ruleset={custom}", "ruleset=seed-example")
    assert dict(merged.counts()) == {"keys_merged": 1, "key_renamed": 1}
    # without ruleset= the export's own pinned ruleset is the other side
    rows = [json.loads(line) for line in export.read_text(encoding="utf-8").splitlines()]
    pinned = next(r["name"] for r in rows if r["type"] == "ruleset")
    assert contract_diff([export], "issue", f"ruleset={pinned}").counts() == {}


def test_sides_are_validated() -> None:
    assert parse_side("preset=issue,ruleset=seed-example").ruleset == "seed-example"
    for bad, message in [
        ("nope", "unknown preset"),
        ("matching=fuzzy", "matching must be"),
        ("colour=red", "unknown setting"),
        ("preset=judge,preset=issue", "given twice"),
        ("", "empty"),
        ("ruleset=", "no value"),
    ]:
        with pytest.raises(SideError, match=message):
            parse_side(bad)


def test_unreadable_or_unknown_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ReviewError, match="no such file"):
        contract_diff([tmp_path / "missing.jsonl"], "judge", "issue")
    other = tmp_path / "other.jsonl"
    other.write_text('{"hello": 1}\n', encoding="utf-8")
    with pytest.raises(ReviewError, match="not a quote evaluation set"):
        contract_diff([other], "judge", "issue")
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"\xff\xfe not utf-8")
    with pytest.raises(ReviewError, match="cannot read"):
        contract_diff([broken], "judge", "issue")


def test_cli_json_markdown_and_exit_codes(tmp_path: Path) -> None:
    path = str(_quote_file(tmp_path))
    runner = CliRunner()
    ok = runner.invoke(cli, ["contract", "diff", "--from", "decoration", "--to", "numeric", path, "--json"])
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.output)
    assert data["counts"] == {"newly_found": 1}
    assert data["files"][0]["examples"]["newly_found"][0]["before"] == "missing"
    worse = runner.invoke(cli, ["contract", "diff", "--from", "numeric", "--to", "decoration", path,
                                "--fail-on", "missing,split", "--markdown"])
    assert worse.exit_code == 1
    assert "| file | kind | compared | newly_found | newly_missing | span_changed |" in worse.output
    bad = runner.invoke(cli, ["contract", "diff", "--from", "numeric", "--to", "decoration", path, "--fail-on", "x"])
    assert bad.exit_code == 2 and "unknown kind" in bad.output
    plain = runner.invoke(cli, ["contract"])
    assert plain.exit_code == 0 and plain.output.startswith("nc")


def test_praise_filter_changes_are_listed(tmp_path: Path) -> None:
    tracker = Tracker(f"sqlite:///{tmp_path / 't.db'}", tenant="acme")
    tracker.ingest("u1", "s1", ["安定性が向上していない", "集中が切れる"])
    export = tmp_path / "export.jsonl"
    export.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in tracker.export()), encoding="utf-8")
    # seed-example drops 「向上していない」 as praise; this ruleset tracks it (ない is negative)
    # but takes 「集中」 for praise, so 「集中が切れる」 would be dropped
    custom = _ruleset(tmp_path, [{"token": "focus", "words": ["集中"]}], ("向上", "集中"), ("ない",))
    report = contract_diff([export], "ruleset=seed-example", f"ruleset={custom}")
    changes = {c.kind: c for c in report.files[0].changes}
    assert set(changes) == {"newly_dropped", "newly_tracked"}
    assert changes["newly_dropped"].item == "u1: 集中が切れる"
    assert changes["newly_tracked"].item == "u1: 安定性が向上していない"
    assert report.worse({"dropped", "split"}) == ["dropped"]


def test_the_rollback_presets_are_accepted_wherever_a_preset_is_named(tmp_path: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["normalize", "-p", "decoration@nc1", "--", "- **安定性**: 不足"])
    assert out.exit_code == 0 and out.output.strip() == "安定性: 不足"
    source = tmp_path / "s.md"
    source.write_text("- **安定性**: 不足\n", encoding="utf-8")
    found = runner.invoke(cli, ["quote", "verify", "-p", "decoration@nc1", "--source", str(source), "安定性: 不足"])
    assert found.exit_code == 0 and "normalized" in found.output
    bad = runner.invoke(cli, ["normalize", "-p", "decoration@nc0", "x"])
    assert bad.exit_code == 2 and "unknown contract version 'nc0'" in bad.output
