"""Fidelity tiers, compaction and progressive compression (issue 20)."""
