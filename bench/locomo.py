"""LoCoMo retrieval benchmark: does search_episodes find the turns that answer a question?

    python -m bench.locomo ../shared/data/locomo/locomo-dev.json [--embedder minilm] [--cv]

Each conversation goes into its own namespace, each turn becomes one episode ("Speaker:
text [image: caption]") dated with its session's date. Every question of categories 1-4 is
asked with ``search_episodes`` (text only, its conversation's namespace). A question counts
for recall_any@k when any of its evidence turns is in the top k (malformed evidence ids count
as misses); session level uses the D<n> part. The hybrid ranking is printed beside a
BM25-only and a vector-only ranking of the same data, in the same process.

``--cv`` cross-validates the fusion weights (``xdb.episodes.ranking.Weights``): for each
conversation, the weights that score best (turn@10, then turn@5) on the other
conversations are fitted on a grid, and the held-out conversation is scored with them;
the per-fold and mean figures are printed for the hybrid ranking and for BM25 and vectors
alone (each with its own fitted session boost). Each question's lists are read once and
fused again for every grid point, so the grid costs no more reads.

The data stays where it is (CC BY-NC 4.0): nothing of it is copied into the repository.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import xdb
from xdb.episodes.ranking import DEFAULT_WEIGHTS, Ranking, Signals, Weights, fuse
from xdb.models.common import Caller
from xdb.ops.registry import Context
from xdb.store.types import EpisodeFilter

CATEGORIES = (1, 2, 3, 4)


def session_time(text: str) -> datetime:
    # e.g. "1:56 pm on 8 May, 2023"
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def turn_text(turn: dict[str, Any]) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [image: {turn['blip_caption']}]"
    return text


def ingest(
    db: xdb.Database, samples: list[dict[str, Any]], sessions: bool = True
) -> dict[str, str]:
    """Add every turn (``sessions``: with its conversation session's id); return episode id
    -> dia_id."""
    dia: dict[str, str] = {}
    for sample in samples:
        conv = sample["conversation"]
        n = 1
        while f"session_{n}" in conv:
            when = session_time(conv[f"session_{n}_date_time"]).isoformat()
            for turn in conv[f"session_{n}"]:
                made = db.add_episode(
                    content=turn_text(turn),
                    kind="turn",
                    namespace=sample["sample_id"],
                    session_id=f"{sample['sample_id']}-s{n}" if sessions else None,
                    time_window={"start_time": when, "end_time": when},
                    metadata={"dia_id": turn["dia_id"]},
                )
                dia[made.episode_id] = turn["dia_id"]
            n += 1
    return dia


def probe_latency(db: xdb.Database) -> None:
    """add_episode returns at once; how long until the episode is vector-searchable?"""
    returned, searchable = [], []
    for i in range(20):
        t0 = time.perf_counter()
        db.add_episode(content=f"Probe {i}: a new turn about kayaks", namespace="probe")
        returned.append(time.perf_counter() - t0)
        assert db.wait_for_embeddings(60)
        searchable.append(time.perf_counter() - t0)
    returned.sort()
    searchable.sort()
    print(
        f"add_episode returns in {returned[10] * 1e3:.1f} ms p50; vector-searchable after"
        f" {searchable[10] * 1e3:.0f} ms p50, {searchable[-1] * 1e3:.0f} ms max (target 1 s)"
    )


def stored_turns(path: str) -> dict[str, str]:
    """episode id -> dia_id of a database this benchmark built before (--db reuse)."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT id, json_extract(metadata, '$.dia_id') FROM episodes")
        return {i: d for i, d in rows if d is not None}  # not the latency probes
    finally:
        conn.close()


def session_of(dia_id: str) -> str:
    return dia_id.split(":")[0]


