"""Episodes: what the agent lived through, as units recall returns (a reply, a tool call and
its answer, a note added by hand), with their concept tags, labels and place in the one
experience graph, and how they are found again.

Operations (each module's ``OPERATIONS``, listed in ``ops/catalog.py``):

- ``episode_search``: search_episodes (filters, hybrid relevance, paging that never repeats
  or skips);
- ``episode_operations``: add_episode, delete_episode, get_episode_detail (with its graph
  neighbours), similar_episodes;
- ``experience_graph``: the breadth-first walk every graph view shares, the
  graph_neighborhood operation, Decision and Tool nodes added and linked.

The logic beside them: ``ranking`` (the ranked lists a search reads and how they are fused)
and ``auto_episodes`` (the episodes an ended event's timesteps become, which the log's
``recording`` runs). Their requests and answers, and the domain objects (``Page``,
``ConceptTag``, ``GraphNode``, ...): ``episode_models``, ``graph_models``. Their storage is
in ``xdb.store`` (``episode_protocol``, ``episode_reads``, ``episode_row``,
``graph_edges``, ``graph_methods``, each store's own). Submodules are imported by name:
this package imports nothing.
"""
