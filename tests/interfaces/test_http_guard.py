"""What a browser may not do to ``xdb serve`` (interfaces.guard), over real HTTP: a page on
another site may not write (only JSON, only from the serve's own origin; the hook route
fails open and does nothing), a rebound DNS name is not served (421 on every route), every
answer says it may not be framed, sniffed or run foreign script; and a caller who may not
run an operation is told so whatever its body (authorization before validation)."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import uvicorn
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from starlette.routing import Route

import xdb
from tests.engine.test_install import EDIT
from tests.interfaces.cli_runner import run as run_cli
from tests.serving import served
from xdb.errors import PermissionDenied
from xdb.interfaces.http import create_app
from xdb.ops.catalog import operations
from xdb.ops.registry import Operation
from xdb.policy.authorize import authorize

ADMIN = xdb.Caller(id="ops", roles=("admin",))
PARTNER = xdb.Caller(id="acme-bot", roles=("partner",), treaty_ids=("t-acme",))
HOOK = "/v1/hook/claude/pre-tool-use"
JSON = {"Content-Type": "application/json"}
RECORD = json.dumps({"event_type": "input", "content": "written from another site"}).encode()


@pytest.fixture
def db(tmp_path: Path) -> Iterator[xdb.Database]:
    with xdb.connect(tmp_path / "g.sqlite3", embedder="hash", session_id="s1") as handle:
        handle.add_lesson(question="registering the EF Core DbContext as a singleton",
                          answer="register it scoped", framework="dotnet")  # fmt: skip
        handle.record(event_type="input", content="already here")
        yield handle


def written(db: xdb.Database) -> tuple[Any, ...]:
    """What a refused write must leave as it was: timesteps, sessions, lesson hits."""
    status = db.status()
    lessons = db.lessons().lessons
    return (db.query(all_sessions=True).total_count, status.sessions.total,
            [(lesson.hits, lesson.follows) for lesson in lessons])  # fmt: skip


def filled(path: str) -> str:
    names = {"session_id": "s1", "bud_tag_id": "b1", "agent": "claude", "event": "pre-tool-use"}
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: names.get(m.group(1), "x"), path)


def routes(app: Any) -> list[tuple[str, str]]:
    """(method, path) of every route the app serves (MCP's takes POST)."""
    found = []
    for route in app.routes:
        if isinstance(route, Route):
            for method in sorted(route.methods or {"POST"}):
                if method != "HEAD":
                    found.append((method, filled(route.path)))
    return found


def error(response: httpx.Response, status: int, kind: str) -> str:
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"].startswith("application/json")
    assert set(response.json()) == {"error"}
    assert response.json()["error"]["type"] == kind, response.text[:300]
    message: str = response.json()["error"]["message"]
    return message


# --------------------------------------------------------------------------- cross-site writes


def test_a_page_on_another_site_cannot_write_through_the_hook(db: xdb.Database) -> None:
    before = written(db)
    body = json.dumps(EDIT).encode()
    with served(create_app(db, mcp=False)) as url:
        own = url.removeprefix("http://")
        hostile = [
            {"Content-Type": "text/plain"},  # a "simple" request: no CORS preflight
            {"Content-Type": "application/x-www-form-urlencoded"},
            {},
            {**JSON, "Origin": "http://evil.example"},
            {**JSON, "Origin": "null"},
            {**JSON, "Origin": f"http://{own.replace('127.0.0.1', 'localhost')}"},
            {**JSON, "Sec-Fetch-Site": "cross-site"},
            {**JSON, "Sec-Fetch-Site": "same-site"},
            {**JSON, "Host": "evil.example"},
        ]
        for headers in hostile:
            answered = httpx.post(url + HOOK, content=body, headers=headers)
            assert (answered.status_code, answered.content) == (200, b"{}"), headers
            assert written(db) == before, headers
        # The agent's own call (no Origin, or the serve's own) still warns.
        mine = {**JSON, "Origin": url, "Sec-Fetch-Site": "same-origin"}
        warned = httpx.post(url + HOOK, content=body, headers=mine).json()
    assert warned["hookSpecificOutput"]["additionalContext"].startswith("Last time")
    assert written(db) != before


def test_every_write_route_takes_only_json_from_its_own_origin(db: xdb.Database) -> None:
    app = create_app(db)
    posts = [path for method, path in routes(app) if method == "POST"]
    posts = [p for p in posts if not p.startswith("/v1/hook/") and p not in ("/login", "/mcp")]
    assert len(posts) > 80
    before = written(db)
    with served(app) as url, httpx.Client(base_url=url) as client:
        for path in posts:
            plain = client.post(path, content=RECORD, headers={"Content-Type": "text/plain"})
            assert "application/json" in error(plain, 415, "unsupported_media_type"), path
            form = client.post(path, data={"event_type": "input", "content": "x"})
            error(form, 415, "unsupported_media_type")
            for foreign in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
                refused = client.post(path, content=RECORD, headers={**JSON, **foreign})
                assert "origin" in error(refused, 403, "forbidden_origin"), (path, foreign)
            rebound = client.post(path, content=RECORD, headers={**JSON, "Host": "evil.example"})
            error(rebound, 421, "misdirected_request")
        assert written(db) == before
        # The explorer's sign-in form posts urlencoded from its own page; not from another.
        key = {"key": "xdb_not_a_key"}
        elsewhere = client.post("/login", data=key, headers={"Origin": "http://evil.example"})
        error(elsewhere, 403, "forbidden_origin")
        error(client.post("/login", data=key, headers={"Sec-Fetch-Site": "cross-site"}),
              403, "forbidden_origin")  # fmt: skip
        error(client.post("/login", content=b"key=x", headers={"Content-Type": "text/plain"}),
              415, "unsupported_media_type")  # fmt: skip
        assert client.post("/login", data=key, headers={"Origin": url}).status_code == 401
        # MCP keeps its own content-type rule; the Origin and Host rules are the same.
        rpc = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
        mcp = {**JSON, "Accept": "application/json, text/event-stream"}
        error(client.post("/mcp", content=rpc, headers={**mcp, "Origin": "http://evil.example"}),
              403, "forbidden_origin")  # fmt: skip
        error(client.post("/mcp", content=rpc, headers={**mcp, "Host": "evil.example"}),
              421, "misdirected_request")  # fmt: skip
        assert client.post("/mcp", content=rpc, headers={**mcp, "Origin": url}).status_code == 200
        # A client (no Origin) or the serve's own page writes as before; a body-less POST too.
        own = {**JSON, "Origin": url, "Sec-Fetch-Site": "same-origin"}
        assert client.post("/v1/xdb/record", content=RECORD, headers=own).status_code == 200
        charset = {"Content-Type": "application/json; charset=utf-8"}
        assert client.post("/v1/xdb/record", content=RECORD, headers=charset).status_code == 200
        assert client.post("/v1/xdb/status").status_code == 200
    assert db.query(all_sessions=True).total_count == before[0] + 2


def test_mcp_refuses_another_origin_whatever_the_method(db: xdb.Database) -> None:
    """A GET opens MCP's event stream, which a page elsewhere could hold open by the
    dozen: the MCP transport checks every request's Origin (its SDK did, before the guard
    took over), not only a write's."""
    stream = {"Accept": "text/event-stream"}
    with served(create_app(db)) as url, httpx.Client(base_url=url, timeout=10) as client:
        for method in ("GET", "DELETE", "OPTIONS"):
            for foreign in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
                refused = client.request(method, "/mcp", headers={**stream, **foreign})
                assert "origin" in error(refused, 403, "forbidden_origin"), (method, foreign)
        # Its own origin is not refused (a stateless serve has no stream to open: 405).
        own = client.request("DELETE", "/mcp", headers={"Origin": url})
        assert own.status_code != 403, own.text


# --------------------------------------------------------------------------- the Host header


def test_every_route_refuses_a_host_it_does_not_answer_to(db: xdb.Database) -> None:
    app = create_app(db)
    with served(app) as url, httpx.Client(base_url=url) as client:
        for method, path in routes(app):
            for host in ("evil.example", "127.0.0.1.evil.example", "localhost.evil.example:80"):
                answered = client.request(method, path, headers={**JSON, "Host": host})
                if path.startswith("/v1/hook/"):  # fails open: the agent goes on
                    assert (answered.status_code, answered.content) == (200, b"{}")
                    continue
                message = error(answered, 421, "misdirected_request")
                assert "--allowed-host" in message, (method, path)
        for host in ("127.0.0.1", "localhost", "localhost:9", "[::1]", "[::1]:8765", "LOCALHOST"):
            assert client.get("/healthz", headers={"Host": host}).status_code == 200, host
    assert written(db)[0] == 1


@pytest.mark.parametrize(
    ("bound", "allowed", "served_hosts", "refused_hosts"),
    [
        ("127.0.0.1", ["xdb.example", "other.example:8443"],
         ["xdb.example", "xdb.example:1234", "other.example:8443", "localhost:8765"],
         ["other.example", "other.example:80", "evil.example", "10.0.0.7"]),
        ("10.0.0.7", [], ["10.0.0.7:8765", "10.0.0.7", "localhost"],
         ["10.0.0.8", "evil.example"]),
        ("0.0.0.0", ["xdb.example:*"], ["192.168.1.5:8765", "[fe80::1]:8765", "xdb.example:1"],
         ["evil.example", "192.168.1.5.nip.io"]),
    ],
    ids=["allowed hosts", "a bound address", "every interface"],
)  # fmt: skip
def test_the_hosts_served_follow_the_bind_address_and_the_allowlist(
    db: xdb.Database,
    bound: str,
    allowed: list[str],
    served_hosts: list[str],
    refused_hosts: list[str],
) -> None:
    app = create_app(db, host=bound, allowed_hosts=allowed)
    with served(app) as url, httpx.Client(base_url=url) as client:
        for host in served_hosts:
            assert client.get("/healthz", headers={"Host": host}).status_code == 200, host
        for host in refused_hosts:
            error(client.get("/healthz", headers={"Host": host}), 421, "misdirected_request")


def test_an_allowed_host_that_is_not_one_is_refused(db: xdb.Database) -> None:
    for bad in ("http://xdb.example", "xdb.example:port", "", "a b"):
        with pytest.raises(xdb.InvalidRequest, match="allowed_hosts"):
            create_app(db, allowed_hosts=[bad])


def test_xdb_serve_takes_allowed_hosts(
    db: xdb.Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db.close()
    path = tmp_path / "g.sqlite3"
    bad = run_cli(path, "serve", "--allowed-host", "xdb.example", "--allowed-host", "a b")
    assert bad.exit_code == 2 and "allowed_hosts: 'a b'" in bad.stderr, bad.output
    started: dict[str, Any] = {}  # uvicorn's loop is not ours to run here: the app it gets
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app))
    made = run_cli(path, "serve", "--allowed-host", "xdb.example", "--maintenance-every", "0")
    assert made.exit_code == 0, made.output
    with served(started["app"]) as url, httpx.Client(base_url=url) as client:
        assert client.get("/healthz", headers={"Host": "xdb.example:8765"}).status_code == 200
        error(client.get("/healthz", headers={"Host": "evil.example"}), 421, "misdirected_request")


