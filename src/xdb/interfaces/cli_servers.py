"""The ``xdb`` commands that serve: ``xdb serve`` (HTTP: the API, the explorer, MCP),
``xdb demo`` (the demo database, then served), ``xdb mcp`` (stdio) and ``xdb mcp config
CLIENT``. Each imports its server lazily, so that ``xdb --help`` stays fast."""

from __future__ import annotations

from contextlib import suppress

import click

from xdb.core import Database, connect
from xdb.errors import InvalidRequest, XdbError
from xdb.interfaces import cli_help
from xdb.interfaces.cli_database import DB_MAKE, DB_NAME, act_as, database, db_location, emit
from xdb.interfaces.mcp_config import CLIENTS as MCP_CLIENTS
from xdb.interfaces.mcp_profiles import PROFILES
from xdb.models.common import Caller
from xdb.ops.catalog import operations
from xdb.paths import ENV as DATA_ROOT_ENV

# Where the servers' callers may read and write files (xdb.paths); the CLI's own commands
# are the person at the terminal's, who names any path.
_DATA_ROOT = click.option(
    "--data-root",
    metavar="DIR",
    help=f"The only folder where callers' paths may lead (export_dataset, sync, concept "
    f"packs, transcripts). Default: ${DATA_ROOT_ENV}, else <db stem>-files beside the "
    "database file (docs/policy.md).",
)


@click.command(
    short_help="Serve HTTP: the API (browsable at /docs), the explorer at /, MCP at /mcp.",
    epilog=cli_help.epilog("xdb serve --port 8765"),
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8765, show_default=True, type=int, help="Port to listen on.")
@click.option("--dotted-names", is_flag=True, help="Name MCP tools xdb.record, not xdb_record.")
@click.option("--mcp/--no-mcp", default=True, help="Also serve MCP at /mcp (default: yes).")
@click.option(
    "--maintenance-every",
    default=3600.0,
    show_default=True,
    type=click.FloatRange(min=0),
    help="Seconds between maintenance runs (compression, retention, space); 0: never.",
)
@_DATA_ROOT
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME[:PORT]",
    help="Also answer requests addressed to this host name (repeatable): the Host a proxy or "
    "a DNS name reaches the server by. Others are refused with 421 (DNS rebinding).",
)
def serve(
    host: str,
    port: int,
    dotted_names: bool,
    mcp: bool,
    maintenance_every: float,
    data_root: str | None,
    allowed_hosts: tuple[str, ...],
) -> None:
    """Serve the database over HTTP until interrupted: the API under /v1 (its reference,
    browsable, at /docs), the explorer's pages at / (a session's timeline, episodes,
    concepts, lessons; docs/explorer.md) and MCP streamable HTTP at /mcp. On start it prints
    the explorer's and the API docs' URLs on stderr.
    """
    from xdb.interfaces.http import serve as run_http

    db = database()
    if data_root is not None:
        db.data_root = data_root
    # Over the network the database answers as the agent (or --caller), never as an admin.
    db.caller = act_as(db, click.get_current_context().find_root().obj.get("caller"), Caller())
    run_http(
        db,
        host=host,
        port=port,
        mcp=mcp,
        dotted_names=dotted_names,
        maintenance_every=maintenance_every,
        allowed_hosts=allowed_hosts,
        announce=lambda app: _announce(host, port, app.docs_url, mcp),
    )


@click.command(
    "demo",
    short_help="Fill a database with a few agent sessions and serve the explorer on it.",
    epilog=cli_help.epilog("xdb demo --db demo.sqlite3 --no-serve"),
)
@click.option(
    "--serve/--no-serve",
    "then_serve",
    default=True,
    help="Then serve it, as 'xdb serve' does (default: yes).",
)
@click.option("--port", default=8765, show_default=True, type=int, help="Port to serve on.")
def demo_command(then_serve: bool, port: int) -> None:
    """Fill a database with the demo, then serve the explorer on it until interrupted: the
    bundled sample of the first-light concept pack and four agent sessions (a deploy that
    locked a table, a refund said to be sent that was not, a claim corrected after a search,
    a flaky test) with tool calls, activations, tags, comments, episodes, lessons, a bud and
    a dataset. The database: --db or $XDB_DB, else demo.sqlite3 in this directory. One the
    demo filled before is served as it is; any other that is not empty is refused. Prints
    what it wrote as JSON (with --no-serve) and the explorer's URL on stderr.
    """
    import dataclasses

    from xdb.demo import DEFAULT_DB
    from xdb.demo.fill import fill, state

    root = click.get_current_context().find_root().obj
    root["db_path"] = root["db_path"] or DEFAULT_DB
    db = database()
    found = state(db)
    if found not in ("empty", "demo"):
        made = "holds a demo that did not finish" if found == "unfinished" else "is not empty"
        raise XdbError(
            f"the demo fills a new or empty database, and {db_location()} {made}: remove it "
            "or name another with --db"
        )
    filled = fill(db) if found == "empty" else None
    said = f"filled with {filled.summary()}" if filled else "holds the demo already"
    click.echo(f"demo: {db_location()} {said}", err=True)
    if then_serve:
        click.get_current_context().invoke(serve, port=port)
    else:
        emit({"db": db_location(), "filled": filled is not None,
              **(dataclasses.asdict(filled) if filled else {})})  # fmt: skip


