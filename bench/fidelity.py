"""Fidelity: compaction throughput, maintenance, and ``record`` with compaction crossing.

    python -m bench.fidelity [--ticks 10000000] [--sessions 1000] [--budget 900]
                             [--records 20000] [--cache-dir DIR]

Every xdb figure is printed beside a baseline measured in the same process:

(a) Compaction throughput (ticks/s): ``db.compact(session_id=..., keep_tokens=0)`` on every
    session of a database of ``--ticks`` token timesteps over ``--sessions`` sessions (each
    with ``token_id``, three concept activations; ~80% of ticks in events of 50-200 ticks
    with event_id/event_start/event_end, the rest in runs of 20-100 outside events; every
    other event has the episode recording it would have made, imported through xdb so
    compaction adopts it). Sessions are spread over the past two years, a tick a second.
    Built once and cached (``--cache-dir``, keyed by size and a digest of the schema): xdb
    makes the file (migrations), then rows go in by SQL, ``timesteps`` and ``sessions``
    rows settled (next_tick, count, not pending), and in the same transaction as each chunk
    xdb's own ``textindex.catch_up`` indexes them in ``timesteps_fts`` and moves its watermark; the
    episodes are imported with ``db.import_records`` and embedded (hash embedder).
    Baseline, on a second copy of the file, interleaved session by session: the raw SQL a
    hand-rolled store runs for the same work, in one transaction per session: read the
    session's HOT ticks in order (all but the newest, which xdb keeps too), delete their
    FTS5 entries and the rows (one DELETE), and insert one row per reply (same grouping as
    xdb: an event, or up to 256 ticks outside events) with the joined text into a scratch
    table. No summary, concept aggregation, episode or vector: that is xdb's overhead.
    Sessions run in a shuffled order until ``--budget`` seconds pass; if they stop short,
    the sample and the extrapolated full run are printed. The embedding worker embeds the
    new records in the background meanwhile (taking CPU from both sides); what it has left
    after the loop is timed and shown separately.
(b) One ``db.maintenance()`` on the compacted file (contract: default ages, so replies
    climb reply -> session -> ... -> year by the age of their ticks; ``cold_storage_bytes``
    2**50, so no storage pressure): duration, bytes before and after. Baseline: what its
    last step is alone, ``PRAGMA auto_vacuum = INCREMENTAL; VACUUM`` (xdb's first reclaim
    on a file) of a copy of the same compacted file, taken before maintenance.
(c) ``db.record`` latency (output token, " tok") in one session of a fresh file with a
    2,000-token window (threshold 0.8, target 0.5: compaction every ~600 records) against
    a fresh file whose window (2**40) no run fills; ``--records`` each, in alternating
    blocks of 500 so machine noise falls on both.

Targets (issue 20): (a) and (b) none (reported); (c) record p50 ratio <= 1.5.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import xdb
from xdb.store.sqlite import textindex

ADMIN = xdb.Caller(id="admin", roles=("admin",))
DAY_US = 86_400 * 1_000_000
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
RUN = 256  # ticks outside events per reply, as xdb.fidelity.compaction.RUN
FORMAT = 1  # bump when the generated corpus changes (the cache is keyed by it)
_WORDS = (
    "the a of and to in we it is was that for on with as at by this plan deploy server test"
    " build release fix bug run data model token agent memory tool call reply user answer"
    " question context window record episode session day week month year log query index"
)
VOCAB = [f" {w}" for w in _WORDS.split()] + ["."] * 6  # a sentence every ~10 tokens
_rng = random.Random(3)
POOL = [
    {f"C{c}": round(_rng.uniform(0.05, 1.0), 3) for c in _rng.sample(range(300), 3)}
    for _ in range(4096)
]
POOL_JSON = [json.dumps(a, separators=(",", ":")) for a in POOL]
INSERT = (
    "INSERT INTO timesteps (seq, session_id, tick, ts_us, event_type, role, content, token_id,"
    " event_id, event_start, event_end, activations) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)


def iso(us: int) -> str:
    return (EPOCH + timedelta(microseconds=us)).isoformat()


def pct(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def session_rows(
    sid: str, ticks: int, t0: int, seq: int, rng: random.Random
) -> tuple[list[tuple[Any, ...]], list[dict[str, Any]]]:
    """The session's timestep rows (seq from ``seq + 1``) and its episode records."""
    rows: list[tuple[Any, ...]] = []
    eps: list[dict[str, Any]] = []
    tick, k = 1, 0
    while tick <= ticks:
        event = rng.random() < 0.8
        size = min(rng.randint(50, 200) if event else rng.randint(20, 100), ticks - tick + 1)
        eid = f"ev{k}" if event else None
        first = len(rows)
        for i in range(size):
            seq += 1
            tid = (seq * 2654435761) % len(VOCAB)
            rows.append(
                (seq, sid, tick + i, t0 + (tick + i) * 1_000_000, "output", "assistant",
                 VOCAB[tid], tid, eid, int(event and i == 0), int(event and i == size - 1),
                 POOL_JSON[(seq * 40503) % len(POOL)])
            )  # fmt: skip
        if event and k % 2 == 0:  # what recording the event's end would have made
            mine = rows[first:]
            best: dict[str, float] = {}
            for r in mine:
                for c, s in POOL[(r[0] * 40503) % len(POOL)].items():
                    best[c] = max(best.get(c, 0.0), s)
            top = sorted(best.items(), key=lambda cs: (-cs[1], cs[0]))[:10]
            eps.append(
                {
                    "kind": "episode",
                    "episode_kind": "reply",
                    "content": "".join(r[6] for r in mine).strip(),
                    "session_id": sid,
                    "time_window": {"start_time": iso(mine[0][3]), "end_time": iso(mine[-1][3])},
                    "concept_tags": [{"concept_id": c, "score": s} for c, s in top if s >= 0.1],
                    "provenance": {
                        "session_id": sid,
                        "start_tick": tick,
                        "source": "log",
                        "end_tick": tick + size - 1,
                        "details": {"event_id": eid},
                    },
                }
            )
        tick += size
        k += event
    return rows, eps


