"""``xdb mcp`` over stdio: the quick front's answers equal the SDK's, and the hand-over loses
nothing, in both protocol eras, over pipes and over plain files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

import xdb
from xdb.interfaces.mcp import build_server
from xdb.interfaces.stdio import REPLAY_ID, Front

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
META = {
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
}


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def test_the_front_answers_a_stateless_client_without_replaying_anything(
    recorded: dict[str, Any],
) -> None:
    front = Front(recorded["underscore"], groups=None)
    found = front.answer(
        line({"jsonrpc": "2.0", "id": 1, "method": "server/discover", **{"params": META}})
    )
    assert found is not None and found["id"] == 1
    assert found["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "xdb"
    listed = front.answer(line({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": META}))
    assert listed is not None
    assert [t["name"] for t in listed["result"]["tools"]][:2] == ["xdb_record", "xdb_tag"]
    assert front.replay == []
    # A call, a cursor, an unknown protocol version: only the SDK can answer those.
    call = {"name": "xdb_status", "arguments": {}, **META}
    assert (
        front.answer(line({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call}))
        is None
    )
    paged = {"cursor": "abc", **META}
    assert (
        front.answer(line({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": paged}))
        is None
    )
    future = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01"}}
    assert (
        front.answer(line({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": future}))
        is None
    )
    assert front.answer(b"not json\n") is None


def test_the_front_replays_a_handshake_for_the_sdk_and_filters_tool_groups(
    recorded: dict[str, Any],
) -> None:
    front = Front(recorded["dotted"], groups={"xdb"})
    init = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"},
    }
    found = front.answer(line({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}))
    assert found is not None and found["result"]["protocolVersion"] == "2025-06-18"
    assert front.answer(line({"jsonrpc": "2.0", "method": "notifications/initialized"})) == {}
    listed = front.answer(line({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
    assert listed is not None
    assert all(t["name"].startswith("xdb.") for t in listed["result"]["tools"])
    replayed = [json.loads(r) for r in front.replay]
    assert [(r.get("id"), r["method"]) for r in replayed] == [
        (REPLAY_ID, "initialize"),
        (None, "notifications/initialized"),
    ]
    assert replayed[0]["params"] == init  # the SDK's session sees the client's own request
    # A second initialize is not the front's to answer.
    assert (
        front.answer(line({"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": init}))
        is None
    )


def test_an_unknown_handshake_version_goes_to_the_sdk(recorded: dict[str, Any]) -> None:
    front = Front(recorded["underscore"], groups=None)
    init = {
        "protocolVersion": "1999-01-01",
        "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"},
    }
    assert (
        front.answer(line({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}))
        is None
    )
    assert front.version is None and front.replay == []


def _server(path: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "xdb", "--db", str(path), "mcp", *extra]
    )


def test_the_front_lists_a_profile_or_groups(recorded: dict[str, Any]) -> None:
    answers = recorded["underscore"]
    request = line({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": META})

    def names(front: Front) -> list[str]:
        listed = front.answer(request)
        assert listed is not None
        return [t["name"] for t in listed["result"]["tools"]]

    assert names(Front(answers, None)) == names(Front(answers, None, "agent"))
    assert "xdb_concept_neighborhood" in names(Front(answers, None))
    memcp = ["add_episode", "search_episodes", "get_episode", "delete_episode"]
    assert names(Front(answers, None, "memcp")) == memcp
    assert names(Front(answers, {"memcp"})) == memcp
    assert len(names(Front(answers, None, "full"))) == 64
    assert {answers["groups"][n] for n in names(Front(answers, {"policy", "audit"}))} == {
        "policy",
        "audit",
    }


@pytest.mark.parametrize(
    ("mode", "options", "chosen"),
    [
        ("auto", ["--toolsets", "xdb"], {"groups": {"xdb"}}),
        ("legacy", ["--toolsets", "xdb"], {"groups": {"xdb"}}),
        ("auto", [], {"profile": "agent"}),
        ("legacy", [], {"profile": "agent"}),
        ("legacy", ["--profile", "seeds"], {"profile": "seeds"}),
    ],
)
async def test_a_client_sees_the_same_tools_as_from_the_sdk_and_calls_them(
    tmp_path: Path, warm_cache: Path, mode: Any, options: list[str], chosen: dict[str, Any]
) -> None:
    # From the quick front (the cache holds the answers), then from the SDK.
    path = tmp_path / "stdio.sqlite3"
    with xdb.connect(":memory:") as memory:
        async with Client(build_server(memory, dotted_names=True, **chosen)) as direct:
            expected = (await direct.list_tools()).tools
    async with Client(_server(path, "--dotted-names", *options), mode=mode) as client:
        assert (await client.list_tools()).tools == expected
        made = await client.call_tool("xdb.record", {"event_type": "input", "content": "piped"})
        assert not made.is_error and made.structured_content is not None
        found = await client.call_tool("xdb.query", {"text_search": "piped"})
        assert found.structured_content is not None
        assert found.structured_content["total_count"] == 1
    with xdb.connect(path) as reopened:
        assert reopened.query(text_search="piped").total_count == 1


async def test_a_first_request_only_the_sdk_can_answer_is_answered(tmp_path: Path) -> None:
    async with Client(_server(tmp_path / "first.sqlite3")) as client:
        # The modern client's first request here is a call, not tools/list.
        made = await client.call_tool("xdb_record", {"event_type": "input", "content": "first"})
        assert made.structured_content is not None and made.structured_content["tick"] == 1


def test_requests_from_a_file_are_answered_into_a_file(
    tmp_path: Path, warm_cache: Path, recorded: dict[str, Any]
) -> None:
    requests = tmp_path / "requests.jsonl"
    answers = tmp_path / "answers.jsonl"
    record = {"name": "xdb_record", "arguments": {"event_type": "input", "content": "filed"}}
    requests.write_text(
        "".join(
            json.dumps(m) + "\n"
            for m in (
                {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": META},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {**record, **META}},
            )
        )
    )
    with requests.open("rb") as stdin, answers.open("wb") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "xdb", "--db", str(tmp_path / "f.sqlite3"), "mcp"],
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            timeout=60,
        )
    assert done.returncode == 0, done.stderr
    got = {m["id"]: m for m in map(json.loads, answers.read_text().splitlines())}
    assert sorted(got) == [1, 2]
    # The agent profile, recorded whole: its tools are worded and trimmed its own way.
    assert got[1]["result"]["tools"] == recorded["underscore"]["profiles"]["agent"]["tools"]
    assert not any(t["name"].startswith("policy_") for t in got[1]["result"]["tools"])
    assert got[2]["result"]["structuredContent"]["tick"] == 1


def test_a_line_that_is_not_json_is_skipped_and_the_next_request_answered(
    tmp_path: Path,
) -> None:
    def call(n: int) -> str:
        params = {"name": "xdb_record", "arguments": {"event_type": "input", "content": f"{n}"}}
        return json.dumps(
            {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {**params, **META}}
        )

    done = subprocess.run(
        [sys.executable, "-m", "xdb", "--db", str(tmp_path / "j.sqlite3"), "mcp"],
        input=f"{call(1)}\n{{not json\n{call(2)}\n".encode(),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    got = {m["id"]: m for m in map(json.loads, done.stdout.decode().splitlines())}
    assert [got[n]["result"]["structuredContent"]["tick"] for n in sorted(got)] == [1, 2]


def _call(n: int) -> bytes:
    params = {"name": "xdb_record", "arguments": {"event_type": "input", "content": f"{n}"}}
    request = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {**params, **META}}
    return json.dumps(request).encode() + b"\n"


def test_a_client_that_stops_reading_stops_the_server_with_one_line(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "xdb", "--db", str(tmp_path / "p.sqlite3"), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write(_call(1))
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 1  # the SDK is serving
        server.stdout.close()  # the client stops reading: the next answer cannot be written
        try:
            server.stdin.write(_call(2) + _call(3))
            server.stdin.close()
        except BrokenPipeError:
            pass  # the server stopped first
        server.wait(timeout=60)
        assert server.stderr is not None
        err = server.stderr.read()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        if server.stderr is not None:
            server.stderr.close()
    text = err.decode()
    assert server.returncode == 2, text
    assert text.startswith("error: ") and text.count("\n") == 1, text  # no traceback


def test_a_client_that_leaves_at_once_ends_the_server_cleanly(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "xdb", "--db", str(tmp_path / "e.sqlite3"), "mcp"],
        input=b"",
        capture_output=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (0, b""), done.stderr


def test_stdin_and_stdout_on_devices_the_event_loop_refuses_end_cleanly(tmp_path: Path) -> None:
    # epoll refuses /dev/null: the server used to print a traceback and wait for ever.
    done = subprocess.run(
        [sys.executable, "-m", "xdb", "--db", str(tmp_path / "n.sqlite3"), "mcp"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr


def test_the_front_module_does_not_load_the_sdk(tmp_path: Path) -> None:
    # Nor does finding and reading the cached answers, which happens before the SDK loads.
    code = (
        "import sys, pathlib, xdb.interfaces.stdio as s; from xdb.interfaces import mcp_answers "
        f"as a; a.load(a.answers_path(a.fingerprint(directory=pathlib.Path({str(tmp_path)!r}))), "
        "''); "
        "print(sorted(m for m in ('mcp', 'mcp_types', 'anyio') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --------------------------------------------------------------------------- oversized lines


def _record_line(n: int | str, content: str, *, id_last: bool = False) -> bytes:
    """A tools/call line; ``id_last`` writes it as the TypeScript SDK does (id at the end)."""
    params = {"name": "xdb_record", "arguments": {"event_type": "input", "content": content}}
    request: dict[str, Any] = {"jsonrpc": "2.0", "id": n, "method": "tools/call"}
    request["params"] = {**params, **META}
    if id_last:
        request = {"method": "tools/call", "params": request["params"], "jsonrpc": "2.0", "id": n}
    return json.dumps(request).encode() + b"\n"


def _peak_kib(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM), in KiB."""
    for text in Path(f"/proc/{pid}/status").read_text().splitlines():
        if text.startswith("VmHWM:"):
            return int(text.split()[1])
    raise AssertionError("no VmHWM")


