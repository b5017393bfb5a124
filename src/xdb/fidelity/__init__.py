"""Fidelity tiers, compaction and progressive compression (issue 20; docs/fidelity.md).

Operations (``fidelity_operations``' ``OPERATIONS`` and ``POLICY_OPERATIONS``, listed in
``ops/catalog.py``): pin, unpin, quota, context, compact, maintenance, submitted evidence,
and the resource contract; their requests and answers: ``fidelity_models``. The logic:
``compaction``, ``compression``, ``contract``, ``recall``, ``record_merge``, ``schedule``,
``summarize``. Their storage is in ``xdb.store`` (``fidelity*``, ``cold_records``).

Submodules are imported by name: this package imports nothing.
"""
