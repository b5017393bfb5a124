"""Every command line and Python block shown in README.md and docs/*.md, run as a user
would type it.

The lines come from the shell blocks (```sh, bash, shell, console) and from the ``# or: xdb
...`` alternatives in Python blocks; each Python block runs whole, as a script. Each is one
test. It runs under bash (a Python block: the venv's interpreter), with the venv's bin first
on PATH, so ``xdb`` is the console script under test.

A document runs as a reader follows it: in one home and working directory of its own, its
lines in order, so a line finds what the lines above it made (the demo's database, an
``export``, a ``NAME=$(...)`` a later line reads as ``$NAME``), and the Python blocks open
the database the commands use. Asked for alone, a line runs the ones above it first. Nothing
is made for it: ids are real (a step before them gets them), names are those of the bundled
concept pack. A Python block that writes to a fixed path (``/tmp/...``) runs twice, as a
reader trying it again would.

Two exceptions are run one block at a time, each in a fresh home, with what they take for
granted made first: docs/reference.md (generated: every operation's one-line example stands
alone) and the examples of every command's help (``xdb COMMAND --help``: a generated
command's is its operation's, which docs/reference.md shows; each other one that no document
shows is a block of its own), and docs/engine.md. What is made for them, and nothing else:
the database a command that only reads is pointed at, ``tokens.jsonl``, the unpacked
``first-light`` pack (and its concepts, for the lines that browse them), the session ``s1``
with two ticks and the event ``call-1`` the examples name, and something for a listing to
list where an example takes its first id (``LESSON=$(xdb lessons list | ...)``: a lesson;
``xdb recent``: a timestep; ``xdb search``: an episode; exemplars, training runs, keys).
No example names a placeholder id: each gets the real one first.

Everywhere the example PostgreSQL URL becomes a database on the suite's embedded server.
Servers (``xdb serve``, ``xdb demo``, ``xdb mcp``, ``make run``) are started, must answer
(HTTP ``GET /v1/xdb/status``; MCP ``initialize``, ``tools/list`` and a read-only tool call
as JSON-RPC lines over stdio), and are stopped. Embeddings use the hashing stand-in
(``XDB_EMBEDDER=hash``): no line here is about the model.
"""

from __future__ import annotations

import fcntl
import json
import os
import queue
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import click
import httpx
import pytest

import xdb
from tests.concepts.packs import unpack_first_light
from xdb.interfaces import cli_help
from xdb.interfaces.cli import cli
from xdb.interfaces.jsonl import export_jsonl
from xdb.interfaces.mcp_profiles import specs
from xdb.ops.catalog import operations

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELLS = {"sh", "bash", "shell", "console", "zsh"}
BIN = Path(sys.executable).parent
PORT = 8765  # where `xdb serve` and `make run` listen when the line does not say
SECONDS = 60.0  # the most any one line may take
EXAMPLE_URL = "postgresql://xdb:secret@db.internal:5432/xdb"

# Documented lines that are not run here, each with why. (`make run` is run: it is a server.)
NOT_RUN = {
    "make test": "runs the whole suite, this test included; CI runs it itself",
    "make lint": "ruff and mypy over the source, not a behaviour of xdb; run before each commit",
    "make bench": "the benchmarks take many minutes; they are run by hand (README table)",
    "pip install ./xdb": "installs the checkout into the user's environment; the tests run "
    "against the checkout already installed in this venv",
    "pipx install .": "downloads xdb's dependencies into a new environment; tests/test_install.py "
    "installs the checkout the same way (pip into a clean virtual environment) and runs its xdb",
    "make screenshot": "drives Chromium over the demo to rewrite docs/images/explorer.png; run "
    "by hand when the explorer's look changes",
}
# Documents whose blocks each stand alone, with what they assume made first (the docstring).
PREPARED = {
    "docs/reference.md": "generated: each operation's one-line example stands alone",
    "docs/engine.md": "each block stands alone (its hooks install into a scratch project)",
}
ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.+)$")

# Commands that only read: the database they name must exist (docs assume it does).
READERS = {op.command for op in operations() if op.command and op.readonly}
READERS |= {"export", "audit", "keys", "lessons", "reindex"}
LEARNING = {op.command.split()[0] for op in operations() if op.group == "experience"} | {
    "buds", "bud-examples", "bud-ready", "set-bud-status", "promote-bud", "dataset"
}  # fmt: skip
CONCEPT_READERS = {
    "concepts",
    "get-concept",
    "find-concept",
    "concept-usage-summary",
    "concept-neighborhood",
}


