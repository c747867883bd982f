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
    assert log["data"]["user_digest"] == user_digest("acme", "alice")
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


def _exported(db_url: str) -> tuple[object, list[dict[str, object]]]:
    t = tracker(db_url, tenant="acme")
    t.ingest("alice", "s1", ["集中が切れる", "安定性が不足している"], at=T0)
    t.ingest("alice", "s2", ["集中が切れる"], at=T0 + timedelta(days=1))
    rows = list(t.export())
    return t, rows


def _first(rows: list[dict[str, object]], kind: str) -> dict[str, object]:
    return next(r for r in rows if r["type"] == kind)


def _set(kind: str, field: str, value: object) -> object:
    def mutate(rows: list[dict[str, object]]) -> list[dict[str, object]]:
        _first(rows, kind)[field] = value
        return rows
    return mutate


def _drop(kind: str) -> object:
    def mutate(rows: list[dict[str, object]]) -> list[dict[str, object]]:
        return [r for r in rows if r["type"] != kind]
    return mutate


def _twice(kind: str) -> object:
    def mutate(rows: list[dict[str, object]]) -> list[dict[str, object]]:
        return [*rows, dict(_first(rows, kind))]
    return mutate


BAD_IMPORTS = {
    "garbage ruleset": (_set("ruleset", "content", {"format": 2, "patterns": "nope"}), "does not parse"),
    "ruleset not JSON": (_set("ruleset", "content", "{not json"), "content is not JSON"),
    "ruleset of another version": (_set("ruleset", "version", "other-1"), "holds ruleset version"),
    "no user row": (_drop("user"), "no user row"),
    "no session rows": (_drop("session"), "names session"),
    "no issue rows": (_drop("issue"), "names issue"),
    "seq as text": (_set("session", "seq", "1"), "seq must be int"),
    "count as bool": (_set("issue", "occurrence_count", True), "occurrence_count must be int"),
    "5,000-digit seq": (_set("detection", "seq", 10**5000), "seq must be int"),
    "confidence as text": (_set("detection", "confidence", "high"), "confidence must be float"),
    "NaN confidence": (_set("detection", "confidence", float("nan")), "confidence must be float"),
    "null title": (_set("issue", "title", None), "title must not be null"),
    "NUL in text": (_set("detection", "text", "集中\x00"), "NUL"),
    "lone surrogate": (_set("detection", "text", "\ud800"), "lone surrogate"),
    "status too long": (_set("issue", "status", "x" * 17), "longer than 16"),
    "user id as list": (_set("user", "user_id", ["alice"]), "user_id must be str"),
    "session twice": (_twice("session"), "same session twice"),
    "issue twice": (_twice("issue"), "same issue twice"),
    "unknown ruleset": (_set("session", "ruleset_version", "v-unknown"), "names ruleset"),
}


@pytest.mark.parametrize("case", sorted(BAD_IMPORTS))
def test_a_bad_import_changes_nothing(db_url: str, case: str) -> None:
    t, rows = _exported(db_url)
    t.delete_user("alice")
    before = list(t.export())
    mutate, message = BAD_IMPORTS[case]
    bad = mutate([dict(r) for r in rows])  # type: ignore[operator]
    with pytest.raises(InvalidExport, match=message):
        t.import_rows(bad)
    assert list(t.export()) == before
    assert t.ruleset.version == _first(rows, "ruleset")["version"]
    fresh = tracker(db_url, tenant="acme")  # the tenant stays usable: a new process ingests
    assert fresh.ingest("carol", "s1", ["集中が切れる"]).new
    t.import_rows(rows)  # and the good export still restores
    assert [r for r in t.export() if r.get("user_id") == "alice"] == [r for r in rows if r.get("user_id") == "alice"]


def test_restoring_a_tenant_export_does_not_log_erasures_again(db_url: str) -> None:
    t, _rows = _exported(db_url)
    t.ingest("bob", "s1", ["気が散る"], at=T0)
    t.delete_user("bob")
    rows = list(t.export())
    t.delete_user("alice")
    t.import_rows(rows)
    erasures = [r for r in t.export() if r["type"] == "event" and r["event"] == "delete_user"]
    assert len(erasures) == 2  # bob's (kept once, not re-imported) and alice's
    t.delete_user("alice")
    t.import_rows(list(t.export()) + [r for r in rows if r.get("user_id") == "alice"])
    assert len([r for r in t.export() if r["type"] == "event" and r["event"] == "delete_user"]) == 3


def test_user_ids_are_checked_the_same_at_ingest_and_import(db_url: str) -> None:
    t, rows = _exported(db_url)
    for bad in (".", "..", "a/b", "a\\b", "a\x01b"):
        with pytest.raises(ValueError, match="user_id"):
            t.ingest(bad, "s1", ["集中が切れる"])
        t.delete_user("alice")
        renamed = [{**r, "user_id": bad} if r.get("user_id") == "alice" else r for r in rows]
        with pytest.raises(InvalidExport, match="user_id"):
            t.import_rows(renamed)
        t.import_rows(rows)


def test_the_erasure_digest_is_keyed_by_the_tenant() -> None:
    assert user_digest("acme", "alice") != user_digest("other", "alice")
    assert user_digest("acme", "alice") != user_digest("acme", "bob")
    assert len(user_digest("acme", "alice")) == 16
