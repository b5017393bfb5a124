"""Stores for the contract suite: every test taking ``store`` runs once on each backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.store._data import record_log
from xdb.store.postgres import PostgresStore
from xdb.store.protocol import Store
from xdb.store.sqlite import SQLiteStore

BACKENDS = ["sqlite", "postgres"]


def open_store(backend: str, request: pytest.FixtureRequest, tmp_path: Path, name: str) -> Store:
    if backend == "sqlite":
        return SQLiteStore(tmp_path / f"{name}.sqlite")
    url: str = request.getfixturevalue("postgres_server").new_database()
    return PostgresStore(url)


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = open_store(request.param, request, tmp_path, "main")
    yield opened
    opened.close()


@pytest.fixture(scope="module", params=BACKENDS)
def logged(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Store]:
    """A store holding ``record_log``'s log, shared by a module's read-only tests."""
    opened = open_store(request.param, request, tmp_path_factory.mktemp("logged"), "logged")
    record_log(opened)
    yield opened
    opened.close()


@pytest.fixture
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[str], Store]]:
    """Open more stores (``make_store("sqlite")``): for round trips and comparisons."""
    opened: list[Store] = []

    def make(backend: str) -> Store:
        s = open_store(backend, request, tmp_path, f"extra{len(opened)}")
        opened.append(s)
        return s

    yield make
    for s in opened:
        s.close()