# --------------------------------------------------------------------------- headers


def test_every_answer_forbids_framing_sniffing_and_foreign_script(db: xdb.Database) -> None:
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        answers = {
            "json": client.get("/healthz"),
            "html": client.get("/"),
            "css": client.get("/explorer.css"),
            "not found": client.get("/nowhere"),
            "invalid": client.post("/v1/xdb/record", json={"event_type": "x"}),
            "not json": client.post(
                "/v1/xdb/record", content=b"x", headers={"Content-Type": "text/plain"}
            ),
            "foreign host": client.get("/healthz", headers={"Host": "evil.example"}),
            "hook": client.post(HOOK, json={}),
        }  # fmt: skip
    assert answers["html"].headers["content-type"].startswith("text/html")
    for name, answer in answers.items():
        assert answer.headers["x-frame-options"] == "DENY", name
        assert answer.headers["x-content-type-options"] == "nosniff", name
        policy = answer.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy, name
        if name != "html":
            assert policy.startswith("default-src 'none'"), name
    page = answers["html"].headers["content-security-policy"]
    directives = dict(part.strip().partition(" ")[::2] for part in page.split(";"))
    assert directives["script-src"] == "'self'" and directives["default-src"] == "'none'"
    with served(create_app(db, mcp=False, require_keys=True)) as url:
        refused = httpx.get(url + "/v1/xdb/recent")
    assert refused.status_code == 401 and refused.headers["x-frame-options"] == "DENY"


