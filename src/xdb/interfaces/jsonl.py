"""JSON Lines on files and pipes: `xdb import`, `xdb export` and `xdb record-batch --file`.

The format itself (a header record, then session, tag, timestep, tag_application, comment and
episode records) belongs to the store; this module only moves it between a file and
``Database``, and makes errors name the line they come from.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from xdb.core import Database
from xdb.errors import InvalidRequest, XdbError, path_error

__all__ = ["embed_backlog", "export_jsonl", "import_jsonl", "read_timesteps"]

logger = logging.getLogger(__name__)

KINDS = ("session", "tag", "timestep", "tag_application", "comment")


class _Lines:
    """Parses JSONL lazily and remembers which line it handed out last.

    The store consumes records one at a time inside its transaction, so when it rejects a
    record, the last line read is the culprit: ``locate`` rewrites the error to name it.
    """

    def __init__(self, stream: IO[str], bar: Any) -> None:
        self.stream = stream
        self.bar = bar
        self.line = 0
        self.done = False

    def __iter__(self) -> Iterator[dict[str, Any]]:
        update = self.bar.update
        for number, text in enumerate(self.stream, 1):
            self.line = number
            update()
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InvalidRequest(
                    f"line {self.line}: not valid JSON ({exc.msg} at column {exc.colno})"
                ) from None
            if not isinstance(record, dict):
                raise InvalidRequest(
                    f"line {self.line}: expected a JSON object, got {type(record).__name__}"
                )
            yield record
        self.done = True

    def locate(self, exc: XdbError) -> XdbError:
        if self.done or exc.message.startswith(f"line {self.line}:"):
            return exc
        # The store counts records, not lines (blank lines and the header differ).
        message, found = re.subn(r"^record \d+", f"line {self.line}", exc.message)
        if not found:
            message = f"line {self.line}: {message}"
        return type(exc)(message, field=exc.field)


def _count_lines(path: str) -> int:
    count = 0
    with open(path, "rb") as raw:
        while chunk := raw.read(1 << 20):
            count += chunk.count(b"\n")
    return count


def import_jsonl(
    db: Database,
    source: str,
    *,
    progress: bool = False,
    delay: float = 0.0,
    embed: bool = True,
) -> dict[str, int]:
    """Import the JSONL file ``source`` (``-``: stdin) in one transaction; counts per kind.

    ``progress`` shows a bar on stderr, after ``delay`` seconds (so a quick import never
    flashes one); a regular file's lines are counted first to give the bar a total.
    With ``embed``, imported episodes are then embedded before this returns (a second bar
    counts them), so they are searchable by meaning at once; an embedder that fails
    leaves them to the next process that opens the database, with a warning.
    """
    counts = _import(db, source, progress, delay)
    if embed and counts.get("episode"):
        embed_backlog(db, progress=progress, delay=delay)
    return counts


def embed_backlog(db: Database, *, progress: bool = False, delay: float = 0.0) -> bool:
    """Wait, without a bound, until every episode has a vector, showing a bar of the
    episodes embedded on stderr; False (and a warning) when the embedder failed."""
    from tqdm import tqdm

    _, episodes, with_vectors, _ = db.indexer.coverage(db.store)
    with tqdm(
        total=episodes - with_vectors,
        desc="embedding",
        unit=" episodes",
        file=sys.stderr,
        disable=not progress,
        delay=delay,
    ) as bar:
        done = db.wait_for_embeddings(None, bar.update)
        if done and bar.n < bar.total:
            # Embedded before the wait began counting (this handle's worker starts with
            # the import) or by another process: done all the same.
            bar.update(bar.total - bar.n)
        elif bar.n > bar.total:  # more were added meanwhile
            bar.total = bar.n
    if not done:
        logger.warning(
            "the imported episodes are stored and searchable by their words, but embedding"
            " them failed (%s); the next process that opens the database retries, or run"
            " `xdb reindex`",
            db.indexer.failure,
        )
    return done


def _import(db: Database, source: str, progress: bool, delay: float) -> dict[str, int]:
    from tqdm import tqdm

    regular = source != "-" and Path(source).is_file()
    total = _count_lines(source) if progress and regular else None
    stream: IO[str] = (
        sys.stdin if source == "-" else open(source, encoding="utf-8")  # noqa: SIM115
    )
    try:
        with tqdm(
            total=total,
            unit=" lines",
            file=sys.stderr,
            disable=not progress,
            delay=delay,
        ) as bar:
            lines = _Lines(stream, bar)
            try:
                return db.import_records(lines)
            except XdbError as exc:
                raise lines.locate(exc) from None
    finally:
        if stream is not sys.stdin:
            stream.close()


def export_jsonl(
    db: Database,
    target: str,
    sharing: bool = False,
    advance: Callable[[int], object] | None = None,
    vectors: bool = False,
) -> dict[str, int]:
    """Write every stored object to ``target`` (``-``: stdout) as JSONL; counts per kind.
    ``vectors``: episode records carry their vectors (the whole export only).

    A file is written beside the target and renamed into place, so an interrupted export
    never leaves a truncated file that looks complete. ``advance(1)`` is called for each
    record but the header (a progress bar's ``update``).
    """
    counts: Counter[str] = Counter({kind: 0 for kind in KINDS})

    def write(out: IO[bytes]) -> None:
        for record in db.export_records(sharing=sharing, vectors=vectors):
            if record.get("kind") != "xdb-export":
                counts[str(record.get("kind"))] += 1
                if advance is not None:
                    advance(1)
            out.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")

    if target == "-":
        out = sys.stdout.buffer
        write(out)
        out.flush()
        return dict(counts)
    folder = os.path.dirname(os.path.abspath(target))
    try:
        # A name the filesystem refuses fails here, before the export is written beside it.
        with contextlib.suppress(FileNotFoundError):
            os.stat(target)
        fd, temp = tempfile.mkstemp(prefix=".xdb-export-", suffix=".jsonl", dir=folder)
    except OSError as exc:
        # Name the file the user asked for, not the temporary one beside it.
        raise path_error("file", target, exc) from None
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
        # mkstemp makes the file private (0600); give it the mode a plain open() would.
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temp, 0o666 & ~mask)
        try:
            os.replace(temp, target)
        except OSError as exc:  # e.g. the target is a directory
            raise path_error("file", target, exc) from None
    except BaseException:
        os.unlink(temp)
        raise
    return dict(counts)


def read_timesteps(text: str) -> Any:
    """Timesteps from a JSON list or JSON Lines (one object per line)."""
    if text.lstrip().startswith("["):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidRequest(
                f"timesteps: the file is not a valid JSON list ({exc.msg} at line {exc.lineno})",
                field="timesteps",
            ) from None
    items = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InvalidRequest(
                    f"timesteps: line {number} is not valid JSON ({exc.msg} at column {exc.colno})",
                    field="timesteps",
                ) from None
    return items
