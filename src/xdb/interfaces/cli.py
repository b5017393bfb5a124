"""The ``xdb`` command line: a thin skin over ``Database``.

One command per registered operation (``cli_generated``; ``cli_subgroups`` for the
operations named ``GROUP SUB``), its options generated from the request model's fields.
Every error leaves as one line, ``error: <message>``, on stderr with exit code 2
(``cli_group``). The commands that serve (``cli_servers``), run the engine's hooks
(``cli_hooks``) or go over a whole database (``cli_bulk``) are written by hand; they import
their servers and libraries lazily so that ``xdb --help`` stays fast. The global options
``--db`` and ``--session`` are accepted before or after every command (``cli_options``); a
command opens the database they name (``cli_database``), and one that only reads never makes
a database file (``xdb.config.prepare_location``). ``xdb --help`` lists the commands by
capability and every command's help ends with an example (``cli_help``); the long commands
draw a progress bar on a terminal (``cli_progress``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from xdb import __version__
from xdb.interfaces import cli_bulk, cli_hooks, cli_options, cli_servers, cli_subgroups
from xdb.interfaces.cli_generated import op_command
from xdb.interfaces.cli_group import XdbGroup
from xdb.ops.catalog import operations


@click.group("xdb", cls=XdbGroup, context_settings={"help_option_names": ["-h", "--help"]})
@cli_options.group_options
@click.version_option(__version__, "--version", prog_name="xdb")
@click.pass_context
def cli(ctx: click.Context, db_path: str | None, session: str | None, caller: str | None) -> None:
    """xdb: an experience database for AI agents. Record, tag and recall what happened.

    Every command prints its result as JSON. Errors print one line to stderr and exit 2.
    """
    ctx.obj = cli_options.group_values(
        ctx, {"db_path": db_path, "session": session, "caller": caller}
    )


for _op in operations():
    if _op.command and " " not in _op.command:  # "audit list": a group's (cli_subgroups)
        cli.add_command(op_command(_op))
cli.add_command(cli_subgroups.concepts_group(cli.commands.pop("concepts")))
for _name, _help, _as_auditor in cli_subgroups.GROUPS:
    cli.add_command(cli_subgroups.subcommand_group(_name, _help, as_auditor=_as_auditor))
for _command in (
    cli_servers.serve,
    cli_servers.demo_command,
    cli_hooks.hook_command,
    cli_hooks.hooks_group,
    cli_servers.mcp_command,
    cli_bulk.import_command,
    cli_bulk.export_command,
    cli_bulk.migrate_command,
    cli_bulk.reindex_command,
):
    cli.add_command(_command)

# Last, once every command is in place: each accepts --db and --session after its name too.
for _command in cli.commands.values():
    cli_options.add_to(_command)


def main(argv: Sequence[str] | None = None) -> int:
    """The console script ``xdb``."""
    code: int = cli.main(args=argv, prog_name="xdb", standalone_mode=False)
    return code


if __name__ == "__main__":
    sys.exit(main())
