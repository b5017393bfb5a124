"""Policy overhead: search_episodes for a partner under a treaty, against the agent itself.

    python -m bench.policy [--n 100000] [--db PATH] [--queries 200]

Builds (or reuses, with ``--db``) the synthetic corpus of ``bench.recall``: ``n`` episodes with
1-3 concept tags each from 300 concepts ``C0``..``C299``, hash-embedded. An admin then defines
a disclosure policy that allows the even-numbered concepts (half of them) and denies every
twentieth one and those starting ``C29``, and a treaty granting it to the partner ``acme``.

The same natural-language questions (page size 20) are asked by the agent (``self``,
unrestricted) and by ``acme-bot`` (role ``partner``, under the treaty), alternating who goes
first per question so that drift and noise fall on both alike, after a warm-up that loads
the indexes:

- (a) the text alone; (b) the text and a concept filter on a concept the partner may see.
  Both callers go through ``Database.run``: the partner's call also reads its view (the
  stored policy objects, compiled), admits its request and releases each page (hidden
  concept tags left out of every hit). p50/p95 per caller and the ratio of the p50s
  (target: below 1.20);
- (c) the text alone again, while an access policy that only ``self`` reads covers every
  tenth episode: the partner's reads go through the store's restricted views
  (``store/access.py``) and its search through an allowlist of the episodes it may read;
  afterwards the episodes go back under the default (the corpus is left as found);
- (d) ``record`` of one timestep with 5 concept activations into a new file that keeps the
  audit log (the default: each timestep also appended to the hash chain, in the same
  transaction) and into one that does not (``audit=False``), taking turns: p50/p95 and the
  ratio of the p50s (target: below 1.30).
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
from bench.recall import ensure_corpus, pct, questions
from xdb.episodes.episode_models import SearchEpisodesResponse
from xdb.models.common import Caller
from xdb.ops.catalog import REGISTRY
from xdb.policy.load import visibility

SEARCH = REGISTRY["experience.search_episodes"]
CONCEPTS = [f"C{i}" for i in range(300)]  # what bench.recall tags episodes with
SELF = Caller()
PARTNER = Caller(id="acme-bot", roles=("partner",), treaty_ids=("t1",))
WARMUP = 5


def set_policy(db: xdb.Database) -> list[str]:
    """The partner's disclosure policy and treaty; returns the concepts it may see."""
    admin = db.as_caller(Caller(id="ops", roles=("admin",)))
    admin.set_disclosure_policy(
        id="partner-view",
        description="bench.policy: the even concepts, less every 20th and C29*",
        allow={"concepts": CONCEPTS[::2]},
        deny={"concepts": CONCEPTS[::20], "prefixes": ["C29"]},
    )
    admin.set_treaty(id="t1", partner="acme", disclosure_policy_id="partner-view")
    view = visibility(db.store, PARTNER)
    return [c for c in CONCEPTS if view.visible(c)]


def hide_every_tenth(db: xdb.Database, path: Path) -> list[str]:
    """Put every tenth episode under an access policy only ``self`` reads; their ids."""
    conn = sqlite3.connect(path)
    try:
        ids = [r[0] for r in conn.execute("SELECT id FROM episodes WHERE seq % 10 = 0")]
    finally:
        conn.close()
    admin = db.as_caller(Caller(id="ops", roles=("self", "admin")))
    admin.set_access_policy(id="bench-private", read_roles=["self"])
    admin.assign_access_policy(policy_id="bench-private", episode_ids=ids)
    return ids


def search(db: xdb.Database, who: Caller, payload: dict[str, Any]) -> SearchEpisodesResponse:
    response = db.run(SEARCH, payload, caller=who)
    assert isinstance(response, SearchEpisodesResponse)
    return response


def payloads(asked: list[str], concepts: list[str] | None) -> list[dict[str, Any]]:
    """One request per question; with ``concepts``, question ``i`` filters on the i-th."""
    out = []
    for i, q in enumerate(asked):
        payload: dict[str, Any] = {"text_query": q, "page": {"page_size": 20}}
        if concepts:
            c = concepts[i % len(concepts)]
            payload["concept_filters"] = [{"concept_id": c, "polarity": "present"}]
        out.append(payload)
    return out


def tags(response: SearchEpisodesResponse) -> int:
    return sum(len(hit.concept_tags) for hit in response.episodes)


def interleaved(
    db: xdb.Database, requests: list[dict[str, Any]]
) -> tuple[list[float], list[float], int, int]:
    """Seconds per request for self and for the partner (alternating who goes first), and
    the concept tags each was shown in all."""
    for payload in requests[:WARMUP]:
        search(db, SELF, payload)
        search(db, PARTNER, payload)
    mine: list[float] = []
    theirs: list[float] = []
    shown = {SELF: 0, PARTNER: 0}
    for i, payload in enumerate(requests):
        order = (SELF, PARTNER) if i % 2 == 0 else (PARTNER, SELF)
        for who in order:
            t = time.perf_counter()
            response = search(db, who, payload)
            (mine if who is SELF else theirs).append(time.perf_counter() - t)
            shown[who] += tags(response)
    return mine, theirs, shown[SELF], shown[PARTNER]


