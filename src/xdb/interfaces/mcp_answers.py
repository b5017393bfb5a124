"""The SDK's recorded answers that ``xdb mcp`` gives while the SDK loads, cached per install.

The answers (``mcp.recorded_answers``: what the SDK says to a client's opening requests) are
generated, never committed: the first ``xdb mcp`` whose cache holds none lets the SDK answer
everything and, once the SDK has loaded, writes them to the user's cache directory
(``XDB_CACHE_DIR``, else ``$XDG_CACHE_HOME/xdb``, else ``~/.cache/xdb``), so the next start
answers at once (``stdio``). ``python -m xdb.interfaces.mcp_answers`` writes them ahead.

The file is named by a fingerprint of everything the answers are made of: xdb's version, the
versions of the MCP SDK and of pydantic (which writes the tools' schemas), and a digest of
the content of xdb's own source files. Hashing the sources costs a few milliseconds, so it
is done only when their names, sizes or modification times change: a stamp file per install
maps that stat digest (about 1 ms to take) to the content digest. A file is written to a
temporary name and renamed, so a server never reads half of one; one that does not parse or
was made for another fingerprint is ignored (and rewritten). A cache that cannot be read or
written only costs the quick start, and is logged at debug level.

This module does not import the SDK: it runs before the SDK loads.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import tempfile
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from typing import Any

from xdb import __version__

logger = logging.getLogger(__name__)

PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # the installed ``xdb`` package
# The distributions whose versions shape the answers, besides xdb's own sources.
DISTRIBUTIONS = ("mcp", "mcp_types", "pydantic", "pydantic_core")
NAMINGS = ("underscore", "dotted")
# The parts of each naming's answers, and what each is.
_PARTS = ("modern", "handshake", "tools", "groups", "profiles")
_KINDS = (dict, dict, list, dict, dict)
PREFIX = "mcp-answers-"
KEEP = 4  # answer files kept in the cache (other installs, other versions): the newest


def cache_dir() -> Path:
    """Where xdb caches what it generates: ``XDB_CACHE_DIR``, else ``$XDG_CACHE_HOME/xdb``,
    else ``~/.cache/xdb``."""
    own = os.environ.get("XDB_CACHE_DIR")
    if own:
        return Path(own)
    base = os.environ.get("XDG_CACHE_HOME")
    return Path(base if base else Path.home() / ".cache") / "xdb"


# --------------------------------------------------------------------------- the fingerprint


def stat_digest(root: Path = PACKAGE_ROOT) -> tuple[str, list[str]]:
    """A digest of the names, sizes and modification times of the ``*.py`` files under
    ``root``, and their names (relative to ``root``). About 1 ms for xdb's 275 files."""
    seen: list[tuple[str, int, int]] = []
    skip = len(str(root)) + 1
    stack = [str(root)]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    name = entry.name
                    if name.endswith(".py"):
                        st = entry.stat()
                        seen.append((entry.path[skip:], st.st_size, st.st_mtime_ns))
                    elif name != "__pycache__" and "." not in name and entry.is_dir():
                        stack.append(entry.path)
        except OSError:
            continue
    seen.sort()
    return hashlib.sha256(repr(seen).encode()).hexdigest(), [name for name, _, _ in seen]


def content_digest(root: Path, names: list[str]) -> str:
    """A digest of the names and content of the sources."""
    digest = hashlib.sha256()
    for name in names:
        try:
            data = (root / name).read_bytes()
        except OSError:
            data = b"\0unreadable"
        digest.update(f"{name}\0{len(data)}\n".encode())
        digest.update(data)
    return digest.hexdigest()


def source_digest(root: Path = PACKAGE_ROOT, directory: Path | None = None) -> str:
    """The content digest of the sources under ``root``, hashed only when their stat digest
    is not the one the install's stamp file remembers."""
    directory = cache_dir() if directory is None else directory
    where = hashlib.sha256(str(root).encode()).hexdigest()[:16]
    stamp = directory / f"sources-{where}.json"
    stat, names = stat_digest(root)
    try:
        known = json.loads(stamp.read_text("utf-8"))
        if isinstance(known, dict) and known.get("stat") == stat:
            content = known.get("content")
            if isinstance(content, str):
                return content
    except (OSError, ValueError):
        pass
    content = content_digest(root, names)
    _write(stamp, json.dumps({"root": str(root), "stat": stat, "content": content}))
    return content


