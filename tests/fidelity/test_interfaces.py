"""Fidelity through every skin: MCP (both protocol eras) and real HTTP answer as the Python
API does, the XAPI's path routes included; the CLI; maintenance on a schedule."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

import xdb
from tests.interfaces.cli_runner import ok
from tests.interfaces.test_episodes_interfaces import (  # noqa: F401  (fixtures)
    Transport,
    anyio_backend,
    db,
    serving,
    via,
)
from xdb.fidelity.schedule import MaintenanceSchedule
from xdb.ops.catalog import operations

pytestmark = pytest.mark.anyio


async def test_pin_context_compact_and_quota(via: Transport) -> None:  # noqa: F811
    steps = []
    for i in range(6):
        made = await via.ok(
            "xdb.record",
            {"event_type": "output", "content": f" w{i}", "token_id": i, "event_id": "e"},
        )
        steps.append(made["timestep_id"])
    pinned = await via.ok("xdb.pin", {"timestep_ids": steps[:2], "reason": "a good example"})
    assert pinned["pinned_count"] == 2 and pinned["warm_usage"]["used_tokens"] == 2
    refused = await via.fail("xdb.pin", {"timestep_ids": ["ts-nowhere-1"]})
    assert refused.type == "not_found" and refused.field == "timestep_ids"
    context = await via.ok("xdb.context", {})
    assert context["current_tokens"] == 4 and context["max_tokens"] == 8192
    compacted = await via.ok("xdb.compact", {"keep_tokens": 1})
    assert compacted["timesteps_compacted"] == 3 and compacted["records_made"] == 1
    found = await via.ok("xdb.query", {})
    assert [t["tick"] for t in found["timesteps"]] == [1, 2, 6]
    assert found["records"][0]["level"] == "reply" and found["records"][0]["fidelity"] == "cold"
    assert (await via.ok("xdb.unpin", {"timestep_ids": steps}))["unpinned_count"] == 2
    held = await via.ok("xdb.submit_evidence", {"submission_id": "g1", "timestep_ids": steps[:1]})
    assert held["held_count"] == 1
    assert (await via.ok("xdb.resolve_submission", {"submission_id": "g1"}))["released_count"]
    quota = await via.ok("xdb.quota", {})
    assert quota["warm"]["used_tokens"] == 0 and quota["cold"]["used_bytes"] > 0
    done = await via.ok("xdb.maintenance", {})
    assert done["finished"] and done["records_compressed"] == 0


async def test_the_xapis_path_routes(db: xdb.Database) -> None:  # noqa: F811
    db.record(event_type="input", content="x" * 40)
    db.record(event_type="input", content="y" * 40)
    session = db.session_id
    with serving(db) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            context = (await client.get(f"/v1/xdb/context/{session}")).json()
            assert context["current_tokens"] == 20 and context["session_id"] == session
            quota = (await client.get(f"/v1/xdb/quota/{session}")).json()
            assert quota["warm"]["quota_tokens"] == 100_000
            compacted = await client.post(f"/v1/xdb/compact/{session}", json={"keep_tokens": 0})
            assert compacted.status_code == 200 and compacted.json()["tokens_after"] == 10
            kept = await client.post(f"/v1/xdb/maintenance/{session}", json={})
            assert kept.status_code == 200 and kept.json()["finished"]


def test_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    for text in ("one", "two", "three"):
        ok(path, "record", text, "--event-type", "input")
    assert ok(path, "context")["current_tokens"] == 4  # "three" is 2 tokens (5 chars / 4)
    assert ok(path, "pin", "--timestep-ids", "ts-s1-1")["pinned_count"] == 1
    made = ok(path, "compact", "--keep-tokens", "0")
    assert made["timesteps_compacted"] == 1  # tick 1 is pinned, tick 3 the newest
    assert ok(path, "maintenance")["finished"]


def test_maintenance_runs_on_a_schedule(tmp_path: Path) -> None:
    with xdb.connect(tmp_path / "x.sqlite3") as database:
        schedule = MaintenanceSchedule(database, 0.01).start()
        try:
            assert schedule.ran.wait(30)
        finally:
            schedule.stop(30)
        assert schedule.runs >= 1 and schedule.last is not None and schedule.last.finished


def test_these_tests_cover_every_fidelity_operation() -> None:
    fidelity = {"pin", "unpin", "quota", "context", "compact", "maintenance"}
    fidelity |= {"submit_evidence", "resolve_submission"}
    names = {op.name for op in operations({"xdb"})}
    assert fidelity <= names
    assert "set_resource_contract" in {op.name for op in operations({"policy"})}
