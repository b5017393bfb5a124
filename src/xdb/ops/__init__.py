"""Operations: each defined once (name, request and response models, handler) in a registry
that the Python API, MCP, HTTP and CLI all serve from."""

from typing import Any

from xdb.ops.registry import Context, Operation
from xdb.ops.room_services import LazyRoomServices

__all__ = ["REGISTRY", "Context", "Operation", "operations"]

# ``Context`` (the kernel's) reads the caller's policy and the search's lists through the
# rooms, which the kernel may not import: the assembly hands them in here, since this
# package's ``__init__`` runs before any module can import ``xdb.ops.registry``.
Context.rooms = LazyRoomServices()


def __getattr__(name: str) -> Any:
    # The catalog imports every capability module, and each of them imports this package
    # first: the catalog's names are read from it when asked, not when it is imported.
    if name in ("REGISTRY", "operations"):
        from xdb.ops import catalog

        return getattr(catalog, name)
    raise AttributeError(f"module 'xdb.ops' has no attribute {name!r}")
