"""Stores for the contract suite: every test taking ``store`` runs once on each backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import PostgresServer
from tests.store._data import record_log
from xdb.store.postgres import PostgresStore
from xdb.store.protocol import Store
from xdb.store.sqlite import SQLiteStore

BACKENDS = ["sqlite", "postgres"]


class Opened:
    """The stores a fixture opened, closed (and their PostgreSQL databases given back for
    the next test) when it ends."""

    def __init__(self, request: pytest.FixtureRequest, folder: Path) -> None:
        self.request, self.folder = request, folder
        self.stores: list[Store] = []
        self.lent: list[tuple[PostgresServer, str]] = []

    def open(self, backend: str, name: str) -> Store:
        opened: Store
        if backend == "sqlite":
            opened = SQLiteStore(self.folder / f"{name}.sqlite3")
        else:
            server: PostgresServer = self.request.getfixturevalue("postgres_server")
            url = server.lend_database()
            self.lent.append((server, url))
            opened = PostgresStore(url)
        self.stores.append(opened)
        return opened

    def close(self) -> None:
        for s in self.stores:
            s.close()
        for server, url in self.lent:
            server.give_back(url)


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = Opened(request, tmp_path)
    yield opened.open(request.param, "main")
    opened.close()


@pytest.fixture(scope="module", params=BACKENDS)
def logged(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Store]:
    """A store holding ``record_log``'s log, shared by a module's read-only tests."""
    opened = Opened(request, tmp_path_factory.mktemp("logged"))
    one = opened.open(request.param, "logged")
    record_log(one)
    yield one
    opened.close()


@pytest.fixture
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[str], Store]]:
    """Open more stores (``make_store("sqlite")``): for round trips and comparisons."""
    opened = Opened(request, tmp_path)
    yield lambda backend: opened.open(backend, f"extra{len(opened.stores)}")
    opened.close()
