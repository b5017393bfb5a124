"""Bulk work runs with the cyclic collector paused, and gives it back as it found it."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import xdb
from xdb.gcpause import collector_paused
from xdb.ops.catalog import operations


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generations of the collections run while the test runs."""
    seen: list[int] = []

    def count(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(int(info["generation"]))

    gc.callbacks.append(count)
    try:
        yield seen
    finally:
        gc.callbacks.remove(count)


def test_nested_and_concurrent_pauses_share_one() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer block still holds it
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # off before, off after
    finally:
        gc.enable()


@contextmanager
def paused_in_another_thread() -> Iterator[None]:
    """The block runs while another thread holds a pause; it ends when the block does."""
    inside, leave = threading.Event(), threading.Event()

    def hold() -> None:
        with collector_paused():
            inside.set()
            leave.wait()

    worker = threading.Thread(target=hold)
    worker.start()
    inside.wait()
    try:
        yield
    finally:
        leave.set()
        worker.join()


def test_a_pause_ends_when_the_last_thread_leaves() -> None:
    with paused_in_another_thread():
        with collector_paused():
            pass
        assert not gc.isenabled()  # the other thread's block is still running
    assert gc.isenabled()


def test_a_bulk_call_runs_without_collections(tmp_path: Path, collections: list[int]) -> None:
    assert [op.name for op in operations() if op.bulk] == ["record_batch"]
    tokens: list[dict[str, Any]] = [
        {"event_type": "output", "content": f" t{i}", "token_id": i,
         "concept_activations": {f"c/{i % 50}": 0.5}}
        for i in range(3000)
    ]  # fmt: skip
    with xdb.connect(tmp_path / "x.sqlite3", session_id="s", embedder="hash") as db:
        db.record_batch(tokens[:10])  # the first call's imports and caches
        # (a full collection first, so which generation the collector's next automatic run
        # takes does not depend on what earlier tests in this worker left counted)
        gc.collect()
        collections.clear()
        db.record_batch(tokens)
        # 3,000 validated timesteps set off none while the call ran; at most the one that
        # the allocations it counted set off once the collector is back, as it returns.
        assert collections in ([], [0])
        assert gc.isenabled()
        for token in tokens[:300]:  # the same timesteps one call each: the collector runs
            db.record(**token)
        assert collections


def test_pauses_that_overlap_for_long_still_collect(
    monkeypatch: pytest.MonkeyPatch, collections: list[int]
) -> None:
    # Two threads' blocks overlapping without end never leave the collector on: a block
    # ending after MAX_PAUSE_SECONDS of pause runs a collection itself, of the young
    # generations (where what the pause made is), and of the whole heap as often as the
    # collector would run one (what survived a young collection may become garbage later).
    import xdb.gcpause

    monkeypatch.setattr(xdb.gcpause, "MAX_PAUSE_SECONDS", 0.0)
    young = gc.get_threshold()[2]
    with paused_in_another_thread():
        gc.collect()  # the count of young collections starts from a full one
        collections.clear()
        for _ in range(young + 1):
            with collector_paused():
                pass
        assert not gc.isenabled()  # still paused
    assert gc.isenabled()
    assert collections[: young + 1] == [1] * young + [2]
