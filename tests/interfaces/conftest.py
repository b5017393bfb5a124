"""The MCP answers ``xdb mcp`` starts from (``xdb.interfaces.mcp_answers``), for the tests of
the quick front: what this SDK answers now, and a cache that already holds them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xdb.interfaces import mcp_answers


@pytest.fixture(scope="session")
def recorded() -> dict[str, Any]:
    """What the SDK answers to a client's opening requests now (about a second to ask)."""
    from xdb.interfaces.mcp import recorded_answers

    return recorded_answers()


@pytest.fixture
def warm_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, recorded: dict[str, Any]) -> Path:
    """A cache that holds this install's answers, so an ``xdb mcp`` started by the test
    answers its opening requests from them (the quick front); the file's path."""
    monkeypatch.setenv("XDB_CACHE_DIR", str(tmp_path / "cache"))
    current = mcp_answers.fingerprint()
    path = mcp_answers.answers_path(current)
    path.write_text(mcp_answers.render(recorded, current), encoding="utf-8")
    return path