@dataclass(frozen=True)
class Line:
    doc: str  # the document, relative to the repository
    number: int  # its line number there (a Python block's: its opening fence)
    text: str  # a command line, or a Python block's code
    block: str  # "README.md:93": the document and the line of the block's opening fence
    group: str  # the lines that run in order in one sandbox: the document, or the block
    index: int  # its place in the group
    fence: str  # the block's language: a shell; python for a block or an `# or:` alternative
    script: bool = False  # a whole Python block


def extract(path: Path) -> list[Line]:
    rel = str(path.relative_to(ROOT))
    found: list[Line] = []
    fence: str | None = None
    block = ""
    pending = ""
    code: list[str] = []
    alternatives: list[tuple[int, str]] = []

    def add(number: int, text: str, block: str, fence: str, script: bool = False) -> None:
        group = block if rel in PREPARED else rel
        index = sum(1 for line in found if line.group == group)
        found.append(Line(rel, number, text, block, group, index, fence, script))

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("```"):
            if fence is None:
                fence, block = stripped[3:].strip().lower(), f"{rel}:{number}"
                code, alternatives = [], []
                continue
            if fence == "python":
                add(int(block.rsplit(":", 1)[1]), "\n".join(code) + "\n", block, fence, True)
                for at, text in alternatives:
                    add(at, text, f"{rel}:{at}" if rel in PREPARED else block, fence)
            fence = None
            continue
        if fence in SHELLS:
            text = stripped.removeprefix("$ ")
            if not text or text.startswith("#"):
                continue
            if text.endswith("\\"):  # a continued line: run it whole
                pending += text[:-1] + " "
                continue
            text, pending = pending + text, ""
            add(number, text, block, fence)
        elif fence == "python":
            code.append(raw)
            if "# or: " in raw:
                # `db.import_concepts(path="first-light")  # or: xdb concepts import first-light`
                alternatives.append((number, raw.split("# or: ", 1)[1].strip()))
    return found


