"""The first-light pack, unpacked once per session, and a database per store with it loaded
(shared by a module's read-only tests)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import xdb
from tests.concepts.packs import unpack_first_light
from tests.ops.conftest import module_target, target  # noqa: F401  (fixtures used here)


@pytest.fixture(scope="session")
def first_light(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack_first_light(tmp_path_factory.mktemp("packs"))


@pytest.fixture(scope="module")
def pack_db(module_target: str, first_light: Path) -> Iterator[xdb.Database]:  # noqa: F811
    with xdb.connect(module_target, embedder="hash") as db:
        db.import_concepts(path=str(first_light))
        yield db