def test_a_line_over_the_limit_is_refused_and_the_server_keeps_serving(
    tmp_path: Path, warm_cache: Path
) -> None:
    # A warm cache: no answers are being generated beside the peak memory measured below.
    limit = 64 * 1024
    with xdb.connect(tmp_path / "big.sqlite3") as made:
        # A line at the limit holds more tokens than the default context window: read back
        # whole below, so nothing may be compacted.
        admin = made.as_caller(xdb.Caller(id="admin", roles=("admin",)))
        admin.set_resource_contract(context_window_tokens=2**40)
    server = subprocess.Popen(
        [sys.executable, "-m", "xdb", "--db", str(tmp_path / "big.sqlite3"), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "XDB_MAX_MESSAGE_BYTES": str(limit)},
    )
    assert server.stdin is not None and server.stdout is not None
    big = "x" * (limit + 1)

    def send(data: bytes) -> dict[str, Any]:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(data)
        server.stdin.flush()
        answer: dict[str, Any] = json.loads(server.stdout.readline())
        return answer

    try:
        # Read while the SDK still loads (the quick front), then by the SDK's reader.
        first = send(_record_line(1, big))
        assert first["id"] == 1 and first["error"]["code"] == -32600
        assert f"{limit:,} bytes" in first["error"]["message"]
        assert "XDB_MAX_MESSAGE_BYTES" in first["error"]["message"]
        assert send(_record_line(2, "small"))["result"]["structuredContent"]["tick"] == 1
        # The TypeScript SDK writes the id last; a line with no id is answered with id null.
        assert send(_record_line("ts-3", big, id_last=True))["id"] == "ts-3"
        junk = send(b'{"junk": "' + b"y" * limit + b'"}\n')
        assert (junk["id"], junk["error"]["code"]) == (None, -32600)
        assert "over the limit" in junk["error"]["message"]
        # Exactly at the limit (newline not counted) is a message like any other.
        exact = _record_line(4, "")
        exact = _record_line(4, "z" * (limit - len(exact) + 1))
        assert len(exact) == limit + 1
        assert send(exact)["result"]["structuredContent"]["tick"] == 2
        # A line far over the limit is dropped piece by piece, never held whole.
        before = _peak_kib(server.pid)
        huge = _record_line(5, "w" * (48 * 1024 * 1024))
        assert send(huge)["id"] == 5
        assert _peak_kib(server.pid) - before < 16 * 1024, "the dropped line was buffered"
        del huge
        assert send(_record_line(6, "after"))["result"]["structuredContent"]["tick"] == 3
        server.stdin.close()
        assert server.wait(timeout=60) == 0
        assert server.stderr is not None
        err = server.stderr.read().decode()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        for pipe in (server.stdout, server.stderr):
            if pipe is not None:
                pipe.close()
    assert "Traceback" not in err, err
    assert err.count("over the limit") == 4, err
    with xdb.connect(tmp_path / "big.sqlite3") as reopened:
        contents = [t.content for t in reopened.query().timesteps]
    assert [len(c) for c in contents] == [5, len(exact) - len(_record_line(4, "")), 5]