def help_examples(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> list[Line]:
    """The example lines of every command's help (``xdb COMMAND --help``), each a block of
    its own."""
    found: list[Line] = []
    for name, command in group.commands.items():
        doc = f"xdb {' '.join((*prefix, name))} --help"
        for number, text in enumerate(cli_help.examples(command), 1):
            block = f"{doc}:{number}"
            found.append(Line(doc, number, text, block, block, 0, "sh"))
        if isinstance(command, click.Group):
            found += help_examples(command, (*prefix, name))
    return found


LINES = [line for doc in DOCS for line in extract(doc)]
# The help's examples no document shows (a generated command's is in docs/reference.md).
EXAMPLES: list[Line] = []
for _example in help_examples():
    if _example.text not in {line.text for line in LINES + EXAMPLES}:
        EXAMPLES.append(_example)
GROUPS: dict[str, list[Line]] = {}
for _line in LINES + EXAMPLES:
    GROUPS.setdefault(_line.group, []).append(_line)


def words_of(text: str) -> list[str]:
    return shlex.split(text, comments=True)


def subcommand(words: list[str]) -> list[str]:
    """``xdb [--db X] [--session S] COMMAND [SUB] ...`` -> [COMMAND, SUB] (SUB: a group's)."""
    if not words or words[0] != "xdb":
        return []
    rest = words[1:]
    while rest and rest[0] in ("--db", "--session", "--caller"):
        rest = rest[2:]
    if not rest:
        return []
    if rest[0] == "concepts" and rest[1:2] == ["import"]:
        return rest[:2]
    if rest[0] in ("sync", "dataset") and len(rest) > 1:
        return rest[:2]
    if rest[0] == "mcp" and rest[1:2] == ["config"]:  # prints a config, serves nothing
        return rest[:2]
    if rest[0] == "demo" and "--no-serve" in rest:  # fills a database, serves nothing
        return ["demo", "--no-serve"]
    return rest[:1]


def option(words: list[str], name: str) -> str | None:
    for i, word in enumerate(words[:-1]):
        if word == name:
            return words[i + 1]
    return None


# --------------------------------------------------------------------------- the sandbox


class Sandbox:
    """A block's home, working directory and environment, and what its lines need made."""

    def __init__(
        self,
        folder: Path,
        request: pytest.FixtureRequest,
        template: Callable[[], Path],
        prepared: bool,
    ):
        self.home, self.work = folder / "home", folder / "work"
        self.prepared = prepared  # make what the lines assume (PREPARED), or nothing
        self.home.mkdir(parents=True)
        self.work.mkdir()
        self.request, self.template = request, template
        env = {k: v for k, v in os.environ.items() if not k.startswith(("XDB_", "XDG_"))}
        env.update(
            HOME=str(self.home),
            PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
            XDB_EMBEDDER="hash",
        )
        self.env = env
        self.ran = 0  # lines of the group run so far
        self.lent: tuple[Any, str] | None = None

    def default_file(self) -> Path:
        return self.home / ".local" / "share" / "xdb" / "xdb.sqlite3"

    def path(self, given: str) -> str:
        """A path as the shell and xdb would read it in this sandbox."""
        if given == ":memory:" or "://" in given:
            return given
        if given.startswith("~/"):
            return str(self.home / given[2:])
        return str(self.work / given)

    def target(self, words: list[str]) -> str:
        """The database a line's command opens: --db, else $XDB_DB, else the default file."""
        given = option(words, "--db") or self.env.get("XDB_DB")
        return self.path(given) if given else str(self.default_file())

    def postgres_url(self) -> str:
        if self.lent is None:
            server = self.request.getfixturevalue("postgres_server")
            self.lent = (server, server.lend_database())
        return self.lent[1]

    def close(self) -> None:
        if self.lent is not None:
            server, url = self.lent
            server.give_back(url)

    # ---------------------------------------------------------------- what the docs assume

    def open(self, target: str) -> xdb.Database:
        if target == str(self.default_file()):
            self.default_file().parent.mkdir(parents=True, exist_ok=True)
        return xdb.connect(target, embedder="hash")

    def ensure_database(self, target: str) -> None:
        if "://" not in target and not Path(target).exists():
            self.open(target).close()

    def ensure_concepts(self, target: str) -> None:
        if "://" not in target and not Path(target).exists():
            Path(target).parent.mkdir(parents=True, exist_ok=True)  # the default file's
            shutil.copyfile(self.template(), target)
            return
        with self.open(target) as db:
            if not db.concept_packs().packs:
                db.import_concepts(path=str(self.template().parent / "first-light"))

    def ensure_examples_log(self, target: str) -> None:
        """Session s1 with ticks 1 and 2, which are the event call-1 (the examples' ids)."""
        with self.open(target) as db:
            tick = db.status(session_id="s1").current_tick
            assert tick is not None
            if tick >= 2:
                return
            db.record(session_id="s1", event_type="tool_call", content="capital_of('France')",
                      event_id="call-1", event_start=True)  # fmt: skip
            db.record(session_id="s1", event_type="tool_response", content="Paris",
                      event_id="call-1", event_end=True)  # fmt: skip

    def first_timestep(self, target: str) -> str:
        """The id of tick 1 of the current session (recorded if there is none yet)."""
        with self.open(target) as db:
            tick = db.status().current_tick
            assert tick is not None
            if tick < 1:
                db.record(event_type="input", content="hello")
            return f"ts-{db.session_id}-1"

    def new_episode(self, target: str) -> str:
        with self.open(target) as db:
            made = db.add_episode(content="Rolled back the deploy", kind="incident",
                                  namespace="proj")  # fmt: skip
            return made.episode_id

    def ensure_listed(self, target: str, words: list[str], command: list[str]) -> None:
        """Something for a listing to list, where an example takes its first id: a lesson
        (``lessons list``), a timestep (``recent``), an episode (``search``), a key (``keys
        list``). Exemplars and training runs: ``ensure_learning``."""
        if command == ["lessons"] and words[-1:] == ["list"]:
            with self.open(target) as db:
                if not db.lessons().lessons:  # the lesson a warning showed
                    db.add_lesson(question="registering DbContext as a singleton",
                                  answer="register it scoped")  # fmt: skip
        elif command == ["recent"]:
            self.first_timestep(target)
        elif command == ["search"]:
            with self.open(target) as db:
                found = db.search_episodes().episodes
            if not found:
                self.new_episode(target)
        elif command == ["keys"] and words[-1:] == ["list"]:
            with self.open(target) as db:
                admin = db.as_caller(xdb.Caller(id="ops", roles=("self", "admin")))
                if not admin.keys().keys:
                    admin.create_key(caller_id="self")

    def ensure_access_policy(self, target: str, policy_id: str) -> None:
        """The access policy an example puts objects under (defined by an admin)."""
        with self.open(target) as db:
            admin = db.as_caller(xdb.Caller(id="ops", roles=("self", "admin")))
            if policy_id not in {p.id for p in admin.policies().access_policies}:
                admin.set_access_policy(id=policy_id, read_roles=["self"])

    def ensure_learning(self, target: str, text: str) -> str:
        """The bud, episodes, dataset, exemplar and training run the learning examples name
        (docs/learning.md), made once; their placeholders filled in."""
        with self.open(target) as db:
            if "financial-ambiguity" in text and not db.buds().buds:
                bud = db.create_tag(name="financial-ambiguity", tag_type="bud").tag_id
                step = db.record(event_type="input", content="Is my pension taxed twice?")
                db.tag(tag_name_or_id=bud, timestep_id=step.timestep_id)
                if "promote-bud" in text:
                    db.set_bud_status(bud_tag_id=bud, status="training")
            runs = subcommand(words_of(text)) == ["training-runs"]
            wanted = "Deception" in text or "dataset-deception" in text or runs
            if wanted and not db.store.concepts_carried(["Deception"]):
                for i in range(4):
                    tags = [{"concept_id": "Deception", "score": 0.8}] if i % 2 else []
                    db.add_episode(content=f"Said the refund was sent ({i})", concept_tags=tags)
            if ("dataset-deception" in text or runs) and not db.datasets().datasets:
                db.build_dataset(target_concept_id="Deception")
            if subcommand(words_of(text)) == ["exemplars"] and not db.exemplars().exemplars:
                db.add_exemplar(concept_id="Deception", label="negative",
                                episode_id=self.new_episode(target))  # fmt: skip
            if runs and not db.training_runs().training_runs:
                dataset = db.datasets().datasets[0].id
                db.record_training_run(type="lens", concept_ids=["Deception"],
                                       dataset_ids=[dataset])  # fmt: skip
        return text

    def prepare(self, text: str) -> str:
        """Make what the line assumes; return it with its placeholders filled in. In a
        document that is read in order, only the example PostgreSQL URL is replaced."""
        if EXAMPLE_URL in text:
            text = text.replace(EXAMPLE_URL, self.postgres_url())
        if not self.prepared:
            return text
        words = words_of(text)
        command = subcommand(words)
        if not command:
            return text
        target = self.target(words)
        self.ensure_listed(target, words, command)
        if command[0] in LEARNING:
            text = self.ensure_learning(target, text)
        if command == ["sync", "import"] and not Path(self.path(words[-1])).exists():
            with self.open(target) as db:  # a bundle to import: this database's own
                db.sync_export(path=self.path(words[-1]))
        if command == ["import"] and words[-1] != "-" and not Path(self.path(words[-1])).exists():
            self.ensure_examples_log(target)  # an export to import: this database's own
            with self.open(target) as db:
                export_jsonl(db, self.path(words[-1]))
        if command[0] == "extract" and "session.jsonl" in text:
            transcript = Path(self.path("session.jsonl"))  # a finished session's log
            transcript.write_text('{"type": "user", "message": {"content": "fix it"}}\n')
        if command[0] == "migrate":
            source = option(words, "--from")
            if source is not None and "://" not in source and not Path(self.path(source)).exists():
                with self.open(self.path(source)) as db:  # a file worth bringing along
                    db.record(event_type="input", content="brought along")
        elif command[0] in READERS:
            self.ensure_database(target)
        if command[0] == "audit":  # its examples show record 1: something recorded
            self.ensure_examples_log(target)
        if command[0] in CONCEPT_READERS and command != ["concepts", "import"]:
            self.ensure_concepts(target)
        unpacked = self.work / "first-light"
        if command == ["concepts", "import"] and "first-light" in words and not unpacked.exists():
            shutil.copytree(self.template().parent / "first-light", unpacked)
        for flag in ("--policy-id", "--access-policy-id"):
            if (policy := option(words, flag)) is not None:
                self.ensure_access_policy(target, policy)
        if "ts-s1-2" in words or "call-1" in words:
            self.ensure_examples_log(target)
        if "tokens.jsonl" in words and not (self.work / "tokens.jsonl").exists():
            tokens = [{"event_type": "output", "content": t, "token_id": i}
                      for i, t in enumerate(["Paris", " is", " the", " capital"])]  # fmt: skip
            (self.work / "tokens.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tokens))
        return text


# --------------------------------------------------------------------------- running a line


def run_script(box: Sandbox, line: Line) -> None:
    """A Python block, as a reader would run it: saved as a script, in the block's working
    directory; twice when it writes to a fixed path, since a reader may run it again."""
    script = box.work / f"block-{line.number}.py"
    script.write_text(line.text, encoding="utf-8")
    for _ in range(2 if "/tmp/" in line.text else 1):
        run_ok(box, [sys.executable, str(script)], f"{line.doc}:{line.number}: the Python block")


def run_ok(box: Sandbox, argv: list[str], what: str) -> subprocess.CompletedProcess[str]:
    """``argv`` run in the sandbox as a reader's shell would, which must exit 0."""
    done = subprocess.run(
        argv,
        cwd=box.work,
        env=box.env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=SECONDS,
    )
    assert done.returncode == 0, (
        f"{what} exited {done.returncode}\n"
        f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-3000:]}"
    )
    return done


