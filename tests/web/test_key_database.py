"""B5: a key created against another database is refused with a message that helps, on a real server.

Keys live in the database they were created in. A new user who made a key with another ``--db``
(or none: the default ``sadame.db`` of another directory) got "unknown or revoked API key"; the
refusal now says keys belong to one database and how to create one for this server, without
naming this server's database to the unauthenticated client. The log line names it.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from sqlalchemy import make_url

from sadame.web.admin import create_key
from tests.web.conftest import running


def _secrets_of(db_url: str) -> list[str]:
    """What must not reach the client: the database's name or path, its host and port, its user."""
    url = make_url(db_url)
    server = [f"{url.host}:{url.port}", f"{url.username}@"] if url.host else []
    return [part for part in (url.database, *server) if part]


def test_a_key_of_another_database_is_refused_with_a_way_forward(
    db_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    other = create_key(f"sqlite:///{tmp_path / 'other.db'}", tenant="t1").key
    caplog.set_level(logging.WARNING, logger="sadame.web")
    with running(db_url) as live, live.client() as client:
        api = client.get("/api/track/users", headers={"Authorization": f"Bearer {other}"})
        page = client.post("/tracker/login", data={"api_key": other}, headers={"Origin": live.url})
    assert api.status_code == 401, api.text
    message = api.json()["message"]
    assert "only on the database it was created in" in message
    assert "sadame web create-key --tenant NAME --db <this server's --db>" in message
    assert page.status_code == 401
    assert "APIキーは作成したデータベースでだけ使えます" in page.text
    assert "sadame web create-key --tenant 名前 --db &lt;このサーバーの --db&gt;" in page.text
    for secret in _secrets_of(db_url):
        assert secret not in api.text and secret not in page.text, secret
    refusals = [r.getMessage() for r in caplog.records if "API key refused" in r.getMessage()]
    assert len(refusals) == 2, refusals
    shown = make_url(db_url).render_as_string(hide_password=True)
    assert all(shown in line for line in refusals), refusals


def test_the_login_page_says_a_key_belongs_to_this_servers_database(db_url: str) -> None:
    with running(db_url) as live, live.client() as client:
        page = client.get("/tracker")  # not signed in: the sign-in form
    assert page.status_code == 200
    assert "sadame web create-key --tenant 名前 --db &lt;このサーバーの --db&gt;" in page.text
    assert "キーは作成したデータベースでだけ使えます" in page.text
    for secret in _secrets_of(db_url):
        assert secret not in page.text, secret