def test_the_default_limit_refuses_a_line_over_64_mib(tmp_path: Path) -> None:
    over = 64 * 1024 * 1024 + 1
    requests = b"".join([_record_line(1, "v" * over), _record_line(2, "next")])
    done = subprocess.run(
        [sys.executable, "-m", "xdb", "--db", str(tmp_path / "d.sqlite3"), "mcp"],
        input=requests,
        capture_output=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if k != "XDB_MAX_MESSAGE_BYTES"},
    )
    assert done.returncode == 0, done.stderr
    got = {m["id"]: m for m in map(json.loads, done.stdout.decode().splitlines())}
    assert "67,108,864 bytes" in got[1]["error"]["message"]
    assert got[2]["result"]["structuredContent"]["tick"] == 1
    assert b"Traceback" not in done.stderr


def test_an_oversized_line_in_a_file_is_refused_too(tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    answers = tmp_path / "answers.jsonl"
    # Over the limit and over the file reader's 1 MiB piece; the last line has no newline.
    requests.write_bytes(
        _record_line(1, "f" * (2 * 1024 * 1024)) + _record_line(2, "kept").rstrip(b"\n")
    )
    with requests.open("rb") as stdin, answers.open("wb") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "xdb", "--db", str(tmp_path / "f.sqlite3"), "mcp"],
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            timeout=60,
            env={**os.environ, "XDB_MAX_MESSAGE_BYTES": "1500000"},
        )
    assert done.returncode == 0, done.stderr
    got = {m["id"]: m for m in map(json.loads, answers.read_text().splitlines())}
    assert "1,500,000 bytes" in got[1]["error"]["message"]
    assert got[2]["result"]["structuredContent"]["tick"] == 1