def score(ranked: list[list[str]], questions: list[dict[str, Any]]) -> dict[str, float]:
    hits = {"turn@5": 0, "turn@10": 0, "session@5": 0}
    for top, q in zip(ranked, questions, strict=True):
        evidence = set(q["evidence"])
        hits["turn@5"] += bool(evidence & set(top[:5]))
        hits["turn@10"] += bool(evidence & set(top[:10]))
        sessions = {session_of(e) for e in evidence}
        hits["session@5"] += bool(sessions & {session_of(d) for d in top[:5]})
    return {k: v / len(questions) for k, v in hits.items()}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.locomo", description=__doc__)
    parser.add_argument("path", type=Path, help="locomo-dev.json")
    parser.add_argument("--embedder", default="minilm", help="minilm (default), hash, openai")
    parser.add_argument(
        "--db", default=":memory:", help="where to build the database (an existing one is reused)"
    )
    parser.add_argument("--cv", action="store_true", help="cross-validate the fusion weights")
    parser.add_argument(
        "--no-sessions", action="store_true", help="add the turns without their session ids"
    )
    parser.add_argument(
        "--no-wait",
        action="store_true",
        help="ask at once after adding, without waiting for the embeddings (a new database)",
    )
    args = parser.parse_args(argv)
    samples = json.loads(args.path.read_text(encoding="utf-8"))
    questions = [
        {**q, "sample": s["sample_id"]}
        for s in samples
        for q in s["qa"]
        if q["category"] in CATEGORIES
    ]
    reuse = args.db != ":memory:" and Path(args.db).exists()
    with xdb.connect(args.db, embedder=args.embedder) as db:
        start = time.perf_counter()
        if reuse and args.no_wait:
            parser.error("--no-wait needs a new database: leave --db out or name a new file")
        dia = stored_turns(args.db) if reuse else ingest(db, samples, not args.no_sessions)
        added = time.perf_counter() - start
        if args.no_wait:
            print(f"{len(dia)} turns added in {added:.1f} s; asking at once")
        else:
            assert db.wait_for_embeddings(3600), db.indexer.failure
            embedded = time.perf_counter() - start
            print(f"{len(dia)} turns added in {added:.1f} s, embedded by {embedded:.1f} s")
        if not args.no_wait:
            probe_latency(db)
        ctx = Context(db.store, Caller(), lambda: "", {}, db.indexer)
        base = DEFAULT_WEIGHTS
        runs = {
            "hybrid": base,
            "bm25 only": Weights(1.0, base.session_boost),
            "vector only": Weights(0.0, base.session_boost),
        }
        results = {}
        for name, weight in runs.items():
            ranked, took = [], []
            for q in questions:
                t0 = time.perf_counter()
                ranking = Ranking(q["question"], [], 0.5, 0.0, weights=weight)
                top = ranking.rank(ctx, EpisodeFilter(namespace=q["sample"]))[:10]
                took.append(time.perf_counter() - t0)
                found = ctx.store.episodes_by_seqs([s for s, _ in top])
                ranked.append([dia[found[s].episode.id] for s, _ in top if s in found])
            results[name] = score(ranked, questions)
            took.sort()
            results[name]["p50 ms"] = took[len(took) // 2] * 1e3
        # The operation itself, end to end, for the hybrid run's latency.
        t0 = time.perf_counter()
        for q in questions[:100]:
            db.search_episodes(
                text_query=q["question"], namespace=q["sample"], page={"page_size": 10}
            )
        per_call = (time.perf_counter() - t0) / min(100, len(questions)) * 1e3
        if args.cv:
            signals = [
                Ranking(q["question"], [], 0.5, 0.0).signals(
                    ctx, EpisodeFilter(namespace=q["sample"]), sessions=True
                )
                for q in questions
            ]
            turns = {
                s: dia[e.episode.id]
                for s, e in ctx.store.episodes_by_seqs(
                    sorted({seq for sig in signals for seq in _seqs(sig)})
                ).items()
                if e.episode.id in dia
            }
    print(f"{len(questions)} questions (categories 1-4), embedder {args.embedder}")
    print(f"{'run':<12} {'turn@5':>7} {'turn@10':>8} {'session@5':>10} {'p50 ms':>7}")
    for name, r in results.items():
        print(
            f"{name:<12} {r['turn@5']:>7.3f} {r['turn@10']:>8.3f} {r['session@5']:>10.3f}"
            f" {r['p50 ms']:>7.1f}"
        )
    print(f"search_episodes end to end (incl. query embedding): {per_call:.1f} ms per call")
    target = results["hybrid"]["turn@10"]
    best_single = max(results["bm25 only"]["turn@10"], results["vector only"]["turn@10"])
    print(
        f"target turn recall_any@10 >= 0.80: {'met' if target >= 0.8 else 'NOT met'} ({target:.3f})"
    )
    print(f"hybrid above both single signals: {'yes' if target > best_single else 'NO'}")
    if args.cv:
        cross_validate(questions, signals, turns)


TEXT_GRID = [i / 10 for i in range(11)]
BOOST_GRID = [i / 10 for i in range(13)]


def _seqs(signals: Signals) -> set[int]:
    return set(signals.bm25) | set(signals.vectors)


def _ranked(
    signals: list[Signals], turns: dict[int, str], weights: Weights, which: list[int]
) -> list[list[str]]:
    return [[turns[s] for s, _ in fuse(signals[i], weights)[:10] if s in turns] for i in which]


def cross_validate(
    questions: list[dict[str, Any]], signals: list[Signals], turns: dict[int, str]
) -> None:
    """Leave one conversation out: fit the weights on the others, score the one left."""
    folds = sorted({q["sample"] for q in questions})
    grids = {
        "hybrid": [Weights(t, b) for t in TEXT_GRID[1:-1] for b in BOOST_GRID],
        "bm25 only": [Weights(1.0, b) for b in BOOST_GRID],
        "vector only": [Weights(0.0, b) for b in BOOST_GRID],
    }
    cache: dict[tuple[Weights, str], list[list[str]]] = {}
    by_fold = {f: [i for i, q in enumerate(questions) if q["sample"] == f] for f in folds}

    def ranked(weights: Weights, fold: str) -> list[list[str]]:
        key = (weights, fold)
        if key not in cache:
            cache[key] = _ranked(signals, turns, weights, by_fold[fold])
        return cache[key]

    def scored(weights: Weights, among: list[str]) -> dict[str, float]:
        tops = [top for f in among for top in ranked(weights, f)]
        return score(tops, [questions[i] for f in among for i in by_fold[f]])

    print(f"\ncross-validation, {len(folds)} folds (one conversation held out each)")
    head = f"{'held out':<10} {'run':<12} {'weights':<16}"
    print(f"{head} {'turn@5':>7} {'turn@10':>8} {'session@5':>10}")
    means: dict[str, dict[str, float]] = {name: {} for name in grids}
    for fold in folds:
        rest = [f for f in folds if f != fold]
        for name, grid in grids.items():
            best = max(
                grid,
                key=lambda w: ((r := scored(w, rest))["turn@10"], r["turn@5"], -abs(w.text - 0.5)),
            )
            result = scored(best, [fold])
            for k, v in result.items():
                means[name][k] = means[name].get(k, 0.0) + v / len(folds)
            shown = f"t={best.text:.1f} s={best.session_boost:.1f}"
            print(
                f"{fold:<10} {name:<12} {shown:<16} {result['turn@5']:>7.3f}"
                f" {result['turn@10']:>8.3f} {result['session@5']:>10.3f}"
            )
    for name, grid in grids.items():
        best = max(
            grid,
            key=lambda w: ((r := scored(w, folds))["turn@10"], r["turn@5"], -abs(w.text - 0.5)),
        )
        fitted = f"text={best.text:.1f} session_boost={best.session_boost:.1f}"
        print(f"fitted on every fold, {name}: {fitted}")
    print("mean of the folds' figures")
    for name, r in means.items():
        figures = f"{r['turn@5']:>7.3f} {r['turn@10']:>8.3f} {r['session@5']:>10.3f}"
        print(f"{'':<10} {name:<12} {'':<16} {figures}")


if __name__ == "__main__":
    main()
