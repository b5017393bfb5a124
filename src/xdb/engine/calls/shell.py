"""A shell command line parsed into its simple commands (``model.Command``): split across
pipes, chains (``&&``, ``||``, ``;``, ``&``, newlines) and subshells; the commands of
``$( )``, backticks, ``<( )``, ``bash -c``/``sh -c`` scripts, ``eval``, ``ssh host cmd``,
``xargs`` and ``find -exec`` parsed as commands of their own (``via`` says how they were
reached); ``sudo``, ``env VAR=x``, ``time``, ``nohup``, ``timeout``, ``nice``, ``npx``...
taken off as wrappers; ``python -m pip`` read as pip. Each command's options are read with
its program's rules (``programs``) and its arguments given kinds (``kinds``).
"""

from __future__ import annotations

from xdb.engine.calls.call_structure import Arg, Command, Flag, Redirect
from xdb.engine.calls.kinds import arg_kind, env_of
from xdb.engine.calls.lexer import RedirectOp, Word, lex
from xdb.engine.calls.options import command_of, literal
from xdb.engine.calls.programs import spec_of

__all__ = ["parse_shell"]

# Wrappers: each runs the command after its own options (those listed take a value).
_WRAPPERS = {
    "sudo": "-u -g -C -D -h -p -r -t -U --user --group --chdir --host --prompt",
    "doas": "-u -C", "env": "-u --unset -C --chdir", "time": "-f -o --format --output",
    "nice": "-n --adjustment", "nohup": "", "timeout": "-s --signal -k --kill-after",
    "xargs": "-n -I -L -P -s -d -E -a -i --max-args --replace --max-lines --max-procs"
             " --delimiter --arg-file --max-chars --eof",
    "stdbuf": "-i -o -e", "exec": "-a", "builtin": "", "command": "", "watch": "-n --interval",
    "ionice": "-c -n -p", "npx": "-p --package", "bunx": "-p --package", "pnpx": "",
    "uvx": "--from --with -p --python", "unbuffer": "", "caffeinate": "", "chronic": "",
    "flock": "-w -E --timeout", "strace": "-o -e -p -s", "ltrace": "-o -e -p",
}  # fmt: skip
_WRAPPER_VALUES = {k: frozenset(v.split()) for k, v in _WRAPPERS.items()}
_SHELLS = frozenset(("bash", "sh", "zsh", "dash", "ksh", "fish", "busybox"))
_PYTHON_VALUES = frozenset(("-W", "-X", "--check-hash-based-pycs"))
_SSH_VALUES = frozenset(("-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m",
                        "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w"))  # fmt: skip
# Words that open or close a compound command: not programs.
_KEYWORDS = frozenset(("if", "then", "else", "elif", "do", "while", "until", "!", "{", "}",
                       "fi", "done", "esac", "coproc"))  # fmt: skip
# Compound commands whose own words run nothing (their bodies are read as commands).
_HEADERS = frozenset(("for", "select", "case", "function"))
_DEVICES = frozenset(("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1",
                      "/dev/fd/2", "-"))  # fmt: skip
_WRITE_OPS = frozenset((">", ">>", ">|", "&>", "&>>", "<>"))
_FIND_EXEC = frozenset(("-exec", "-execdir", "-ok", "-okdir"))
MAX_NESTING = 8  # bash -c inside bash -c ...: deeper than any real line goes


def parse_shell(text: str, cwd: str | None = None) -> tuple[tuple[Command, ...], bool]:
    """The simple commands of a command line, in the order they run (a substitution's
    before the command that uses it), and whether the line could be read to its end."""
    out: list[Command] = []
    complete = _parse(text, cwd, (), out, 0)
    return tuple(out), complete


def _parse(
    text: str, cwd: str | None, via: tuple[str, ...], out: list[Command], level: int
) -> bool:
    if level > MAX_NESTING:
        return False
    lexed = lex(text)
    complete = lexed.complete
    tokens = lexed.tokens
    words: list[Word] = []
    redirects: list[Redirect] = []
    op, nesting, i = "", 0, 0

    def flush() -> None:
        nonlocal complete, words, redirects
        if words or redirects:
            inner = (*via, "subshell") if nesting else via
            for word in words:
                for sub in word.subs:
                    complete &= _parse(sub, cwd, (*inner, "substitution"), out, level + 1)
            complete &= _simple(words, redirects, inner, op, cwd, out, level)
        words, redirects = [], []

    while i < len(tokens):
        token = tokens[i]
        if isinstance(token, str):
            if token in ("&&", "||") and _in_test(words):
                words.append(literal(token))  # inside [[ ]]: a test, not a chain
            else:
                flush()
                if token == "(":
                    nesting += 1
                elif token == ")":
                    nesting = max(0, nesting - 1)
                else:
                    op = ";" if token.startswith(";") else token
        elif isinstance(token, RedirectOp):
            target = tokens[i + 1] if i + 1 < len(tokens) else None
            if isinstance(target, Word):
                i += 1
                for sub in target.subs:
                    complete &= _parse(sub, cwd, (*via, "substitution"), out, level + 1)
            redirects.append(_redirect(token, target if isinstance(target, Word) else None))
        else:
            words.append(token)
        i += 1
    flush()
    return complete