def test_a_bad_limit_setting_is_one_line_of_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "xdb", "--db", str(tmp_path / "b.sqlite3"), "mcp"],
        input=b"",
        capture_output=True,
        timeout=60,
        env={**os.environ, "XDB_MAX_MESSAGE_BYTES": "lots"},
    )
    assert done.returncode == 2
    assert done.stderr.decode().startswith("error: XDB_MAX_MESSAGE_BYTES must be a positive")


# --------------------------------------------------------------------------- odd messages


def test_the_front_leaves_odd_messages_to_the_sdk(recorded: dict[str, Any]) -> None:
    front = Front(recorded["underscore"], groups=None)
    odd_meta = {"_meta": {**META["_meta"], "io.modelcontextprotocol/protocolVersion": [1]}}
    no_client = {"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}
    messages: list[dict[str, Any]] = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": odd_meta},  # crashed
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": no_client},
        {"jsonrpc": "2.0", "id": 1.5, "method": "tools/list", "params": META},
        {"jsonrpc": "2.0", "id": [1], "method": "tools/list", "params": META},
        {"jsonrpc": "2.0", "id": True, "method": "tools/list", "params": META},
        {"jsonrpc": "2.0", "id": 1, "method": ["tools/list"], "params": META},
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": {}}},
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "x"}},
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": []},
    ]
    for message in messages:
        assert front.answer(line(message)) is None, message
    assert front.version is None and front.replay == []
    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c"}}
    # No client version: the SDK refuses that initialize, so the front must not accept it.
    asked = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}
    assert front.answer(line(asked)) is None and front.version is None


