"""An import's walk over an export's records (``xdb.store.import_dispatch``), on both stores:
where its batches of timesteps and episodes end changes nothing it writes or counts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.store._data import episode, record_log
from tests.store.conftest import BACKENDS
from xdb.store.postgres import transfer as pg_transfer
from xdb.store.protocol import Store
from xdb.store.sqlite import transfer as sqlite_transfer

MakeStore = Callable[[str], Store]


def interleaved(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records with runs of episodes between runs of timesteps (an export lists every
    timestep first), so each kind's batch is cut short by the other's."""
    eps = [r for r in records if r["kind"] == "episode"]
    rest = [r for r in records if r["kind"] != "episode"]
    steps = [i for i, r in enumerate(rest) if r["kind"] == "timestep"]
    assert len(eps) == 5 and len(steps) > 8
    at = {steps[2]: eps[:2], steps[7]: eps[2:3]}
    mixed = []
    for i, r in enumerate(rest):
        mixed.extend(at.get(i, []))
        mixed.append(r)
    return mixed + eps[3:]


@pytest.mark.parametrize("backend", BACKENDS)
def test_batches_of_two_import_as_one_batch(
    backend: str, make_store: MakeStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = make_store(backend)
    record_log(source)
    for n in range(1, 6):
        source.add_episode(episode(n, f"Episode {n}. About things numbered {n}."))
    exported = list(source.export_records())
    records = interleaved(exported)

    whole = make_store(backend)
    counts = whole.import_records(records)
    assert (counts["timestep"], counts["episode"], counts["skipped"]) == (11, 5, 0)
    again = whole.import_records(records)  # everything stored: all skipped

    monkeypatch.setattr(sqlite_transfer, "BATCH", 2)
    monkeypatch.setattr(sqlite_transfer, "TIMESTEP_BATCH", 2)
    monkeypatch.setattr(pg_transfer, "BATCH", 2)
    split = make_store(backend)
    assert split.import_records(records) == counts
    assert list(split.export_records()) == list(whole.export_records()) == exported
    assert split.import_records(records) == again
    assert again["skipped"] == len(records) - 1  # (the header is no object)
