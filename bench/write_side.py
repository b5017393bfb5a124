"""The write side beside the stores people build instead: the same episodes built into xdb,
LanceDB and a do-it-yourself SQLite (FTS5 + sqlite-vec), then the same filtered questions.

    python -m bench.write_side [--n 100000] [--queries 200] [--chunk 20000] [--embed]
                               [--baseline-queries K]

The corpus is ``bench.recall``'s (``episodes``: Zipf sentences, 1-3 of 300 concepts, a year
of start times, 20 namespaces) with 384-d vectors from the feature-hashing embedder that
``bench/recall.py`` documents as MiniLM's cheap stand-in. Each store's build is timed from
the records to its first answer:

- xdb: ``import_records`` in transactions of ``--chunk``, of records carrying their vectors
  (``"vectors": {"hash:384": base64}``, as ``xdb export --vectors`` writes them and
  ``xdb migrate`` copies them: given, like the baselines'), its worker finding nothing to
  embed, and the first search (the text index is current by then). ``--embed``: the
  records carry no vectors and the build includes the worker's embeddings (the hashing
  embedder: xdb embeds for itself, the path of an import without vectors);
- LanceDB (``lancedb``, embedded, if it imports): ``table.add`` of ``--chunk`` rows at a
  time with the vectors given, then its full-text index and scalar indexes (start, end,
  the concept list);
- SQLite FTS5 + sqlite-vec (``sqlite_vec`` with an SQLite that loads extensions: the
  stdlib's, or ``pysqlite3``): rows, concept rows, FTS5 and the vectors (BLOBs ranked by
  its ``vec_distance_cosine``) in one transaction per chunk. Without sqlite-vec the
  baseline ranks the same BLOBs with numpy, and says so.

Every store is given the vectors (embedding them takes the time printed as "hashing
embedder"; encoding xdb's records' base64 is done before the clock, as the baselines'
arrays are made before theirs); with ``--embed`` xdb's build pays for its own. Disk is
every file each store left, xdb's after close (its WAL checkpointed). Then ``--queries``
questions (``bench.recall.questions``: a concept filter and a 60-day window each, the
query vector computed before the clock),
interleaved store by store, question by question: xdb's relevance ranking (text + vectors
+ concepts, top 200), LanceDB's hybrid search (RRF of its FTS and vector legs, prefiltered),
and the SQLite baseline's FTS5 bm25 top 200 plus the nearest 200 vectors among the rows
passing the filter, fused by RRF. Ratios are of the same run.
"""

from __future__ import annotations

import argparse
import base64
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

import xdb
from bench import recall
from xdb.embed.hashing import HashEmbedder
from xdb.episodes.ranking import Ranking
from xdb.index.embedding import embedding_text
from xdb.models.common import Caller
from xdb.ops.registry import Context
from xdb.store.episode_row import default_summary
from xdb.store.types import ConceptCondition, EpisodeFilter
from xdb.timeutil import to_us

Search = Callable[[int, str, Any], object]


