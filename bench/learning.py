"""The learning harness: ``build_dataset`` and ``bud_examples``.

(a) ``build_dataset`` of 500 positives and 500 negatives (balanced, a new seed each time)
    for one of ``bench.recall``'s 300 concepts, from its corpus (``--n`` episodes, 1M by
    default: each concept tags ~0.7% of them). Baseline, in the same process and file: the
    SQL a hand-rolled builder would run on the raw file (500 random episodes of the concept
    and 500 random ones without it, ``ORDER BY random() LIMIT 500``, with their content).
(b) ``bud_examples`` of a bud applied to 10,000 timesteps (one by one, and as ranges): the
    first page of 100 with the count, and all 10,000 in one call. Baseline: the same rows
    read by raw SQL (the tag's timesteps, joined, first 100 / all, and the count).

Targets (issue 19): (a) p50 under 1 s; (b) p50 under 50 ms.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import xdb
from bench.recall import ensure_corpus, pct


def timed(fn: Callable[[int], Any], runs: int) -> list[float]:
    out = []
    for i in range(runs):
        t = time.perf_counter()
        fn(i)
        out.append(time.perf_counter() - t)
    return out


def line(label: str, mine: Sequence[float], base: Sequence[float], target: str) -> str:
    ratio = statistics.median(mine) / statistics.median(base)
    return (
        f"{label:<44} xdb p50 {pct(mine, 0.5):8.1f} ms p95 {pct(mine, 0.95):8.1f}   raw SQL p50"
        f" {pct(base, 0.5):8.1f} ms   ratio {ratio:5.2f}   target {target}"
    )


def bench_datasets(path: Path, n: int, runs: int) -> None:
    with xdb.connect(path, embedder="hash") as db:
        t0 = time.perf_counter()
        ensure_corpus(db, path, n)
        print(f"{n:,} episodes ready in {time.perf_counter() - t0:.0f} s ({path})")
        concepts = [f"C{7 + 13 * i}" for i in range(runs + 1)]

        def ours(i: int) -> None:
            made = db.build_dataset(
                target_concept_id=concepts[i], max_positive=500, max_negative=500,
                sampling={"balance": "balanced", "random_seed": i},
                name=f"bench-{i}-{time.time_ns()}",
            )  # fmt: skip
            assert len(made.positive_exemplar_ids) == len(made.negative_exemplar_ids) == 500

        raw = sqlite3.connect(path)

        def baseline(i: int) -> None:
            c = concepts[i]
            pos = raw.execute(
                "SELECT e.seq, e.content FROM episodes e WHERE e.seq IN (SELECT episode_seq FROM"
                " episode_concepts WHERE concept_id = ?) ORDER BY random() LIMIT 500",
                (c,),
            ).fetchall()
            neg = raw.execute(
                "SELECT e.seq, e.content FROM episodes e WHERE NOT EXISTS (SELECT 1 FROM"
                " episode_concepts x WHERE x.episode_seq = e.seq AND x.concept_id = ?)"
                " ORDER BY random() LIMIT 500",
                (c,),
            ).fetchall()
            assert len(pos) == len(neg) == 500

        ours(runs)  # warm: the first call reads the policy objects and the pages
        mine = timed(ours, runs)
        base = timed(baseline, runs)
        raw.close()
        print(line("(a) build_dataset 500 + 500", mine, base, "p50 < 1000 ms"))


def bench_bud_examples(folder: Path, runs: int) -> None:
    path = folder / "buds.sqlite3"
    with xdb.connect(path, embedder="hash", session_id="s") as db:
        steps = [{"event_type": "output", "content": f"token {i}"} for i in range(20_000)]
        for i in range(0, len(steps), 5000):
            db.record_batch(steps[i : i + 5000])
        bud = db.create_tag(name="hunch", tag_type="bud").tag_id
        for tick in range(0, 5000):  # 5,000 one by one
            db.tag(tag_name_or_id=bud, timestep_id=f"ts-s-{1 + tick * 2}")  # ticks from 1
        for start in range(10_001, 15_001, 100):  # 5,000 more as 50 ranges of 100
            db.tag(tag_name_or_id=bud, tick_range={"start": start, "end": start + 99})
        assert db.bud_examples(bud_tag_id=bud).example_count == 10_000
        raw = sqlite3.connect(path)
        # The tag's timesteps by the indexes each kind of application names, as a person
        # writing the SQL by hand would read them.
        sql = (
            "SELECT t.session_id, t.tick, t.content FROM timesteps t WHERE t.seq IN ("
            "SELECT c.seq FROM tag_applications a JOIN timesteps c ON c.session_id ="
            " a.session_id AND c.tick = a.tick WHERE a.tag_id = ?1 AND a.target_type = 'timestep'"
            " UNION ALL SELECT c.seq FROM tag_applications a JOIN timesteps c ON c.session_id ="
            " a.session_id AND c.tick BETWEEN a.range_start AND a.range_end WHERE a.tag_id = ?1"
            " AND a.target_type = 'range') ORDER BY t.ts_us, t.seq"
        )

        def base(limit: int | None) -> Callable[[int], None]:
            def run(_: int) -> None:
                found = raw.execute(sql + (f" LIMIT {limit}" if limit else ""), (bud,)).fetchall()
                if limit:
                    raw.execute(f"SELECT count(*) FROM ({sql})", (bud,)).fetchone()
                assert len(found) == (limit or 10_000)

            return run

        for label, limit in (("first page of 100, with the count", 100), ("all 10,000", 10_000)):

            def ours(_: int, size: int = limit) -> None:
                got = db.bud_examples(bud_tag_id=bud, limit=size)
                assert len(got.examples) == size and got.example_count == 10_000

            ours(0)
            mine = timed(ours, runs)
            baseline = timed(base(None if limit == 10_000 else limit), runs)
            print(line(f"(b) bud_examples, {label}", mine, baseline, "p50 < 50 ms"))
        raw.close()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.learning", description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--db", help="keep the built corpus here and reuse it on later runs")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="xdb-learning-") as tmp:
        bench_bud_examples(Path(tmp), args.runs)
        bench_datasets(
            Path(args.db) if args.db else Path(tmp) / "corpus.sqlite3", args.n, args.runs
        )


if __name__ == "__main__":
    main()
