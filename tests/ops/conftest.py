"""Where the operations run: every test taking ``target`` (or a fixture built on it) runs
once on a new SQLite file and once on a new PostgreSQL database (from the session's
embedded server, see ``tests/conftest.py``).

``target`` is what ``xdb.connect`` takes, so a test that reopens its database connects to
the same target again: a second handle on the file, or a second pool on the database.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

BACKENDS = ["sqlite", "postgres"]

# The packages under ``xdb`` holding operations: the capabilities' rooms (the kernel's
# ``ops`` holds none: its registry defines them, its catalog lists them).
OPERATION_PACKAGES = (
    "log",
    "episodes",
    "concepts",
    "learning",
    "policy",
    "fidelity",
    "engine",
)


def new_target(backend: str, request: pytest.FixtureRequest, folder: Path) -> Iterator[str]:
    if backend == "sqlite":
        yield str(folder / "xdb.sqlite3")
        return
    server = request.getfixturevalue("postgres_server")
    url: str = server.lend_database()
    yield url
    server.give_back(url)


def is_postgres(target: str) -> bool:
    return target.startswith("postgresql://")


@pytest.fixture(params=BACKENDS)
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new, empty database for this test: a file path or a ``postgresql://`` URL."""
    yield from new_target(request.param, request, tmp_path)


@pytest.fixture(scope="module", params=BACKENDS)
def module_target(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A new, empty database shared by a module's tests (for read-only corpora)."""
    yield from new_target(request.param, request, tmp_path_factory.mktemp("module"))