def build(path: Path, n: int, sessions: int) -> None:
    part = path.with_name(path.name + ".part")
    for p in (part, Path(f"{part}-wal"), Path(f"{part}-shm")):
        p.unlink(missing_ok=True)
    with xdb.connect(part, embedder="hash"):
        pass  # migrations
    now = time.time_ns() // 1000
    span = 730 * DAY_US
    conn = sqlite3.connect(part, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    seq, eps = 0, []
    chunk = 20
    for lo in range(0, sessions, chunk):
        conn.execute("BEGIN")
        for i in range(lo, min(lo + chunk, sessions)):
            sid = f"s{i:05d}"
            ticks = n // sessions + (1 if i < n % sessions else 0)
            t0 = now - span + i * (span // sessions)
            rows, made = session_rows(sid, ticks, t0, seq, random.Random(i))
            conn.executemany(INSERT, rows)
            seq += len(rows)
            eps += made
            conn.execute(
                "INSERT INTO sessions (session_id, next_tick, created_us, last_us, timesteps,"
                " pending) VALUES (?,?,?,?,?,0)",
                (sid, ticks + 1, rows[0][3], rows[-1][3], ticks),
            )
        textindex.catch_up(conn)  # the index and its watermark, in the rows' transaction
        conn.execute("COMMIT")
        if (lo // chunk) % 10 == 9:
            print(f"  {seq:,} timesteps", flush=True)
    conn.close()
    with xdb.connect(part, embedder="hash") as db:
        for lo in range(0, len(eps), 5000):
            db.import_records(eps[lo : lo + 5000])
        assert db.wait_for_embeddings(7200), db.indexer.failure
    checkpoint(part)
    os.replace(part, path)
    print(f"  {seq:,} timesteps, {len(eps):,} event episodes")


def schema_key(work: Path) -> str:
    """A digest of the schema a new file gets: a cached corpus is rebuilt when it changes."""
    path = work / "schema.sqlite3"
    with xdb.connect(path, embedder="hash"):
        pass
    conn = sqlite3.connect(path)
    sql = "".join(r[0] or "" for r in conn.execute("SELECT sql FROM sqlite_master ORDER BY name"))
    conn.close()
    return hashlib.sha256(sql.encode()).hexdigest()[:10]


def checkpoint(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    conn.close()


def copy(src: Path, dst: Path) -> None:
    checkpoint(src)
    shutil.copyfile(src, dst)


def groups(rows: Sequence[tuple[Any, ...]]) -> Iterator[list[tuple[Any, ...]]]:
    """Replies as xdb groups them: an event's ticks, or up to ``RUN`` outside events."""
    cur: list[tuple[Any, ...]] = []
    for r in rows:
        if cur and cur[-1][3] == r[3] and (r[3] is not None or len(cur) < RUN):
            cur.append(r)
        else:
            if cur:
                yield cur
            cur = [r]
    if cur:
        yield cur


def raw_compact(conn: sqlite3.Connection, sid: str) -> int:
    conn.execute("BEGIN IMMEDIATE")
    rows = conn.execute(
        "SELECT seq, tick, ts_us, event_id, content FROM timesteps WHERE session_id = ?"
        " AND fidelity = 'hot' ORDER BY tick",
        (sid,),
    ).fetchall()[:-1]  # the newest stays
    if rows:
        conn.executemany(
            "INSERT INTO timesteps_fts (timesteps_fts, rowid, content) VALUES ('delete', ?, ?)",
            [(r[0], r[4]) for r in rows],
        )
        conn.execute(
            "DELETE FROM timesteps WHERE session_id = ? AND fidelity = 'hot' AND tick <= ?",
            (sid, rows[-1][1]),
        )
        conn.executemany(
            "INSERT INTO bench_replies VALUES (?,?,?,?,?,?)",
            [
                (sid, g[0][1], g[-1][1], g[0][2], g[-1][2], "".join(r[4] for r in g)[:1000])
                for g in groups(rows)
            ],
        )
    conn.execute("COMMIT")
    return len(rows)


def bench_compaction(cached: Path, work: Path, n: int, budget: float) -> Path:
    mine, base = work / "xdb.sqlite3", work / "raw.sqlite3"
    copy(cached, mine)
    copy(cached, base)
    raw = sqlite3.connect(base, isolation_level=None)
    raw.execute("PRAGMA synchronous = NORMAL")  # as xdb's writer
    raw.execute(
        "CREATE TABLE bench_replies (session_id TEXT, tick_start INT, tick_end INT,"
        " start_us INT, end_us INT, content TEXT)"
    )
    order = [r[0] for r in raw.execute("SELECT session_id FROM sessions ORDER BY session_id")]
    random.Random(5).shuffle(order)
    t_mine = t_base = 0.0
    ticks_mine = ticks_base = records = done = 0
    with xdb.connect(mine, embedder="hash") as db:
        started = time.perf_counter()
        for sid in order:
            t = time.perf_counter()
            ticks_base += raw_compact(raw, sid)
            t_base += time.perf_counter() - t
            t = time.perf_counter()
            got = db.compact(session_id=sid, keep_tokens=0)
            t_mine += time.perf_counter() - t
            ticks_mine += got.timesteps_compacted
            records += got.records_made
            done += 1
            if time.perf_counter() - started > budget:
                break
        t = time.perf_counter()
        assert db.wait_for_embeddings(7200), db.indexer.failure
        drain = time.perf_counter() - t
    raw.close()
    base.unlink()
    rate, raw_rate = ticks_mine / t_mine, ticks_base / t_base
    print(
        f"(a) compaction, {done:,} of {len(order):,} sessions ({ticks_mine:,} ticks into"
        f" {records:,} reply records, {n:,} in the file)"
    )
    if done < len(order):
        print(
            f"    SAMPLED: stopped after {budget:.0f} s; the full run extrapolates to"
            f" {n / rate:,.0f} s for xdb and {n / raw_rate:,.0f} s for raw SQL"
        )
    assert ticks_mine == ticks_base, (ticks_mine, ticks_base)
    print(
        f"    xdb compact {rate:12,.0f} ticks/s ({t_mine:7.1f} s)   raw SQL {raw_rate:12,.0f}"
        f" ticks/s ({t_base:7.1f} s)   ratio xdb/raw {rate / raw_rate:5.2f}   target: none"
    )
    print(
        f"    + embedding the records afterwards {drain:.1f} s:"
        f" {ticks_mine / (t_mine + drain):,.0f} ticks/s all told"
    )
    return mine


def bench_maintenance(path: Path, work: Path) -> None:
    base = work / "vacuum.sqlite3"
    copy(path, base)
    size = base.stat().st_size
    raw = sqlite3.connect(base, isolation_level=None)
    t = time.perf_counter()
    raw.execute("PRAGMA auto_vacuum = INCREMENTAL")
    raw.execute("VACUUM")
    vacuum = time.perf_counter() - t
    raw.close()
    vacuumed = base.stat().st_size
    base.unlink()
    with xdb.connect(path, embedder="hash") as db:
        db.as_caller(ADMIN).set_resource_contract(cold_storage_bytes=2**50)
        t = time.perf_counter()
        got = db.maintenance()
        took = time.perf_counter() - t
        t = time.perf_counter()
        assert db.wait_for_embeddings(7200), db.indexer.failure
        drain = time.perf_counter() - t
    mb = 1 << 20
    print(
        f"(b) maintenance: {got.records_compressed:,} records merged into"
        f" {got.records_made:,} {dict(sorted(got.by_level.items()))}, finished {got.finished}"
    )
    print(
        f"    xdb maintenance {took:7.1f} s  bytes {got.bytes_before / mb:,.1f} ->"
        f" {got.bytes_after / mb:,.1f} MiB (after/before {got.bytes_after / got.bytes_before:.3f})"
        f"   + embedding {drain:.1f} s"
    )
    print(
        f"    raw VACUUM      {vacuum:7.1f} s  bytes {size / mb:,.1f} -> {vacuumed / mb:,.1f} MiB"
        f" (after/before {vacuumed / size:.3f})   ratio time xdb/VACUUM {took / vacuum:5.2f}"
        "   target: none"
    )


def bench_record(work: Path, records: int, window: int, block: int = 500) -> bool:
    hot = xdb.connect(work / "hot.sqlite3", embedder="hash", session_id="s")
    calm = xdb.connect(work / "calm.sqlite3", embedder="hash", session_id="s")
    try:
        hot.as_caller(ADMIN).set_resource_contract(context_window_tokens=window)
        calm.as_caller(ADMIN).set_resource_contract(context_window_tokens=2**40)
        times: dict[int, list[float]] = {0: [], 1: []}
        dbs = (hot, calm)
        for db in dbs:  # warm: the first calls read the contract and the pages
            for i in range(200):
                db.record(event_type="output", content=" tok", token_id=i)
        for b in range(0, records, block):
            for which in (b // block % 2, 1 - b // block % 2):  # who goes first alternates
                db, out = dbs[which], times[which]
                for i in range(b, min(b + block, records)):
                    t = time.perf_counter()
                    db.record(event_type="output", content=" tok", token_id=i)
                    out.append(time.perf_counter() - t)
        ctx = hot.context()
        calm_ctx = calm.context()
    finally:
        hot.close()
        calm.close()
    p50, base50 = pct(times[0], 0.5), pct(times[1], 0.5)
    print(
        f"(c) record, {records:,} each: window {window:,} ({ctx.compaction_count} compactions,"
        f" {ctx.current_tokens:,} HOT tokens left) vs 2**40 ({calm_ctx.compaction_count}"
        f" compactions, {calm_ctx.current_tokens:,} tokens)"
    )
    for label, lat in (("crossing", times[0]), ("never", times[1])):
        print(
            f"    {label:<9} p50 {pct(lat, 0.5) * 1e3:7.3f} ms  p99 {pct(lat, 0.99) * 1e3:7.3f} ms"
            f"  max {max(lat) * 1e3:8.1f} ms  mean {statistics.fmean(lat) * 1e3:7.3f} ms"
        )
    ok = p50 / base50 <= 1.5
    print(f"    p50 ratio {p50 / base50:5.2f}   target <= 1.5: {'met' if ok else 'NOT met'}")
    return ok


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.fidelity",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--ticks", type=int, default=10_000_000)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--budget", type=float, default=900.0, help="seconds for (a)'s loop")
    parser.add_argument("--records", type=int, default=20_000, help="records per side in (c)")
    parser.add_argument("--window", type=int, default=2000, help="(c)'s crossing window")
    parser.add_argument(
        "--cache-dir", default=str(Path(tempfile.gettempdir()) / "xdb-bench-fidelity")
    )
    parser.add_argument("--skip", default="", help="parts to skip, e.g. 'ab' or 'c'")
    args = parser.parse_args(argv)
    Path(args.cache_dir).mkdir(parents=True, exist_ok=True)
    print(f"python sqlite {sqlite3.sqlite_version}, {os.cpu_count()} cpus")
    print("targets (issue 20): (a) compaction ticks/s and (b) maintenance: none, reported;")
    print("                    (c) record p50 with compaction crossing / without <= 1.5x")
    with tempfile.TemporaryDirectory(prefix="xdb-fidelity-", dir=args.cache_dir) as tmp:
        work = Path(tmp)
        if "c" not in args.skip:
            bench_record(work, args.records, args.window)
        if "a" in args.skip:
            return
        cache = Path(args.cache_dir)
        name = f"fidelity-v{FORMAT}-{schema_key(work)}-{args.ticks}-{args.sessions}.sqlite3"
        cached = cache / name
        if not cached.exists():
            print(f"building {cached} ...")
            t = time.perf_counter()
            build(cached, args.ticks, args.sessions)
            print(f"  built in {time.perf_counter() - t:.0f} s")
        compacted = bench_compaction(cached, work, args.ticks, args.budget)
        if "b" not in args.skip:
            bench_maintenance(compacted, work)


if __name__ == "__main__":
    main()
