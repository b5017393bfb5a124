"""The explorer's pages on the demo's database: each page's wall time (data and HTML), p50
and p95, against ``GET /healthz`` in the same run. The README's performance table quotes it;
run by hand (``python -m tests.explorer.demo_timing [--rounds 50]``), not by the suite.

Like ``bench.explorer`` (which times the same pages on a million episodes), pages are asked
in process (FastAPI's TestClient: the ASGI app whole, no socket), in rounds, every page once
a round, so the machine's noise falls on all of them. The database is a fresh demo (``xdb
demo``) with the real embedding model, the way a person sees it after ``make demo``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args(argv)
    from fastapi.testclient import TestClient

    import xdb
    from xdb.demo import BUD
    from xdb.demo.fill import fill
    from xdb.interfaces.http import create_app

    with (
        tempfile.TemporaryDirectory() as folder,
        xdb.connect(Path(folder) / "demo.sqlite3") as db,
    ):
        made = fill(db)
        db.search_episodes(text_query="deploy", wait_for_embeddings_s=30)  # vectors ready
        client = TestClient(create_app(db, mcp=False), base_url="http://127.0.0.1:8765")
        incident = db.search_episodes(text_query="deploy failed", namespace="shop").episodes[0]
        concept = db.find_concept(query="Deception").matches[0].id
        pages: dict[str, Callable[[], Any]] = {
            "GET /healthz (baseline)": lambda: client.get("/healthz"),
            "/ (overview)": lambda: client.get("/"),
            "/sessions/deploy (conversation)": lambda: client.get("/sessions/deploy"),
            "/sessions/deploy?zoom=tick": lambda: client.get("/sessions/deploy?zoom=tick"),
            "/search?q= (a question)": lambda: client.get(
                "/search", params={"q": "why did the deploy fail?"}
            ),
            "/search?concept=Deception": lambda: client.get(
                "/search", params={"concept": "Deception"}
            ),
            "/episodes/ID": lambda: client.get(f"/episodes/{incident.episode_id}"),
            "/concepts/ID": lambda: client.get(f"/concepts/{concept}"),
            "/concepts (the hierarchy)": lambda: client.get("/concepts"),
            "/concepts?q= (find-as-you-type)": lambda: client.get(
                "/concepts", params={"q": "dec", "partial": 1}
            ),
            "/graph?seed=ID&depth=2": lambda: client.get(
                "/graph", params={"seed": incident.episode_id, "depth": 2}
            ),
            f"/buds/{BUD}": lambda: client.get(f"/buds/{BUD}"),
            "/learning": lambda: client.get("/learning"),
            "/lessons": lambda: client.get("/lessons"),
        }
        for name, ask in pages.items():  # each page answers, and is warm
            status = ask().status_code
            if status != 200:
                print(f"{name}: HTTP {status}", file=sys.stderr)
                return 1
        times: dict[str, list[float]] = {name: [] for name in pages}
        for _ in range(args.rounds):
            for name, ask in pages.items():
                started = time.perf_counter()
                ask()
                times[name].append((time.perf_counter() - started) * 1000)
    print(f"demo: {made.summary()}; {args.rounds} rounds")
    print("| page | p50 | p95 |\n| --- | --- | --- |")
    for name, samples in times.items():
        print(f"| `{name}` | {statistics.median(samples):.1f} ms | {pct(samples, 0.95):.1f} ms |")
    slowest = max((pct(s, 0.95), n) for n, s in times.items() if "healthz" not in n)
    print(f"slowest p95: {slowest[1]} {slowest[0]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