def assign(box: Sandbox, name: str, value: str) -> None:
    """``NAME=$(command)``: the shell's value of the right-hand side, kept for the lines
    below (which read it as ``$NAME``, from their environment)."""
    script = f'{name}={value}; printf %s "${name}"'
    done = run_ok(box, ["bash", "-c", script], f"`{name}={value}`")
    assert done.stdout, f"`{name}={value}` gave nothing\nstderr: {done.stderr}"
    box.env[name] = done.stdout


def run_line(box: Sandbox, line: Line) -> None:
    if line.script:
        run_script(box, line)
        return
    words = words_of(line.text)
    reason = NOT_RUN.get(" ".join(words))
    if reason:
        pytest.skip(f"{line.text!r} is not run: {reason}")
    if words[0] == "export":  # the group's later lines see it, as in the user's shell
        name, value = box.prepare(" ".join(words[1:])).split("=", 1)
        box.env[name] = value
        return
    if (assigned := ASSIGNMENT.match(line.text)) is not None:
        value = assigned[2]
        if value.startswith("$(xdb "):  # NAME=$(xdb LISTING | ...): what it lists is made
            box.prepare(value[2:].split(" | ", 1)[0])
        assign(box, assigned[1], box.prepare(value))
        return
    text = line.text
    if words[:3] == ["claude", "mcp", "add"]:
        # Claude Code is not installed here. `claude mcp add NAME -- CMD...` records CMD,
        # which the client then starts as its stdio MCP server: so CMD is what runs.
        text = line.text.split(" -- ", 1)[1]
    text = box.prepare(text)
    words = words_of(text)
    if words == ["make", "run"]:
        if not (ROOT / ".venv" / "bin" / "xdb").exists():
            pytest.skip("make run serves from .venv, which this checkout has not made")
        # -o: the venv's stamp counts as up to date, so make goes straight to its recipe
        # (`.venv/bin/xdb serve`) instead of reinstalling the venv this suite runs in.
        check_http(box, "make -o .venv/.installed run", cwd=ROOT)
    elif subcommand(words) in (["serve"], ["demo"]):  # `xdb demo` fills, then serves
        check_http(box, text, cwd=box.work)
    elif subcommand(words) == ["mcp"]:
        check_mcp(box, text, words)
    else:
        run_ok(box, ["bash", "-c", text], f"{line.doc}:{line.number}: `{text}`")
    db = option(words, "--db")
    # A config names the database for the client to open; printing it opens nothing.
    if db is not None and "://" not in db and subcommand(words) != ["mcp", "config"]:
        assert Path(box.path(db)).exists(), f"`{text}` did not use --db {db}"


