"""Names say what a module holds (issue 35): no two modules of the package share a file name,
except one role written for each store's dialect (``store/sqlite/X`` and ``store/postgres/X``
hold the same thing in two dialects)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import xdb

PACKAGE = Path(xdb.__file__).parent
DIALECTS = ["store/postgres", "store/sqlite"]


def test_no_two_modules_share_a_name_but_a_dialect_pair() -> None:
    folders: dict[str, list[str]] = defaultdict(list)
    for path in PACKAGE.rglob("*.py"):
        if path.name != "__init__.py":
            folders[path.name].append(path.parent.relative_to(PACKAGE).as_posix())
    shared = {name: sorted(where) for name, where in folders.items() if len(where) > 1}
    assert shared.get("store.py") == DIALECTS  # the pairs are found
    assert {name: where for name, where in shared.items() if where != DIALECTS} == {}
