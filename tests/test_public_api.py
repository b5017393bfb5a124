"""The public API is pinned, and importing xdb stays light."""

from __future__ import annotations

import subprocess
import sys

import xdb


def test_all_is_pinned() -> None:
    assert sorted(xdb.__all__) == [
        "Caller",
        "Conflict",
        "Database",
        "InvalidRequest",
        "MigrationError",
        "NotFound",
        "NotReady",
        "PermissionDenied",
        "StoreError",
        "Unauthorized",
        "XdbError",
        "__version__",
        "connect",
    ]
    for name in xdb.__all__:
        assert hasattr(xdb, name), name


def test_import_loads_no_server_model_or_mcp() -> None:
    code = (
        "import sys, xdb; heavy = [m for m in sys.modules if m.split('.')[0] in "
        "('mcp', 'fastapi', 'uvicorn', 'starlette', 'torch', 'onnxruntime', 'numpy')];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_database_has_a_method_per_operation() -> None:
    from xdb.ops import operations

    ops = operations()  # every group's, memcp's included (memcp_add_episode, ...)
    for op in ops:
        assert callable(getattr(xdb.Database, op.method_name)), op.name
    assert len({op.method_name for op in ops}) == len(ops)


def test_import_loads_neither_pydantic_nor_the_stores_until_used() -> None:
    code = (
        "import sys, xdb; first = [m for m in sys.modules if m.split('.')[0] == 'pydantic'"
        " or m.startswith('xdb.store')]; xdb.connect; print(len(first),"
        " 'xdb.core' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "True"]
