"""The ``xdb`` command line: a thin skin over ``Database``.

One command per registered operation (``record_batch`` -> ``xdb record-batch``), its options
generated from the request model's fields. Values go to ``Database.run`` as typed and the
pydantic models validate them, so an error reads the same here as over MCP or HTTP. Every error
leaves as one line, ``error: <message>``, on stderr with exit code 2. ``serve``, ``mcp``,
``import``, ``export`` and ``reindex`` are written by hand; they import their servers and
libraries lazily so that ``xdb --help`` stays fast. The global options ``--db`` and
``--session`` are accepted before or after every command (``cli_options``). A command that
only reads never makes a database file (``xdb.config.prepare_location``). ``xdb --help``
lists the commands by capability and every command's help ends with an example
(``cli_help``); the long commands draw a progress bar on a terminal (``cli_progress``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from contextlib import nullcontext, suppress
from pathlib import Path
from typing import Any

import click
from click.exceptions import NoArgsIsHelpError
from pydantic import ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import to_jsonable_python

from xdb import __version__
from xdb.core import Database, connect
from xdb.embed import SPECS
from xdb.errors import InvalidRequest, XdbError, from_validation_errors
from xdb.interfaces import cli_help, cli_options, cli_progress
from xdb.interfaces.fields import choices, describe, field_kind, json_example, value_metavar
from xdb.interfaces.mcp_config import CLIENTS as MCP_CLIENTS
from xdb.interfaces.mcp_profiles import PROFILES
from xdb.models.common import Caller
from xdb.ops.registry import Operation, operations
from xdb.paths import ENV as DATA_ROOT_ENV
from xdb.paths import at_terminal

# --------------------------------------------------------------------------- generated commands


def _plain(value: Any) -> str:
    """A default as a user would type it: an enum's value, an object as JSON."""
    plain = to_jsonable_python(value)
    return plain if isinstance(plain, str) else json.dumps(plain, ensure_ascii=False)


def _option(name: str, info: FieldInfo, positional: bool = False) -> click.Option:
    """The option for a request field; ``positional``: the command's argument gives it too."""
    flag = "-" + name if len(name) == 1 else "--" + name.replace("_", "-")
    kind = field_kind(info)
    text = describe(info)
    allowed = choices(info)
    if kind == "flag":
        return click.Option([f"{flag}/--no-{flag[2:]}", name], default=None, help=text)
    metavar = f"[{'|'.join(allowed)}]" if allowed else "JSON" if kind == "json" else None
    if metavar is None:
        # Values travel as text for pydantic to parse; the metavar still says what fits.
        metavar = value_metavar(info)
    default = None if info.is_required() else info.get_default(call_default_factory=True)
    if default not in (None, False, [], {}):
        text = f"{text} Default: {_plain(default)}."
    if kind == "json":
        text = f"{text} A JSON value, e.g. '{json_example(name, info)}'."
    if kind == "list":
        text = f"{text} Repeat the option for several values."
    if positional:
        # The argument stands in for the option, so the option alone is never required.
        need = "Required: give" if info.is_required() else "Or give"
        text = f"{text} {need} it as the argument {name.upper()} or as {flag}."
    elif info.is_required():
        # Marked as click marks its own required options, but not enforced by click: the
        # request model says what is missing, in the same words as on every interface.
        text = f"{text.strip()}  [required]"
    # Default None (or an empty tuple) marks "not given": only given fields reach the model,
    # so its own defaults and validators apply exactly as on every other interface.
    return click.Option(
        [flag, name], default=None, multiple=kind == "list", metavar=metavar, help=text.strip()
    )


