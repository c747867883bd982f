"""NUL and other invalid input in every path and every form field: a 4xx, never a 500,
on both databases; user ids checked the same way at ingest and at read."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import LiveServer

NUL = "a\x00b"

#: Page forms: (path, fields). ``{u}`` and ``{i}`` are filled with a real user and issue.
FORMS: list[tuple[str, dict[str, Any]]] = [
    ("/tracker/login", {"api_key": NUL}),
    ("/tracker/users/{u}/issues/{i}/ignore", {"reason": NUL}),
    ("/tracker/users/{u}/issues/{i}/reopen", {"reason": NUL}),
    ("/tracker/users/{u}/merge", {"target_id": NUL, "source_ids": [NUL]}),
    ("/tracker/users/{u}/merge", {"target_id": "{i}", "source_ids": [NUL]}),
    ("/puzzles/{pack}/{puzzle}/ask", {"question": NUL}),
    ("/puzzles/{pack}/{puzzle}/answer", {"answer": NUL}),
    ("/quote", {"source": NUL, "output": "「a」"}),
    ("/quote", {"source": "abc", "output": NUL}),
    ("/quote", {"source": "abc", "output": "「a」", "preset": NUL}),
]


def _setup(live: LiveServer) -> tuple[dict[str, str], dict[str, str]]:
    key = live.key("acme")
    auth = {"Authorization": f"Bearer {key}"}
    with live.client(headers=auth) as client:
        assert client.post("/api/track/ingest", json={"user_id": "tanaka", "session_id": "s1",
                                                     "insights": ["タイミングが遅い"]}).status_code == 200
        issue = client.get("/api/track/users/tanaka/issues").json()[0]["issue_id"]
        pack = client.get("/api/puzzles").json()[0]
    values = {"u": "tanaka", "i": issue, "pack": pack["name"], "puzzle": pack["puzzles"][0]["id"]}
    return values, auth


def _signed_in(live: LiveServer, key: str) -> Any:
    with live.client() as client:
        response = client.post("/tracker/login", data={"api_key": key})
    assert response.status_code == 303
    return live.client(cookies=dict(response.cookies))


def test_nul_in_every_form_field_is_a_4xx(live_server: LiveServer) -> None:
    values, auth = _setup(live_server)
    key = auth["Authorization"].split()[1]
    with _signed_in(live_server, key) as client:
        for path, fields in FORMS:
            data = {k: ([x.format(**values) for x in v] if isinstance(v, list) else v.format(**values))
                    for k, v in fields.items()}
            response = client.post(path.format(**values), data=data)
            assert 400 <= response.status_code < 500, (path, fields, response.status_code, response.text[:300])


def test_nul_and_bad_ids_in_every_path_are_a_4xx(live_server: LiveServer) -> None:
    _values, auth = _setup(live_server)
    key = auth["Authorization"].split()[1]
    paths = [
        "/tracker/users/{bad}", "/tracker/users/tanaka/issues/{bad}", "/puzzles/{bad}/x", "/puzzles/x/{bad}",
        "/api/puzzles/{bad}/x", "/api/track/users/{bad}/issues", "/api/track/users/tanaka/issues/{bad}",
        "/api/track/users/{bad}/timeline", "/api/tables/{bad}/judge",
    ]
    with _signed_in(live_server, key) as client:
        for bad in ("a%00b", "%00", "a%01b"):
            for path in paths:
                url = path.format(bad=bad)
                if url.endswith("/judge"):
                    response = client.post(url, headers=auth, json={"question": "x"})
                else:
                    response = client.get(url, headers=auth)
                assert 400 <= response.status_code < 500, (url, response.status_code, response.text[:300])
        assert client.get("/tracker/users/tanaka?x=%00").status_code == 400


def test_user_ids_are_checked_the_same_at_ingest_and_at_read(live_server: LiveServer) -> None:
    _values, auth = _setup(live_server)
    with live_server.client(headers=auth) as client:
        for bad in ("a/b", "a\\b", "a\x01b", "a\x00b"):
            ingest = client.post("/api/track/ingest", json={"user_id": bad, "session_id": "s1", "insights": ["x"]})
            assert ingest.status_code in (400, 422), (bad, ingest.text)
            assert "user_id" in ingest.json()["message"]
        read = client.get("/api/track/users/a%5Cb/issues")
        assert read.status_code == 400 and "user_id" in read.json()["message"]


def test_validation_messages_name_the_field_and_rule_never_an_internal_object(live_server: LiveServer) -> None:
    _values, auth = _setup(live_server)
    cases = [
        ("/api/track/ingest", {"user_id": "u", "session_id": "s", "insights": [{"text": "x" * 20_000}]}, "insights"),
        ("/api/track/ingest", {"user_id": "u", "session_id": "s", "insights": [7]}, "insights"),
        ("/api/track/ingest", {"user_id": "u" * 300, "session_id": "s", "insights": ["x"]}, "user_id"),
        ("/api/normalize", {"text": "a" * 600_000}, "text"),
    ]
    with live_server.client(headers=auth) as client:
        for path, body, field in cases:
            response = client.post(path, json=body)
            message = response.json()["message"]
            assert response.status_code == 422 and field in message, message
            assert "<" not in message and "0x" not in message and "function" not in message, message
            if "x" * 100 in str(body) or "a" * 100 in str(body) or "u" * 100 in str(body):
                assert "characters" in message, message
