"""Recall speed: search_episodes with text + a concept filter + a time range, at scale.

    python -m bench.recall [--n 100000] [--queries 200] [--embedder hash|minilm]
                           [--db PATH] [--baseline-queries 30] [--chroma]

Builds ``n`` synthetic episodes (sentences drawn from a Zipf-distributed vocabulary of ~4,000
words with names and places, 1-3 concept tags from 300 concepts, spread over a year, 20 namespaces),
embeds them, then times the relevance ranking for natural-language questions (stopword-heavy,
the hard case for BM25) with a concept filter and a time range:

- excluding the query embedding (the vector is computed before the clock starts), p50/p95;
- the same questions with a namespace too, and the bare questions with no filter;
- the query embedding alone, p50;
- the vector index's memory per episode;
- with ``--chroma`` (``pip install -e '.[bench]'``), the same questions against chromadb
  (embedded, on disk) holding the same vectors, time windows and concept tags as metadata:
  its vector query with the same filters (chromadb has no BM25 to rank by), and the ratio.

Baseline in the same run, on the same rows: what a hand-rolled store does for the same
question, an FTS5 OR query of every word (bm25 top 200) plus a numpy brute-force scan of all
vectors, each filtered afterwards. ``--embedder hash`` (default) is the documented cheaper
stand-in with the same dimension (384) as MiniLM; ``minilm`` embeds with the real model
(about 100-150 episodes/s on 2 cores: ~15 min at 100k).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

import xdb
from xdb.episodes.ranking import Ranking
from xdb.models.common import Caller
from xdb.ops.registry import Context
from xdb.store.types import ConceptCondition, EpisodeFilter
from xdb.timeutil import to_us

_NAMES = "Caroline Melanie John Maria Deborah Jolene Tim Andrew"
NAMES = _NAMES.split()
PLACES = ["Paris", "the lake", "the office", "Sweden", "the museum", "the park", "Tokyo"]
VERBS = ["went to", "talked about", "painted", "visited", "planned", "remembered", "fixed"]
_NOUNS = (
    "trip deploy server budget garden kite river painting concert job interview dog cat book "
    "recipe marathon camera guitar school friend family weekend project bug release meeting "
    "database migration tests pipeline coffee summer winter holiday museum festival"
)
NOUNS = _NOUNS.split()
_FILLER = "the a and of to in it was that with for on as is at by this we they but so"
FILLER = _FILLER.split()
# A realistic long tail: 4,000 made-up words after the common nouns, drawn by Zipf's law.
_SYLLABLE_TEXT = "ka lo mi ne ro ta vu se di pa ge zo ri mu fe"
_SYLLABLES = _SYLLABLE_TEXT.split()
RARE = [a + b + c for a in _SYLLABLES for b in _SYLLABLES for c in _SYLLABLES[:18]][:4000]
VOCAB = NOUNS + RARE
QUESTIONS = [
    "what did {n} say about the {x} last {s}?",
    "when did {n} go to {p} with the {x}?",
    "how did the {x} and the {y} work out for {n}?",
    "why was {n} worried about the {x} at {p}?",
]
SEASONS = ["summer", "winter", "week", "month"]
BASE = datetime(2025, 1, 1, tzinfo=UTC)


def sentence(rng: random.Random) -> str:
    words = [rng.choice(NAMES), rng.choice(VERBS), rng.choice(PLACES)]
    for _ in range(rng.randint(20, 40)):
        pool = FILLER if rng.random() < 0.45 else VOCAB
        words.append(pool[min(int(rng.paretovariate(0.8)) - 1, len(pool) - 1)])
    return " ".join(words) + "."


def episodes(n: int, seed: int = 11) -> Iterator[dict[str, Any]]:
    """``n`` synthetic episodes as export records (what ``import_records`` takes)."""
    rng = random.Random(seed)
    for i in range(n):
        when = (BASE + timedelta(minutes=rng.randint(0, 525_600))).isoformat()
        yield {
            "kind": "episode",
            "content": sentence(rng),
            "episode_kind": rng.choice(["reply", "task", "incident"]),
            "namespace": f"ns{i % 20}",
            "time_window": {"start_time": when, "end_time": when},
            "concept_tags": [
                {"concept_id": f"C{rng.randint(0, 299)}", "score": round(rng.random(), 2)}
                for _ in range(rng.randint(1, 3))
            ],
        }


def build(db: xdb.Database, n: int, seed: int = 11, chunk: int = 20_000) -> None:
    """Import the episodes in transactions of ``chunk``: one add_episode per transaction
    flushes an FTS5 segment per episode, and a 1M build took hours that way."""
    made = episodes(n, seed)
    while batch := list(itertools.islice(made, chunk)):
        db.import_records(batch)


def questions(count: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    return [
        rng.choice(QUESTIONS).format(
            n=rng.choice(NAMES),
            x=VOCAB[min(int(rng.paretovariate(0.8)) - 1, len(VOCAB) - 1)],
            y=VOCAB[min(int(rng.paretovariate(0.8)) - 1, len(VOCAB) - 1)],
            p=rng.choice(PLACES),
            s=rng.choice(SEASONS),
        )
        for _ in range(count)
    ]


def pct(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e3


def filters(i: int) -> tuple[str, int, int]:
    """The concept and the 60-day window of question ``i``."""
    start = to_us(BASE + timedelta(days=(i * 7) % 300))
    return f"C{i % 300}", start, start + 60 * 86_400 * 1_000_000


def time_xdb(
    db: xdb.Database,
    asked: list[str],
    vectors: list[Any],
    filtered: bool = True,
    namespace: bool = False,
) -> list[float]:
    """Seconds per question; ``filtered=False`` asks the bare question over everything;
    ``namespace``: the filter also names one of the 20 namespaces."""
    ctx = Context(db.store, Caller(), lambda: "", {}, db.indexer)
    times = []
    for i, (q, vec) in enumerate(zip(asked, vectors, strict=True)):
        concept, start, end = filters(i)
        flt = EpisodeFilter(
            start_us=start,
            end_us=end,
            concepts=[ConceptCondition(concept, 0.0, None, False, True, False)],
            namespace=f"ns{i % 20}" if namespace else None,
        )
        concepts = [concept] if filtered else []
        t = time.perf_counter()
        Ranking(q, concepts, 0.5, 0.0, query_vector=vec).rank(
            ctx, flt if filtered else EpisodeFilter()
        )
        times.append(time.perf_counter() - t)
    return times


def time_baseline(path: Path, matrix: Any, asked: list[str], vectors: list[Any]) -> list[float]:
    """A hand-rolled store: an FTS5 OR of every word plus a numpy scan of every vector."""
    conn = sqlite3.connect(path)
    times = []
    for i, (q, vec) in enumerate(zip(asked, vectors, strict=True)):
        concept, start, end = filters(i)
        t = time.perf_counter()
        match = " OR ".join(f'"{w}"' for w in q.replace("?", "").split())
        ids = conn.execute(
            "SELECT e.seq FROM episodes_fts JOIN episodes e ON e.seq = episodes_fts.rowid"
            " WHERE episodes_fts MATCH ? AND e.start_us BETWEEN ? AND ? AND EXISTS"
            " (SELECT 1 FROM episode_concepts c WHERE c.episode_seq = e.seq AND"
            " c.concept_id = ?) ORDER BY rank LIMIT 200",
            (match, start, end, concept),
        ).fetchall()
        sims = matrix @ vec
        top = np.argpartition(-sims, 200)[:200]
        times.append(time.perf_counter() - t)
        assert ids is not None and top.size == 200
    conn.close()
    return times


def time_chroma(
    path: Path, stored: list[Any], folder: Path, vectors: list[Any]
) -> list[float] | None:
    try:
        import chromadb  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        print("chromadb is not installed (pip install -e '.[bench]'): no chromadb comparison")
        return None
    conn = sqlite3.connect(path)
    tags: dict[int, dict[str, float]] = {}
    for seq, concept, score in conn.execute(
        "SELECT episode_seq, concept_id, score FROM episode_concepts"
    ):
        tags.setdefault(seq, {})[concept] = score
    conn.close()
    client = chromadb.PersistentClient(path=str(folder))
    collection = client.create_collection("episodes", metadata={"hnsw:space": "cosine"})
    t = time.perf_counter()
    step = min(5000, client.get_max_batch_size())
    for lo in range(0, len(stored), step):
        rows = stored[lo : lo + step]
        collection.add(
            ids=[str(r[1]) for r in rows],
            embeddings=np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32).reshape(
                len(rows), -1
            ),
            metadatas=[
                {"ns": r[3], "start": r[4], "end": r[5], "kind": r[6], **tags.get(r[1], {})}
                for r in rows
            ],
        )
    print(f"chromadb: {len(stored):,} vectors added in {time.perf_counter() - t:.0f} s")
    times = []
    for i, vec in enumerate(vectors):
        concept, start, end = filters(i)
        # Any: chromadb's Where type changes between releases (1.5 narrowed it).
        where: Any = {
            "$and": [{"end": {"$gte": start}}, {"start": {"$lte": end}}, {concept: {"$gte": 0.0}}]
        }
        t = time.perf_counter()
        collection.query(query_embeddings=[vec], n_results=200, where=where, include=["distances"])
        times.append(time.perf_counter() - t)
    return times


def ensure_corpus(db: xdb.Database, path: Path, n: int) -> float:
    """The corpus of ``n`` episodes in ``db`` (kept from an earlier run at ``path``, or built
    now) and embedded; the seconds building took."""
    t0 = time.perf_counter()
    have = db.store.episode_max_seq()
    if have and have < n:
        raise SystemExit(f"{path} holds {have:,} episodes, not --n {n:,}")
    if have > n:  # e.g. bench.explorer's corpus: these n, then a session of its own
        print(f"{path} holds {have - n:,} episodes besides the generator's {n:,}")
    if not have:
        build(db, n)
    built = time.perf_counter() - t0
    assert db.wait_for_embeddings(7200), db.indexer.failure
    return built


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.recall", description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--baseline-queries", type=int, default=30, help="FTS5 OR is slow")
    parser.add_argument("--embedder", default="hash")
    parser.add_argument("--db", help="keep the built database here and reuse it on later runs")
    parser.add_argument("--chroma", action="store_true", help="compare with chromadb")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="xdb-recall-") as tmp:
        path = Path(args.db) if args.db else Path(tmp) / "recall.sqlite3"
        with xdb.connect(path, embedder=args.embedder) as db:
            t0 = time.perf_counter()
            built = ensure_corpus(db, path, args.n)
            embedded = time.perf_counter() - t0
            print(f"{args.n:,} episodes added in {built:.0f} s, embedded by {embedded:.0f} s")
            t = time.perf_counter()
            index = db.indexer.index()
            print(f"vector index loaded in {time.perf_counter() - t:.1f} s")
            asked = questions(args.queries)
            embed_times, vectors = [], []
            for q in asked:
                e0 = time.perf_counter()
                vectors.append(db.indexer.embedder.embed([q])[0])
                embed_times.append(time.perf_counter() - e0)
            time_xdb(db, asked[:10], vectors[:10])  # warm the caches and the allocator
            ours = time_xdb(db, asked, vectors)
            named = time_xdb(db, asked, vectors, namespace=True)
            bare = time_xdb(db, asked[:50], vectors[:50], filtered=False)
            stored = db.store.load_vectors(index.model)  # float32, for the baselines
            matrix = np.frombuffer(b"".join(r[2] for r in stored), dtype=np.float32)
            matrix = matrix.reshape(len(stored), index.dimension)
            few = args.baseline_queries
            raw = time_baseline(path, matrix, asked[:few], vectors[:few])
            per_episode = index.memory_bytes() / max(1, len(index))
            chroma = (
                time_chroma(path, stored, Path(tmp) / "chroma", vectors) if args.chroma else None
            )
    with_embedding = [a + b for a, b in zip(ours, embed_times, strict=True)]
    print(f"{args.queries} questions, text + concept filter + 60-day time range, top 200 fused")
    print(f"search (excl. embedding)  p50 {pct(ours, 0.5):6.2f} ms  p95 {pct(ours, 0.95):6.2f} ms")
    print(
        f"search (incl. embedding)  p50 {pct(with_embedding, 0.5):6.2f} ms"
        f"  p95 {pct(with_embedding, 0.95):6.2f} ms"
    )
    print(
        f"the same with a namespace too       p50 {pct(named, 0.5):6.2f} ms"
        f"  p95 {pct(named, 0.95):6.2f} ms"
    )
    print(
        f"bare question, no filter ({len(bare)} questions) p50 {pct(bare, 0.5):6.2f} ms"
        f"  p95 {pct(bare, 0.95):6.2f} ms"
    )
    print(f"query embedding ({args.embedder}) p50 {pct(embed_times, 0.5):6.2f} ms")
    print(
        f"baseline (FTS5 OR + numpy scan, {few} questions) p50 {pct(raw, 0.5):6.2f} ms"
        f"  p95 {pct(raw, 0.95):6.2f} ms"
    )
    print(f"ratio p50 baseline/xdb {statistics.median(raw) / statistics.median(ours):.2f}")
    if chroma:
        print(
            f"chromadb (vector + the same filters) p50 {pct(chroma, 0.5):6.2f} ms"
            f"  p95 {pct(chroma, 0.95):6.2f} ms"
        )
        print(f"ratio p50 chromadb/xdb {statistics.median(chroma) / statistics.median(ours):.2f}")
    print(f"vector index memory per episode: {per_episode:,.0f} bytes (target <= 1,024)")


if __name__ == "__main__":
    main()
