"""The PostgreSQL store's timestep columns, in the order ``xdb.store.row_models.timestep`` reads.

The shared converters read JSON columns as text, so JSON columns are selected as ``::text``.
"""

from __future__ import annotations

TIMESTEP_COLUMNS = (
    "seq, session_id, tick, ts_us, event_type, role, content, token_id, event_id,"
    " event_start, event_end, activations::text, fidelity"
)
