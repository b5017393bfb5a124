"""Pins (WARM) and submitted evidence (SUBMITTED): quota arithmetic in tokens, refusals
that change nothing, true counts, and per-agent contracts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import xdb
from tests.fidelity.conftest import ADMIN, contract


def _fidelity(db: xdb.Database, *ids: str) -> list[str]:
    wanted = set(ids)
    return [t.fidelity.value for t in db.query(limit=1000).timesteps if t.id in wanted]


@pytest.fixture
def db(target: str) -> Iterator[xdb.Database]:
    handle = xdb.connect(target, session_id="s1", embedder="hash")
    yield handle
    handle.close()


def _steps(db: xdb.Database) -> list[str]:
    # Tokens: a model token is 1; text is ceil(chars / 4): 8 chars 2, 9 chars 3, 40 chars 10.
    return [
        db.record(event_type="output", content=" tok", token_id=7).timestep_id,
        db.record(event_type="input", content="abcdefgh").timestep_id,
        db.record(event_type="input", content="abcdefghi").timestep_id,
        db.record(event_type="input", content="x" * 40).timestep_id,
    ]


def test_quota_is_counted_in_tokens(db: xdb.Database) -> None:
    one, two, three, ten = _steps(db)
    pinned = db.pin(timestep_ids=[one, two, three], reason="training data")
    assert pinned.pinned_count == 3 and pinned.already_pinned == 0
    assert pinned.warm_usage.model_dump() == {
        "used_tokens": 6,
        "quota_tokens": 100_000,
        "remaining_tokens": 99_994,
    }
    assert _fidelity(db, one, two, three, ten) == ["warm", "warm", "warm", "hot"]
    again = db.pin(timestep_ids=[one, ten])
    assert (again.pinned_count, again.already_pinned, again.warm_usage.used_tokens) == (1, 1, 16)
    assert db.quota().warm.used_tokens == 16
    assert db.status().experience_stats.by_fidelity["warm"] == 4


def test_a_pin_beyond_the_quota_changes_nothing(db: xdb.Database) -> None:
    one, two, three, ten = _steps(db)
    contract(db, warm_quota_tokens=14)
    db.pin(timestep_ids=[one, three])  # 4 tokens
    with pytest.raises(xdb.Conflict) as refused:
        db.pin(timestep_ids=[two, ten])  # 12 more: 16 > 14
    assert "needs 12 tokens" in refused.value.message
    assert "10 of 14 are left" in refused.value.message
    assert refused.value.field == "timestep_ids"
    assert _fidelity(db, one, two, three, ten) == ["warm", "hot", "warm", "hot"]
    assert db.quota().warm.used_tokens == 4
    # Exactly filling it is allowed; an already pinned timestep costs nothing again.
    assert db.pin(timestep_ids=[one, ten]).warm_usage.remaining_tokens == 0


def test_a_missing_timestep_refuses_the_whole_pin(db: xdb.Database) -> None:
    one, *_ = _steps(db)
    with pytest.raises(xdb.NotFound) as missing:
        db.pin(timestep_ids=[one, "ts-s1-99"])
    assert "ts-s1-99" in missing.value.message and missing.value.field == "timestep_ids"
    with pytest.raises(xdb.NotFound, match="ts-<session>-<tick>"):
        db.pin(timestep_ids=["nonsense"])
    assert _fidelity(db, one) == ["hot"]


def test_unpin_counts_only_what_it_unpinned(db: xdb.Database) -> None:
    one, two, *_ = _steps(db)
    db.pin(timestep_ids=[one])
    gone = db.unpin(timestep_ids=[one, two, "ts-s1-99", "nonsense"])
    assert gone.unpinned_count == 1 and gone.warm_usage.used_tokens == 0
    assert db.unpin(timestep_ids=[one]).unpinned_count == 0
    assert _fidelity(db, one, two) == ["hot", "hot"]


def test_each_agent_pins_within_its_own_quota(db: xdb.Database) -> None:
    one, two, three, ten = _steps(db)
    db.as_caller(ADMIN).set_resource_contract(agent="helper", warm_quota_tokens=3)
    helper = db.as_caller(xdb.Caller(id="helper", roles=("self",)))
    assert helper.quota().contract.warm_quota_tokens == 3
    assert db.quota().contract.warm_quota_tokens == 100_000
    helper.pin(timestep_ids=[one, two])
    with pytest.raises(xdb.Conflict):
        helper.pin(timestep_ids=[three])
    db.pin(timestep_ids=[one, three, ten])  # the agent's own pins, its own quota
    assert db.quota().warm.used_tokens == 14 and helper.quota().warm.used_tokens == 3
    # Unpinning is per agent: the helper's pin of ``one`` keeps it WARM.
    db.unpin(timestep_ids=[one])
    assert _fidelity(db, one) == ["warm"]


def test_submitted_evidence_is_held_outside_the_quota_until_resolved(db: xdb.Database) -> None:
    one, two, three, _ = _steps(db)
    db.pin(timestep_ids=[one, two])
    held = db.submit_evidence(submission_id="graft-1", timestep_ids=[two, three])
    assert held.held_count == 2
    assert _fidelity(db, one, two, three) == ["warm", "submitted", "submitted"]
    quota = db.quota()
    assert quota.warm.used_tokens == 1 and quota.submitted_tokens == 5
    assert db.compact(keep_tokens=0).timesteps_compacted == 0  # the newest tick stays
    assert _fidelity(db, one, two, three) == ["warm", "submitted", "submitted"]
    released = db.resolve_submission("graft-1")
    assert released.released_count == 2
    assert _fidelity(db, one, two, three) == ["warm", "warm", "hot"]
    assert db.resolve_submission("graft-1").released_count == 0
    assert db.quota().submitted_tokens == 0


def test_a_caller_cannot_pin_what_it_cannot_read(db: xdb.Database) -> None:
    admin = db.as_caller(ADMIN)
    admin.set_access_policy(id="private", read_roles=["admin"], write_roles=["admin"])
    hidden = admin.record(event_type="input", content="secret", access_policy_id="private")
    with pytest.raises(xdb.NotFound):
        db.pin(timestep_ids=[hidden.timestep_id])
    assert admin.pin(timestep_ids=[hidden.timestep_id]).pinned_count == 1


def test_an_inconsistent_contract_is_refused_naming_the_field(db: xdb.Database) -> None:
    admin = db.as_caller(ADMIN)
    with pytest.raises(xdb.InvalidRequest, match="compaction_target"):
        admin.set_resource_contract(compaction_target=0.9)
    with pytest.raises(xdb.InvalidRequest, match="warm_quota_tokens"):
        admin.set_resource_contract(warm_quota_tokens=-1)
    with pytest.raises(xdb.PermissionDenied):
        db.set_resource_contract(warm_quota_tokens=10)
    assert db.quota().contract.compaction_target == 0.5
