"""The SQLite store's timestep columns, in the order ``xdb.store.row_models.timestep`` reads."""

from __future__ import annotations

TIMESTEP_COLUMNS = (
    "seq, session_id, tick, ts_us, event_type, role, content, token_id, event_id,"
    " event_start, event_end, activations, fidelity"
)