def _announce(host: str, port: int, docs: str | None, mcp: bool) -> None:
    """Where ``xdb serve``'s pages are, on stderr (stdout stays for JSON)."""
    shown = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    base = f"http://{f'[{shown}]' if ':' in shown else shown}:{port}"
    lines = [f"explorer: {base}/"]
    if docs:
        lines.append(f"API docs: {base}{docs}")
    if mcp:
        lines.append(f"MCP:      {base}/mcp")
    click.echo("\n".join(lines), err=True)


@click.group(
    "mcp",
    cls=cli_help.ListingGroup,
    invoke_without_command=True,
    epilog=cli_help.epilog("xdb mcp --db agent.sqlite3", "xdb mcp config claude-code"),
)
@click.option(
    "--profile",
    type=click.Choice(list(PROFILES)),
    default=None,
    help="Which tools to serve (default: agent; docs/mcp.md). "
    + "; ".join(f"{p.name}: {p.summary}" for p in PROFILES.values())
    + ".",
)
@click.option("--dotted-names", is_flag=True, help="Name tools xdb.record, not xdb_record.")
@click.option(
    "--toolsets",
    metavar="GROUP[,GROUP...]",
    help="Instead of a profile, every operation of these groups, comma-separated (the "
    "management groups policy, audit and sync are served only so). Known: "
    + ", ".join(sorted({op.group for op in operations()}))
    + ".",
)
@_DATA_ROOT
@click.pass_context
def mcp_command(
    ctx: click.Context,
    profile: str | None,
    dotted_names: bool,
    toolsets: str | None,
    data_root: str | None,
) -> None:
    """Serve the database as an MCP server over stdin/stdout. 'xdb mcp config CLIENT' prints
    the config that makes a client start it."""
    groups = _toolsets(toolsets)
    if profile is not None and groups is not None:
        raise InvalidRequest("toolsets: give --profile or --toolsets, not both", field="toolsets")
    if ctx.invoked_subcommand is not None:
        return
    from xdb.config import prepare_location
    from xdb.interfaces.stdio import serve as serve_stdio

    # The database opens on the loader thread, while the first requests are being answered;
    # a path that cannot be opened is refused here, before anything is served.
    path, session = db_location(), click.get_current_context().find_root().obj["session"]
    prepare_location(path, create=True, name=DB_NAME, make=DB_MAKE)
    caller_id = click.get_current_context().find_root().obj.get("caller")

    def open_db() -> Database:
        db = connect(path, session_id=session, data_root=data_root)
        try:
            db.caller = act_as(db, caller_id, Caller())  # the agent, not an admin
        except XdbError:
            db.close()
            raise
        return db

    with suppress(KeyboardInterrupt):  # Ctrl-C is how a person stops a stdio server
        serve_stdio(open_db, dotted_names=dotted_names, groups=groups, profile=profile)


def _toolsets(toolsets: str | None) -> set[str] | None:
    if toolsets is None:
        return None
    groups = {g.strip() for g in toolsets.split(",") if g.strip()}
    known = {op.group for op in operations()}
    if not groups or groups - known:
        raise InvalidRequest(
            f"toolsets: unknown {', '.join(sorted(groups - known)) or 'empty list'}; "
            f"known: {', '.join(sorted(known))}",
            field="toolsets",
        )
    return groups


@mcp_command.command("config", epilog=cli_help.epilog("xdb mcp config claude-code"))
@click.argument("client", type=click.Choice(MCP_CLIENTS))
@click.option("--profile", type=click.Choice(list(PROFILES)), default=None, help="As 'xdb mcp'.")
@click.option("--name", default="xdb", show_default=True, help="The server's name in the client.")
@click.pass_context
def mcp_config_command(ctx: click.Context, client: str, profile: str | None, name: str) -> None:
    """Print CLIENT's config that starts this xdb as its MCP server (stdout; where it goes, on
    stderr): this xdb and the database by absolute path, with the options given to 'xdb mcp'
    ('xdb mcp --toolsets memcp config cursor') or here (--profile). Clients: claude-code
    (.mcp.json), claude-desktop (claude_desktop_config.json), cursor (.cursor/mcp.json), codex
    (~/.codex/config.toml), vscode (.vscode/mcp.json), gemini (~/.gemini/settings.json)."""
    from xdb.interfaces.mcp_config import render, server_command

    given = ctx.parent.params if ctx.parent is not None else {}
    profile = profile or given.get("profile")
    if profile is not None and given.get("toolsets") is not None:
        raise InvalidRequest("toolsets: give --profile or --toolsets, not both", field="toolsets")
    root = ctx.find_root().obj  # --db, --caller: given here, before 'mcp', or in the environment
    command = server_command(
        db_location(),
        profile=profile,
        toolsets=given.get("toolsets"),
        dotted_names=bool(given.get("dotted_names")),
        data_root=given.get("data_root"),
        caller=root.get("caller"),
    )
    try:
        text, where = render(client, command, name)
    except ValueError as exc:
        raise InvalidRequest(str(exc), field="name") from None
    click.echo(text, nl=False)
    click.echo(where, err=True)
