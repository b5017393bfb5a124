"""Concepts and the experience graph at scale: issue 5's targets.

    python -m bench.graph [--episodes 100000] [--tags 1000000] [--db-dir DIR] [--quick]

Prints each figure beside a baseline measured in the same process, and the ratio (the
machine is noisy; ratios travel better than milliseconds):

1. ``import_concepts`` of the vendored first-light pack (tests/data) into a fresh SQLite
   file (target < 10 s); baseline: reading and JSON-parsing every file of the pack.
2. ``find_concept(limit=20)`` p50 (target < 5 ms) over ~300 queries: exact names, aliases,
   typos (a letter of a real name dropped or swapped) and phrases from definitions;
   baseline: ``SELECT id FROM concepts WHERE term = ?`` on the same file.
3. depth-2 ``graph_neighborhood`` from an episode p50 (target < 20 ms) over ``--episodes``
   episodes tagged with first-light concepts (3-8 tags each, Zipf-skewed popularity, scores
   0.1-1.0, sessions of ~20 episodes so NEXT links exist, windows spread over a year), from
   ~200 random seeds; baseline: fetching the seed's concept tags in one SQL query.
4. ``concept_usage_summary`` with co-occurrence p50 (target < 200 ms) over ``--tags``
   concept tags (~5 per episode) for ~30 concepts from the most popular to rare ones;
   baseline: ``SELECT count(*) FROM episode_concepts WHERE concept_id = ?``. Also the most
   popular concept alone, and the p50 with ``include_descendants`` for the layer-2 concept
   with the largest subtree (baseline: counting the distinct episodes of its subtree).

The databases are built with ``import_records`` in chunks (see ``bench/recall.py``) and no
embedder runs: graph and concept operations read no vectors. ``--db-dir`` keeps them and
reuses them on later runs; ``--quick`` is a smoke run (5k episodes, 20k tags).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sqlite3
import statistics
import tarfile
import tempfile
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import xdb
from bench.recall import pct
from xdb.store.types import EpisodeFilter

T = TypeVar("T")
ARCHIVE = Path(__file__).resolve().parents[1] / "tests" / "data" / "first-light.tar.xz"
BASE = datetime(2025, 1, 1, tzinfo=UTC)
YEAR_MINUTES = 365 * 24 * 60
SESSION_LENGTH = 20  # episodes per session, on average
ZIPF_S = 1.0  # popularity of the concept of rank r ~ 1 / (r + 1) ** ZIPF_S
TAGS_PER_EPISODE = {"graph": (3, 8), "usage": (3, 7)}  # the usage database: ~5 per episode


def unpack_first_light(folder: Path) -> Path:
    """The vendored first-light pack, unpacked under ``folder`` (as tests/concepts/packs.py)."""
    with tarfile.open(ARCHIVE) as archive:
        archive.extractall(folder, filter="data")
    return folder / "first-light"


# --------------------------------------------------------------------------- building


Concept = tuple[str, str, str, int, list[str], str]  # what Store.concept_names() gives


def popularity(concepts: Sequence[Concept], seed: int = 3) -> list[str]:
    """The concept ids, most popular first (a seeded shuffle: popularity is not the id's
    order nor the layer's)."""
    ids = [c[0] for c in concepts]
    random.Random(seed).shuffle(ids)
    return ids


def episodes(
    ranked: Sequence[str], n: int, tags: tuple[int, int], seed: int = 17
) -> Iterator[dict[str, Any]]:
    """``n`` episode records: distinct concept tags drawn with a Zipf skew over ``ranked``,
    sessions of ~20 in a row, start times increasing over a year."""
    rng = random.Random(seed)
    cumulative = list(itertools.accumulate(1.0 / (r + 1) ** ZIPF_S for r in range(len(ranked))))
    total = cumulative[-1]
    session, left = 0, rng.randint(SESSION_LENGTH // 2, SESSION_LENGTH * 3 // 2)
    for i in range(n):
        if left == 0:
            session, left = session + 1, rng.randint(SESSION_LENGTH // 2, SESSION_LENGTH * 3 // 2)
        left -= 1
        start = BASE + timedelta(minutes=YEAR_MINUTES * i / n)
        end = start + timedelta(minutes=rng.randint(1, 30))
        want = rng.randint(*tags)
        chosen: dict[str, None] = {}
        while len(chosen) < want:
            chosen[ranked[bisect_left(cumulative, rng.random() * total)]] = None
        names = [c.rsplit("/", 1)[-1] for c in chosen]
        yield {
            "kind": "episode",
            "episode_id": episode_id(i),
            "episode_kind": rng.choice(["reply", "task", "incident"]),
            "session_id": f"bench-session-{session}",
            "content": f"Episode {i} about {', '.join(names)}.",
            "time_window": {"start_time": start.isoformat(), "end_time": end.isoformat()},
            "concept_tags": [
                {"concept_id": c, "score": round(rng.uniform(0.1, 1.0), 3)} for c in chosen
            ],
        }


def episode_id(i: int) -> str:
    return f"episode-bench{i:08d}"


def build(
    path: Path, pack: Path, n: int, tags: tuple[int, int], chunk: int = 20_000
) -> tuple[list[str], float]:
    """The database at ``path`` with the pack and ``n`` episodes (reused when it holds them
    already); returns the concepts by popularity and the seconds the build took (0 if
    reused)."""
    t0 = time.perf_counter()
    # The pack is read from its folder: the data root (xdb.paths) for this handle.
    with xdb.connect(path, embedder="hash", data_root=pack.parent) as db:
        # Graph and concept operations read no vectors: keep the embedder from starting
        # (import_records wakes it), so that it neither slows the build nor the timings.
        db.indexer.close()
        have = db.store.episode_max_seq()
        if have and have != n:
            raise SystemExit(f"{path} holds {have:,} episodes, not {n:,}: use another --db-dir")
        if not db.store.concept_packs():
            db.import_concepts(path=str(pack))
        ranked = popularity(db.store.concept_names())
        if not have:
            made = episodes(ranked, n, tags)
            while batch := list(itertools.islice(made, chunk)):
                db.import_records(batch)
            return ranked, time.perf_counter() - t0
    return ranked, 0.0


# --------------------------------------------------------------------------- timing


def timed(fn: Callable[[T], Any], args: Sequence[T], repeats: int = 1) -> list[float]:
    """Seconds per call of ``fn`` on each of ``args``, each ``repeats`` times."""
    out = []
    for arg in args:
        for _ in range(repeats):
            t = time.perf_counter()
            fn(arg)
            out.append(time.perf_counter() - t)
    return out


def queries(concepts: Sequence[Concept], count: int, seed: int = 7) -> list[tuple[str, str]]:
    """(kind, query) pairs, a quarter each: exact names, aliases, typos, definition phrases."""
    rng = random.Random(seed)
    names = [c[2] for c in concepts if len(c[2]) >= 5]
    aliases = [a for c in concepts for a in c[4] if a.strip()]
    phrases = [c[5].split() for c in concepts if len(c[5].split()) >= 4]
    out: list[tuple[str, str]] = []
    for i in range(count):
        kind = ("name", "alias", "typo", "definition")[i % 4]
        if kind == "name":
            q = rng.choice(names)
        elif kind == "alias":
            q = rng.choice(aliases)
        elif kind == "typo":
            word = rng.choice(names)
            at = rng.randrange(1, len(word) - 1)
            if rng.random() < 0.5:  # drop a letter
                q = word[:at] + word[at + 1 :]
            else:  # swap two neighbours
                q = word[: at - 1] + word[at] + word[at - 1] + word[at + 1 :]
        else:
            words = rng.choice(phrases)
            size = rng.randint(2, 4)
            lo = rng.randrange(0, len(words) - size + 1)
            q = " ".join(words[lo : lo + size]).strip(".,;:()")
        out.append((kind, q or "concept"))
    return out


def ratio(ours: Sequence[float], base: Sequence[float]) -> float:
    return statistics.median(ours) / max(statistics.median(base), 1e-9)


Row = tuple[str, float, float, str, float | None]  # name, xdb, baseline, unit, target


def report(row: Row) -> str:
    name, ours, base, unit, target = row
    verdict = "" if target is None else ("PASS" if ours < target else "FAIL")
    aim = "" if target is None else f" (target < {target:g} {unit}) {verdict}"
    return (
        f"{name}: {ours:,.2f} {unit}{aim}; baseline {base:,.3f} {unit},"
        f" xdb/baseline {ours / max(base, 1e-9):,.1f}"
    )


# --------------------------------------------------------------------------- the targets


def bench_import(folder: Path, pack: Path, repeats: int) -> list[Row]:
    files = [pack / "pack.json", pack / "hierarchy.json", *sorted(pack.glob("concepts/*/*.json"))]
    ours, base = [], []
    for i in range(repeats):
        t = time.perf_counter()
        parsed = [json.loads(f.read_text(encoding="utf-8")) for f in files]
        base.append(time.perf_counter() - t)
        with xdb.connect(
            folder / f"import-{i}.sqlite3", embedder="hash", data_root=pack.parent
        ) as db:
            db.indexer.close()
            db.store.episode_max_seq()  # the schema made before the clock starts
            t = time.perf_counter()
            out = db.import_concepts(path=str(pack))
            ours.append(time.perf_counter() - t)
    print(
        f"import_concepts: {out.concept_count:,} concepts, {out.relation_count:,} relations"
        f" ({len(parsed):,} files), best of {repeats}"
    )
    return [("import_concepts first-light", min(ours), min(base), "s", 10.0)]


def bench_find(path: Path, count: int) -> list[Row]:
    with xdb.connect(path, embedder="hash") as db:
        concepts = db.store.concept_names()
        asked = queries(concepts, count)
        t = time.perf_counter()
        db.find_concept(query="warm up", limit=20)  # builds the in-memory name index
        cold = time.perf_counter() - t
        texts = [q for _, q in asked]
        timed(lambda q: db.find_concept(query=q, limit=20), texts[:20])
        ours = timed(lambda q: db.find_concept(query=q, limit=20), texts)
    conn = sqlite3.connect(path)
    term_sql = "SELECT id FROM concepts WHERE term = ?"
    raw = timed(lambda q: conn.execute(term_sql, (q,)).fetchall(), texts)
    conn.close()
    print(f"find_concept: {len(asked)} queries; first call (builds the index) {cold * 1e3:.0f} ms")
    for kind in ("name", "alias", "typo", "definition"):
        mine = [s for s, (k, _) in zip(ours, asked, strict=True) if k == kind]
        print(f"  {kind:<10} p50 {pct(mine, 0.5):6.2f} ms  p95 {pct(mine, 0.95):6.2f} ms")
    print(f"  all        p50 {pct(ours, 0.5):6.2f} ms  p95 {pct(ours, 0.95):6.2f} ms")
    return [("find_concept p50", pct(ours, 0.5), pct(raw, 0.5), "ms", 5.0)]


def bench_neighborhood(path: Path, n: int, seeds: int) -> list[Row]:
    rng = random.Random(23)
    picked = [rng.randrange(n) for _ in range(seeds)]
    conn = sqlite3.connect(path)
    seqs = [
        conn.execute("SELECT seq FROM episodes WHERE id = ?", (episode_id(i),)).fetchone()[0]
        for i in picked
    ]
    sizes: list[int] = []
    truncated = 0
    with xdb.connect(path, embedder="hash") as db:

        def walk(i: int) -> None:
            nonlocal truncated
            out = db.graph_neighborhood(seed_node_ids=[episode_id(i)], max_depth=2)
            sizes.append(len(out.nodes))
            truncated += out.truncated

        timed(walk, picked[:10])  # warm
        sizes.clear()
        truncated = 0
        ours = timed(walk, picked)
    tags_sql = "SELECT concept_id FROM episode_concepts WHERE episode_seq = ?"
    raw = timed(lambda s: conn.execute(tags_sql, (s,)).fetchall(), seqs)
    conn.close()
    print(
        f"graph_neighborhood depth 2 from {len(picked)} episodes of {n:,}: p50"
        f" {pct(ours, 0.5):.2f} ms, p95 {pct(ours, 0.95):.2f} ms; nodes returned p50"
        f" {statistics.median(sizes):.0f}, {truncated} of {len(picked)} stopped at max_nodes"
    )
    return [("graph_neighborhood depth-2 p50", pct(ours, 0.5), pct(raw, 0.5), "ms", 20.0)]


def bench_usage(path: Path, ranked: Sequence[str], count: int, repeats: int) -> list[Row]:
    # ~count concepts from the most popular to rare ones, spaced geometrically by rank.
    last = len(ranked) - 1
    ranks = sorted({min(last, round((last + 1) ** (k / (count - 1))) - 1) for k in range(count)})
    chosen = [ranked[r] for r in ranks]
    conn = sqlite3.connect(path)
    tags_total = conn.execute("SELECT count(*) FROM episode_concepts").fetchone()[0]
    n = conn.execute("SELECT count(*) FROM episodes").fetchone()[0]
    carried = {
        c: conn.execute(
            "SELECT count(*) FROM episode_concepts WHERE concept_id = ?", (c,)
        ).fetchone()[0]
        for c in chosen
    }
    # The layer-2 concept with the largest subtree, for include_descendants.
    layer2 = [r[0] for r in conn.execute("SELECT id FROM concepts WHERE layer = 2 ORDER BY id")]
    with xdb.connect(path, embedder="hash") as db:
        subtrees = {c: len(db.store.concept_subtree(c)) for c in layer2}
        wide = max(layer2, key=lambda c: (subtrees[c], c))

        def summary(c: str, descendants: bool = False) -> None:
            db.concept_usage_summary(
                concept_ids=[c],
                include_cooccurrence=True,
                include_activations=False,
                include_descendants=descendants,
            )

        timed(summary, chosen[len(chosen) // 2 :][:1])  # warm
        per = {c: timed(summary, [c], repeats) for c in chosen}
        tree = timed(lambda c: summary(c, True), [wide], repeats)
        group = db.store.concept_subtree(wide)
        wide_carried = db.store.concept_carriers(EpisodeFilter(), group)
    count_sql = "SELECT count(*) FROM episode_concepts WHERE concept_id = ?"
    raw = {
        c: timed(lambda c: conn.execute(count_sql, (c,)).fetchone(), [c], repeats) for c in chosen
    }
    marks = ",".join("?" * len(group))
    tree_sql = (
        f"SELECT count(DISTINCT episode_seq) FROM episode_concepts WHERE concept_id IN ({marks})"
    )
    raw_tree = timed(lambda g: conn.execute(tree_sql, g).fetchone(), [group], repeats)
    conn.close()
    raws = [s for times in raw.values() for s in times]
    ours = [s for times in per.values() for s in times]
    print(
        f"concept_usage_summary over {tags_total:,} tags on {n:,} episodes,"
        f" {len(chosen)} concepts x {repeats}:"
    )
    for c in chosen[:3] + chosen[-2:]:
        print(
            f"  {c.rsplit('/', 1)[-1]:<28} {carried[c]:>7,} episodes"
            f"  p50 {pct(per[c], 0.5):8.2f} ms"
        )
    top = chosen[0]
    print(
        f"  all        p50 {pct(ours, 0.5):.2f} ms  p95 {pct(ours, 0.95):.2f} ms;"
        f" the most popular ({carried[top]:,} episodes, {carried[top] / n:.0%})"
        f" {pct(per[top], 0.5):.2f} ms"
    )
    print(
        f"  include_descendants, {wide.rsplit('/', 1)[-1]} (layer 2, {subtrees[wide]:,}"
        f" concepts, {len(wide_carried):,} episodes): p50 {pct(tree, 0.5):.2f} ms"
    )
    return [
        ("concept_usage_summary p50", pct(ours, 0.5), pct(raws, 0.5), "ms", 200.0),
        ("  the most popular concept p50", pct(per[top], 0.5), pct(raw[top], 0.5), "ms", None),
        ("  include_descendants, layer 2 p50", pct(tree, 0.5), pct(raw_tree, 0.5), "ms", None),
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.graph", description=__doc__)
    parser.add_argument("--episodes", type=int, default=100_000, help="for graph_neighborhood")
    parser.add_argument("--tags", type=int, default=1_000_000, help="for concept_usage_summary")
    parser.add_argument("--queries", type=int, default=300, help="find_concept queries")
    parser.add_argument("--seeds", type=int, default=200, help="graph_neighborhood seeds")
    parser.add_argument("--concepts", type=int, default=30, help="concept_usage_summary")
    parser.add_argument("--repeats", type=int, default=3, help="per usage concept, and imports")
    parser.add_argument("--db-dir", help="keep the built databases here and reuse them")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 5k episodes, 20k tags")
    args = parser.parse_args(argv)
    if args.quick:
        args.episodes, args.tags = 5_000, 20_000
        args.queries, args.seeds, args.concepts, args.repeats = 100, 50, 10, 1
    with tempfile.TemporaryDirectory(prefix="xdb-graph-") as tmp:
        folder = Path(tmp)
        pack = unpack_first_light(folder)
        keep = Path(args.db_dir) if args.db_dir else folder
        keep.mkdir(parents=True, exist_ok=True)
        rows = bench_import(folder, pack, args.repeats)
        graph_db = keep / f"graph-{args.episodes}.sqlite3"
        _, took = build(graph_db, pack, args.episodes, TAGS_PER_EPISODE["graph"])
        print(f"graph database: {args.episodes:,} episodes " + built(took, graph_db))
        rows += bench_find(graph_db, args.queries)
        rows += bench_neighborhood(graph_db, args.episodes, args.seeds)
        usage_db = keep / f"usage-{args.tags}.sqlite3"
        n = args.tags // 5
        ranked, took = build(usage_db, pack, n, TAGS_PER_EPISODE["usage"])
        print(f"usage database: {n:,} episodes " + built(took, usage_db))
        rows += bench_usage(usage_db, ranked, args.concepts, args.repeats)
    print()
    for row in rows:
        print(report(row))


def built(seconds: float, path: Path) -> str:
    return f"built in {seconds:.0f} s" if seconds else f"reused from {path}"


if __name__ == "__main__":
    main()
