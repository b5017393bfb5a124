"""A simple command's words read with its program's rules (``programs``): its subcommand
path, its options (normalised: ``-rf`` of rm is ``--recursive --force``; values taken from
``--x=v``, ``-xv`` and ``-x v`` where the option takes one), and its arguments with their
kinds (``kinds``)."""

from __future__ import annotations

from xdb.engine.calls.call_structure import Arg, Command, Flag
from xdb.engine.calls.kinds import arg_kind, env_of, path_inside
from xdb.engine.calls.lexer import Word
from xdb.engine.calls.programs import ANY, Spec, same_as, spec_of

__all__ = ["command_of", "literal"]

_SUBWORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:-")
_MODE_CHARS = frozenset("rwxXstugoa=+,01234567-")
# Programs whose first argument is a script or pattern unless an option gave it.
_SCRIPT_FIRST = frozenset(("sed", "gsed", "awk", "gawk", "mawk", "nawk", "grep", "egrep",
                           "fgrep", "zgrep", "rg", "ag", "ack", "jq", "yq", "perl"))  # fmt: skip
_SCRIPT_FLAGS = frozenset(("--expression", "--file", "--regexp", "-e", "-f", "-E"))
# Programs whose plain arguments are files (chmod's and chown's first is a mode or owner).
_FILE_ARGS = frozenset(("rm", "rmdir", "cp", "mv", "ln", "mkdir", "touch", "chmod", "chown",
                        "chgrp", "cat", "ls", "head", "tail", "less", "more", "wc", "du",
                        "stat", "file", "truncate", "shred", "unlink", "rsync", "scp", "diff",
                        "cd", "source", ".", "tee", "sed", "gsed", "awk", "gawk", "grep",
                        "egrep", "fgrep", "rg", "ag", "zip", "unzip", "gzip", "gunzip", "tar",
                        "black", "ruff", "prettier", "eslint", "mypy", "pytest"))  # fmt: skip
_FIRST_NOT_FILE = frozenset(("chmod", "chown", "chgrp"))


def literal(text: str) -> Word:
    """A word as if written unquoted."""
    word = Word()
    word.value = text
    return word


def command_of(program: str, words: list[Word], cwd: str | None) -> Command:
    spec = spec_of(program)
    path: list[str] = []
    flags: list[Flag] = []
    args: list[Arg] = []
    argv = words[1:]
    dashdash = False
    if same_as(program) == "tar" and argv and argv[0].value[:1].isalpha():
        argv = [literal("-" + argv[0].value), *argv[1:]]  # tar xzf: the old bundled form
    i = 0
    while i < len(argv):
        word = argv[i]
        value = word.value
        if not dashdash and value == "--":
            dashdash = True
        elif not dashdash and _is_option(value, program, word):
            is_global = spec is not None and spec.subs and not path
            nxt = argv[i + 1].value if i + 1 < len(argv) else None
            used, found = _option(spec, tuple(path), is_global, value, nxt)
            flags.extend(found)
            i += used
            continue
        elif spec is not None and not dashdash and _takes_subcommand(spec, path, args, word):
            path.append(value)
        else:
            kind = arg_kind(value, dynamic=word.dynamic, glob=word.glob, cwd=cwd,
                            program=same_as(program), index=len(args),
                            subcommand=() if dashdash else tuple(path))  # fmt: skip
            args.append(Arg(value, kind, env_of(value)))
        i += 1
    script = program in _SCRIPT_FIRST and not any(f.name in _SCRIPT_FLAGS for f in flags)
    if args and script:
        first = args[0]  # sed's script, grep's pattern: text, not a file
        args[0] = Arg(first.text, "variable" if first.kind == "variable" else "word", first.env)
    if program in _FILE_ARGS:
        skip = 1 if script or program in _FIRST_NOT_FILE else 0
        for k, arg in enumerate(args[skip:], skip):
            if arg.kind in ("word", "env"):  # a bare name given to rm is a file
                inside = path_inside(arg.text, cwd)
                args[k] = Arg(arg.text, "project_path" if inside else "outside_path", arg.env)
    return Command(program, tuple(w.value for w in words), tuple(path), tuple(flags),
                   tuple(args))  # fmt: skip


def _is_option(value: str, program: str, word: Word) -> bool:
    if len(value) < 2 or not value.startswith("-") or word.dynamic:
        return False
    # chmod -x, chmod -w+r: a mode, not an option
    return not (program == "chmod" and set(value[1:]) <= _MODE_CHARS)


def _takes_subcommand(spec: Spec, path: list[str], args: list[Arg], word: Word) -> bool:
    if not spec.subs or args or word.quoted or word.dynamic or not _subword(word.value):
        return False
    if not path:
        return True
    if spec.depth:
        return len(path) < spec.depth
    allowed = spec.groups.get(" ".join(path))
    return allowed is not None and (allowed is ANY or word.value in allowed)


def _subword(value: str) -> bool:
    return value[:1].isalpha() and value.isascii() and set(value) <= _SUBWORD_CHARS


def _option(
    spec: Spec | None, path: tuple[str, ...], is_global: bool, value: str, nxt: str | None
) -> tuple[int, list[Flag]]:
    """The flags one option word gives, and how many words it used (2 when its value is
    the next word)."""
    if spec is None:
        name, eq, attached = value.partition("=")
        return 1, [Flag(name, attached if eq else None, value, False)]
    aliases, values = spec.flag_rules(path, is_global)

    def make(name: str, given: str | None) -> list[Flag]:
        canonical = aliases.get(name, (name,))
        if canonical == ("--signal",) and given:
            # ``kill -s KILL``: the signal's own option (``-KILL``, ``-9``), where the
            # program lists one (``programs_system``)
            named = aliases.get("-" + given.upper(), ())
            if named[:1] and named[0].startswith("--signal-"):
                return [Flag(named[0], None, value, is_global)]
        return [Flag(c, given, value, is_global) for c in canonical]

    def takes(name: str) -> bool:
        return name in values or aliases.get(name, (name,))[0] in values

    def optional(name: str) -> bool:
        return name in spec.optional or aliases.get(name, (name,))[0] in spec.optional

    name, eq, attached = value.partition("=")
    single = not value.startswith("--")
    if eq and (not single or not spec.combine or len(name) == 2):
        return 1, make(name, attached)
    # (a spelling the program lists is read whole: pkill's -KILL is no -K -I -L -L)
    if not single or not spec.combine or len(value) == 2 or value[1:].isdigit() or value in aliases:
        if takes(value) and not optional(value) and nxt is not None:
            return 2, make(value, nxt)
        return 1, make(value, None)
    found: list[Flag] = []
    for k, char in enumerate(value[1:]):
        short, rest = "-" + char, value[2 + k :]
        if optional(short):
            return 1, [*found, *make(short, rest or None)]
        if takes(short):
            if rest:
                return 1, [*found, *make(short, rest)]
            return (2 if nxt is not None else 1), [*found, *make(short, nxt)]
        found.extend(make(short, None))
    return 1, found