def versions(names: tuple[str, ...] = DISTRIBUTIONS) -> dict[str, str]:
    """The installed version of each distribution (``"none"`` when missing), read from the
    names of the ``*.dist-info`` folders on ``sys.path``: ``importlib.metadata`` takes a few
    milliseconds more the first time."""
    wanted = {n.lower().replace("-", "_"): n for n in names}
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            listing = os.listdir(entry or ".")
        except OSError:
            continue
        for item in listing:
            if not item.endswith(".dist-info"):
                continue
            project, _, release = item[: -len(".dist-info")].partition("-")
            key = project.lower().replace("-", "_").replace(".", "_")
            if key in wanted and wanted[key] not in found:
                found[wanted[key]] = release
        if len(found) == len(wanted):
            break
    for name in names:
        if name not in found:
            from importlib.metadata import PackageNotFoundError, version

            try:
                found[name] = version(name)
            except PackageNotFoundError:
                found[name] = "none"
    return {name: found[name] for name in names}


def fingerprint(root: Path = PACKAGE_ROOT, directory: Path | None = None) -> str:
    """What the answers are made of, as a short digest: it changes whenever they could."""
    made_of = {"xdb": __version__, **versions(), "sources": source_digest(root, directory)}
    return hashlib.sha256(json.dumps(made_of, sort_keys=True).encode()).hexdigest()[:24]


def answers_path(fingerprint: str, directory: Path | None = None) -> Path:
    return (cache_dir() if directory is None else directory) / f"{PREFIX}{fingerprint}.json"


# --------------------------------------------------------------------------- read and write


def load(path: Path, fingerprint: str) -> dict[str, Any] | None:
    """The answers in ``path`` if it holds a whole set made for ``fingerprint``, else None.
    Only a file of this user's that no one else may write, not a link: the answers are the
    tool descriptions an agent reads, and a cache folder may be shared (``XDB_CACHE_DIR``
    in a world-writable place), where another user could plant a file first."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:  # unreadable, or a link
        logger.debug("ignoring the MCP answers cache %s: %s", path, exc)
        return None
    try:
        with os.fdopen(fd, "rb") as file:
            if not _ours(os.fstat(file.fileno())):
                logger.debug("ignoring the MCP answers cache %s: not this user's alone", path)
                return None
            answers = json.loads(file.read())
    except (OSError, ValueError, RecursionError) as exc:  # unreadable, truncated, not JSON
        logger.debug("ignoring the MCP answers cache %s: %s", path, exc)
        return None
    if not _whole(answers, fingerprint):
        logger.debug("ignoring the MCP answers cache %s: not a set made for it", path)
        return None
    assert isinstance(answers, dict)
    return answers


def _ours(st: os.stat_result) -> bool:
    """Owned by this user and writable by no one else (where there are owners)."""
    getuid = getattr(os, "getuid", None)
    return getuid is None or (st.st_uid == getuid() and not st.st_mode & 0o022)


def _whole(answers: Any, fingerprint: str) -> bool:
    return (
        isinstance(answers, dict)
        and answers.get("fingerprint") == fingerprint
        and all(
            isinstance(answers.get(n), dict)
            and all(isinstance(answers[n].get(p), d) for p, d in zip(_PARTS, _KINDS, strict=True))
            for n in NAMINGS
        )
    )


def render(answers: Mapping[str, Any], fingerprint: str) -> str:
    """The cache file's text: the answers and the fingerprint they were made for."""
    whole = {**answers, "fingerprint": fingerprint}
    return json.dumps(whole, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def generate(fingerprint: str) -> str:
    """The answers the SDK gives now, as the cache file's text (imports the SDK)."""
    from xdb.interfaces.mcp import recorded_answers

    return render(recorded_answers(), fingerprint)


def store(path: Path, fingerprint: str) -> bool:
    """Generate the answers and write them to ``path`` (atomically), keeping the ``KEEP``
    newest answer files beside it. False when the cache could not be written (logged at
    debug level: it only costs the next start its speed)."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        writable = os.access(path.parent, os.W_OK | os.X_OK)
    except OSError:
        writable = False
    if not writable:  # not worth a second of generating
        logger.debug("the MCP answers cache %s cannot be written", path.parent)
        return False
    try:
        text = generate(fingerprint)
    except Exception:  # never the server's concern: it serves from the SDK
        logger.debug("could not generate the MCP answers", exc_info=True)
        return False
    if not _write(path, text):
        return False
    _prune(path.parent)
    return True


def _write(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` through a temporary file renamed over it."""
    temp: str | None = None
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temp, path)
        return True
    except OSError as exc:
        logger.debug("could not write the cache file %s: %s", path, exc)
        if temp is not None:
            with suppress(OSError):
                os.unlink(temp)
        return False


def _prune(directory: Path) -> None:
    try:
        files = sorted(
            directory.glob(f"{PREFIX}*.json"), key=lambda p: p.stat().st_mtime, reverse=True
        )
        for old in files[KEEP:]:
            old.unlink()
    except OSError as exc:  # another server pruned first, or the folder is read-only
        logger.debug("could not prune the MCP answers cache: %s", exc)


def main() -> int:
    """Write the answers for this install to the cache (``make``, or a package build, may)."""
    current = fingerprint()
    path = answers_path(current)
    if load(path, current) is None and not store(path, current):
        print(f"could not write {path}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
