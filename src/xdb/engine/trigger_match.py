"""Matching a call against a lesson's trigger (``xdb.engine.triggers``): what the
structure says about it (HIT, SAFE, MISS, SILENT), and a principle's trigger generalised
from its lessons'. The thresholds are the caller's (``xdb.engine.scoring``, chosen by
``bench.engine_cv``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xdb.engine.calls import Command, ToolCall
from xdb.engine.calls.programs import _SAME
from xdb.engine.triggers import HIT, MISS, SAFE, SILENT, Form, Trigger, shell_commands


@dataclass
class Seen:
    """What matching reads of a call, computed once per call."""

    call: ToolCall
    text: str  # what the call adds or runs, lowercase
    commands: tuple[Command, ...] = field(default=())


def seen(call: ToolCall) -> Seen:
    """The call's text and its commands: a shell call's own, and for an edit the commands
    its added lines run (a CI step's ``run:``, a Dockerfile's ``RUN``, a script)."""
    if call.kind == "shell":
        return Seen(call, call.text.lower(), call.commands)
    added = [line for f in call.files for line in f.added]
    commands: list[Command] = []
    for line in added:
        body = re.sub(r"^(?:-\s*)?(?:run:|RUN\b|script:|-)\s*", "", line).strip("|> ")
        if body and re.match(r"[\w./-]+\s", body):
            commands += shell_commands(body)
    return Seen(call, "\n".join(added).lower(), tuple(commands))


# Spellings of one program or subcommand (``pip3`` is ``pip``, ``npm i`` is ``npm install``):
# a lesson told with one spelling applies to a repeat with another.
_SUB_ALIASES = {
    "npm": {"i": "install", "in": "install", "add": "install", "un": "uninstall",
            "rm": "uninstall", "remove": "uninstall", "up": "update", "upgrade": "update"},
    "pnpm": {"i": "install", "rm": "remove", "un": "remove", "uninstall": "remove",
             "up": "update", "upgrade": "update"},
    "yarn": {"remove": "remove", "rm": "remove"},
}  # fmt: skip


def program(name: str) -> str:
    """A program's one name among its spellings (``pip3``: ``pip``)."""
    return _SAME.get(name, name)


def _path(name: str, subcommand: tuple[str, ...]) -> tuple[str, ...]:
    aliases = _SUB_ALIASES.get(program(name))
    if not aliases or not subcommand:
        return subcommand
    return (aliases.get(subcommand[0], subcommand[0]), *subcommand[1:])


def _form_in(form: Form, c: Command) -> bool:
    sub = _path(form.program, form.subcommand)
    return (
        program(c.program) == program(form.program)
        and _path(c.program, c.subcommand)[: len(sub)] == sub
        and form.wrappers <= set(c.wrappers)
        and all(w in c.words[1:] for w in form.words)
    )


def _has(text: str, token: str) -> bool:
    if token.isalpha() and len(token) <= 8:  # keywords and words: whole words only
        return re.search(rf"(?<![a-z]){re.escape(token)}", text) is not None
    if token in text:
        return True
    # A dotted name written through another receiver (db.SaveChanges for
    # DbContext.SaveChanges): each of its parts is there.
    parts = [p for p in token.split(".") if p]
    return len(parts) > 1 and all(p in text for p in parts)


def _subsumes(general: Form, form: Form) -> bool:
    """Whether every call of ``form`` is a call of ``general`` (same program, a prefix of its
    subcommand, a subset of its flags, wrappers and words)."""
    sub = _path(general.program, general.subcommand)
    return (
        program(general.program) == program(form.program)
        and _path(form.program, form.subcommand)[: len(sub)] == sub
        and general.flags <= form.flags
        and general.wrappers <= form.wrappers
        and set(general.words) <= set(form.words)
    )


def _safe_at(trigger: Trigger, s: Seen) -> int | None:
    """The index of the first command running a form the lesson advises, or None. A safe
    form that every call of the mistake also runs (``make`` beside ``sudo make``, ``go get``
    beside ``go get -u``) tells nothing apart: it is not counted."""
    for i, c in enumerate(s.commands):
        for f in trigger.safe_forms:
            if any(_subsumes(f, m) for m in trigger.commands):
                continue
            if _form_in(f, c) and f.flags <= c.flag_names:
                return i
    return None


