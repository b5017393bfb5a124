"""The stores every engine test runs on (the operations' fixtures), and a database on each."""

from collections.abc import Iterator

import pytest

import xdb
from tests.ops.conftest import is_postgres, module_target, new_target, target

__all__ = ["db", "is_postgres", "module_target", "new_target", "target"]


@pytest.fixture
def db(target: str) -> Iterator[xdb.Database]:
    with xdb.connect(target, session_id="s1", embedder="hash") as handle:
        yield handle