def _is_assignment(word: str) -> bool:
    """NAME=value, NAME+=value, NAME[i]=value (no regular expressions on the skip path:
    compiling them costs more than the whole parse)."""
    name, eq, _ = word.partition("=")
    name = name.removesuffix("+").split("[", 1)[0]
    return bool(eq) and name.isidentifier() and name.isascii()


def _is_python(name: str) -> bool:
    """python, python3, python3.12, py, pypy3."""
    if name in ("py", "pypy", "pypy3"):
        return True
    version = name.removeprefix("python")
    return version != name and (not version or version.replace(".", "", 1).isdigit())


def _in_test(words: list[Word]) -> bool:
    """Inside ``[[ ]]``, where ``&&`` and ``||`` join tests, not commands."""
    return bool(words) and words[0].value == "[[" and all(w.value != "]]" for w in words)


def _redirect(token: RedirectOp, target: Word | None) -> Redirect:
    value = target.value if target is not None else ""
    if token.op in _WRITE_OPS:
        writes = value not in _DEVICES
    elif token.op == ">&":  # 2>&1 duplicates a descriptor; >& file writes the file
        writes = not (value.isdigit() or value in _DEVICES or value.endswith("-"))
    else:
        writes = False
    return Redirect(token.op, value, writes, token.fd, token.body)


def _simple(
    words: list[Word],
    redirects: list[Redirect],
    via: tuple[str, ...],
    op: str,
    cwd: str | None,
    out: list[Command],
    level: int,
) -> bool:
    """The command(s) of one simple command's words: wrappers taken off, nested scripts
    parsed. False when a nested script could not be read to its end."""
    while words and words[0].value in _KEYWORDS and not words[0].quoted:
        words = words[1:]
    if words and words[0].value in _HEADERS and not words[0].quoted:
        words = []
    assignments: list[str] = []
    while words and _is_assignment(words[0].value):
        assignments.append(words[0].value)
        words = words[1:]
    wrappers: list[str] = []
    complete = True
    while words:
        name = words[0].value.rsplit("/", 1)[-1]
        rest = words[1:]
        if name in _WRAPPERS and not (name == "command" and rest and rest[0].value in ("-v", "-V")):
            after = _after_wrapper(name, rest, assignments)
            if not after:
                break  # sudo -i, xargs with no command, env alone: the wrapper is the program
            wrappers.append(name)
            words = after
            continue
        if name in _SHELLS or name == "eval":
            script = _script(name, rest)
            if script is not None:
                nested = (*via, "eval" if name == "eval" else "shell -c")
                prefix = len(out)
                complete &= _parse(script, cwd, nested, out, level + 1)
                _inherit(out, prefix, tuple(wrappers), tuple(assignments), redirects, op)
                return complete
        if _is_python(name):
            module = _python_module(rest)
            if module is not None:
                wrappers.append(f"{name} -m")
                words = module
                continue
        break
    if not words:
        if not (redirects or assignments or wrappers):
            return complete  # only keywords (a compound command's words)
        out.append(Command("", (), redirects=tuple(redirects), assignments=tuple(assignments),
                           wrappers=tuple(wrappers), via=via, op=op))  # fmt: skip
        return complete
    program = words[0].value.rsplit("/", 1)[-1]
    if program == "find":
        return _find(words, redirects, assignments, wrappers, via, op, cwd, out, level)
    command = command_of(program, words, cwd)
    command.redirects = tuple(redirects)
    command.assignments = tuple(assignments)
    command.wrappers = tuple(wrappers)
    command.via = via
    command.op = op
    out.append(command)
    if program == "ssh":
        remote = _ssh_command(words[1:])
        if remote:
            complete &= _parse(remote, None, (*via, "ssh"), out, level + 1)
    if "xargs" in wrappers:
        command.via = (*via, "xargs")
    return complete