def test_the_sign_in_cookie_is_secure_over_https(db: xdb.Database) -> None:
    key = db.as_caller(ADMIN).create_key(caller_id="self").key
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        plain = client.post("/login", data={"key": key})
        # uvicorn takes the scheme from a proxy it trusts (127.0.0.1 by default).
        tls = client.post("/login", data={"key": key}, headers={"X-Forwarded-Proto": "https"})
    assert plain.status_code == tls.status_code == 303
    assert "secure" not in plain.headers["set-cookie"].lower()
    assert "; secure" in tls.headers["set-cookie"].lower()
    assert "samesite=strict" in tls.headers["set-cookie"].lower()


# --------------------------------------------------------------------------- authorization first


def refused_to(caller: xdb.Caller) -> list[Operation[Any, Any]]:
    found = []
    for op in operations():
        try:
            authorize(caller, op)
        except PermissionDenied:
            found.append(op)
    return found


INVALID_BODIES = [b"{", b"[1, 2]", b'"text"', b'{"no_such_field": 1}', b"", b"null"]


def test_a_caller_who_may_not_write_gets_403_whatever_the_body(db: xdb.Database) -> None:
    admin = db.as_caller(ADMIN)
    admin.set_caller(id="acme-bot", roles=["partner"], treaty_ids=["t-acme"])
    key = admin.create_key(caller_id="acme-bot").key
    denied = refused_to(PARTNER)
    assert len(denied) > 40
    before = written(db)
    failures = []
    with served(create_app(db)) as url, httpx.Client(base_url=url) as client:
        auth = {**JSON, "Authorization": f"Bearer {key}"}
        for op in denied:
            for path in (op.http_path, *op.http_post):
                for body in INVALID_BODIES:
                    got = client.post(filled(path), content=body, headers=auth)
                    kind = got.json().get("error", {}).get("type")
                    if (got.status_code, kind) != (403, "permission_denied"):
                        failures.append(f"{path} <- {body!r}: {got.status_code} {kind}")
        # MCP: the same refusal before the arguments are looked at.

        async def over_mcp() -> list[str]:
            wrong = []
            http_client = create_mcp_http_client(headers={"Authorization": f"Bearer {key}"})
            # Every tool an agent may be offered, not only the agent profile's.
            transport = streamable_http_client(f"{url}/mcp?profile=full", http_client=http_client)
            async with Client(transport, mode="legacy") as mcp_client:
                listed = {tool.name for tool in (await mcp_client.list_tools()).tools}
                for op in denied:
                    if op.tool_name() not in listed:
                        continue
                    answer = await mcp_client.call_tool(op.tool_name(), {"no_such_field": [1]})
                    text = getattr(answer.content[0], "text", "")
                    if not text.startswith("permission_denied"):
                        wrong.append(f"MCP {op.tool_name()}: {text[:80]}")
            return wrong

        failures += anyio.run(over_mcp)
    assert not failures, "\n".join(failures)
    assert written(db) == before


