"""Column lists whose values convert with the shared row converters (``xdb.store.sqlite.rows``).

Those converters read JSON columns as text, so JSON columns are selected as ``::text``.
"""

from __future__ import annotations

TIMESTEP_COLUMNS = (
    "seq, session_id, tick, ts_us, event_type, role, content, token_id, event_id,"
    " event_start, event_end, activations::text, fidelity"
)
SESSION_COLUMNS = "session_id, timesteps, next_tick, created_us, last_us"
