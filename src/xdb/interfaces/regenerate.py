"""The command line of a file generated from the registry (``api_gen``: ``xdb/api.py``;
``docs``: ``docs/reference.md``): write it, or with ``--check`` say whether it is stale.

Both generators answer the same way, which their tests and CI's staleness checks rely on,
so the one command line serves both: only what they render and where differ.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path


def write_or_check(
    argv: Sequence[str] | None,
    *,
    command: str,
    description: str | None,
    default: Path,
    render: Callable[[], str],
) -> int:
    """Render the file and write it to ``--output`` (0), or with ``--check`` compare it
    with what is there: 1 when it differs or is missing (stale), else 0."""
    parser = argparse.ArgumentParser(prog=command, description=description)
    parser.add_argument("--output", type=Path, default=default, help="default: %(default)s")
    parser.add_argument("--check", action="store_true", help="fail if the file is out of date")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is out of date; run {command}", file=sys.stderr)
            return 1
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0
