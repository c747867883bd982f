"""`sadame track ...` end to end through click, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sadame.cli import cli
from sadame.track import issue_id

V2 = str(Path(__file__).parent / "data" / "ruleset-v2.yaml")


def run(db: str, *args: str, input: str | None = None, ok: bool = True) -> str:
    result = CliRunner().invoke(cli, ["track", *args, "--db", db], input=input, catch_exceptions=False)
    assert (result.exit_code == 0) is ok, result.output
    return result.stdout if ok else result.output  # data only: where it was written goes to standard error


def test_cli_round_trip(db_url: str, tmp_path: Path) -> None:
    first = json.dumps(["改善ポイント：安定性が不足している", {"text": "集中が切れる", "confidence": 0.5}],
                       ensure_ascii=False)
    report = json.loads(run(db_url, "ingest", "--user", "u1", "--session", "s1", "--json", "-", input=first))
    assert [e["key"] for e in report["new"]] == ["insufficient_control::stability_issue"]
    path = tmp_path / "s2.json"
    path.write_text(json.dumps(["気が散る", "不足しているのは安定性です"], ensure_ascii=False), encoding="utf-8")
    text = run(db_url, "ingest", "--user", "u1", "--session", "s2", "--at", "2026-01-02T09:00:00+09:00", str(path))
    assert "remaining" in text and "insufficient_control::stability_issue" in text
    again = run(db_url, "ingest", "--user", "u1", "--session", "s2", str(path))
    assert "already ingested" in again
    issues = json.loads(run(db_url, "list", "--user", "u1", "--json"))
    assert {i["key"]: i["status"] for i in issues} == {
        "insufficient_control::stability_issue": "open", "attention_issue": "candidate", "気が散る": "candidate"}
    stab = issue_id("insufficient_control::stability_issue")
    assert "open" in run(db_url, "list", "--user", "u1", "--status", "open")
    detail = json.loads(run(db_url, "show", stab, "--user", "u1", "--json"))
    assert [e["event"] for e in detail["events"]] == ["create", "redetect"]
    assert "ignored" in run(db_url, "ignore", stab[:12], "--user", "u1", "--reason", "了解")
    assert "already ignored" in run(db_url, "ignore", stab, "--user", "u1", ok=False)
    assert "open" in run(db_url, "reopen", stab, "--user", "u1")
    assert "state 'open'" in run(db_url, "reopen", stab, "--user", "u1", ok=False)
    att, dist = issue_id("attention_issue"), issue_id("気が散る")
    merged = json.loads(run(db_url, "merge", att, dist, "--user", "u1", "--json"))
    assert merged["occurrence_count"] == 2
    assert len(json.loads(run(db_url, "unmerge", att, "--user", "u1", "--json"))) == 2
    plan = run(db_url, "migrate", "--ruleset", V2)
    assert "dry run" in plan and "1 merge(s)" in plan
    assert json.loads(run(db_url, "migrate", "--ruleset", V2, "--apply", "--json"))["applied"] is True  # no split
    lines = run(db_url, "export").splitlines()
    rows = [json.loads(line) for line in lines]
    assert {r["type"] for r in rows} >= {"ruleset", "session", "issue", "detection", "event", "key"}
    timeline = json.loads(run(db_url, "timeline", "--user", "u1", "--json"))
    assert [p["session_id"] for p in timeline] == ["s1", "s2"]
    assert json.loads(run(db_url, "users", "--json")) == ["u1"]


def test_cli_bad_input_is_a_clean_error(db_url: str) -> None:
    assert "not valid JSON" in run(db_url, "ingest", "--user", "u", "--session", "s", "-", input="[", ok=False)
    out = run(db_url, "ingest", "--user", "u", "--session", "s", "-", input='{"text": 1}', ok=False)
    assert "insights must be a list" in out
    assert "no issue" in run(db_url, "show", "0" * 40, "--user", "u", ok=False)
    assert "cannot read ruleset" in run(db_url, "migrate", "--ruleset", "/nonexistent.yaml", ok=False)


def test_every_track_command_has_an_example() -> None:
    from sadame.cli._track import track

    for name, command in track.commands.items():
        if name == "eval-matcher":  # owned by the LLM feature
            continue
        assert command.epilog and "Example:" in command.epilog, name


def test_cli_delete_user_import_and_similar(db_url: str, tmp_path: Path) -> None:
    findings = json.dumps(["フォームが乱れる", "フォームの乱れが大きい", "集中が切れる"], ensure_ascii=False)
    run(db_url, "ingest", "--user", "u1", "--session", "s1", "-", input=findings)
    listed = json.loads(run(db_url, "list", "--user", "u1", "--json"))
    first = next(v["issue_id"] for v in listed if v["title"] == "フォームが乱れる")
    similar = json.loads(run(db_url, "similar", first[:12], "--user", "u1", "--json"))
    assert similar[0]["title"] == "フォームの乱れが大きい" and 0 < similar[0]["score"] <= 1
    backup = tmp_path / "backup.jsonl"
    backup.write_text(run(db_url, "export"), encoding="utf-8")
    assert json.loads(run(db_url, "delete-user", "--user", "u1", "--yes", "--json"))["issues"] == 3
    assert run(db_url, "users").strip() == ""
    assert json.loads(run(db_url, "import", str(backup), "--json"))["issue"] == 3
    assert json.loads(run(db_url, "list", "--user", "u1", "--json")) == listed


def test_cli_migrate_refuses_splits_without_allow_splits(db_url: str) -> None:
    run(db_url, "ingest", "--user", "u1", "--session", "s1", "--ruleset", "seed-example", "-",
        input=json.dumps(["踏み込みが弱い", "握力が弱い"], ensure_ascii=False))
    assert "1 split(s)" in run(db_url, "migrate", "--ruleset", "coaching-ja")
    assert "--allow-splits" in run(db_url, "migrate", "--ruleset", "coaching-ja", "--apply", ok=False)
    assert "applied" in run(db_url, "migrate", "--ruleset", "coaching-ja", "--apply", "--allow-splits")
    keys = {i["key"] for i in json.loads(run(db_url, "list", "--user", "u1", "--json"))}
    assert keys == {"insufficient_control@踏み込み", "insufficient_control@握力"}


def test_cli_bulk_ingest_of_a_jsonl_stream(db_url: str, tmp_path: Path) -> None:
    lines = [{"user_id": f"u{n % 3}", "session_id": f"s{n // 3}", "insights": ["集中が切れる", f"指摘{n}"],
              "at": f"2026-01-{1 + n // 3:02d}T09:00:00+09:00"} for n in range(12)]
    path = tmp_path / "year.jsonl"
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n\n", encoding="utf-8")
    out = run(db_url, "ingest", "--jsonl", str(path), "--json")  # the progress bar goes to stderr
    first = json.loads(out[out.index("{"):])
    assert first["sessions"] == 12
    again = run(db_url, "ingest", "--jsonl", str(path), "--json")
    assert json.loads(again[again.index("{"):]) == {"sessions": 12, "replayed": 12, "new": 0}
    assert json.loads(run(db_url, "users", "--json")) == ["u0", "u1", "u2"]
    assert [p["session_id"] for p in json.loads(run(db_url, "timeline", "--user", "u1", "--json"))] == [
        f"s{n}" for n in range(4)]
    bad = '{"user_id": "u9", "session_id": "a", "insights": ["集中が切れる"]}\n{"user_id": "u9"}\n'
    assert "session 2: needs user_id" in run(db_url, "ingest", "--jsonl", "-", input=bad, ok=False)
    assert "u9" in json.loads(run(db_url, "users", "--json"))  # the session before the bad line stays
    assert "line 1: not valid JSON" in run(db_url, "ingest", "--jsonl", "-", input="[1,\n", ok=False)
    assert "not options" in run(db_url, "ingest", "--jsonl", "--user", "u1", "-", input="", ok=False)
    assert "--user and --session are required" in run(db_url, "ingest", "-", input="[]", ok=False)