class Server:
    """A line started as a long-running process (its process group, so make's child too)."""

    def __init__(self, box: Sandbox, text: str, cwd: Path, stdin: bool) -> None:
        self.proc = subprocess.Popen(
            ["bash", "-c", f"exec {text}"],
            cwd=cwd,
            env=box.env,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.text = text
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: list[str] = []
        assert self.proc.stdout is not None and self.proc.stderr is not None
        threading.Thread(
            target=self._pump, args=(self.proc.stdout, self.lines), daemon=True
        ).start()
        threading.Thread(target=self._collect, args=(self.proc.stderr,), daemon=True).start()

    @staticmethod
    def _pump(stream: IO[str], into: queue.Queue[str | None]) -> None:
        for line in stream:
            into.put(line)
        into.put(None)

    def _collect(self, stream: IO[str]) -> None:
        self.errors.extend(stream)

    def problem(self, what: str) -> str:
        return f"`{self.text}`: {what}\nstderr: {''.join(self.errors)[-3000:]}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)


@contextmanager
def port_of_our_own() -> Iterator[None]:
    """The documented port, held by one test process at a time (a lock file), and free."""
    with open(Path(tempfile.gettempdir()) / f"xdb-doc-commands-{PORT}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
            try:
                probe.bind(("127.0.0.1", PORT))
            except OSError:
                pytest.skip(f"port {PORT}, where the documented line serves, is in use")
        yield


def check_http(box: Sandbox, text: str, cwd: Path) -> None:
    with port_of_our_own():
        server = Server(box, text, cwd, stdin=False)
        try:
            url = f"http://127.0.0.1:{PORT}/v1/xdb/status"
            deadline = SECONDS
            response: httpx.Response | None = None
            while True:
                try:
                    response = httpx.get(url, timeout=5)
                    break
                except httpx.TransportError:
                    pass
                try:  # waits a moment for the server, and notices one that gave up
                    code = server.proc.wait(timeout=0.1)
                except subprocess.TimeoutExpired:
                    deadline -= 0.1
                    assert deadline > 0, server.problem("did not answer HTTP")
                    continue
                raise AssertionError(server.problem(f"exited {code} before answering"))
            assert response is not None
            if "--host 0.0.0.0" in text:
                # Beyond localhost every request needs a key: none is refused, one is
                # served (the key the block's `xdb keys create` line made is not kept).
                assert response.status_code == 401, server.problem(response.text)
                target = box.env.get("XDB_DB") or str(box.default_file())
                with xdb.connect(target, embedder="hash") as db:
                    admin = db.as_caller(xdb.Caller(id="doc", roles=("admin",)))
                    key = admin.create_key(caller_id="self").key
                response = httpx.get(url, timeout=5, headers={"Authorization": f"Bearer {key}"})
            assert response.status_code == 200, server.problem(response.text)
            assert "experience_stats" in response.json()
        finally:
            server.stop()


def check_mcp(box: Sandbox, text: str, words: list[str]) -> None:
    server = Server(box, text, box.work, stdin=True)
    stdin = server.proc.stdin
    assert stdin is not None

    def ask(number: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        stdin.write(json.dumps({"jsonrpc": "2.0", "id": number, "method": method,
                                "params": params}) + "\n")  # fmt: skip
        stdin.flush()
        while True:
            try:
                line = server.lines.get(timeout=SECONDS)
            except queue.Empty:
                raise AssertionError(server.problem(f"no answer to {method}")) from None
            assert line is not None, server.problem(f"closed stdout before answering {method}")
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == number:
                assert "result" in message, server.problem(f"{method}: {message}")
                result: dict[str, Any] = message["result"]
                return result

    try:
        client = {"name": "doc-commands", "version": "1"}
        ask(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": client})  # fmt: skip
        stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        tools = ask(2, "tools/list", {})["tools"]
        names = {tool["name"] for tool in tools}
        groups = option(words, "--toolsets")
        chosen = specs(option(words, "--profile"), set(groups.split(",")) if groups else None)
        assert names == {spec.name for spec in chosen}
        # One call that reaches the database: a read-only tool needing no arguments.
        tool = next(
            t["name"]
            for t in tools
            if t.get("annotations", {}).get("readOnlyHint") and not t["inputSchema"].get("required")
        )
        called = ask(3, "tools/call", {"name": tool, "arguments": {}})
        assert not called.get("isError"), server.problem(f"{tool}: {called}")
        stdin.close()  # the client leaves; the server ends
        code = server.proc.wait(timeout=SECONDS)
        assert code == 0, server.problem(f"exited {code}")
    finally:
        server.stop()


# --------------------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def first_light_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[], Path]]:
    """A database holding the first-light pack (unpacked beside it), made once if needed."""
    made: list[Path] = []

    def get() -> Path:
        if not made:
            folder = tmp_path_factory.mktemp("first-light")
            pack = unpack_first_light(folder)
            with xdb.connect(folder / "template.sqlite3", embedder="hash") as db:
                db.import_concepts(path=str(pack))
            made.append(folder / "template.sqlite3")
        return made[0]

    yield get


@pytest.fixture(scope="module")
def sandboxes() -> Iterator[dict[str, Sandbox]]:
    boxes: dict[str, Sandbox] = {}
    yield boxes
    for box in boxes.values():
        box.close()


@pytest.mark.parametrize(
    "line", LINES + EXAMPLES, ids=[f"{line.doc}:{line.number}" for line in LINES + EXAMPLES]
)
def test_documented_command_line(
    line: Line,
    sandboxes: dict[str, Sandbox],
    first_light_database: Callable[[], Path],
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> None:
    if line.group not in sandboxes:
        folder = tmp_path_factory.mktemp("doc")
        prepared = line.doc in PREPARED or line.doc.startswith("xdb ")  # a help's example
        sandboxes[line.group] = Sandbox(folder, request, first_light_database, prepared)
    box = sandboxes[line.group]
    box.request = request
    # The lines above this one in its group, if not run yet (this line asked for alone).
    for earlier in GROUPS[line.group][box.ran : line.index]:
        with suppress(pytest.skip.Exception):
            run_line(box, earlier)
    box.ran = line.index + 1  # counted even if it fails: its failure is reported here
    run_line(box, line)


def test_every_shell_block_is_found() -> None:
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        fences = sum(
            1
            for raw in text.splitlines()
            if raw.strip().startswith("```") and raw.strip()[3:].strip().lower() in SHELLS
        )
        rel = str(doc.relative_to(ROOT))
        blocks = {line.block for line in LINES if line.doc == rel and line.fence in SHELLS}
        assert len(blocks) == fences, rel  # a block of nothing but comments would be a gap
        scripts = [line for line in LINES if line.doc == rel and line.script]
        assert len(scripts) == text.count("```python\n"), rel
    # The lines the first-contact issue was about are among them.
    texts = {line.text.split("#")[0].strip() for line in LINES}
    assert "xdb mcp --db ~/agent.sqlite3" in texts
    assert "claude mcp add xdb -- xdb mcp --db ~/agent.sqlite3" in texts


def test_no_command_line_hides_in_an_unlabelled_block() -> None:
    """A shell line in a block labelled as something else (or nothing) would not run here."""
    in_help = {line.text for line in help_examples()}  # a command's help: run as EXAMPLES
    for doc in DOCS:
        fence: str | None = None
        for number, raw in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            stripped = raw.strip()
            if stripped.startswith("```"):
                fence = None if fence is not None else stripped[3:].strip().lower()
                continue
            if fence is not None and fence not in SHELLS:
                looks = stripped.startswith(("xdb ", "$ ", "make ", "pip ", "claude "))
                looks = looks and stripped not in in_help
                assert not looks, f"{doc.name}:{number}: label its block ```sh: {stripped}"


def test_what_is_not_run_is_still_documented() -> None:
    shown = {" ".join(words_of(line.text)) for line in LINES}
    assert set(NOT_RUN) <= shown, set(NOT_RUN) - shown


def test_the_design_file_tree_lists_every_top_level_package_and_module() -> None:
    """docs/design.md opens with src/xdb's tree: every package and module there is in it."""
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    tree = design.split("```", 2)[1]
    listed = {line.split()[0] for line in tree.splitlines()[2:] if line[2:3].strip()}
    source = ROOT / "src" / "xdb"
    present = {f"{p.name}/" for p in source.iterdir() if (p / "__init__.py").exists()}
    present |= {p.name for p in source.glob("*.py")}
    assert present - listed - {"__main__.py"} == set()  # (told of beside launch.py)
