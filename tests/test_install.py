"""The documented way to have ``xdb`` on PATH (README.md: ``pipx install .``, or ``uv tool
install .``) installs a working ``xdb`` executable, bundled data included.

pipx and uv do two things: build the checkout's wheel, then install it into a clean virtual
environment of its own whose ``bin/xdb`` they put on PATH. This test does the same with pip,
the way pipx drives it: ``pip wheel`` of a copy of the checkout (so no ``build/`` or
``*.egg-info`` appears in the working tree), then ``pip install`` of that wheel into a fresh
``python -m venv --without-pip`` under tmp_path (pip run from outside it, as pipx runs its
shared one). Two shortcuts keep it under a minute and off the network for everything but the
build backend: the wheel is installed with ``--no-deps``, and the new
environment reads the dependencies from this suite's environment (a ``.pth`` file naming
its site-packages; pipx would download them). Building the wheel needs the build backend
pyproject.toml names (setuptools >= 77, fetched by pip's build isolation): where no package
index answers, the test is skipped, saying so.

Then, from a directory outside the checkout and with only the new environment's ``bin`` on
PATH: ``xdb --version`` answers, ``import xdb`` is the installed copy (not the checkout), and
``xdb demo --no-serve`` fills a database from the concept pack inside the wheel.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(
    args: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_documented_install_gives_a_working_xdb(tmp_path: Path) -> None:
    source = tmp_path / "checkout"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    wheels = tmp_path / "wheels"
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels),
                 str(source)])  # fmt: skip
    if built.returncode != 0 and any(
        sign in built.stderr for sign in ("NewConnectionError", "No matching distribution")
    ):
        pytest.skip(f"the build backend (setuptools >= 77) is not reachable: {built.stderr[-300:]}")
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("xdb-*.whl")

    venv = tmp_path / "tool-venv"
    # Without pip of its own, as pipx makes its venvs (it runs one shared pip into them):
    # seeding pip into the venv (ensurepip) was a third of this test's time. This suite's pip
    # installs into it with ``--python``, which runs the install under the venv's interpreter,
    # so the wheel lands in the venv's site-packages and bin/ exactly as its own pip would.
    made = run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    site = run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"])
    # The dependencies, from this suite's environment (pipx would download them).
    (Path(site.stdout.strip()) / "suite-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    installed = run([sys.executable, "-m", "pip", "--python", str(python), "install",
                     "--no-deps", "--no-index", "-q", str(wheel)])  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    xdb = venv / "bin" / "xdb"
    assert xdb.exists()

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDB_", "VIRTUAL_ENV"))}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}/usr/bin:/bin", HOME=str(tmp_path),
               XDB_EMBEDDER="hash")  # fmt: skip
    version = run(["xdb", "--version"], cwd=elsewhere, env=env)
    assert version.returncode == 0 and "xdb" in version.stdout, version.stderr
    where = run(["python", "-c", "import xdb; print(xdb.__file__)"], cwd=elsewhere, env=env)
    assert where.stdout.strip().startswith(str(venv)), where.stdout + where.stderr
    demo = run(["xdb", "demo", "--no-serve"], cwd=elsewhere, env=env)
    assert demo.returncode == 0, demo.stderr
    assert json.loads(demo.stdout)["filled"] is True
    assert (elsewhere / "demo.sqlite3").exists()
    packs = run(["xdb", "--db", "demo.sqlite3", "concept-packs"], cwd=elsewhere, env=env)
    assert json.loads(packs.stdout)["packs"][0]["concept_count"] == 371, packs.stdout
