"""Every operation, listed explicitly.

Each capability module exports its ``OPERATIONS``; this concatenates them in the order the
skins list them (MCP tools, HTTP routes, CLI commands, the reference): the ``xdb`` group
(recording the log, reading it, status, concepts), then ``experience`` (episodes, the
graph, usage statistics), then ``memcp``, then ``policy`` and ``audit`` (management and the
audit log: not in the agent's MCP toolset unless named). A new capability adds its
module's tuple here, where its place is chosen.
"""

from __future__ import annotations

from typing import Any

from xdb.ops import (
    access,
    audit,
    buds,
    concepts,
    dataset_reads,
    engine_extract,
    engine_hooks,
    engine_views,
    episodes,
    exemplars,
    fidelity,
    graph,
    log,
    log_reads,
    memcp,
    policy,
    promotion,
    search,
    status,
    sync,
    training,
    usage,
)
from xdb.ops.registry import Operation

OPERATIONS: tuple[Operation[Any, Any], ...] = (
    *log.OPERATIONS,
    *log_reads.OPERATIONS,
    *buds.OPERATIONS,
    *promotion.OPERATIONS,
    *status.OPERATIONS,
    *fidelity.OPERATIONS,
    *concepts.OPERATIONS,
    *search.OPERATIONS,
    *episodes.OPERATIONS,
    *graph.OPERATIONS,
    *usage.OPERATIONS,
    *buds.EXPERIENCE_OPERATIONS,
    *exemplars.OPERATIONS,
    *dataset_reads.OPERATIONS,
    *training.OPERATIONS,
    *engine_hooks.OPERATIONS,
    *engine_extract.OPERATIONS,
    *engine_views.OPERATIONS,
    *memcp.OPERATIONS,
    *policy.OPERATIONS,
    *fidelity.POLICY_OPERATIONS,
    *access.OPERATIONS,
    *audit.OPERATIONS,
    *sync.OPERATIONS,
)
