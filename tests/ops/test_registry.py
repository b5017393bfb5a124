"""The registry: every operation listed explicitly, with every fact the skins need."""

from __future__ import annotations

import importlib
import pkgutil
import re
from typing import Any

import pytest

from tests.ops.conftest import OPERATION_PACKAGES
from xdb.ops import REGISTRY, Operation, operations
from xdb.ops.catalog import OPERATIONS


def test_every_capability_module_is_in_the_catalog() -> None:
    # A module that defines operations but is not concatenated into the catalog would
    # silently serve nothing: nothing registers by being imported any more.
    listed = {id(op) for op in OPERATIONS}
    for package in OPERATION_PACKAGES:
        path = importlib.import_module(f"xdb.{package}").__path__
        for info in pkgutil.iter_modules(path):
            module = importlib.import_module(f"xdb.{package}.{info.name}")
            for op in getattr(module, "OPERATIONS", ()):
                assert id(op) in listed, (package, info.name, op.name)


def test_the_listing_is_the_catalogs_order_grouped() -> None:
    assert operations() == list(OPERATIONS)
    groups = [op.group for op in operations()]
    assert groups == sorted(
        groups, key=["xdb", "experience", "engine", "memcp", "policy", "audit", "sync"].index
    )
    assert len(REGISTRY) == len(OPERATIONS)  # no key listed twice


@pytest.mark.parametrize("op", operations(), ids=lambda op: f"{op.group}.{op.name}")
def test_each_operations_facts_fit_it(op: Operation[Any, Any]) -> None:
    if op.positional is not None:
        assert op.positional in op.request.model_fields
        assert op.command, "a positional argument needs a command"
    if op.command:
        assert op.example is not None, "every command shows an example"
        # (an example may first get a real id: ``TS=$(xdb recent ...)``, then use it)
        *steps, last = op.example.splitlines()
        assert last.startswith(f"xdb {op.command.split()[0]}"), op.example
        assert all(re.match(r"[A-Z_]+=\$\(xdb ", step) for step in steps), op.example
    else:
        assert op.example is None
    if op.readonly:
        assert not op.destructive
    assert not (op.destructive and not op.idempotent) or op.name.startswith("delete")


def test_only_the_logs_writes_audit_themselves() -> None:
    # A self-audited operation skips the call record and runs without the caller's read
    # policy (its store write appends the audit record and reads nothing back): a new
    # operation given the flag would read past the caller's access policies.
    assert {op.name for op in operations() if op.self_audited} == {"record", "record_batch"}
    assert all(not op.readonly for op in operations() if op.self_audited)
