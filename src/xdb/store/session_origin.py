"""Where a session came from: ``sessions.origin`` (SQLite migration 18, PostgreSQL 17).

NULL for an ordinary session (made by a record, or claimed as a handle's first); ``hook``
(``types.HOOK``) for the sessions the engine's hooks make: ``check`` records the warnings an
agent was shown as steering timesteps of ``<agent>-<the agent's session id>``, and the
session it makes there is marked in the same write (``NewTimestep.session_origin``). A
handle's default session (``Store.latest_session``, ``claim_session``) is never one of
them: ``xdb record``, ``xdb recent`` and ``status`` without a session stay on the user's.

Databases written before the column: their hook sessions are recognised once, by the
migration, as the sessions named ``claude-``, ``codex-`` or ``gemini-`` something that hold
nothing but steering timesteps (all the engine ever wrote there).
"""

from __future__ import annotations

from xdb.store.types import HOOK

__all__ = ["BACKFILL", "COLUMN"]

COLUMN = "ALTER TABLE sessions ADD COLUMN origin TEXT"

BACKFILL = (
    f"UPDATE sessions SET origin = '{HOOK}' WHERE origin IS NULL AND ("
    + " OR ".join(f"session_id LIKE '{agent}-%'" for agent in ("claude", "codex", "gemini"))
    + ") AND NOT EXISTS (SELECT 1 FROM timesteps t WHERE t.session_id = sessions.session_id"
    " AND t.event_type <> 'steering')"
)
