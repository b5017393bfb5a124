"""status through the Python API, on SQLite and on PostgreSQL: counts, quota, embedding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import xdb
from tests.log.conftest import is_postgres
from tests.log.test_log_reads import db as recorded  # noqa: F401  a fixture


def test_status_counts(recorded: xdb.Database, target: str) -> None:  # noqa: F811
    recorded.create_tag(name="b", tag_type="bud")
    st = recorded.status()
    assert st.session_id == "s1" and st.current_tick == 5
    assert st.experience_stats.total_timesteps == 6
    assert st.experience_stats.by_fidelity == {"hot": 6, "warm": 0, "submitted": 0, "cold": 0}
    assert st.experience_stats.total_tag_applications == 4
    assert st.tag_stats.by_type == {"concept": 0, "entity": 0, "bud": 1, "custom": 3}
    assert st.tag_stats.total_tags == 4
    assert st.sessions.total == 2
    assert {s.session_id: s.timesteps for s in st.sessions.recent} == {"s1": 5, "s2": 1}
    backend = "postgresql" if is_postgres(target) else "sqlite"
    total_bytes = st.storage_stats.total_bytes
    assert total_bytes is not None and total_bytes > 0 and st.storage_stats.backend == backend


def test_quota_utilization(target: str) -> None:
    with xdb.connect(target, quota_bytes=10_000_000) as database:
        stats = database.status().storage_stats
        assert stats.quota_bytes == 10_000_000
        assert stats.total_bytes is not None
        assert stats.utilization == pytest.approx(stats.total_bytes / 10_000_000)


class _Down:
    """An embedding model whose server is down: its episodes wait for vectors."""

    model_id = "down:1"
    dimension = 4

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
        raise RuntimeError("the embeddings server is down")


def test_status_reports_the_embedding_backlog(target: str) -> None:
    with xdb.connect(target, embedder=_Down()) as down:
        for i in range(3):
            down.add_episode(content=f"episode {i} about kites")
        assert down.wait_for_embeddings(10) is False
        embedding = down.status().embedding
        assert (embedding.model, embedding.episodes, embedding.episodes_with_vectors) == (
            "down:1",
            3,
            0,
        )
        assert embedding.backlog == 3
        assert embedding.failure is not None and "server is down" in embedding.failure
    # A process with a working model resumes the backlog at open; status counts it done.
    with xdb.connect(target, embedder="hash") as db:
        assert db.indexer.wait(30, wake=False)
        assert db.status().embedding.model_dump() == {
            "model": "hash:384",
            "episodes": 3,
            "episodes_with_vectors": 3,
            "backlog": 0,
            "failure": None,
        }


def test_status_names_a_model_that_cannot_be_made(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with xdb.connect(target, embedder="hash") as db:
        db.add_episode(content="one about kites")
    monkeypatch.setenv("XDB_EMBEDDER", "openai")
    monkeypatch.delenv("XDB_EMBED_URL", raising=False)
    with xdb.connect(target) as db:
        embedding = db.status().embedding
    assert (embedding.model, embedding.episodes, embedding.backlog) == (None, 1, 1)
    assert embedding.failure is not None and "XDB_EMBED_URL" in embedding.failure
