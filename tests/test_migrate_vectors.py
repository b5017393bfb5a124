"""Episode vectors travel with ``xdb migrate`` and ``xdb export --vectors`` / ``xdb
import``: the target stores them, embeds none of those episodes again, and finds them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import xdb
from tests.interfaces.cli_runner import ok, run
from xdb import migrate
from xdb.migrate import copy

WORDS = ["harbour", "glacier", "violin", "orchard", "lantern", "compass"]


def fill(location: str | Path) -> dict[str, bytes]:
    """Six embedded episodes; their vectors by episode id."""
    with xdb.connect(location, embedder="hash") as db:
        for word in WORDS:
            db.add_episode(content=f"a long story about the {word} and what it held")
        assert db.wait_for_embeddings(timeout=60)
        return vectors(db)


def vectors(db: xdb.Database) -> dict[str, bytes]:
    rows = list(db.store.load_vectors(db.indexer.model_id))
    found = db.store.episodes_by_seqs([r[1] for r in rows])
    return {found[r[1]].episode.id: r[2] for r in rows}


def assert_carried(location: str | Path, expected: dict[str, bytes]) -> None:
    """The target holds the source's vectors, embeds nothing, and its searches find them."""
    with xdb.connect(location, embedder="hash") as db:
        model = db.indexer.model_id
        assert db.store.missing_vectors(model, 10) == []
        assert vectors(db) == expected
        assert db.wait_for_embeddings(timeout=60)
        assert db.indexer.stored == 0  # the worker embedded nothing
        assert len(db.indexer.index()) == len(WORDS)
        for word in WORDS:
            hits = db.search_episodes(text_query=f"the {word}", page={"page_size": 1}).episodes
            assert word in hits[0].summary and hits[0].signals.get("vector", 0) > 0


def test_migrate_carries_the_vectors(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "source.sqlite3"
    expected = fill(source)
    with xdb.connect(source, embedder="hash") as src, xdb.connect(postgres_url) as dst:
        copy(src, dst)
    assert_carried(postgres_url, expected)
    back = tmp_path / "back.sqlite3"
    result = ok(source, "migrate", "--from", postgres_url, "--to", str(back), "--no-progress")
    assert result["copied"]["episode"] == len(WORDS)
    assert_carried(back, expected)


def test_migrate_without_vectors_leaves_the_target_to_embed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, target = tmp_path / "source.sqlite3", tmp_path / "target.sqlite3"
    fill(source)
    asked: list[bool] = []
    real = migrate.copy

    def spy(
        src: xdb.Database, dst: xdb.Database, on_record: Any = None, vectors: bool = True
    ) -> Any:
        asked.append(vectors)
        return real(src, dst, on_record, vectors=vectors)

    monkeypatch.setattr(migrate, "copy", spy)
    ok(source, "migrate", "--to", str(target), "--no-vectors", "--no-progress")
    ok(source, "migrate", "--to", str(tmp_path / "t2.sqlite3"), "--no-progress")
    assert asked == [False, True]
    with xdb.connect(source, embedder="hash") as db:
        records = [r for r in db.export_records(vectors=False) if r["kind"] == "episode"]
        assert records and not any("vectors" in r for r in records)


def test_export_vectors_and_import_them(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "source.sqlite3"
    expected = fill(source)
    plain, carrying = tmp_path / "plain.jsonl", tmp_path / "vectors.jsonl"
    ok(source, "export", str(plain), "--no-progress")
    ok(source, "export", str(carrying), "--vectors", "--no-progress")

    def episodes(path: Path) -> list[dict[str, Any]]:
        lines = path.read_text(encoding="utf-8").splitlines()
        return [r for r in map(json.loads, lines) if r["kind"] == "episode"]

    assert not any("vectors" in r for r in episodes(plain))
    assert all(list(r["vectors"]) == ["hash:384"] for r in episodes(carrying))
    for target in (tmp_path / "target.sqlite3", postgres_url):
        with xdb.connect(target, embedder="hash") as db:
            assert db.import_records(map(json.loads, carrying.open(encoding="utf-8")))
        assert_carried(target, expected)


def test_export_vectors_is_refused_with_sharing(tmp_path: Path) -> None:
    """--sharing leaves out what may not leave: no longer the whole export."""
    source = tmp_path / "source.sqlite3"
    fill(source)
    with xdb.connect(source, embedder="hash") as db:
        admin = db.as_caller(xdb.Caller(id="ops", roles=("self", "admin")))
        admin.set_access_policy(id="stays", read_roles=["self"], allow_export=False)
        db.add_episode(content="what stays here", access_policy_id="stays")
    result = run(source, "export", "--vectors", "--sharing", "--no-progress")
    assert result.exit_code == 2, result.output
    assert "vectors: only the file holder's whole export carries vectors" in result.stderr
    assert ok(source, "export", str(tmp_path / "out.jsonl"), "--vectors", "--no-progress")


def test_vectors_of_another_length_for_this_databases_model_are_refused(tmp_path: Path) -> None:
    # The same model id configured otherwise (an OpenAI model at another XDB_EMBED_DIM)
    # makes vectors of another length: they would break this database's vector index.
    import base64
    import struct

    with xdb.connect(tmp_path / "x.sqlite3", embedder="hash") as db:
        model = db.indexer.model_id
        short = base64.b64encode(struct.pack("<3f", 0.1, 0.2, 0.3)).decode()
        records: list[dict[str, Any]] = [
            {"kind": "xdb-export", "version": 1},
            {"kind": "episode", "episode_id": "ep-a", "content": "kept", "vectors": {}},
            {"kind": "episode", "episode_id": "ep-b", "content": "short",
             "vectors": {model: short}},
        ]  # fmt: skip
        with pytest.raises(xdb.InvalidRequest) as caught:
            db.import_records(records)
        assert caught.value.field == f"vectors.{model}" and "record 3" in str(caught.value)
        assert db.search_episodes(text_query="kept").episodes == []  # nothing of it stays
        assert db.search_episodes(text_query="anything").episodes == []  # search still runs
