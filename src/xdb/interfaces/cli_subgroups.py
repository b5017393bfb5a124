"""The ``xdb`` command groups over generated commands: ``xdb concepts`` (the listing, and
``xdb concepts import DIR``) and ``xdb audit|keys|dataset|sync|lessons SUB``, the
operations whose command is ``GROUP SUB``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from xdb.interfaces import cli_help
from xdb.interfaces.cli_database import database, emit
from xdb.interfaces.cli_generated import op_command, payload
from xdb.models.common import Caller
from xdb.ops.catalog import operations
from xdb.paths import at_terminal


def concepts_group(listing: click.Command) -> click.Group:
    """``xdb concepts`` lists (the generated command), ``xdb concepts import DIR`` loads."""

    @click.pass_context
    def callback(ctx: click.Context, /, **values: Any) -> None:
        if ctx.invoked_subcommand is None and listing.callback is not None:
            listing.callback(**values)

    group = cli_help.ListingGroup(
        "concepts",
        params=listing.params,
        callback=callback,
        invoke_without_command=True,
        short_help=listing.short_help,
        help=f"{listing.help}\n\n'xdb concepts import DIR' loads a pack.",
        epilog=listing.epilog,
    )

    @group.command("import", epilog=cli_help.epilog("xdb concepts import first-light"))
    @click.argument("directory", type=click.Path(exists=True, file_okay=False))
    def import_concepts(directory: str) -> None:
        """Load the concept pack in DIRECTORY (HatCat format: pack.json, hierarchy.json,
        concepts/layerN/*.json). Importing a version again changes nothing.

        Also: MCP tool xdb_import_concepts, HTTP POST /v1/xdb/import-concepts.
        """
        path = str(Path(directory).resolve())
        with at_terminal():
            emit(database().call("import_concepts", {"path": path}).model_dump(mode="json"))

    return group


def subcommand_group(name: str, help_text: str, as_auditor: bool) -> click.Group:
    """``xdb NAME SUB``: the operations whose command is ``NAME SUB`` (``xdb audit list``,
    ``xdb keys create``). ``as_auditor``: run as an auditor (the person at the terminal
    reads the file's audit log) unless ``--caller`` names another caller."""
    ops = [op for op in operations() if op.command.startswith(f"{name} ")]
    group = cli_help.ListingGroup(
        name,
        short_help=help_text.split(":")[0] + ".",
        help=help_text,
        epilog=cli_help.epilog(*(line for op in ops for line in (op.example or "").splitlines())),
    )
    for op in ops:
        command = op_command(op)
        command.name = op.command.split()[1]
        inner = command.callback
        assert inner is not None

        def callback(*args: Any, _inner: Any = inner, _op: Any = op, **values: Any) -> None:
            root = click.get_current_context().find_root()
            if as_auditor:
                root.obj["default_caller"] = Caller(id="auditor", roles=("auditor",))
            if _op.name != "verify":
                _inner(*args, **values)
                return
            found = database(create=False).run(_op, payload(_op, values))
            emit(found.model_dump(mode="json"))
            if not getattr(found, "ok", True):
                sys.exit(1)  # a broken chain fails the command, for scripts and cron

        command.callback = callback
        group.add_command(command)
    return group


_AUDIT_HELP = """Read and verify the audit log: every timestep as recorded and every call,
hash-chained. 'xdb audit verify' exits 1 when the chain is broken and names the first bad
record. Runs as an auditor unless --caller names another caller."""
_KEYS_HELP = """Manage API keys: each acts as a caller over HTTP and MCP over HTTP. A key is
shown once, when made, and kept only as a hash."""
_DATASET_HELP = """Show a concept dataset with its frozen members, or export it for training:
'xdb dataset export ID --path train.parquet' (or .jsonl). 'xdb datasets' lists them."""
_SYNC_HELP = """Share what this database learned with a tribe: 'xdb sync export DIR' writes a
content-addressed bundle, 'xdb sync import DIR' verifies and merges one (docs/learning.md)."""
_LESSONS_HELP = """Read the experience engine's lessons: 'xdb lessons list', 'xdb lessons show ID',
'xdb lessons stats', 'xdb lessons timeline TOPIC' (docs/engine.md)."""

# Each group: its name, its help, and whether it runs as an auditor (``subcommand_group``).
GROUPS = (
    ("audit", _AUDIT_HELP, True),
    ("keys", _KEYS_HELP, False),
    ("dataset", _DATASET_HELP, False),
    ("sync", _SYNC_HELP, False),
    ("lessons", _LESSONS_HELP, False),
)
