"""The experience log: what the agent lived through, recorded as it happened (timesteps:
tokens, messages, tool calls and responses, steering), the tags applied to it and the
comments on it, and what the database holds.

Operations (each module's ``OPERATIONS``, listed in ``ops/catalog.py``):

- ``recording``: record, record_batch, tag, create_tag, comment (and ``resolve_tag``, a
  tag by its name or id, which the reads use too);
- ``log_reads``: query (filters, text, paging), recent timesteps of a session, the tags
  with their counts, a range's annotations;
- ``status``: what the database holds (tags, timesteps by fidelity, storage, sessions) and
  how far embedding has got.

Their requests and answers, and the log's domain objects (``Timestep``, ``Tag``,
``TagApplication``, ``Comment``, ``SessionSummary``): ``log_models``. Their storage is in
``xdb.store`` (``log_protocol``, ``log_queries``, ``tagging``, each store's own). Submodules
are imported by name: this package imports nothing (the store imports ``log_models``).
"""
