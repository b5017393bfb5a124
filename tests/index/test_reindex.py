"""Re-embedding every episode with the current model: the function and `xdb reindex`."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import xdb
from xdb.embed.hashing import HashEmbedder
from xdb.index.embedding import BATCH
from xdb.index.reindex import reindex
from xdb.interfaces.cli import cli

EPISODES = BATCH * 2 + 7  # more than one batch, and a partial last one


def vectors_per_episode(path: Path) -> dict[int, list[str]]:
    """Each episode's seq -> the models of its stored vectors (read straight from the file)."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT e.seq, v.model FROM episodes e"
            " LEFT JOIN episode_vectors v ON v.episode_seq = e.seq ORDER BY e.seq, v.model"
        ).fetchall()
    found: dict[int, list[str]] = {}
    for seq, model in rows:
        found.setdefault(seq, []).extend([model] if model else [])
    return found


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """A database whose episodes all have vectors of the 384-dimension hashing model."""
    target = tmp_path / "reindex.sqlite3"
    with xdb.connect(target, embedder="hash") as db:
        for i in range(EPISODES):
            db.add_episode(content=f"episode {i} about kites and weather", namespace="p")
        assert db.wait_for_embeddings(30)
    assert set(map(tuple, vectors_per_episode(target).values())) == {("hash:384",)}
    return target


def test_after_a_model_change_every_episode_has_one_vector_of_the_new_model(path: Path) -> None:
    small = HashEmbedder(dimension=64)
    batches: list[int] = []
    with xdb.connect(path, embedder=small) as db:
        result = reindex(db, batches.append)
        assert result == {
            "model": "hash:64",
            "episodes": EPISODES,
            "embedded": EPISODES,
            "dropped": EPISODES,
        }
        # Opening began re-embedding in the background; the first call reports what was
        # done before reindex was called, if anything, and each later one a batch.
        assert sum(batches) == EPISODES and all(b > 0 for b in batches)
        assert all(b <= BATCH for b in batches[1:]) and len(batches) <= 3
        # The new vectors serve searches at once, without the worker.
        index = db.indexer.index()
        assert (index.model, index.dimension, len(index)) == ("hash:64", 64, EPISODES)
        assert db.search_episodes(text_query="episode 5 kites").episodes[0].summary == (
            "episode 5 about kites and weather"
        )
    assert vectors_per_episode(path) == {seq: ["hash:64"] for seq in range(1, EPISODES + 1)}


def test_a_second_run_embeds_nothing(path: Path) -> None:
    with xdb.connect(path, embedder=HashEmbedder(dimension=64)) as db:
        reindex(db, None)
        again = reindex(db, None)
    assert again == {"model": "hash:64", "episodes": EPISODES, "embedded": 0, "dropped": 0}


def test_running_beside_another_handles_worker_stores_each_vector_once(path: Path) -> None:
    small = HashEmbedder(dimension=64)
    # Another handle on the file (as another process would be) resumes the same backlog
    # in the background while the reindex walks it: each vector is stored by one of them.
    with xdb.connect(path, embedder=small) as other:
        with xdb.connect(path, embedder=small) as db:
            result = reindex(db, None)
        assert other.indexer.wait(30, wake=False)
        assert other.indexer.stored + result["embedded"] == EPISODES
    assert vectors_per_episode(path) == {seq: ["hash:64"] for seq in range(1, EPISODES + 1)}


# --------------------------------------------------------------------------- the command


def run(path: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        cli, ["--db", str(path), "reindex", *args], env={"XDB_DEBUG": "", **(env or {})}
    )
    return result.exit_code, result.stdout, result.stderr


def test_the_command_switches_to_the_model_it_names(path: Path) -> None:
    with xdb.connect(path, embedder=HashEmbedder(dimension=64)) as db:
        reindex(db, None)  # the file now holds only 64-dimension vectors
    code, out, err = run(path, "--embedder", "HASH", "--progress")
    assert code == 0, err
    assert json.loads(out) == {
        "model": "hash:384",
        "episodes": EPISODES,
        "embedded": EPISODES,
        "dropped": EPISODES,
    }
    assert f"{EPISODES}/{EPISODES}" in err and "episodes" in err  # the bar, on stderr
    assert vectors_per_episode(path) == {seq: ["hash:384"] for seq in range(1, EPISODES + 1)}


def test_the_command_takes_the_model_from_the_environment(path: Path) -> None:
    code, out, err = run(path, "--no-progress", env={"XDB_EMBEDDER": "hash"})
    assert code == 0, err
    assert json.loads(out)["embedded"] == 0  # every episode already had a hash:384 vector
    assert err == ""


def test_an_unknown_model_is_one_error_line(path: Path) -> None:
    code, out, err = run(path, "--embedder", "word2vec")
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith("error: ") and "word2vec" in err


def test_the_command_offers_every_embedder() -> None:
    from xdb.embed import SPECS

    (option,) = [p for p in cli.commands["reindex"].params if p.name == "embedder"]
    assert isinstance(option.type, click.Choice)
    assert tuple(option.type.choices) == SPECS
