"""Hook wall time as a coding agent sees it, against a bare interpreter start in the same run.

    python -m bench.hooks [--calls 60] [--lessons 200]

A database of ``--lessons`` lessons (``bench.engine_replay``'s families and variations, so
the search has work to do) is served by a real ``xdb serve`` (default embedder) on a free
port. Every figure is the wall time of one call, from the agent's side:

(a) command hooks, a new process each call (``.venv/bin/xdb hook claude pre-tool-use`` with
    the payload on stdin, as Claude Code runs it):
    - baseline: ``python -S -c pass`` with the same interpreter (the issue names ``python3
      -S``; on this machine ``python3`` is a pyenv shim that alone costs ~50 ms, so the
      interpreter itself is the fair floor);
    - the read-only skip (``git status && ls | grep x``);
    - the full path with the serve running (an Edit of a C# file a lesson matches; a new
      agent session each call, so the warning is computed, not deduplicated);
    - the full path with no serve (the hook opens the database itself), for reference.
(b) Claude Code's ``http`` hook type, ``POST /v1/hook/claude/pre-tool-use`` on the serve
    (one keep-alive connection): baseline ``GET /healthz``; the skip; the full path.

Calls of each kind are interleaved round by round, so machine noise falls on all of them.
Targets (issue 21): skip p50 <= 30 ms, full with serve p50 <= 60 ms; http skip p50 <= 5 ms,
http full p50 <= 15 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import httpx

import xdb
from bench.engine_replay import lesson_store

XDB = str(Path(sys.executable).with_name("xdb"))
READ = {"tool_name": "Bash", "tool_input": {"command": "git status && ls -la | grep x"}}
EDIT = {
    "tool_name": "Edit",
    "tool_input": {"file_path": "/work/shop/Startup.cs",
                   "new_string": "services.AddSingleton<ShopDbContext>();"},
}  # fmt: skip


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _payload(call: Mapping[str, object], session: str) -> str:
    return json.dumps({"session_id": session, "cwd": "/work/shop",
                       "hook_event_name": "PreToolUse", **call})  # fmt: skip


def _timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def _process(args: list[str], stdin: str, env: dict[str, str]) -> Callable[[], object]:
    def run() -> object:
        done = subprocess.run(args, input=stdin, capture_output=True, text=True, env=env)
        return done.stdout

    return run


def _row(label: str, times: list[float], base: list[float]) -> str:
    p50, b50 = statistics.median(times), statistics.median(base)
    p95 = sorted(times)[int(0.95 * (len(times) - 1))]
    return f"{label:<44} {p50:8.1f} {p95:8.1f} {p50 / b50:8.2f}x"


def run(args: argparse.Namespace, folder: Path) -> None:
    path = folder / "hooks.sqlite3"
    with xdb.connect(path) as db:
        made = lesson_store(db, args.lessons)
    print(f"{made} lessons in {path}")
    port = _port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "XDB_DB": str(path), "XDB_ENGINE_URL": url}
    env.pop("XDB_EMBEDDER", None)
    server = subprocess.Popen(
        [XDB, "--db", str(path), "serve", "--port", str(port), "--no-mcp",
         "--maintenance-every", "0"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        # As Claude Code's http hook posts: JSON (the serve refuses any other body type).
        client = httpx.Client(timeout=30, headers={"Content-Type": "application/json"})
        for _ in range(600):  # until it answers (the model loads first)
            try:
                client.get(f"{url}/healthz")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        hook = [XDB, "hook", "claude", "pre-tool-use"]
        nowhere = {**env, "XDB_ENGINE_URL": f"http://127.0.0.1:{_port()}"}
        kinds: dict[str, Callable[[int], Callable[[], object]]] = {
            "bare": lambda i: _process([sys.executable, "-S", "-c", "pass"], "", env),
            "skip": lambda i: _process(hook, _payload(READ, f"skip-{i}"), env),
            "full": lambda i: _process(hook, _payload(EDIT, f"full-{i}"), env),
            "direct": lambda i: _process(hook, _payload(EDIT, f"direct-{i}"), nowhere),
            "healthz": lambda i: lambda: client.get(f"{url}/healthz"),
            "http skip": lambda i: lambda: client.post(
                f"{url}/v1/hook/claude/pre-tool-use", content=_payload(READ, f"hs-{i}")),
            "http full": lambda i: lambda: client.post(
                f"{url}/v1/hook/claude/pre-tool-use", content=_payload(EDIT, f"hf-{i}")),
        }  # fmt: skip
        check = client.post(f"{url}/v1/hook/claude/pre-tool-use", content=_payload(EDIT, "w"))
        print("the full path warns:", check.json()["hookSpecificOutput"]["additionalContext"])
        times: dict[str, list[float]] = {k: [] for k in kinds}
        for i in range(args.calls):
            for kind, make in kinds.items():
                if kind == "direct" and i >= args.direct:
                    continue
                times[kind].append(_timed(make(i)))
        print(f"\n{'wall time per call, ms':<44} {'p50':>8} {'p95':>8} {'vs base':>9}")
        print(_row("(a) bare python -S -c pass (baseline)", times["bare"], times["bare"]))
        print(_row("(a) xdb hook: read-only skip", times["skip"], times["bare"]))
        print(_row("(a) xdb hook: full path, serve running", times["full"], times["bare"]))
        print(_row("(a) xdb hook: full path, no serve", times["direct"], times["bare"]))
        print(_row("(b) GET /healthz (baseline)", times["healthz"], times["healthz"]))
        print(_row("(b) http hook: read-only skip", times["http skip"], times["healthz"]))
        print(_row("(b) http hook: full path", times["http full"], times["healthz"]))
        print("targets: (a) skip p50 <= 30, full p50 <= 60; (b) skip p50 <= 5, full p50 <= 15")
    finally:
        server.terminate()
        server.wait(30)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.hooks", description=__doc__)
    parser.add_argument("--calls", type=int, default=60, help="calls of each kind")
    parser.add_argument("--direct", type=int, default=10, help="no-serve calls (slow)")
    parser.add_argument("--lessons", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        run(args, Path(folder))


if __name__ == "__main__":
    main()