def test_requests_the_sdk_cannot_read_are_answered_and_none_keeps_it_waiting(
    tmp_path: Path,
) -> None:
    # At the end of input the server waits for the answers still to come; it used to count
    # the first five as requests and wait for their answers for ever. The SDK passes over a
    # request it cannot read in silence, leaving the client's call waiting for ever: those
    # whose id can be told are answered with an error now.
    status = {"name": "xdb_status", "arguments": {}, **META}
    half_emoji = {"name": "xdb_record", "arguments": {"event_type": "input", "content": "\ud83d"}}
    odd: list[dict[str, Any]] = [
        {"jsonrpc": "2.0", "id": 1.5, "method": "ping"},
        {"jsonrpc": "2.0", "id": None, "method": "ping"},
        {"jsonrpc": "2.0", "id": True, "method": "ping"},
        {"jsonrpc": "1.0", "id": 3, "method": "ping"},
        {"jsonrpc": "2.0", "id": 4, "method": "ping", "params": []},
        {"jsonrpc": "2.0", "id": "asked", "method": "tools/call", "params": status},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "asked"}},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {**half_emoji, **META}},
        {"jsonrpc": "2.0", "id": 7, "method": 7},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": status},
    ]
    # Nested past what Python's json can read: first (the quick front reads it) and later
    # (read for its id once the SDK has refused it); each stopped the server, then each was
    # passed over in silence; now both are refused by the nesting limit (test_nesting).
    deep = b'{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": ' + b'{"k":' * 5000
    deep += b"1" + b"}" * 5001 + b"\n"
    done = subprocess.run(
        [sys.executable, "-m", "xdb", "--db", str(tmp_path / "o.sqlite3"), "mcp"],
        input=deep + b"".join(map(line, odd)) + deep,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    got = {m["id"]: m for m in map(json.loads, done.stdout.decode().splitlines())}
    assert set(got) - {"asked"} == {3, 4, 5, 6, 7, 8}  # "asked": unless cancelled in time
    assert "nesting limit" in got[8]["error"]["message"]
    assert "result" in got[5]
    errors = {n: (got[n]["error"]["code"], got[n]["error"]["message"]) for n in (3, 4, 6, 7)}
    assert errors[3] == (-32600, "invalid request: jsonrpc: Input should be '2.0'")
    assert errors[4] == (-32600, "invalid request: params: Input should be an object")
    assert errors[6][0] == -32700 and "escapes must come in pairs" in errors[6][1]
    assert errors[7] == (-32600, "invalid request: method: Input should be a valid string")
    assert b"Traceback" not in done.stderr


def test_the_answer_to_a_replayed_initialize_is_not_sent(tmp_path: Path, warm_cache: Path) -> None:
    # The front answers the initialize (the cache holds the answers) and replays it.
    init = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"},
    }
    call = {"name": "xdb_record", "arguments": {"event_type": "input", "content": "after"}}
    done = subprocess.run(
        [sys.executable, "-m", "xdb", "--db", str(tmp_path / "r.sqlite3"), "mcp"],
        input=b"".join(
            line(m)
            for m in (
                {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call},
            )
        ),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    got = [json.loads(text) for text in done.stdout.decode().splitlines()]
    assert [m["id"] for m in got] == [0, 1]
    assert got[1]["result"]["structuredContent"]["tick"] == 1
