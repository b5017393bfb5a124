"""A writer process for the PostgreSQL concurrency test (imported by a spawned child).

It records ``batches`` batches into the shared session, its own session and, in one
batch, two more shared sessions in an order that differs between writers (the pattern
that deadlocks if sessions are locked in batch order), adds an episode now and then, and
reports every (session, tick) it was given.
"""

from __future__ import annotations

from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

from tests.store._data import T0, episode, step
from xdb.store.postgres import PostgresStore


def write(
    url: str,
    writer: int,
    batches: int,
    size: int,
    start: Barrier,
    out: Queue[tuple[int, list[tuple[str, int]]]],
) -> None:
    store = PostgresStore(url, pool_size=2)
    pair = ["x", "y"] if writer % 2 else ["y", "x"]
    got: list[tuple[str, int]] = []
    try:
        start.wait(timeout=60)
        for b in range(batches):
            items = [step("shared", T0 + b, f"w{writer} b{b} i{i}") for i in range(size)]
            items += [step(f"own{writer}", T0 + b, "mine"), *(step(s, T0 + b, "p") for s in pair)]
            made = store.record(items)
            got += [(it.session_id, tick) for it, (_, tick) in zip(items, made, strict=True)]
            if b % 5 == 0:
                store.add_episode(episode(1000 * writer + b, f"writer {writer} batch {b}"))
    finally:
        store.close()
    out.put((writer, got))