def _parse_json(name: str, info: FieldInfo, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidRequest(
            f"{name}: not valid JSON ({exc.msg} at column {exc.colno}); "
            f"give e.g. '{json_example(name, info)}'",
            field=name,
        ) from None


def payload(op: Operation[Any, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The request mapping for the options the user actually gave."""
    out: dict[str, Any] = {}
    positional = op.positional
    if positional and values.get("argument") is not None:
        if values.get(positional) not in (None, ()):
            option = "--" + positional.replace("_", "-")
            raise InvalidRequest(
                f"{positional}: give it as the argument or as {option}, not both",
                field=positional,
            )
        values = {**values, positional: values["argument"]}
    for name, info in op.request.model_fields.items():
        value = values.get(name)
        if value is None or value == ():
            continue
        kind = field_kind(info)
        out[name] = (
            _parse_json(name, info, value)
            if kind == "json"
            else list(value)
            if kind == "list"
            else value
        )
    return out


def emit(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _op_command(op: Operation[Any, Any]) -> click.Command:
    clash = {"argument", "file", "jsonl", "progress"} & op.request.model_fields.keys()
    if clash:  # the CLI's own parameter names would shadow these fields
        raise RuntimeError(f"{op.name}: request field(s) {clash} clash with CLI parameters")
    positional = op.positional
    fields = op.request.model_fields
    params: list[click.Parameter] = [_option(n, f, n == positional) for n, f in fields.items()]
    if positional:
        # Not required by click (--FIELD may give it instead), but shown bare when the
        # request needs it: `xdb record [OPTIONS] CONTENT`.
        metavar = positional.upper()
        if not fields[positional].is_required():
            metavar = f"[{metavar}]"
        params.insert(0, click.Argument(["argument"], required=False, metavar=metavar))
    if op.name == "record_batch":
        params.append(
            click.Option(
                ["--file", "file"],
                type=click.Path(exists=True, dir_okay=False, allow_dash=True),
                help="Read the timesteps from FILE ('-' for stdin): JSON Lines or a JSON list.",
            )
        )
    listing = "timesteps" in op.response.model_fields and op.readonly
    if listing:
        params.append(
            click.Option(["--jsonl", "jsonl"], is_flag=True, help="Print one timestep per line.")
        )
    counts = cli_progress.REPORTING.get(f"{op.group}.{op.name}")  # a long one: a bar
    if counts is not None:
        params.append(cli_progress.option())

    def callback(**values: Any) -> None:
        source = values.pop("file", None)
        jsonl = values.pop("jsonl", False)
        progress = values.pop("progress", None)
        request = payload(op, values)
        if source is not None:
            if "timesteps" in request:
                raise InvalidRequest(
                    "timesteps: give --file or --timesteps, not both", field="timesteps"
                )
            from xdb.interfaces.jsonl import read_timesteps

            request["timesteps"] = read_timesteps(_read_text(source))
        try:
            # Validated before the database opens: bad input names its field and leaves no
            # new file behind, and a typo in --db does not hide it.
            model = op.request.model_validate(request)
        except ValidationError as exc:
            if click.get_current_context().find_root().obj.get("caller") is not None:
                # A named caller who may not run it is told so, whatever it typed: the core
                # authorizes (and audits a refusal) before it validates (docs/policy.md).
                database(create=False).run(op, request)
            raise from_validation_errors(exc.errors()) from None
        bar = nullcontext() if counts is None else cli_progress.reported(progress, counts)
        with at_terminal(), bar:  # the person at the terminal names any path (xdb.paths)
            response = database(create=not op.readonly).run(op, model)
        data = response.model_dump(mode="json")
        if not jsonl:
            emit(data)
            return
        for item in data["timesteps"]:
            click.echo(json.dumps(item, ensure_ascii=False))
        if data.get("next_cursor"):
            # stdout stays pure JSON Lines; the hint for the next page goes to stderr.
            click.echo(f"more: pass --cursor {data['next_cursor']} for the next page", err=True)

    extra = ""
    if positional:
        extra = f"Argument {positional.upper()} is the same as --{positional.replace('_', '-')}. "
    routes = f"MCP tool {op.tool_name()}, HTTP POST {op.http_path}."
    return click.Command(
        op.command,
        params=params,
        callback=callback,
        short_help=op.summary,
        help=f"{op.description}\n\n{extra}Also: {routes}",
        epilog=cli_help.epilog(op.example) if op.example else None,
    )


def _read_text(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    return Path(source).read_text(encoding="utf-8")


# --------------------------------------------------------------------------- the group


class XdbGroup(cli_help.SectionedGroup):
    """A group that turns every error into one ``error: ...`` line and exit code 2, and
    lists its commands by capability (``cli_help``)."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        code = 0
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            # Without standalone mode click returns --help's exit code, or a command's value.
            code = result if isinstance(result, int) else 0
        except XdbError as exc:
            code = fail(exc.message)
        except NoArgsIsHelpError as exc:
            # Bare `xdb` (or a bare group) asks for help; it is not an error.
            click.echo(exc.format_message())
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
            code = fail(f"{exc.format_message()}{hint}")
        except click.ClickException as exc:
            code = fail(exc.format_message())
        except click.Abort:
            code = fail("aborted", 130)
        except BrokenPipeError:
            code = 1  # the reader went away (`xdb export | head`); nothing left to say
        except OSError as exc:
            code = fail(f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc))
        except Exception as exc:
            if os.environ.get("XDB_DEBUG"):
                raise
            code = fail(
                f"unexpected {type(exc).__name__}: {exc} (XDB_DEBUG=1 shows a traceback)", 1
            )
        if standalone_mode:
            sys.exit(code)
        return code


def fail(message: str, code: int = 2) -> int:
    click.echo(f"error: {' '.join(message.split())}", err=True)  # one line, always
    return code


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


# How the CLI says where a database path came from, and how to make a new database.
DB_NAME = "--db / XDB_DB"
DB_MAKE = "make a new one with a command that writes (xdb record ...)"


def act_as(db: Database, caller_id: str | None, default: Caller) -> Caller:
    """The caller ``--caller`` names (a defined one), else ``default``."""
    if caller_id is None:
        return default
    from xdb.policy.load import named_caller

    return named_caller(db.store, caller_id)


def db_location() -> str:
    """The database path or URL the command line (or the environment) names."""
    from xdb.config import default_db

    path: str = click.get_current_context().find_root().obj["db_path"] or default_db()
    return path


def database(*, create: bool = True) -> Database:
    """The database named by the global options, opened once per invocation. ``create``:
    whether a missing file may be made (false for a command that only reads)."""
    root = click.get_current_context().find_root()
    if "db" not in root.obj:
        from xdb.config import prepare_location

        location = db_location()
        prepare_location(location, create=create, name=DB_NAME, make=DB_MAKE)
        db = connect(
            location,
            create=create,
            session_id=root.obj["session"],
            embedder=root.obj.get("embedder"),  # None: XDB_EMBEDDER, else minilm
        )
        root.obj["db"] = db
        root.call_on_close(db.close)
        # The person at the terminal holds the file: the agent's view, and admin rights
        # (an auditor's, for the audit commands).
        default = root.obj.get("default_caller") or Caller(roles=("self", "admin"))
        db.caller = act_as(db, root.obj.get("caller"), default)
    found: Database = root.obj["db"]
    return found


for _op in operations():
    if _op.command and " " not in _op.command:  # "audit list": a group's (below)
        cli.add_command(_op_command(_op))


def _concepts_group(listing: click.Command) -> click.Group:
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


cli.add_command(_concepts_group(cli.commands.pop("concepts")))


def _subcommand_group(name: str, help_text: str, as_auditor: bool) -> click.Group:
    """``xdb NAME SUB``: the operations whose command is ``NAME SUB`` (``xdb audit list``,
    ``xdb keys create``). ``as_auditor``: run as an auditor (the person at the terminal
    reads the file's audit log) unless ``--caller`` names another caller."""
    ops = [op for op in operations() if op.command.startswith(f"{name} ")]
    group = cli_help.ListingGroup(
        name,
        short_help=help_text.split(":")[0] + ".",
        help=help_text,
        epilog=cli_help.epilog(*(op.example for op in ops if op.example)),
    )
    for op in ops:
        command = _op_command(op)
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

cli.add_command(_subcommand_group("audit", _AUDIT_HELP, as_auditor=True))
_DATASET_HELP = """Show a concept dataset with its frozen members, or export it for training:
'xdb dataset export ID --path train.parquet' (or .jsonl). 'xdb datasets' lists them."""

cli.add_command(_subcommand_group("keys", _KEYS_HELP, as_auditor=False))
cli.add_command(_subcommand_group("dataset", _DATASET_HELP, as_auditor=False))
_SYNC_HELP = """Share what this database learned with a tribe: 'xdb sync export DIR' writes a
content-addressed bundle, 'xdb sync import DIR' verifies and merges one (docs/learning.md)."""
cli.add_command(_subcommand_group("sync", _SYNC_HELP, as_auditor=False))
_LESSONS_HELP = """Read the experience engine's lessons: 'xdb lessons list', 'xdb lessons show ID',
'xdb lessons stats', 'xdb lessons timeline TOPIC' (docs/engine.md)."""
cli.add_command(_subcommand_group("lessons", _LESSONS_HELP, as_auditor=False))


# --------------------------------------------------------------------------- hand-written commands


# Where the servers' callers may read and write files (xdb.paths); the CLI's own commands
# are the person at the terminal's, who names any path.
_DATA_ROOT = click.option(
    "--data-root",
    metavar="DIR",
    help=f"The only folder where callers' paths may lead (export_dataset, sync, concept "
    f"packs, transcripts). Default: ${DATA_ROOT_ENV}, else <db stem>-files beside the "
    "database file (docs/policy.md).",
)


@cli.command(
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


@cli.command(
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


@cli.command(
    "hook",
    short_help="Answer one hook call of a coding agent (its JSON on stdin; docs/engine.md).",
    epilog=cli_help.epilog(
        """echo '{"tool_name": "Bash", "tool_input": {"command": "ls"}}' """
        "| xdb hook claude pre-tool-use"
    ),
)
@click.argument("agent", type=click.Choice(["claude", "codex", "gemini"]))
@click.argument(
    "event",
    type=click.Choice(["pre-tool-use", "post-tool-use", "stop", "session-start", "user-prompt"]),
)
def hook_command(agent: str, event: str) -> None:
    """Answer one hook call of a coding agent: its JSON on stdin, the answer in its dialect on
    stdout (docs/engine.md). Fails open: any problem is exit 0 and no output."""
    from xdb.engine import hook
    from xdb.engine.full import answer

    db_path = click.get_current_context().find_root().obj.get("db_path")
    if db_path:  # the database the hook opens when no serve answers (and its workers)
        os.environ["XDB_DB"] = db_path
    hook.main([agent, event], full=answer)


@cli.group(
    "hooks",
    epilog=cli_help.epilog(
        "xdb hooks install claude --project", "xdb hooks uninstall claude --project"
    ),
)
def hooks_group() -> None:
    """Install or remove xdb's hooks in Claude Code, the Codex CLI or Gemini CLI."""


_AGENT = click.argument("agent", type=click.Choice(["claude", "codex", "gemini"]))
_PROJECT = click.option(
    "--project",
    is_flag=True,
    help="This project's settings (.claude/, .codex/, .gemini/) rather than the user's.",
)


@hooks_group.command(
    "install",
    short_help="Merge xdb's hook entries into the agent's settings file.",
    epilog=cli_help.epilog("xdb hooks install claude --project"),
)
@_AGENT
@_PROJECT
@click.option(
    "--http",
    "url",
    metavar="URL",
    default=None,
    help="Claude Code only: http hooks posting to the xdb serve at URL (e.g."
    " http://127.0.0.1:8765) instead of a command per call.",
)
def hooks_install(agent: str, project: bool, url: str | None) -> None:
    """Merge xdb's hook entries into the agent's settings file (others stay as they are):
    this xdb by absolute path, with the database when --db is given."""
    from xdb.engine.install import install

    db = click.get_current_context().find_root().obj["given"].get("db_path")  # --db: named
    try:
        path = install(agent, Path.cwd() if project else None, url=url, db=db)
    except (OSError, ValueError) as exc:
        raise XdbError(f"cannot install the {agent} hooks: {exc}") from None
    click.echo(json.dumps({"agent": agent, "settings": str(path), "installed": True}))


@hooks_group.command("uninstall", epilog=cli_help.epilog("xdb hooks uninstall claude --project"))
@_AGENT
@_PROJECT
def hooks_uninstall(agent: str, project: bool) -> None:
    """Remove exactly the hook entries xdb added to the agent's settings file."""
    from xdb.engine.install import uninstall

    try:
        path, removed = uninstall(agent, Path.cwd() if project else None)
    except (OSError, ValueError) as exc:
        raise XdbError(f"cannot uninstall the {agent} hooks: {exc}") from None
    click.echo(json.dumps({"agent": agent, "settings": str(path), "removed": removed}))


@cli.group(
    "mcp",
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


@cli.command(
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


@cli.command(
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
@click.option("--progress/--no-progress", default=None, help=cli_progress.HELP)
def export_command(file: str, sharing: bool, progress: bool | None) -> None:
    """Write every session, tag, timestep, tag application, comment, episode, graph object,
    policy object and access assignment the caller may read as JSONL.

    FILE defaults to - (stdout). When writing a file, print the counts per kind.
    """
    from xdb.interfaces.jsonl import export_jsonl
    from xdb.migrate import record_count

    db = database(create=False)
    with cli_progress.bar(progress, "records", lambda: record_count(db)) as shown:
        counts = export_jsonl(db, file, sharing=sharing, advance=shown.update)
    if file != "-":
        emit(counts)


@cli.command(
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
@click.option("--progress/--no-progress", default=None, help=cli_progress.HELP)
def migrate_command(source: str | None, target: str, progress: bool | None) -> None:
    """Copy a database to another store (SQLite to PostgreSQL and back) in one transaction,
    then count both sides kind by kind; print the counts.

    Objects the target already holds are skipped, so a second run copies nothing new.
    Vectors are not copied (the target numbers episodes afresh): the target embeds them
    again in the background, or at once with `xdb --db TARGET reindex`.
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
        result = copy(src, dst, bar.update)
    emit(result.model_dump(mode="json"))


@cli.command(
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


# Last, once every command is in place: each accepts --db and --session after its name too.
for _command in cli.commands.values():
    cli_options.add_to(_command)


def main(argv: Sequence[str] | None = None) -> int:
    """The console script ``xdb``."""
    code: int = cli.main(args=argv, prog_name="xdb", standalone_mode=False)
    return code


if __name__ == "__main__":
    sys.exit(main())
