"""A session's totals for a caller that access policies keep from part of the log: counts
and times are those of what it reads, and the session's tick (which counts every timestep)
is withheld. On both stores."""

from __future__ import annotations

import pytest

import xdb

GUEST = xdb.Caller(id="guest", roles=("guest",))
ADMIN = xdb.Caller(id="ops", roles=("self", "admin"))
HIDDEN = 40


def _world(target: str, shared_first: bool) -> xdb.Database:
    db = xdb.connect(target, embedder="hash", session_id="s1")
    admin = db.as_caller(ADMIN)
    admin.set_access_policy(id="private", read_roles=["self"])
    admin.set_access_policy(id="open", read_roles=["*"])
    admin.set_default_access_policy(policy_id="private")
    if shared_first:
        db.record(event_type="input", content="the open one", access_policy_id="open")
    db.record_batch([{"event_type": "input", "content": f"hidden {i}"} for i in range(HIDDEN)])
    if not shared_first:
        db.record(event_type="input", content="the open one", access_policy_id="open")
    db.record_batch([{"event_type": "input", "content": f"later {i}"} for i in range(HIDDEN)])
    return db


@pytest.mark.parametrize("shared_first", [True, False], ids=["open-first", "open-between"])
def test_a_restricted_callers_session_totals_are_its_own(target: str, shared_first: bool) -> None:
    with _world(target, shared_first) as db:
        guest = db.as_caller(GUEST)
        seen = guest.status(session_id="s1")
        assert seen.experience_stats.total_timesteps == 1
        assert seen.current_tick is None  # not 2 * HIDDEN + 1: that counts hidden ticks
        (summary,) = seen.sessions.recent
        assert (summary.timesteps, summary.current_tick) == (1, None)
        (only,) = guest.recent(n=10, session_id="s1").timesteps
        # The session's first and last times are those of the timestep it reads.
        assert summary.first_time == only.timestamp == summary.last_time
        assert guest.context(session_id="s1").current_tick is None
        # The agent itself is told the session's tick.
        assert db.status(session_id="s1").current_tick == 2 * HIDDEN + 1
        assert db.context(session_id="s1").current_tick == 2 * HIDDEN + 1