def match(trigger: Trigger, s: Seen, flag_share: float, code_share: float) -> str:
    """What the structure says about the call: HIT, SAFE, MISS or SILENT.

    ``flag_share``: the share of a form's flags a command must give; ``code_share``: the
    share of the trigger's code the call must write (both chosen by cross-validation)."""
    if s.call.kind not in ("shell", "edit", "write", "patch"):
        return SILENT
    # The advised form run first (``git stash push && git reset --hard``) is the lesson
    # heeded; run after the mistake (``go get -u ./... && go mod tidy``) it undoes nothing.
    safe_at = _safe_at(trigger, s)
    if safe_at is not None and not trigger.commands:
        return SAFE
    # The safe variant: what the answer adds, or what the mistake lacked.
    if (trigger.commands or trigger.code or trigger.flags) and any(
        _has(s.text, t) for t in trigger.safe
    ):
        return SAFE
    if trigger.commands:
        found = bare = False
        for form in trigger.commands:
            for i, c in enumerate(s.commands):
                if not _form_in(form, c):
                    continue
                if form.bare:
                    bare = True  # the program the lesson is about, not the use that errs
                    continue
                if form.safe & c.flag_names or (safe_at is not None and safe_at <= i):
                    return SAFE
                if not form.flags or len(form.flags & c.flag_names) >= flag_share * len(form.flags):
                    found = True
        if found:
            return HIT if _code_share(trigger, s) >= code_share or not trigger.code else MISS
        if safe_at is not None:
            return SAFE
        if bare:
            return _code(trigger, s, code_share) if trigger.code else SILENT
        return MISS if s.call.kind == "shell" or not trigger.code else _code(trigger, s, code_share)
    if trigger.flags:
        if any(trigger.flags & c.flag_names for c in s.commands) or any(
            f in s.text for f in trigger.flags
        ):
            return HIT
        return MISS if s.call.kind == "shell" else SILENT
    if trigger.code:
        return _code(trigger, s, code_share)
    return SILENT


def _code_share(trigger: Trigger, s: Seen) -> float:
    if not trigger.code:
        return 0.0
    return sum(_has(s.text, t) for t in trigger.code) / len(trigger.code)


def _code(trigger: Trigger, s: Seen, code_share: float) -> str:
    share = _code_share(trigger, s)
    if share >= code_share:
        return HIT
    return SILENT if share > 0 else MISS


# ---------------------------------------------------------------------- principles


def generalize(members: list[Trigger]) -> Trigger:
    """A principle's trigger from its lessons': the forms of a program that two or more
    lessons share (their common subcommand path and flags; the safe flags they all name,
    else any of them), and the code they all write; a principle of one lesson's trigger is
    that trigger."""
    if len(members) == 1:
        return members[0]
    by_program: dict[str, list[Form]] = {}
    for t in members:
        for f in t.commands:
            by_program.setdefault(f.program, []).append(f)
    forms = []
    for program, of in by_program.items():
        if len(of) < 2 and len(by_program) > 1:
            continue
        sub = of[0].subcommand
        for f in of[1:]:
            n = 0
            while n < min(len(sub), len(f.subcommand)) and sub[n] == f.subcommand[n]:
                n += 1
            sub = sub[:n]
        flags = frozenset.intersection(*(f.flags for f in of))
        common = frozenset.intersection(*(f.safe for f in of))
        forms.append(Form(program, sub, flags, common or frozenset().union(*(f.safe for f in of))))
    codes = [t.code for t in members if t.code]
    code = frozenset.intersection(*codes) if len(codes) == len(members) else frozenset()
    safe = frozenset.intersection(*(t.safe for t in members)) if members else frozenset()
    return Trigger(
        tuple(forms),
        tuple(dict.fromkeys(f for t in members for f in t.safe_forms)),
        frozenset.intersection(*(t.flags for t in members)),
        code,
        safe,
    )