def time_records(folder: Path, count: int = 2000) -> tuple[list[float], list[float]]:
    """Seconds per ``record`` of one timestep with 5 concept activations, as self, into two
    new files: one keeping the audit log (the default), one not (``audit=False``), taking
    turns record by record so that noise falls on both alike."""
    audited = xdb.connect(folder / "audited.sqlite3", embedder="hash", session_id="s")
    bare = xdb.connect(folder / "bare.sqlite3", embedder="hash", session_id="s", audit=False)
    times: dict[bool, list[float]] = {True: [], False: []}
    try:
        for i in range(count + 50):
            activations = {CONCEPTS[(i * 7 + k * 31) % 300]: 0.1 + 0.15 * k for k in range(5)}
            for audit in (True, False) if i % 2 else (False, True):
                db = audited if audit else bare
                t = time.perf_counter()
                db.record(event_type="output", content=f"token {i}",
                          concept_activations=activations)  # fmt: skip
                if i >= 50:  # the first few warm the session's rows and the statement cache
                    times[audit].append(time.perf_counter() - t)
    finally:
        audited.close()
        bare.close()
    return times[True], times[False]


def row(label: str, mine: Sequence[float], theirs: Sequence[float]) -> str:
    def p(samples: Sequence[float]) -> str:
        return f"{pct(samples, 0.5):7.2f} {pct(samples, 0.95):7.2f}"

    ratio = statistics.median(theirs) / statistics.median(mine)
    return f"{label:<28} {p(mine)}   {p(theirs)}   {ratio:5.2f}"


def run(args: argparse.Namespace, path: Path) -> None:
    """Everything timed on the database at ``path``, printed as it is measured."""
    with xdb.connect(path, embedder="hash") as db:
        t0 = time.perf_counter()
        ensure_corpus(db, path, args.n)
        print(f"{args.n:,} episodes ready in {time.perf_counter() - t0:.0f} s ({path})")
        visible = set_policy(db)
        print(
            f"partner acme-bot (treaty t1, policy partner-view) sees {len(visible)} of "
            f"{len(CONCEPTS)} concepts"
        )
        asked = questions(args.queries)
        cases: list[tuple[str, Callable[[], list[dict[str, Any]]]]] = [
            ("(a) text only", lambda: payloads(asked, None)),
            ("(b) text + visible concept", lambda: payloads(asked, visible)),
        ]
        print(
            f"{args.queries} questions, page_size 20, interleaved self/partner; ms"
            f"\n{'':<28} {'self p50':>7} {'p95':>7}   {'ptnr p50':>7} {'p95':>7}   ratio"
        )
        notes = []
        for label, make in cases:
            mine, theirs, shown_self, shown_partner = interleaved(db, make())
            print(row(label, mine, theirs))
            extra = statistics.median(b - a for a, b in zip(mine, theirs, strict=True))
            notes.append(
                f"{label}: concept tags shown self {shown_self:,}, partner {shown_partner:,}"
                f" ({1 - shown_partner / max(1, shown_self):.0%} hidden);"
                f" median paired overhead {extra * 1e3:.3f} ms"
            )
        print("\n".join(notes))
        hidden = hide_every_tenth(db, path)
        try:
            mine, theirs, _, _ = interleaved(db, payloads(asked, None))
            print(row(f"(c) text, {len(hidden):,} hidden", mine, theirs))
        finally:
            admin = db.as_caller(Caller(id="ops", roles=("self", "admin")))
            admin.assign_access_policy(policy_id=None, episode_ids=hidden)
            admin.remove_policy(kind="access_policy", id="bench-private")
    with tempfile.TemporaryDirectory(prefix="xdb-audit-") as tmp:
        audited, bare = time_records(Path(tmp))
    print(
        f"(d) record, 5 concept activations, {len(bare)} each, us:"
        f"  without the audit log p50 {pct(bare, 0.5) * 1e3:.0f} p95 {pct(bare, 0.95) * 1e3:.0f};"
        f"  with it p50 {pct(audited, 0.5) * 1e3:.0f} p95 {pct(audited, 0.95) * 1e3:.0f};"
        f"  ratio {statistics.median(audited) / statistics.median(bare):.2f} (target < 1.30)"
    )
    print("target: ratio partner/self p50 < 1.20")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.policy", description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--db", help="keep the built database here and reuse it on later runs")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="xdb-policy-") as tmp:
        path = Path(args.db) if args.db else Path(tmp) / "policy.sqlite3"
        run(args, path)


if __name__ == "__main__":
    main()