def _inherit(
    out: list[Command],
    start: int,
    wrappers: tuple[str, ...],
    assignments: tuple[str, ...],
    redirects: list[Redirect],
    op: str,
) -> None:
    """A ``bash -c`` script's commands run under the wrappers of the shell that ran them,
    and the shell's redirections apply to them all."""
    for command in out[start:]:
        command.wrappers = wrappers + command.wrappers
        command.assignments = assignments + command.assignments
        command.redirects = command.redirects + tuple(redirects)
    if start < len(out) and not out[start].op:
        out[start].op = op


def _after_wrapper(name: str, rest: list[Word], assignments: list[str]) -> list[Word]:
    """What a wrapper runs: its words after its own options (and timeout's duration,
    env's assignments)."""
    takes = _WRAPPER_VALUES[name]
    i = 0
    while i < len(rest):
        value = rest[i].value
        if name == "env" and _is_assignment(value):
            assignments.append(value)
        elif value == "--":
            i += 1
            break
        elif value.startswith("-") and value != "-":
            i += 1 if "=" in value or value not in takes else 2
            continue
        else:
            break
        i += 1
    if name == "timeout" and i < len(rest):
        i += 1  # the duration
    return rest[i:]


def _script(name: str, rest: list[Word]) -> str | None:
    """The script of ``bash -c '...'`` (any option cluster with c: -lc, -ec) or
    ``eval ...``; None when the shell reads a file or stdin."""
    if name == "eval":
        return " ".join(w.value for w in rest)
    has_c = False
    for i, word in enumerate(rest):
        value = word.value
        if value in ("-o", "+o", "-O", "+O"):
            continue
        if i and rest[i - 1].value in ("-o", "+o", "-O", "+O"):
            continue
        if value.startswith("-") and not value.startswith("--"):
            has_c = has_c or "c" in value[1:]
            continue
        if value.startswith("--"):
            continue
        return value if has_c else None
    return None


def _python_module(rest: list[Word]) -> list[Word] | None:
    """``python -m pip install x``: the words from the module on (None without -m)."""
    i = 0
    while i < len(rest):
        value = rest[i].value
        if value == "-m":
            return rest[i + 1 :] or None
        if value.startswith("-m") and len(value) > 2:
            return [literal(value[2:]), *rest[i + 1 :]]
        if not value.startswith("-") or value in ("-c", "-"):
            return None
        i += 2 if value in _PYTHON_VALUES else 1
    return None


def _ssh_command(rest: list[Word]) -> str:
    i = 0
    while i < len(rest) and rest[i].value.startswith("-"):
        i += 2 if rest[i].value in _SSH_VALUES else 1
    return " ".join(w.value for w in rest[i + 1 :])


def _find(
    words: list[Word],
    redirects: list[Redirect],
    assignments: list[str],
    wrappers: list[str],
    via: tuple[str, ...],
    op: str,
    cwd: str | None,
    out: list[Command],
    level: int,
) -> bool:
    """find: its starting points, its predicates as flags (``-name`` with its pattern),
    and each ``-exec ... ;`` as a command of its own (via ``find -exec``)."""
    spec = spec_of("find")
    values = spec.values if spec is not None else frozenset()
    flags: list[Flag] = []
    args: list[Arg] = []
    nested: list[list[Word]] = []
    argv = words[1:]
    i = 0
    while i < len(argv):
        value = argv[i].value
        if value in _FIND_EXEC:
            run: list[Word] = []
            i += 1
            while i < len(argv) and argv[i].value not in (";", "+"):
                run.append(argv[i])
                i += 1
            flags.append(Flag(value, " ".join(w.value for w in run), value))
            nested.append(run)
        elif value.startswith("-") and len(value) > 1:
            given = argv[i + 1].value if value in values and i + 1 < len(argv) else None
            if value == "-fprintf" and i + 2 < len(argv):
                given, i = argv[i + 1].value, i + 1
            flags.append(Flag(value, given, value))
            i += 1 if given is not None else 0
        elif not flags:
            word = argv[i]
            kind = arg_kind(value, dynamic=word.dynamic, glob=word.glob, cwd=cwd)
            args.append(Arg(value, kind, env_of(value)))
        i += 1
    out.append(Command("find", tuple(w.value for w in words), (), tuple(flags), tuple(args),
                       tuple(redirects), tuple(assignments), tuple(wrappers), via, op))  # fmt: skip
    complete = True
    for run in nested:
        complete &= _simple(run, [], (*via, "find -exec"), "", cwd, out, level + 1)
    return complete
