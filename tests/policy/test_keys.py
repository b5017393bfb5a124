"""API keys: made, listed and revoked by admins; over real HTTP and MCP over HTTP a key
makes the request run as its caller. No key, a wrong key, a revoked key: 401 in JSON; a
key whose caller may not run the operation: 403. A server bound beyond localhost needs a
key and refuses to start without one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

import xdb
from tests.serving import served
from xdb.interfaces.http import create_app, serve

pytestmark = pytest.mark.anyio
ADMIN = xdb.Caller(id="ops", roles=("admin",))
SECRET = "mood/anger"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[xdb.Database]:
    with xdb.connect(tmp_path / "k.sqlite3", embedder="hash", session_id="s1") as db:
        admin = db.as_caller(ADMIN)
        admin.set_disclosure_policy(id="weather", allow={"prefixes": ["weather/"]})
        admin.set_treaty(id="t1", partner="acme", disclosure_policy_id="weather")
        admin.set_caller(id="acme-bot", roles=["partner"], treaty_ids=["t1"])
        db.record(event_type="input", content="hi",
                  concept_activations={SECRET: 0.9, "weather/rain": 0.4})  # fmt: skip
        yield db


@pytest.fixture
def keys(db: xdb.Database) -> dict[str, str]:
    admin = db.as_caller(ADMIN)
    made = {who: admin.create_key(caller_id=who).key for who in ("self", "acme-bot")}
    revoked = admin.create_key(caller_id="self")
    assert admin.revoke_key(id=revoked.id).revoked
    assert not admin.revoke_key(id=revoked.id).revoked  # twice: nothing more
    made["revoked"] = revoked.key
    return made


@pytest.fixture
def base_url(db: xdb.Database) -> Iterator[str]:
    """The whole app (routes and /mcp), keys required, served by uvicorn in a thread."""
    with served(create_app(db, require_keys=True)) as url:
        yield url


def test_keys_are_kept_as_hashes_and_listed_without_the_key(
    db: xdb.Database, keys: dict[str, str]
) -> None:
    listed = db.as_caller(ADMIN).keys().keys
    assert {k.caller_id for k in listed} == {"self", "acme-bot"}
    assert sum(k.revoked_at is not None for k in listed) == 1
    stored = repr(db.store.policy_objects())
    assert not any(key.split("_", 2)[2] in stored for key in keys.values())
    with pytest.raises(xdb.NotFound, match="no caller 'ghost'"):
        db.as_caller(ADMIN).create_key(caller_id="ghost")
    with pytest.raises(xdb.PermissionDenied):
        db.create_key(caller_id="self")  # the agent cannot make itself keys


def test_http_runs_each_request_as_its_keys_caller(base_url: str, keys: dict[str, str]) -> None:
    recent = f"{base_url}/v1/xdb/recent"

    def get(headers: dict[str, str]) -> httpx.Response:
        return httpx.post(recent, json={"n": 1}, headers=headers)

    missing = get({})
    assert missing.status_code == 401
    assert missing.json()["error"]["type"] == "unauthorized"
    assert "Authorization: Bearer" in missing.json()["error"]["message"]
    for bad in ("nonsense", keys["self"][:-2] + "xx", keys["revoked"]):
        refused = get({"Authorization": f"Bearer {bad}"})
        assert refused.status_code == 401, bad
        assert refused.json()["error"]["message"].startswith("the API key is not valid")
    mine = get({"Authorization": f"Bearer {keys['self']}"})
    assert set(mine.json()["timesteps"][0]["concept_activations"]) == {SECRET, "weather/rain"}
    theirs = get({"X-API-Key": keys["acme-bot"]})
    assert theirs.json()["timesteps"][0]["concept_activations"] == {"weather/rain": 0.4}
    forbidden = httpx.post(
        f"{base_url}/v1/xdb/record",
        json={"event_type": "input", "content": "x"},
        headers={"Authorization": f"Bearer {keys['acme-bot']}"},
    )
    assert forbidden.status_code == 403
    assert forbidden.json()["error"]["type"] == "permission_denied"
    assert httpx.get(f"{base_url}/healthz").status_code == 200  # liveness needs no key


async def _mcp_recent(url: str, key: str | None) -> Any:
    headers = {"Authorization": f"Bearer {key}"} if key else None
    transport = streamable_http_client(url, http_client=create_mcp_http_client(headers=headers))
    async with Client(transport, mode="legacy") as c:
        result = await c.call_tool("xdb_recent", {"n": 1})
        assert not result.is_error, result
        return (result.structured_content or {})["timesteps"][0]["concept_activations"]


async def test_mcp_over_http_checks_the_same_keys(base_url: str, keys: dict[str, str]) -> None:
    url = f"{base_url}/mcp"
    assert set(await _mcp_recent(url, keys["self"])) == {SECRET, "weather/rain"}
    assert await _mcp_recent(url, keys["acme-bot"]) == {"weather/rain": 0.4}
    for key in (None, keys["revoked"]):
        async with httpx.AsyncClient() as raw:
            refused = await raw.post(
                url,
                json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                headers={"Authorization": f"Bearer {key}"} if key else {},
            )
        assert refused.status_code == 401 and refused.json()["error"]["type"] == "unauthorized"


def test_serving_beyond_localhost_needs_a_key(db: xdb.Database) -> None:
    with pytest.raises(xdb.InvalidRequest, match="needs an API key"):
        serve(db, host="0.0.0.0", port=0)


def test_removing_a_caller_revokes_its_keys(
    db: xdb.Database, keys: dict[str, str], base_url: str
) -> None:
    admin = db.as_caller(ADMIN)
    admin.remove_policy(kind="caller", id="acme-bot")
    admin.set_caller(id="acme-bot", roles=["admin"])  # the same id, defined again
    again = httpx.post(
        f"{base_url}/v1/policy/policies",
        json={},
        headers={"Authorization": f"Bearer {keys['acme-bot']}"},
    )
    assert again.status_code == 401  # its old key acts as no one
