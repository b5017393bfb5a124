"""Learning: the harness that grows new concepts from what the agent lived through
(docs/learning.md). A candidate concept (a bud) collects examples, exemplars label episodes
for a concept, a reproducible dataset is built from them, training runs and their artifacts
record what was trained from it, the bud is promoted to a stable concept, and tribe sync
shares all of it with another database.

Operations (each module's ``OPERATIONS``, listed in ``ops/catalog.py``):

- ``buds``: a bud's lifecycle (list, examples, ready, status, the specification's
  candidate-concept view);
- ``promotion``: a bud becomes a concept of the database's own pack;
- ``exemplar_labels``: exemplars added, listed and removed;
- ``dataset_build``: how ``build_dataset`` samples, versions and freezes a dataset;
- ``dataset_reads``: datasets built, listed, shown and exported;
- ``training``: training runs and their artifacts recorded and read;
- ``sync``: bundles of the harness's objects out and in.

Their requests and answers: ``bud_models``, ``exemplar_models``, ``dataset_models``,
``training_models``, ``sync_models``. Their storage is in ``xdb.store`` (``learning*``,
``exemplars``, ``sync_merge``). Submodules are imported by name: this package imports
nothing.
"""
