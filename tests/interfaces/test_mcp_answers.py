"""The answers ``xdb mcp`` starts from are generated into the user's cache, never committed:
a cold cache is served by the SDK and filled, a warm one by the quick front, and a file made
for another fingerprint, or half written, is ignored and rewritten."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from xdb.interfaces import mcp_answers

META = {
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
}
RECORD = {"name": "xdb_record", "arguments": {"event_type": "input", "content": "after"}}


def _serve(tmp_path: Path, cache: Path) -> dict[int, Any]:
    """Run ``xdb mcp`` on a tools/list and a call, with ``cache`` as the cache; the answers."""
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": META},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {**RECORD, **META}},
    ]
    done = subprocess.run(
        [sys.executable, "-m", "xdb", "--db", str(tmp_path / "a.sqlite3"), "mcp"],
        input="".join(json.dumps(r) + "\n" for r in requests).encode(),
        capture_output=True,
        timeout=120,
        env={**os.environ, "XDB_CACHE_DIR": str(cache)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == b"", done.stderr  # nothing said about the cache, even on a miss
    got = {m["id"]: m for m in map(json.loads, done.stdout.decode().splitlines())}
    assert got[2]["result"]["structuredContent"]["tick"] == 1  # the SDK serves after
    return got


def _agent_tools(recorded: dict[str, Any]) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = recorded["underscore"]["profiles"]["agent"]["tools"]
    return tools


def _written(cache: Path) -> dict[str, Any]:
    """The answers last written to ``cache``, checked to be named by their fingerprint (the
    tests of the fingerprint below prove it is this install's; recomputed after the server
    ran, it would move on if xdb's sources were edited meanwhile)."""
    path = max(cache.glob(f"{mcp_answers.PREFIX}*.json"), key=lambda p: p.stat().st_mtime_ns)
    written: dict[str, Any] = json.loads(path.read_text("utf-8"))
    assert path == mcp_answers.answers_path(written["fingerprint"], cache)
    assert mcp_answers.load(path, written["fingerprint"]) == written
    return written


def test_a_cold_cache_is_served_by_the_sdk_and_filled_with_what_it_answers(
    tmp_path: Path, recorded: dict[str, Any]
) -> None:
    cache = tmp_path / "cache"  # not even made yet
    got = _serve(tmp_path, cache)
    assert got[1]["result"]["tools"] == _agent_tools(recorded)
    # The generated answers are what this SDK answers now (a change to a tool, or an SDK
    # upgrade, changes the fingerprint: a new file is generated for it).
    written = _written(cache)
    assert written == {**recorded, "fingerprint": written["fingerprint"]}
    assert [p.name for p in cache.iterdir() if p.name.endswith(".tmp")] == []


def test_a_warm_cache_is_answered_from_by_the_front(
    tmp_path: Path, warm_cache: Path, recorded: dict[str, Any]
) -> None:
    # A word only the cached file says: the answer can only have come from it, not the SDK.
    cached = json.loads(warm_cache.read_text("utf-8"))
    cached["underscore"]["profiles"]["agent"]["tools"][0]["description"] = "from the cache"
    warm_cache.write_text(json.dumps(cached), encoding="utf-8")
    before = warm_cache.stat().st_mtime_ns
    got = _serve(tmp_path, warm_cache.parent)
    assert got[1]["result"]["tools"][0]["description"] == "from the cache"
    assert got[1]["result"]["tools"][1:] == _agent_tools(recorded)[1:]
    assert warm_cache.stat().st_mtime_ns == before  # used, not rewritten


def test_a_file_for_another_fingerprint_is_ignored(
    tmp_path: Path, warm_cache: Path, recorded: dict[str, Any]
) -> None:
    # The answers of an older xdb or SDK: under their own fingerprint, which is not ours.
    cached = json.loads(warm_cache.read_text("utf-8"))
    cached["underscore"]["profiles"]["agent"]["tools"][0]["description"] = "an older xdb"
    older = mcp_answers.answers_path("0" * 24, warm_cache.parent)
    older.write_text(json.dumps({**cached, "fingerprint": "0" * 24}), encoding="utf-8")
    warm_cache.unlink()
    got = _serve(tmp_path, warm_cache.parent)
    assert got[1]["result"]["tools"] == _agent_tools(recorded)
    assert _written(warm_cache.parent)["fingerprint"] != "0" * 24
    assert older.exists()  # another install may still use it (the newest few are kept)


@pytest.mark.parametrize("damage", ["truncated", "not json", "another shape", "renamed"])
def test_a_damaged_cache_file_is_ignored_and_rewritten(
    tmp_path: Path, warm_cache: Path, recorded: dict[str, Any], damage: str
) -> None:
    text = warm_cache.read_text("utf-8")
    current = json.loads(text)["fingerprint"]
    damaged = {
        "truncated": text[: len(text) // 2],
        "not json": "\0\0\0",
        "another shape": json.dumps({"fingerprint": current, "underscore": {"tools": {}}}),
        "renamed": text.replace(current, "f" * len(current)),  # made for another fingerprint
    }[damage]
    warm_cache.write_text(damaged, encoding="utf-8")
    assert mcp_answers.load(warm_cache, current) is None
    got = _serve(tmp_path, warm_cache.parent)
    assert got[1]["result"]["tools"] == _agent_tools(recorded)
    written = _written(warm_cache.parent)  # over the damaged one, unless xdb was edited since
    assert written == {**recorded, "fingerprint": written["fingerprint"]}


def test_a_cache_that_cannot_be_written_is_no_error(
    tmp_path: Path, recorded: dict[str, Any]
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    got = _serve(tmp_path, blocked / "cache")  # stderr stays empty: logged at debug level
    assert got[1]["result"]["tools"] == _agent_tools(recorded)
    assert blocked.read_text() == "not a folder"


def test_a_cache_it_cannot_read_is_served_without(tmp_path: Path, recorded: dict[str, Any]) -> None:
    cache = tmp_path / "cache"
    _serve(tmp_path, cache)  # leaves the answers and the sources' stamp
    for stamp in cache.glob("sources-*.json"):
        stamp.write_text("[" * 100_000 + "]" * 100_000)  # past the JSON parser's nesting
    (tmp_path / "again").mkdir()
    got = _serve(tmp_path / "again", cache)
    assert got[1]["result"]["tools"] == _agent_tools(recorded)


def test_only_this_users_own_file_is_trusted(tmp_path: Path) -> None:
    # The answers are the tool descriptions an agent reads: a file others may write, or a
    # link to one, in a shared cache folder could have been planted.
    path = tmp_path / "answers.json"
    text = mcp_answers.render(_minimal(), "fp")
    path.write_text(text, "utf-8")
    path.chmod(0o600)
    assert mcp_answers.load(path, "fp") is not None
    path.chmod(0o666)
    assert mcp_answers.load(path, "fp") is None
    path.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(path)
    assert mcp_answers.load(link, "fp") is None


def _minimal() -> dict[str, Any]:
    """The smallest answers ``load`` takes as whole: each naming's parts, empty."""
    part: dict[str, Any] = {
        p: k() for p, k in zip(mcp_answers._PARTS, mcp_answers._KINDS, strict=True)
    }
    return {naming: dict(part) for naming in mcp_answers.NAMINGS}


# --------------------------------------------------------------------------- the fingerprint


def _package(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("A = 1\n")
    (root / "sub" / "tools.py").write_text("B = 2\n")
    (root / "sub" / "notes.txt").write_text("not a source\n")
    return root


def test_the_fingerprint_follows_the_sources_content(tmp_path: Path) -> None:
    root, cache = _package(tmp_path / "pkg"), tmp_path / "cache"
    first = mcp_answers.fingerprint(root, cache)
    assert mcp_answers.fingerprint(root, cache) == first
    tools = root / "sub" / "tools.py"
    # A new modification time alone (a reinstall, a checkout) keeps the answers.
    os.utime(tools, ns=(tools.stat().st_atime_ns, tools.stat().st_mtime_ns + 10**9))
    assert mcp_answers.fingerprint(root, cache) == first
    (root / "sub" / "notes.txt").write_text("changed, but no source\n")
    assert mcp_answers.fingerprint(root, cache) == first
    tools.write_text("B = 3\n")  # same size, new content
    changed = mcp_answers.fingerprint(root, cache)
    assert changed != first
    (root / "sub" / "more.py").write_text("")
    assert mcp_answers.fingerprint(root, cache) not in (first, changed)


def test_a_stale_stamp_is_not_trusted(tmp_path: Path) -> None:
    root, cache = _package(tmp_path / "pkg"), tmp_path / "cache"
    first = mcp_answers.source_digest(root, cache)
    (stamp,) = cache.glob("sources-*.json")
    tools = root / "sub" / "tools.py"
    tools.write_text("B = 4\n")
    assert mcp_answers.source_digest(root, cache) != first  # the stat digest moved on
    stamp.write_text("{half")
    assert mcp_answers.source_digest(root, cache) == mcp_answers.content_digest(
        root, ["__init__.py", "sub/tools.py"]
    )


def test_the_fingerprint_follows_the_versions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, cache = _package(tmp_path / "pkg"), tmp_path / "cache"
    first = mcp_answers.fingerprint(root, cache)
    installed = mcp_answers.versions()
    assert installed["mcp"] != "none" and installed["pydantic"] != "none"
    monkeypatch.setattr(mcp_answers, "versions", lambda: {**installed, "mcp": "99.0"})
    assert mcp_answers.fingerprint(root, cache) != first
    monkeypatch.undo()
    monkeypatch.setattr(mcp_answers, "__version__", "99.0")
    assert mcp_answers.fingerprint(root, cache) != first


def test_the_versions_are_the_installed_ones() -> None:
    from importlib.metadata import version

    assert mcp_answers.versions() == {n: version(n) for n in mcp_answers.DISTRIBUTIONS}


def test_the_cache_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("XDB_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert mcp_answers.cache_dir() == tmp_path / "xdg" / "xdb"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert mcp_answers.cache_dir() == tmp_path / "home" / ".cache" / "xdb"
    monkeypatch.setenv("XDB_CACHE_DIR", str(tmp_path / "own"))
    assert mcp_answers.cache_dir() == tmp_path / "own"


def test_only_the_newest_answer_files_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mcp_answers, "generate", lambda current: f'{{"f": "{current}"}}')
    for n in range(mcp_answers.KEEP + 2):
        path = mcp_answers.answers_path(f"{n:024}", tmp_path)
        assert mcp_answers.store(path, f"{n:024}")
        os.utime(path, (n, n))  # written in this order
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == [f"mcp-answers-{n:024}.json" for n in range(2, mcp_answers.KEEP + 2)]


def test_answers_that_cannot_be_generated_leave_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(current: str) -> str:
        raise RuntimeError("the SDK changed")

    monkeypatch.setattr(mcp_answers, "generate", fail)
    assert not mcp_answers.store(tmp_path / "mcp-answers-x.json", "x")
    assert list(tmp_path.iterdir()) == []
