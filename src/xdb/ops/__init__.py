"""Operations: each defined once (name, request and response models, handler) in a registry
that the Python API, MCP, HTTP and CLI all serve from."""

from xdb.ops.registry import REGISTRY, Context, Operation, operations

__all__ = ["REGISTRY", "Context", "Operation", "operations"]
