"""The ``xdb`` commands over a whole database, each with a progress bar on a terminal
(``cli_progress``): ``xdb import`` and ``xdb export`` (JSONL), ``xdb migrate`` (to another
store) and ``xdb reindex`` (every episode embedded by the current model)."""

from __future__ import annotations

import sys

import click

from xdb.core import connect
from xdb.embed import SPECS
from xdb.interfaces import cli_help, cli_progress
from xdb.interfaces.cli_database import DB_NAME, database, db_location, emit


@click.command(
    "import",
    epilog=cli_help.epilog("xdb import backup.jsonl"),
)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--progress/--no-progress", default=None, help=cli_progress.HELP)
def import_command(file: str, progress: bool | None) -> None:
    """Import a JSONL export (FILE, or - for stdin) in one transaction; print counts per kind.

    Objects that already exist are skipped, so importing the same file twice changes nothing.
    A malformed line aborts the import, names the line, and writes nothing. Imported episodes
    are then embedded before the command ends (a second progress bar).
    """
    from xdb.interfaces.jsonl import import_jsonl

    if progress is None:
        # Automatic on a terminal, after a moment, so a quick import prints no bar at all.
        emit(import_jsonl(database(), file, progress=sys.stderr.isatty(), delay=0.5))
    else:
        emit(import_jsonl(database(), file, progress=progress))


@click.command(
    "export",
    short_help="Write everything the caller may read as JSONL (a backup; 'xdb import').",
    epilog=cli_help.epilog("xdb export backup.jsonl"),
)
@click.argument("file", default="-", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--sharing",
    is_flag=True,
    help="Leave out objects whose access policy does not allow export (and the policies).",
)
@click.option(
    "--vectors",
    is_flag=True,
    help="Write each episode's stored vectors too, so an import does not embed it again"
    " (the whole export only: refused with --sharing or for a restricted caller).",
)
@click.option("--progress/--no-progress", default=None, help=cli_progress.HELP)
def export_command(file: str, sharing: bool, vectors: bool, progress: bool | None) -> None:
    """Write every session, tag, timestep, tag application, comment, episode, graph object,
    policy object and access assignment the caller may read as JSONL.

    FILE defaults to - (stdout). When writing a file, print the counts per kind. With
    --vectors, episode records carry their vectors (base64 float32 by model id), which the
    whole export alone may: a vector is derived from content a restricted export hides.
    """
    from xdb.interfaces.jsonl import export_jsonl
    from xdb.migrate import record_count

    db = database(create=False)
    with cli_progress.bar(progress, "records", lambda: record_count(db)) as shown:
        counts = export_jsonl(db, file, sharing=sharing, advance=shown.update, vectors=vectors)
    if file != "-":
        emit(counts)


@click.command(
    "migrate",
    short_help="Copy a database to another store (SQLite to PostgreSQL and back).",
    epilog=cli_help.epilog("xdb migrate --from agent.sqlite3 --to copy.sqlite3"),
)
@click.option(
    "--from",
    "source",
    metavar="DB",
    help="The database to copy: a file or a postgresql:// URL. Default: --db / $XDB_DB.",
)
@click.option("--to", "target", metavar="DB", required=True, help="Where to copy it to.")
@click.option(
    "--vectors/--no-vectors",
    default=True,
    help="Copy the episodes' vectors (default), or leave the target to embed them again.",
)
@click.option("--progress/--no-progress", default=None, help=cli_progress.HELP)
def migrate_command(source: str | None, target: str, vectors: bool, progress: bool | None) -> None:
    """Copy a database to another store (SQLite to PostgreSQL and back) in one transaction,
    then count both sides kind by kind; print the counts.

    Objects the target already holds are skipped, so a second run copies nothing new.
    The episodes' vectors are copied with them, so the target embeds none of them again
    (--no-vectors: it embeds them in the background, or at once with
    `xdb --db TARGET reindex`).
    """
    from xdb.config import prepare_location
    from xdb.migrate import copy, record_count

    named = "--from" if source else DB_NAME
    source = source or db_location()
    # Both are checked before either opens (opening upgrades an old file's schema): a
    # mistyped --to leaves the source as it was.
    prepare_location(source, create=False, name=named, make="")
    prepare_location(target, create=True, name="--to")
    with (
        connect(source, create=False) as src,
        connect(target) as dst,
        cli_progress.bar(progress, "records", lambda: record_count(src)) as bar,
    ):
        result = copy(src, dst, bar.update, vectors=vectors)
    emit(result.model_dump(mode="json"))


@click.command(
    "reindex",
    short_help="Embed every episode that has no vector from the current model.",
    epilog=cli_help.epilog("xdb reindex --embedder minilm"),
)
@click.option(
    "--embedder",
    type=click.Choice(SPECS, case_sensitive=False),
    help="The model to embed with. Default: $XDB_EMBEDDER, else minilm.",
)
@click.option("--progress/--no-progress", default=None, help=cli_progress.HELP)
def reindex_command(embedder: str | None, progress: bool | None) -> None:
    """Embed every episode that has no vector from the current model, then delete the
    vectors of other models; print the model, the episodes, and how many were embedded.

    Run it after changing XDB_EMBEDDER, so that every episode is vector-searchable again
    at once rather than as the background worker gets to it. Safe to run while other
    processes use the database; running it twice embeds nothing the second time.
    """
    from xdb.index.reindex import episode_count, reindex

    if embedder is not None:
        click.get_current_context().find_root().obj["embedder"] = embedder.lower()
    db = database(create=False)  # nothing to embed in a database that does not exist
    # The total counts every episode; those that already have a vector are never visited.
    with cli_progress.bar(progress, "episodes", lambda: episode_count(db)) as bar:
        result = reindex(db, bar.update)
    emit(result)
