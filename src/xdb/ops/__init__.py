"""Operations: each defined once (name, request and response models, handler) in a registry
that the Python API, MCP, HTTP and CLI all serve from."""

from typing import Any

from xdb.ops.registry import Context, Operation

__all__ = ["REGISTRY", "Context", "Operation", "operations"]


def __getattr__(name: str) -> Any:
    # The catalog imports every capability module, and each of them imports this package
    # first: the catalog's names are read from it when asked, not when it is imported.
    if name in ("REGISTRY", "operations"):
        from xdb.ops import catalog

        return getattr(catalog, name)
    raise AttributeError(f"module 'xdb.ops' has no attribute {name!r}")
