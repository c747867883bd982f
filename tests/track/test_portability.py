"""delete-user and import: erasure without a trace of content, and export -> import round trips."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from sadame.track import issue_id
from sadame.track._errors import InvalidExport
from sadame.track._portability import user_digest
from tests.track._helpers import tracker

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_export_delete_user_import_round_trip(db_url: str) -> None:
    t = tracker(db_url, tenant="acme")
    for n, findings in enumerate([["集中が切れる", "安定性が不足している"], ["集中が切れる", "気が散る"], []]):
        t.ingest("alice", f"s{n}", findings, at=T0 + timedelta(days=n))
        t.ingest("bob", f"s{n}", findings[:1], at=T0 + timedelta(days=n))
    t.ignore("alice", issue_id("気が散る"), reason="本人が了承")
    t.merge("alice", issue_id("attention_issue"), [issue_id("気が散る")])
    before = list(t.export())
    alice = [r for r in before if r.get("user_id") == "alice"]
    counts = t.delete_user("alice", actor="api:acme")
    assert counts["issues"] == 3 and counts["sessions"] == 3 and counts["users"] == 1
    after_delete = list(t.export())
    assert not any(r.get("user_id") == "alice" for r in after_delete)
    [log] = [r for r in after_delete if r["type"] == "event" and r["event"] == "delete_user"]
    assert log["user_id"] == "" and log["actor"] == "api:acme"
    assert log["data"]["user_digest"] == user_digest("alice")
    assert "alice" not in json.dumps(log, ensure_ascii=False) and "集中" not in json.dumps(log, ensure_ascii=False)
    assert t.users() == ["bob"]
    t.import_rows(json.loads(json.dumps(alice, ensure_ascii=False)))  # through JSON, as the CLI does
    restored = [r for r in t.export() if r.get("user_id") == "alice"]
    assert restored == alice
    assert t.show("alice", issue_id("attention_issue")).merged == [issue_id("気が散る")]
    t.ingest("alice", "s3", ["集中が切れる"], at=T0 + timedelta(days=3))  # the restored user goes on
    assert t.timeline("alice")[-1]["session_id"] == "s3"


def test_import_into_an_empty_tenant_reproduces_the_export(db_url: str) -> None:
    t = tracker(db_url, tenant="acme")
    t.ingest("alice", "s1", ["集中が切れる"], at=T0)
    rows = list(t.export())
    other = tracker(db_url, tenant="restored")
    assert other.import_rows(rows)["issue"] == 1
    assert [{**r, "tenant_id": "acme"} for r in other.export()] == rows
    assert other.ruleset.version == t.ruleset.version


def test_import_refuses_bad_rows_and_existing_users_and_writes_nothing(db_url: str) -> None:
    t = tracker(db_url, tenant="acme")
    t.ingest("alice", "s1", ["集中が切れる"], at=T0)
    rows = list(t.export())
    before = list(t.export())
    with pytest.raises(InvalidExport, match="already have data"):
        t.import_rows(rows)
    with pytest.raises(InvalidExport, match="row 1: not an export row"):
        t.import_rows([{"type": "nope"}])
    with pytest.raises(InvalidExport, match="fields do not match"):
        t.import_rows([{"type": "issue", "issue_id": "x"}])
    assert list(t.export()) == before
