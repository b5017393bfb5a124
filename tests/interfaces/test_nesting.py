"""A message nested past the nesting limit is answered, never passed over: over stdio with a
JSON-RPC error carrying its id, over HTTP with 400 in the route's error shape; and the server
goes on serving. (A tools/call nested 1,000 levels deep used to get no answer at all.)"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

import xdb
from tests.interfaces.test_http import running
from xdb.interfaces.http import create_app
from xdb.interfaces.nesting import MAX_NESTING, too_deep

META = {
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
}
DEPTHS = (1_000, 100_000)


def nested(levels: int) -> str:
    """A JSON value ``levels`` deep: arrays within objects within arrays."""
    return '{"k":[' * (levels // 2) + "1" + "]}" * (levels // 2)


def depth(text: str) -> int:
    """How deep ``text`` nests, one character at a time (what ``too_deep`` must agree with)."""
    level = deepest = 0
    inside = escaped = False
    for char in text:
        if inside:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                inside = False
        elif char == '"':
            inside = True
        elif char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


# --------------------------------------------------------------------------- the check


def _value(rng: random.Random, levels: int) -> Any:
    if levels <= 0 or rng.random() < 0.2:
        # Strings full of what could be mistaken for structure: brackets, escaped quotes and
        # backslashes, a backslash just before the closing quote.
        return rng.choice(['a"[{', "\\", "x]]}", '\\\\"[', 1, None, "é[", "", "\\\\", "[" * 200])
    if rng.random() < 0.5:
        return [_value(rng, levels - 1) for _ in range(rng.randint(0, 3))]
    return {f'k{i}["': _value(rng, levels - 1) for i in range(rng.randint(0, 3))}


def test_the_check_agrees_with_a_scan_of_every_character() -> None:
    rng = random.Random(32)
    for _ in range(1500):
        text = json.dumps(_value(rng, rng.randint(0, 40)), ensure_ascii=rng.random() < 0.5)
        deepest = depth(text)
        for limit in (1, 3, 8, 9, 20, 35):
            assert too_deep(text.encode(), limit) == (deepest > limit), (limit, text)


@pytest.mark.parametrize("run", [1, 7, 8, 9, 63, 64, 65, 200])
def test_runs_of_brackets_count_exactly(run: int) -> None:
    # Tall shapes take the counting path, where runs of 8 and 64 brackets are one step each.
    rng = random.Random(run)
    for _ in range(200):
        parts, level = [], 0
        for _ in range(rng.randint(1, 30)):
            size = rng.choice([1, run, run + 1, 9])
            if rng.random() < 0.55:
                parts.append("[" * size)
                level += size
            else:
                parts.append("]" * min(size, level))
                level -= min(size, level)
        text = "".join(parts) + "]" * level
        for limit in (1, 8, 9, 64, 128, 300):
            assert too_deep(text.encode(), limit) == (depth(text) > limit)


def test_the_limit_itself_passes_and_one_more_does_not() -> None:
    assert not too_deep(("[" * MAX_NESTING + "]" * MAX_NESTING).encode())
    assert too_deep(("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1)).encode())
    # Brackets inside strings are text, however many; and a flat batch is flat.
    assert not too_deep(json.dumps({"content": "[{" * 10_000, "e": '\\"' + "[" * 300}).encode())
    assert not too_deep(json.dumps({"timesteps": [{"a": {"b": [1]}}] * 10_000}).encode())


# --------------------------------------------------------------------------- stdio


def _line(message: dict[str, Any]) -> str:
    return json.dumps(message) + "\n"


def _deep(request_id: int | str | None, method: str, levels: int, *, id_last: bool = False) -> str:
    """A request (a notification when ``request_id`` is None) whose params nest ``levels``."""
    params = '{"name":"xdb_record","arguments":{"event_type":"input","metadata":' + nested(levels)
    params += '},"_meta":' + json.dumps(META["_meta"]) + "}"
    ident = "" if request_id is None else f'"id":{json.dumps(request_id)}'
    if id_last:
        return f'{{"jsonrpc":"2.0","method":"{method}","params":{params},{ident}}}\n'
    return (
        f'{{"jsonrpc":"2.0",{ident + "," if ident else ""}"method":"{method}","params":{params}}}\n'
    )


@pytest.mark.parametrize("levels", DEPTHS)
def test_a_deep_line_over_stdio_is_answered_and_the_next_one_served(
    tmp_path: Path, levels: int
) -> None:
    record = {"name": "xdb_record", "arguments": {"event_type": "input", "content": "after"}}
    status = {"name": "xdb_status", "arguments": {}}
    lines = [
        # Read by the quick front, while the SDK loads.
        _deep("init", "initialize", levels),
        _line({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": META}),
        _deep(2, "tools/list", levels),
        _deep(None, "notifications/initialized", levels),
        # Read for the SDK.
        _line({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {**record, **META}}),
        _deep(4, "tools/call", levels),
        _deep("ts-5", "tools/call", levels, id_last=True),  # the TypeScript SDK's layout
        _line({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {**status, **META}}),
    ]
    done = subprocess.run(
        [sys.executable, "-m", "xdb", "--db", str(tmp_path / "deep.sqlite3"), "mcp"],
        input="".join(lines).encode(),
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(text) for text in done.stdout.decode().splitlines()]
    got = {answer["id"]: answer for answer in answers}
    assert sorted(got, key=str) == sorted([None, 1, 3, 6, "init", 2, 4, "ts-5"], key=str)
    assert len(answers) == 8  # one answer a line, the notification's with id null
    for refused in (None, "init", 2, 4, "ts-5"):
        error = got[refused]["error"]
        assert error["code"] == -32600
        assert f"more than {MAX_NESTING} levels deep" in error["message"]
        assert "nesting limit" in error["message"]
    assert got[1]["result"]["tools"]
    assert got[3]["result"]["structuredContent"]["tick"] == 1
    assert got[6]["result"]["structuredContent"]["current_tick"] == 1
    err = done.stderr.decode()
    assert "Traceback" not in err and err.count("nesting limit") == 5, err


# --------------------------------------------------------------------------- HTTP


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    database = xdb.connect(tmp_path / "h.sqlite3", session_id="s1")
    try:
        with running(create_app(database)) as url:
            yield url
    finally:
        database.close()


JSON = {"content-type": "application/json"}


def _refused(response: httpx.Response) -> str:
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert (error["type"], error["field"]) == ("invalid_request", None)
    message: str = error["message"]
    assert f"more than {MAX_NESTING} levels deep" in message and "nesting limit" in message
    return message


@pytest.mark.parametrize("levels", DEPTHS)
def test_a_deep_http_body_is_400_in_the_envelope_and_the_server_goes_on(
    base_url: str, levels: int
) -> None:
    deep = nested(levels)
    with httpx.Client(base_url=base_url, timeout=60) as client:
        record = '{"event_type":"input","content":"deep","metadata":' + deep + "}"
        assert "POST /v1/xdb/record" in _refused(
            client.post("/v1/xdb/record", content=record, headers=JSON)
        )
        batch = '{"timesteps":[{"event_type":"output","content":"t","metadata":' + deep + "}]}"
        _refused(client.post("/v1/xdb/record-batch", content=batch, headers=JSON))
        # The hook route fails open: refused unread, it answers "go on" (200 and {}).
        hook = '{"session_id":"h","tool_name":"Bash","tool_input":' + deep + "}"
        went_on = client.post("/v1/hook/claude/pre-tool-use", content=hook, headers=JSON)
        assert (went_on.status_code, went_on.content) == (200, b"{}")
        # /mcp: a JSON-RPC error with the request's id, in the same 400.
        call = _deep(9, "tools/call", levels).encode()
        answer = client.post(
            "/mcp", content=call, headers={**JSON, "accept": "application/json, text/event-stream"}
        )
        assert answer.status_code == 400, answer.text
        assert answer.json()["id"] == 9 and answer.json()["error"]["code"] == -32600
        assert "nesting limit" in answer.json()["error"]["message"]
        # Nothing was written, and the next requests are served.
        made = client.post("/v1/xdb/record", json={"event_type": "input", "content": "next"})
        assert made.status_code == 200 and made.json()["tick"] == 1, made.text

    async def over_mcp() -> Any:
        from mcp import Client

        async with Client(f"{base_url}/mcp") as mcp_client:
            return await mcp_client.call_tool("xdb_status", {})

    assert anyio.run(over_mcp).structured_content["current_tick"] == 1


def test_a_body_at_the_limit_is_served_and_a_form_is_not_checked(base_url: str) -> None:
    # The outer object, metadata's object, and arrays to make MAX_NESTING levels in all.
    arrays = MAX_NESTING - 2
    inner = json.loads("[" * arrays + "]" * arrays)
    at_limit = {"content": "deep but allowed", "metadata": {"a": inner}}
    assert depth(json.dumps(at_limit)) == MAX_NESTING
    with httpx.Client(base_url=base_url, timeout=60) as client:
        made = client.post("/v1/experience/add-episode", json=at_limit)
        assert made.status_code == 200, made.text
        one_more = {**at_limit, "metadata": {"a": [inner]}}
        _refused(client.post("/v1/experience/add-episode", json=one_more))
        # A form's brackets are text (a password may hold any): no depth to check.
        form = client.post("/login", data={"key": "[" * 1000})
        assert "nesting limit" not in form.text
