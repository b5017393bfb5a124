"""Progress bars for the command line's long commands: import, export, migrate, reindex,
maintenance and dataset export.

A bar goes to stderr, so stdout keeps nothing but the JSON. By default it shows only when
stderr is a terminal, and only after half a second, so a quick run prints none; ``--progress``
shows it at once (on a pipe too), ``--no-progress`` never. tqdm is imported when a command
runs, never by ``xdb --help``. Generated commands get their bar from the operation's own
reports (``xdb.progress``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from xdb.progress import reporting

HELP = "Show a progress bar on stderr (default: when stderr is a terminal)."

# Operations whose handler reports its progress, with what their bar counts.
REPORTING: dict[str, str] = {
    "xdb.maintenance": "records",
    "experience.export_dataset": "rows",
}


def option() -> click.Option:
    """``--progress/--no-progress`` for a generated command (the hand-written ones say it
    with a decorator)."""
    return click.Option(["--progress/--no-progress", "progress"], default=None, help=HELP)


@contextmanager
def bar(progress: bool | None, unit: str, total: Callable[[], int] | None = None) -> Iterator[Any]:
    """A tqdm bar on stderr, as ``progress`` (None: on a terminal) says; ``total`` counts
    the work ahead, only when the bar shows."""
    from tqdm import tqdm

    show = sys.stderr.isatty() if progress is None else progress
    with tqdm(
        total=total() if show and total is not None else None,
        unit=f" {unit}",
        file=sys.stderr,
        disable=not show,
        delay=0.5 if progress is None else 0.0,  # on a terminal, no flash for a quick run
    ) as shown:
        yield shown
        # A total counted ahead can be an upper bound: the run ends where the work did.
        shown.total = shown.n


@contextmanager
def reported(progress: bool | None, unit: str) -> Iterator[None]:
    """Inside: what operations report (``xdb.progress``) moves a bar."""
    with bar(progress, unit) as shown:

        def listen(done: int, total: int | None) -> None:
            if total is not None:
                shown.total = total
            shown.update(done - shown.n)

        with reporting(listen):
            yield
