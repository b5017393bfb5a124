"""The experience engine replayed: scripted coding sessions that repeat known mistakes,
scored for the warnings they get.

    python -m bench.engine_replay [--sessions 36] [--filler 60] [--embedder default|hash]

The store holds one lesson for each of ``bench.engine_families``' fourteen mistakes (as
past sessions would have left them) and ``--filler`` lessons about other things. Each
session (seeded, one of three projects' working directories) repeats two of the mistakes
(one of the three ways of making each), then does its fix (the agent heeds the warning),
and mixes in six calls about other things and three that only read, shuffled. Every call
goes through ``engine.check`` (the pre-tool-use hook's full path) and then
``engine.judge`` (post-tool-use), so lessons evolve as they would.

- **precision**: warnings shown on a call that repeats (or fixes) that lesson's mistake /
  warnings shown;
- **recall**: a session's repeated mistakes whose lesson was shown at or before the first
  repeat / repeated mistakes.

Both for the deterministic filter (no brain configured: the shipped default) and, on a
fresh copy of the same store, for layer 2 alone (a brain that is down: every shortlisted
warning passes, the engine failing open). Target (issue 21): report both.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import xdb
from bench.engine_families import FAMILIES, OTHERS, READS, Call, filler

PROJECTS = ("/w/shop", "/w/web", "/w/api")


def lesson_store(db: xdb.Database, total: int) -> int:
    """The families' lessons and filler up to ``total``; returns how many were stored."""
    for family in FAMILIES:
        db.add_lesson(**family.lesson, project=None)
    for extra in filler(max(0, total - len(FAMILIES))):
        db.add_lesson(**extra)
    return db.lessons(limit=10_000).total


def sessions(n: int, seed: int = 11) -> list[list[tuple[Call, str | None]]]:
    """``n`` scripted sessions: (call, the family whose mistake it repeats or fixes)."""
    rng = random.Random(seed)
    made = []
    for _ in range(n):
        calls: list[tuple[Call, str | None]] = []
        for family in rng.sample(FAMILIES, 2):
            calls.append((rng.choice(family.repeats), family.name))
            calls.append((family.fix, family.name))
        others = [(c, None) for c in rng.sample(OTHERS, 6) + rng.sample(READS, 3)]
        # Shuffled among the others; each mistake stays before its fix.
        for item in others:
            calls.insert(rng.randrange(len(calls) + 1), item)
        made.append(calls)
    return made


def replay(db: xdb.Database, scripts: list[list[tuple[Call, str | None]]]) -> dict[str, Any]:
    lesson_family: dict[str, str] = {}
    for known in FAMILIES:
        lesson_family.update({les.lesson_id: known.name for les in db.lessons(limit=10_000).lessons
                              if les.question == known.lesson["question"]})  # fmt: skip
    shown = relevant = repeated = warned = 0
    verdicts: dict[str, int] = {}
    started = time.perf_counter()
    rng = random.Random(5)
    for number, calls in enumerate(scripts):
        session = f"replay-{number}"
        cwd = rng.choice(PROJECTS)
        seen: set[str] = set()  # families whose lesson this session was shown
        first_repeat: set[str] = set()
        for call, family in calls:
            got = db.check(session_id=session, cwd=cwd, **call)
            for warning in got.warnings:
                shown += 1
                about = lesson_family.get(warning.lesson_id)
                relevant += about is not None and about == family
                if about is not None:
                    seen.add(about)
            if family is not None and family not in first_repeat:
                first_repeat.add(family)
                repeated += 1
                warned += family in seen
            judged = db.judge(session_id=session, cwd=cwd, tool_response="ok", **call)
            for v in judged.verdicts:
                verdicts[v.verdict] = verdicts.get(v.verdict, 0) + 1
    calls_made = sum(len(c) for c in scripts)
    return {
        "calls": calls_made,
        "shown": shown,
        "precision": relevant / shown if shown else float("nan"),
        "recall": warned / repeated if repeated else float("nan"),
        "repeated": repeated,
        "warned": warned,
        "verdicts": verdicts,
        "ms_per_call": (time.perf_counter() - started) * 1000 / calls_made,
    }


def run(args: argparse.Namespace, folder: Path) -> None:
    path = folder / "lessons.sqlite3"
    embedder = None if args.embedder == "default" else args.embedder
    with xdb.connect(path, embedder=embedder) as db:
        total = lesson_store(db, len(FAMILIES) + args.filler)
    scripts = sessions(args.sessions)
    print(f"{total} lessons; {len(scripts)} sessions, {sum(len(s) for s in scripts)} calls")
    results = {}
    for label, brain in (("layer 2 alone (brain down)", True), ("deterministic filter", False)):
        copy = folder / f"{label[:5]}.sqlite3"
        shutil.copy(path, copy)
        if brain:  # a brain nobody answers for: the engine fails open, the shortlist passes
            os.environ["XDB_BRAIN_URL"] = "http://127.0.0.1:9/v1"
            os.environ["XDB_BRAIN_MODEL"] = "none"
        try:
            with xdb.connect(copy, embedder=embedder) as db:
                results[label] = replay(db, scripts)
        finally:
            os.environ.pop("XDB_BRAIN_URL", None)
            os.environ.pop("XDB_BRAIN_MODEL", None)
    print(f"\n{'':<30} {'precision':>9} {'recall':>7} {'shown':>6} {'warned':>9} {'ms/call':>8}")
    for label, r in results.items():
        print(f"{label:<30} {r['precision']:9.3f} {r['recall']:7.3f} {r['shown']:6d}"
              f" {r['warned']:4d}/{r['repeated']:<4d} {r['ms_per_call']:8.1f}")  # fmt: skip
    for label, r in results.items():
        print(f"judge verdicts, {label}: {r['verdicts']}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine_replay", description=__doc__)
    parser.add_argument("--sessions", type=int, default=36)
    parser.add_argument("--filler", type=int, default=60)
    parser.add_argument("--embedder", default="default", help="default (the model) or hash")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        run(args, Path(folder))


if __name__ == "__main__":
    main()