def test_the_cli_refuses_a_named_caller_before_reading_its_options(
    db: xdb.Database, tmp_path: Path
) -> None:
    db.as_caller(ADMIN).set_caller(id="acme-bot", roles=["partner"])
    db.close()
    result = run_cli(tmp_path / "g.sqlite3", "--caller", "acme-bot", "record",
                     "--event-type", "input", "--content", "")  # fmt: skip
    assert result.exit_code == 2 and "may not run it" in result.stderr, result.output


# --------------------------------------------------------------------------- junk hook bodies


JUNK = [b"{", b"null", b"[1, 2]", b'"text"', b"\xff\xfe", b'{"tool_input": 5, "session_id": []}',
        b'{"tool_name": 7, "tool_input": "\\ud800", "session_id": "\\ud800"}']  # fmt: skip
# Nested past any parser's depth (the body limits may refuse these before the route reads them).
DEEP = [b"[" * 100_000 + b"]" * 100_000, b'{"k":' * 5_000 + b"1" + b"}" * 5_000]


def test_junk_hook_bodies_are_one_line_warnings(
    db: xdb.Database, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO), served(create_app(db, mcp=False)) as url:
        for event in ("pre-tool-use", "post-tool-use", "user-prompt", "session-start"):
            for body in JUNK + DEEP:
                answered = httpx.post(f"{url}/v1/hook/claude/{event}", content=body, headers=JSON)
                if body in JUNK:
                    assert (answered.status_code, answered.content) == (200, b"{}"), (event, body)
                assert answered.status_code < 500
    traced = [r.getMessage() for r in caplog.records if r.exc_info or r.exc_text]
    assert not traced, traced
    warned = [r for r in caplog.records if r.name == "xdb.http" and r.levelno == logging.WARNING]
    assert warned and all("\n" not in r.getMessage() for r in warned)
