"""Concepts: the packs a database loads (HatCat's format), their hierarchy, the forms users
write concept ids in, and how concepts show up in experience.

Operations (each module's ``OPERATIONS``, listed in ``ops/catalog.py``):

- ``concept_operations``: import_concepts, concept_packs, concepts (browse), get_concept,
  find_concept, graph_neighborhood (the hierarchy walk);
- ``concept_usage``: concept_usage_summary (episode counts, scores, a trend, NPMI
  co-occurrence, activations).

Their requests and answers: ``concept_models``, ``concept_usage_models``. The logic outside
the database: ``pack`` (reading a pack), ``finder`` (the typo-tolerant finder), ``resolve``
(the one resolver of the forms concept ids are written in), ``requests`` (applying it to
every field naming a concept) and ``concept_views`` (the hierarchy as a restricted caller
sees it). Their storage is in ``xdb.store`` (``concept_protocol``, ``concepts``, ``usage``).
Submodules are imported by name: this package imports nothing.
"""
