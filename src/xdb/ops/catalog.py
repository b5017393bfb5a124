"""Every operation, listed explicitly.

Each capability module exports its ``OPERATIONS``; this concatenates them in the order the
skins list them (MCP tools, HTTP routes, CLI commands, the reference): the ``xdb`` group
(recording the log, reading it, status, concepts), then ``experience`` (episodes, the
graph, usage statistics), then ``memcp``, then ``policy`` and ``audit`` (management and the
audit log: not in the agent's MCP toolset unless named). A new capability adds its
module's tuple here, where its place is chosen. ``REGISTRY`` holds them by name: here, not
in ``registry`` (which every capability module imports), so that no import runs in a circle.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from xdb.concepts import concept_operations, concept_usage
from xdb.engine import extract_operations, hook_operations, lesson_views
from xdb.episodes import episode_operations, episode_search, experience_graph, memcp_operations
from xdb.fidelity import fidelity_operations
from xdb.learning import (
    buds,
    dataset_reads,
    exemplar_labels,
    promotion,
    sync,
    training,
)
from xdb.log import log_reads, recording, status
from xdb.ops.registry import Operation
from xdb.policy import access_operations, audit_operations, policy_operations

OPERATIONS: tuple[Operation[Any, Any], ...] = (
    *recording.OPERATIONS,
    *log_reads.OPERATIONS,
    *buds.OPERATIONS,
    *promotion.OPERATIONS,
    *status.OPERATIONS,
    *fidelity_operations.OPERATIONS,
    *concept_operations.OPERATIONS,
    *episode_search.OPERATIONS,
    *episode_operations.OPERATIONS,
    *experience_graph.OPERATIONS,
    *concept_usage.OPERATIONS,
    *buds.EXPERIENCE_OPERATIONS,
    *exemplar_labels.OPERATIONS,
    *dataset_reads.OPERATIONS,
    *training.OPERATIONS,
    *hook_operations.OPERATIONS,
    *extract_operations.OPERATIONS,
    *lesson_views.OPERATIONS,
    *memcp_operations.OPERATIONS,
    *policy_operations.OPERATIONS,
    *fidelity_operations.POLICY_OPERATIONS,
    *access_operations.OPERATIONS,
    *audit_operations.OPERATIONS,
    *sync.OPERATIONS,
)


class _Registry(Mapping[str, "Operation[Any, Any]"]):
    """Every operation by ``group.name`` (memcp's add_episode and experience's are two),
    indexed on first use."""

    def __init__(self) -> None:
        self._ops: dict[str, Operation[Any, Any]] | None = None

    def _all(self) -> dict[str, Operation[Any, Any]]:
        if self._ops is None:
            ops: dict[str, Operation[Any, Any]] = {}
            for op in OPERATIONS:
                key = f"{op.group}.{op.name}"
                if key in ops:
                    raise ValueError(f"operation {key!r} listed twice")
                ops[key] = op
            self._ops = ops
        return self._ops

    def __getitem__(self, key: str) -> Operation[Any, Any]:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


REGISTRY = _Registry()


def agent_groups() -> set[str]:
    """The groups an agent's MCP toolset offers by default (not the management ones)."""
    return {op.group for op in REGISTRY.values() if op.agent_tool}


def operations(groups: set[str] | None = None) -> list[Operation[Any, Any]]:
    """Every operation in the catalog's order, optionally only some groups'."""
    return [op for op in REGISTRY.values() if groups is None or op.group in groups]
