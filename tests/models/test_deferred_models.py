"""Every xdb model is built when first used, not when the package is imported: a command line
runs one operation, and building every operation's models cost ~0.2 s of each ``xdb`` start."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator

from pydantic import BaseModel

import xdb.ops.catalog  # every operation's models
from xdb.models.common import DeferredModel


def _subclasses(cls: type[BaseModel]) -> Iterator[type[BaseModel]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_xdb_model_is_deferred() -> None:
    assert xdb.ops.catalog.REGISTRY
    ours = {c for c in _subclasses(BaseModel) if c.__module__.startswith("xdb.")}
    assert len(ours) > 200
    eager = sorted(
        f"{c.__module__}.{c.__qualname__}"
        for c in ours
        if not issubclass(c, DeferredModel) or not c.model_config.get("defer_build")
    )
    assert eager == [], f"subclass xdb.models.common.DeferredModel instead of BaseModel: {eager}"


def test_importing_the_command_line_builds_almost_no_model() -> None:
    code = (
        "import xdb.interfaces.cli\n"
        "from pydantic import BaseModel\n"
        "def subs(c):\n"
        "    for s in c.__subclasses__():\n"
        "        yield s\n"
        "        yield from subs(s)\n"
        "ours = {c for c in subs(BaseModel) if c.__module__.startswith('xdb.')}\n"
        "print(len(ours), sum(c.__pydantic_complete__ for c in ours))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    models, built = int(out[0]), int(out[1])
    # (A model a module-level default instantiates is built then: a handful.)
    assert models > 200 and built <= 10, out


def test_concurrent_first_uses_validate_alike() -> None:
    """Threads validating a model none has used yet all get its own validator."""

    class Fresh(DeferredModel):
        name: str
        count: int = 0

    assert not Fresh.__pydantic_complete__
    start = threading.Barrier(8)
    got: list[object] = []

    def use() -> None:
        start.wait()
        got.append(Fresh.model_validate({"name": "x", "count": "3"}))

    threads = [threading.Thread(target=use) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [Fresh(name="x", count=3)] * 8