def disk(path: Path) -> int:
    """Bytes of every file under ``path`` (or of the file)."""
    if path.is_file():
        return path.stat().st_size
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def xdb_disk_by_part(folder: Path, n: int) -> list[tuple[str, int]]:
    """Bytes an episode of what xdb left in ``folder``, by table (its indexes and, for an
    FTS5 table, its shadow tables with it), then the text index beside the file, most first.
    Pages as SQLite's ``dbstat`` counts them, unused space included."""
    file = next(folder.glob("*.sqlite3"))
    conn = sqlite3.connect(file)
    try:
        owner = dict(conn.execute("SELECT name, tbl_name FROM sqlite_schema"))
        sizes: dict[str, int] = {}
        for name, size in conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
            table = owner.get(name, name)
            for suffix in ("_data", "_idx", "_docsize", "_config", "_content"):
                if table.endswith("_fts" + suffix):
                    table = table[: -len(suffix)]
            sizes[table] = sizes.get(table, 0) + int(size)
    finally:
        conn.close()
    sizes["(text index, tantivy)"] = disk(folder / (file.name + ".text-index"))
    # Tables that stay empty (a page or two each) round to nothing at any real size.
    return sorted(((k, v // n) for k, v in sizes.items() if v >= n), key=lambda kv: -kv[1])


def corpus(n: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The records, and the same episodes as flat rows for the baselines."""
    records = list(recall.episodes(n))
    flat = []
    for i, r in enumerate(records, 1):
        start = to_us(datetime.fromisoformat(r["time_window"]["start_time"]))
        flat.append(
            {
                "id": i,
                "text": r["content"],
                "namespace": r["namespace"],
                "kind": r["episode_kind"],
                "start_us": start,
                "end_us": to_us(datetime.fromisoformat(r["time_window"]["end_time"])),
                "concepts": sorted({t["concept_id"] for t in r["concept_tags"]}),
            }
        )
    return records, flat


def embed_all(flat: list[dict[str, Any]]) -> tuple[np.ndarray[Any, Any], float]:
    """The episodes' vectors, as xdb's worker embeds them (summary and content)."""
    embedder = HashEmbedder()
    t = time.perf_counter()
    texts = [embedding_text(default_summary(r["text"]), r["text"]) for r in flat]
    vectors = np.vstack([embedder.embed(texts[i : i + 4096]) for i in range(0, len(texts), 4096)])
    return vectors.astype(np.float32), time.perf_counter() - t


# --------------------------------------------------------------------------- xdb


def with_vectors(records: list[dict[str, Any]], vectors: Any) -> list[dict[str, Any]]:
    """The records carrying their vectors, as an export with vectors writes them."""
    model = HashEmbedder().model_id
    return [
        {**r, "vectors": {model: base64.b64encode(v.astype("<f4").tobytes()).decode("ascii")}}
        for r, v in zip(records, vectors, strict=True)
    ]


def build_xdb(path: Path, records: list[dict[str, Any]], chunk: int) -> dict[str, float]:
    """Import ``records`` (carrying vectors or not) and wait for every episode's vector."""
    with xdb.connect(path, embedder="hash") as db:
        t0 = time.perf_counter()
        for lo in range(0, len(records), chunk):
            db.import_records(records[lo : lo + chunk])
        imported = time.perf_counter()
        assert db.wait_for_embeddings(7200), db.indexer.failure
        embedded = time.perf_counter()
        db.search_episodes(text_query=recall.questions(1)[0])
        searched = time.perf_counter()
    return {
        "build": searched - t0,
        "import": imported - t0,
        "embed": embedded - imported,
        "first search": searched - embedded,
    }


def xdb_search(db: xdb.Database) -> Search:
    ctx = Context(db.store, Caller(), lambda: "", {}, db.indexer)

    def search(i: int, question: str, vector: Any) -> object:
        concept, start, end = recall.filters(i)
        flt = EpisodeFilter(
            start_us=start,
            end_us=end,
            concepts=[ConceptCondition(concept, 0.0, None, False, True, False)],
        )
        return Ranking(question, [concept], 0.5, 0.0, query_vector=vector).rank(ctx, flt)

    return search


# --------------------------------------------------------------------------- LanceDB


def build_lancedb(
    folder: Path, flat: list[dict[str, Any]], vectors: Any, chunk: int
) -> tuple[Any, float]:
    import lancedb
    import pyarrow as pa

    db = lancedb.connect(str(folder))
    table = None
    t0 = time.perf_counter()
    for lo in range(0, len(flat), chunk):
        rows = flat[lo : lo + chunk]
        batch = pa.table(
            {
                "id": pa.array([r["id"] for r in rows], pa.int64()),
                "vector": pa.FixedSizeListArray.from_arrays(
                    pa.array(vectors[lo : lo + chunk].reshape(-1)), vectors.shape[1]
                ),
                "text": [r["text"] for r in rows],
                "namespace": [r["namespace"] for r in rows],
                "kind": [r["kind"] for r in rows],
                "start_us": pa.array([r["start_us"] for r in rows], pa.int64()),
                "end_us": pa.array([r["end_us"] for r in rows], pa.int64()),
                "concepts": pa.array([r["concepts"] for r in rows], pa.list_(pa.string())),
            }
        )
        if table is None:
            table = db.create_table("episodes", data=batch)
        else:
            table.add(batch)
    assert table is not None
    from lancedb.index import FTS, BTree, LabelList

    table.create_index("text", config=FTS())
    table.create_index("start_us", config=BTree())
    table.create_index("end_us", config=BTree())
    table.create_index("concepts", config=LabelList())
    return table, time.perf_counter() - t0


def lancedb_search(table: Any) -> Search:
    def search(i: int, question: str, vector: Any) -> object:
        concept, start, end = recall.filters(i)
        where = (
            f"array_has_any(concepts, ['{concept}']) AND end_us >= {start} AND start_us <= {end}"
        )
        words = question.replace("?", "")
        return (
            table.search(query_type="hybrid")
            .vector(vector)
            .text(words)
            .where(where, prefilter=True)
            .limit(200)
            .to_list()
        )

    return search


# --------------------------------------------------------------------------- SQLite


def sqlite_with_extensions() -> tuple[Any, str]:
    """A DB-API module whose connections load sqlite-vec, and what it is; or (the stdlib
    module, the reason there is no sqlite-vec)."""
    try:
        import sqlite_vec  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        return sqlite3, "sqlite-vec is not installed (pip install -e '.[bench]')"
    candidates: list[Any] = [sqlite3]
    try:
        import pysqlite3.dbapi2 as pysqlite3  # type: ignore[import-not-found,import-untyped,unused-ignore]

        candidates.append(pysqlite3)
    except ImportError:
        pass
    for module in candidates:
        conn = module.connect(":memory:")
        try:
            conn.enable_load_extension(True)
            sqlite_vec.load(conn)
            return module, f"sqlite-vec {conn.execute('SELECT vec_version()').fetchone()[0]}"
        except (AttributeError, module.OperationalError):
            continue
        finally:
            conn.close()
    return sqlite3, (
        "no SQLite here loads extensions (the stdlib's cannot; pip install pysqlite3-binary)"
    )


def connect_sqlite(module: Any, path: Path, vec: bool) -> Any:
    conn = module.connect(str(path), isolation_level=None)
    if vec:
        import sqlite_vec  # type: ignore[import-untyped,unused-ignore]

        conn.enable_load_extension(True)
        sqlite_vec.load(conn)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def build_sqlite(
    module: Any, path: Path, flat: list[dict[str, Any]], vectors: Any, chunk: int, vec: bool
) -> float:
    conn = connect_sqlite(module, path, vec)
    # An ordinary table of BLOBs: the filter's rows are found by key, and sqlite-vec's
    # vec_distance_cosine ranks only those (a vec0 table's "rowid IN (...)" scanned all of
    # it: 1.9 s a question at 100k).
    vector_table = "CREATE TABLE vectors (rowid INTEGER PRIMARY KEY, embedding BLOB NOT NULL)"
    t0 = time.perf_counter()
    conn.executescript(
        f"""
        CREATE TABLE episodes (id INTEGER PRIMARY KEY, namespace TEXT NOT NULL,
            kind TEXT NOT NULL, start_us INTEGER NOT NULL, end_us INTEGER NOT NULL,
            content TEXT NOT NULL);
        CREATE INDEX episodes_time ON episodes (start_us);
        CREATE TABLE concepts (concept_id TEXT NOT NULL, episode INTEGER NOT NULL,
            PRIMARY KEY (concept_id, episode)) WITHOUT ROWID;
        CREATE VIRTUAL TABLE episodes_fts USING fts5 (content, content='episodes',
            content_rowid='id', tokenize='porter unicode61');
        {vector_table};
        """
    )
    for lo in range(0, len(flat), chunk):
        rows = flat[lo : lo + chunk]
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO episodes VALUES (?,?,?,?,?,?)",
            [
                (r["id"], r["namespace"], r["kind"], r["start_us"], r["end_us"], r["text"])
                for r in rows
            ],
        )
        conn.executemany(
            "INSERT INTO concepts VALUES (?,?)", [(c, r["id"]) for r in rows for c in r["concepts"]]
        )
        conn.executemany(
            "INSERT INTO episodes_fts (rowid, content) VALUES (?,?)",
            [(r["id"], r["text"]) for r in rows],
        )
        conn.executemany(
            "INSERT INTO vectors (rowid, embedding) VALUES (?,?)",
            [(r["id"], vectors[lo + i].tobytes()) for i, r in enumerate(rows)],
        )
        conn.execute("COMMIT")
    built = time.perf_counter() - t0
    conn.close()
    return built


def sqlite_search(module: Any, path: Path, vec: bool) -> Search:
    conn = connect_sqlite(module, path, vec)
    allowed = (
        "SELECT e.id FROM episodes e JOIN concepts c ON c.episode = e.id"
        " WHERE c.concept_id = ? AND e.end_us >= ? AND e.start_us <= ?"
    )

    def search(i: int, question: str, vector: Any) -> object:
        concept, start, end = recall.filters(i)
        match = " OR ".join(f'"{w}"' for w in question.replace("?", "").split())
        text = [
            r[0]
            for r in conn.execute(
                f"SELECT f.rowid FROM episodes_fts f JOIN ({allowed}) a ON a.id = f.rowid"
                " WHERE episodes_fts MATCH ? ORDER BY rank LIMIT 200",
                (concept, start, end, match),
            )
        ]
        if vec:
            near = [
                r[0]
                for r in conn.execute(
                    f"SELECT v.rowid FROM ({allowed}) a JOIN vectors v ON v.rowid = a.id"
                    " ORDER BY vec_distance_cosine(v.embedding, ?) LIMIT 200",
                    (concept, start, end, vector.tobytes()),
                )
            ]
        else:
            found = conn.execute(
                f"SELECT rowid, embedding FROM vectors WHERE rowid IN ({allowed})",
                (concept, start, end),
            ).fetchall()
            if found:
                matrix = np.frombuffer(b"".join(r[1] for r in found), dtype=np.float32)
                sims = matrix.reshape(len(found), -1) @ vector
                near = [found[j][0] for j in np.argsort(-sims)[:200]]
            else:
                near = []
        fused: dict[int, float] = {}
        for ranked in (text, near):
            for rank, seq in enumerate(ranked):
                fused[seq] = fused.get(seq, 0.0) + 1.0 / (60 + rank)
        return sorted(fused, key=lambda s: -fused[s])[:200]

    return search


# --------------------------------------------------------------------------- the run


def pct(samples: Sequence[float], q: float) -> float:
    return recall.pct(samples, q)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.write_side", description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--chunk", type=int, default=20_000)
    parser.add_argument(
        "--baseline-queries",
        type=int,
        default=None,
        help="the SQLite baseline answers only the first K questions (at 1M each takes"
        " minutes: FTS5 ranks every match), the others all of them",
    )
    parser.add_argument(
        "--embed",
        action="store_true",
        help="xdb's records carry no vectors: its build embeds them (the old path)",
    )
    args = parser.parse_args(argv)
    records, flat = corpus(args.n)
    vectors, embed_s = embed_all(flat)
    if not args.embed:
        records = with_vectors(records, vectors)
    print(
        f"{args.n:,} episodes (bench.recall's corpus), 384-d hashing vectors"
        f" (hashing embedder: {embed_s:.1f} s for all, {args.n / embed_s:,.0f}/s); cores"
        f" {os.cpu_count()}"
    )
    results: dict[str, tuple[float, int]] = {}  # store -> (build seconds, bytes)
    searches: dict[str, Search] = {}
    closers: list[Callable[[], object]] = []
    with tempfile.TemporaryDirectory(prefix="xdb-write-side-") as tmp:
        root = Path(tmp)
        # The SQLite baseline first (the reference of every ratio), xdb, then LanceDB.
        module, vec_note = sqlite_with_extensions()
        vec = vec_note.startswith("sqlite-vec ")
        name = "SQLite FTS5 + sqlite-vec" if vec else "SQLite FTS5 + BLOB vectors (numpy)"
        print(f"SQLite baseline: SQLite {module.sqlite_version}, {vec_note}")
        sq_path = root / "baseline.sqlite3"
        built = build_sqlite(module, sq_path, flat, vectors, args.chunk, vec)
        results[name] = (built, disk(sq_path) + disk(root / "baseline.sqlite3-wal"))
        searches[name] = sqlite_search(module, sq_path, vec)

        xdb_folder = root / "xdb"
        xdb_folder.mkdir()
        phases = build_xdb(xdb_folder / "x.sqlite3", records, args.chunk)
        results["xdb"] = (phases["build"], disk(xdb_folder))
        print(
            "xdb build: " + ", ".join(f"{k} {v:.1f} s" for k, v in phases.items() if k != "build")
        )
        parts = xdb_disk_by_part(xdb_folder, args.n)
        print(
            f"xdb disk, bytes an episode ({sum(b for _, b in parts):,} in all): "
            + ", ".join(f"{name} {b:,}" for name, b in parts)
        )
        db = xdb.connect(xdb_folder / "x.sqlite3", embedder="hash")
        closers.append(db.close)
        searches["xdb"] = xdb_search(db)

        try:
            import lancedb  # noqa: F401
        except ImportError:
            print("LanceDB is not installed (pip install -e '.[bench]'): no LanceDB comparison")
        else:
            table, built = build_lancedb(root / "lance", flat, vectors, args.chunk)
            results["LanceDB"] = (built, disk(root / "lance"))
            searches["LanceDB"] = lancedb_search(table)

        base_build, base_disk = results[name]
        print(f"\nbuild of {args.n:,} episodes       build    episodes/s   ratio    disk    ratio")
        for store, (seconds, size) in results.items():
            rate = args.n / seconds
            print(
                f"{store:<34} {seconds:6.1f} s {rate:10,.0f} {rate / (args.n / base_build):6.2f}x"
                f" {size / 1e6:7.0f} MB {size / base_disk:5.2f}x"
            )
        given = "embeds for itself (--embed)" if args.embed else "is given the vectors too"
        print(f"(ratios against {name}; xdb's build {given})")

        asked = recall.questions(args.queries)
        embedder = HashEmbedder()
        qvectors = [embedder.embed([q])[0].astype(np.float32) for q in asked]
        few = len(asked) if args.baseline_queries is None else args.baseline_queries
        asks = {store: few if store == name else len(asked) for store in searches}
        for store, search in searches.items():  # warm caches, load indexes
            for i in range(min(5, asks[store])):
                search(i, asked[i], qvectors[i])
        times: dict[str, list[float]] = {store: [] for store in searches if asks[store]}
        stores = list(times)
        for i, (q, v) in enumerate(zip(asked, qvectors, strict=True)):
            for store in stores[i % len(stores) :] + stores[: i % len(stores)]:
                if i >= asks[store]:
                    continue
                t = time.perf_counter()
                searches[store](i, q, v)
                times[store].append(time.perf_counter() - t)
        print(f"\n{args.queries} questions, concept filter + 60-day window, top 200, interleaved")
        if few < len(asked):
            print(f"({name} answered the first {few} only: --baseline-queries)")
        ours = sorted(times["xdb"])[len(times["xdb"]) // 2]
        for store, samples in times.items():
            p50 = sorted(samples)[len(samples) // 2]
            print(
                f"{store:<34} p50 {pct(samples, 0.5):7.2f} ms  p95 {pct(samples, 0.95):7.2f} ms"
                f"  {p50 / ours:5.2f}x xdb's p50"
            )
        for close in closers:
            close()


if __name__ == "__main__":
    main()
