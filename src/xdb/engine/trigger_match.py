"""Matching a call against a lesson's trigger (``xdb.engine.triggers``): what the
structure says about it (HIT, SAFE, MISS, SILENT), and a principle's trigger generalised
from its lessons'. The thresholds are the caller's (``xdb.engine.scoring``, chosen by
``bench.engine_cv``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from xdb.engine import known, scoring
from xdb.engine.calls import Command, ToolCall
from xdb.engine.calls.programs import _SAME
from xdb.engine.triggers import (
    HIT,
    MISS,
    SAFE,
    SILENT,
    Form,
    Trigger,
    prose_roots,
    shell_commands,
)
from xdb.engine.words import mistake_told, root


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


# Subcommand paths that do the same (docker's management commands, helm's old names) or
# the same harm (kubectl: a live object changed by hand, whichever verb changes it).
_SAME_PATH: dict[str, dict[tuple[str, ...], tuple[str, ...]]] = {
    "docker": {("container", "run"): ("run",), ("container", "rm"): ("rm",),
               ("container", "stop"): ("stop",), ("container", "kill"): ("kill",),
               ("container", "exec"): ("exec",), ("image", "rm"): ("rmi",),
               ("image", "build"): ("build",), ("image", "push"): ("push",),
               ("buildx", "build"): ("build",), ("builder", "build"): ("build",)},
    "helm": {("delete",): ("uninstall",), ("del",): ("uninstall",), ("un",): ("uninstall",)},
    "kubectl": {("patch",): ("edit",), ("set",): ("edit",), ("scale",): ("edit",),
                ("annotate",): ("edit",), ("label",): ("edit",)},
}  # fmt: skip
# Forms a flag turns into another (``terraform apply -destroy`` is ``terraform destroy``).
_FLAG_PATH = {
    ("terraform", ("apply",), "-destroy"): ("destroy",),
    ("terraform", ("apply",), "--destroy"): ("destroy",),
    ("docker", ("system", "prune"), "--volumes"): ("volume", "prune"),
    ("docker", ("compose", "down"), "--volumes"): ("volume", "prune"),
}

_TURNING = frozenset(flag for _, _, flag in _FLAG_PATH)  # (its path says it: not required)


def _path(
    name: str, subcommand: tuple[str, ...], flags: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    name = program(name)
    for flag in flags:
        turned = _FLAG_PATH.get((name, subcommand, flag))
        if turned is not None:
            return turned
    for end in range(len(subcommand), 0, -1):
        same = _SAME_PATH.get(name, {}).get(subcommand[:end])
        if same is not None:
            return (*same, *subcommand[end:])
    aliases = _SUB_ALIASES.get(name)
    if not aliases or not subcommand:
        return subcommand
    return (aliases.get(subcommand[0], subcommand[0]), *subcommand[1:])


# Flags that make any program only show what it would do: such a command is no repeat.
PREVIEW_FLAGS = frozenset((
    "--dry-run", "--dryrun", "--check", "--syntax-check", "--diff", "--what-if", "--whatif",
    "--noop", "--simulate", "--preview", "--list", "--list-hosts", "--list-tasks",
))  # fmt: skip


def _literal(word: str) -> str:
    """A literal argument's one spelling: ``0777`` is ``777``, and so is ``a+rwx``."""
    if word.isdigit():
        return word.lstrip("0") or "0"
    return "777" if word in ("a+rwx", "ugo+rwx") else word


def _form_in(form: Form, c: Command) -> bool:
    sub = _path(form.program, form.subcommand, form.flags)
    given = {_literal(w) for w in c.words[1:]}
    return (
        program(c.program) == program(form.program)
        and (
            _path(c.program, c.subcommand)[: len(sub)] == sub
            or _path(c.program, c.subcommand, c.flag_names)[: len(sub)] == sub
        )
        and form.wrappers <= set(c.wrappers)
        and all(_literal(w) in given for w in form.words)
    )


def _has(text: str, token: str) -> bool:
    if token.isalpha() and len(token) <= 8:  # keywords and words: whole words only
        return re.search(rf"(?<![a-z]){re.escape(token)}(?![a-z0-9_])", text) is not None
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
    beside ``go get -u``) tells nothing apart: it is not counted; nor is a program's bare
    name ("with --default-character-set on both mysqldump and mysql" names no safe use)."""
    for i, c in enumerate(s.commands):
        for f in trigger.safe_forms:
            if f.bare or any(_subsumes(f, m) for m in trigger.commands):
                continue
            if _form_in(f, c) and f.flags <= c.flag_names:
                return i
    return None


def match(
    trigger: Trigger,
    s: Seen,
    flag_share: float,
    code_share: float,
    question: str = "",
    line_words: int = 0,
) -> str:
    """What the structure says about the call: HIT, SAFE, MISS or SILENT.

    ``flag_share``: the share of a form's flags a command must give; ``code_share``: the
    share of the trigger's code the call must write (both chosen by cross-validation).
    ``question``: the lesson's question, for a command its prose names in words
    (``told``) where the trigger says nothing specific of that command's program, and, where
    the trigger is silent on an edit, an added line writing ``line_words`` of its words
    (``written``; 0: never)."""
    by_pattern = None
    named = trigger.deciding
    # (asked only of a lesson that keeps a known mistake: most candidates keep none)
    decides = bool(named or trigger.resembles) and known_decides(trigger, s)
    if named and decides:
        # A known mistake the lesson names decides where it is about the call: its detector
        # knows the mistake from its safe variant better than shared words and code can.
        by_pattern = known.verdict(named, s.call, needs_every(trigger))
        if by_pattern in (HIT, SAFE):
            return by_pattern
    elif trigger.resembles and decides:
        # A pattern the lesson's words only resemble finds its mistake and its safe way;
        # finding neither, it leaves the call to the rest of the trigger.
        guessed = known.verdict(trigger.resembles, s.call)
        if guessed in (HIT, SAFE):
            return guessed
    said = _structure(trigger, s, flag_share, code_share, question)
    told_it = said in (SILENT, MISS) and bool(question) and told(question, trigger, s)
    # Learned on a call, a lesson's question may end with the check that caught it and the
    # check's error (``extract``): the words of what was written are before it.
    writes = mistake_told(question) if trigger.on_call else question
    if told_it or (said == SILENT and question and line_words and written(writes, s, line_words)):
        said = HIT
    # A call a named known mistake reads and finds no mistake in is no repeat, whatever
    # words and code it shares with the lesson (``KNOWN_MISS``, chosen by the folds).
    return MISS if said == HIT and by_pattern == MISS and scoring.KNOWN_MISS else said


def own_form(trigger: Trigger, s: Seen) -> bool:
    """Whether the call runs a command of a form the lesson names (its program and
    subcommand, not only the program's name). A lesson learned on a call names no form of
    its own: its forms are the failing call's commands, and the known mistakes it keeps are
    the ones that call made, which say better what in it was the mistake (``rm -rf`` of an
    unset ``$DIR``, not every ``rm -rf``)."""
    return not trigger.on_call and any(
        _specific(f) and _form_in(f, c) for f in trigger.commands for c in s.commands
    )


def known_decides(trigger: Trigger, s: Seen) -> bool:
    """Whether the known mistakes a lesson keeps may decide the call (``match`` and the
    judge ask it alike). Not where the call runs a command of a form the lesson names itself:
    that form is the more specific (``git clean -f`` is not the ``git clean -fdx`` that wiped
    ``.env``). Nor, with ``FORM_DECIDES`` (chosen by the folds), where it runs another use of
    a program the lesson names a form of (``kubectl delete``, ``sudo pip``): the lesson is not
    about that use, whatever a known mistake of its class would say of it. (Learned on a
    call, its forms are that call's, not a use it singled out.)"""
    if own_form(trigger, s):
        return False
    return not (scoring.FORM_DECIDES and not trigger.on_call and other_use(trigger, s))


def needs_every(trigger: Trigger) -> bool:
    """Whether a call repeats the lesson's known mistakes only by making each of them: a
    lesson learned on a call is that call's mistakes together (``KNOWN_ALL``)."""
    return trigger.on_call and scoring.KNOWN_ALL


def other_use(trigger: Trigger, s: Seen) -> bool:
    """Whether the call runs a program the lesson names a specific form of, and no command
    of such a form."""
    forms = [f for f in trigger.commands if _specific(f)]
    programs = {program(f.program) for f in forms}
    return any(program(c.program) in programs for c in s.commands) and not any(
        _form_in(f, c) for f in forms for c in s.commands
    )


def _specific(form: Form) -> bool:
    """Whether a form says which use of its program errs (a subcommand, a flag given, a
    wrapper, a leading word): one that says only what its fix adds (``rsync`` without
    ``--dry-run``) is every use of the program, and a known mistake's detector knows the
    harmful one better (``rsync --delete``)."""
    return bool(form.subcommand or form.flags or form.wrappers or form.words)


_COMMON = frozenset((
    "the", "and", "for", "with", "that", "this", "from", "into", "when", "then", "than",
    "have", "had", "has", "not", "was", "were", "are", "its", "our", "your", "you", "all",
    "any", "every", "new", "one", "two", "out", "off", "get", "set", "let", "var", "def",
    "return", "true", "false", "none", "null", "name", "value", "data", "file", "line",
    "code", "type", "app", "api", "src", "lib", "test", "tests", "import", "public",
    "private", "static", "const", "function", "class", "string", "int", "self", "http",
    "https", "www", "com", "org", "main", "default", "version",
))  # fmt: skip


_COMMON_ROOTS = frozenset(root(w) for w in _COMMON)


def written(question: str, s: Seen, words: int) -> bool:
    """Whether an edit writes, on one added line, ``words`` of the question's words that
    are not common ones ("FROM python:latest" for "a Dockerfile built FROM an image's latest
    tag"): the code the question tells of, in its words."""
    if s.call.kind == "shell":
        return False
    prose = _question_prose(question)
    return any(
        len(prose_roots(_hosts_whole(line[: known.LINE_CHARS])) & prose) >= words
        for line in s.text.splitlines()
    )


@lru_cache(maxsize=4096)
def _question_prose(question: str) -> frozenset[str]:
    # (asked for each candidate lesson of each call: the same questions again and again)
    return prose_roots(_hosts_whole(question)) - _COMMON_ROOTS


# A host name: a name of one of the usual top-level domains (and the internal ones), from
# the start of a dotted name (anchored: a long run of dotted words would be tried from each
# of its dots) and not a call chain's (``threading.local()``, ``self.app.run()``).
_HOST = re.compile(
    r"(?<![\w.-])(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|app|cloud|ai|co|internal|local|lan|corp)"
    r"\b(?![\w.-]*\()",
    re.I,
)


def _hosts_whole(text: str) -> str:
    """The text with each host name one word (``cdn.acme.dev`` is not ``registry.acme.dev``,
    though both are written with ``acme`` and ``dev``)."""
    return _HOST.sub(lambda m: m.group(0).replace(".", "").replace("-", ""), text)


def _structure(
    trigger: Trigger, s: Seen, flag_share: float, code_share: float, question: str
) -> str:
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
                if (
                    form.safe & c.flag_names
                    or c.flag_names & PREVIEW_FLAGS
                    or (safe_at is not None and safe_at <= i)
                ):
                    return SAFE
                wanted = form.flags - _TURNING
                if not wanted or len(wanted & c.flag_names) >= flag_share * len(wanted):
                    found = True
        if found:
            return HIT if _code_share(trigger, s) >= code_share or not trigger.code else MISS
        if safe_at is not None:
            return SAFE
        if bare:
            return _code(trigger, s, code_share) if trigger.code else SILENT
        return MISS if s.call.kind == "shell" or not trigger.code else _code(trigger, s, code_share)
    if trigger.flags:
        # A flag of one word (``--yes``, ``--all``) means something else to each program:
        # it repeats the mistake on a command doing what the question tells of.
        specific = {f for f in trigger.flags if "-" in f.lstrip("-")}
        if any(
            trigger.flags & c.flag_names
            and (specific & c.flag_names or not question or _verb_told(c, question))
            for c in s.commands
        ) or any(f in s.text for f in (trigger.flags if not question else specific)):
            return HIT
        return MISS if s.call.kind == "shell" else SILENT
    if trigger.code:
        return _code(trigger, s, code_share)
    return SILENT


def _verb_told(c: Command, question: str) -> bool:
    """Whether the question tells of the command's verb or names its program."""
    prose = prose_roots(question)
    verb = c.subcommand[-1] if c.subcommand else c.program
    return root(verb) in prose or program(c.program) in prose


# Programs that run a script: their words are the script's arguments, not a verb.
_INTERPRETERS = frozenset(("python", "python3", "node", "ruby", "perl", "bash", "sh", "zsh",
                           "php", "java", "deno", "bun", "dotnet", "npx", "uvx"))  # fmt: skip


def told(question: str, trigger: Trigger, s: Seen) -> bool:
    """Whether the question names, in its own words, a command the call runs: the
    command's verb (its last subcommand word; for a program without subcommands, the
    program) and one more of its words (a flag's or an argument's: "a hard reset" for
    ``git reset --hard``, "restarting nginx" for ``systemctl restart nginx``). Only for a
    lesson whose trigger names no command beyond a program's name (a lesson learned on a
    call, or naming one, is that call's to decide), and only from the words outside the
    spans it quotes; a command that only reads is never the mistake."""
    from xdb.engine.calls.effects import reads

    if s.call.kind != "shell" or trigger.on_call:
        # (Learned on a call, the lesson's mistake is that call: its question's words are
        # the call's path, the check that caught it and the check's error, ``derive``.)
        return False
    if any(not f.bare for f in trigger.commands):
        return False  # the lesson names its command: another program is not its mistake
    # What the question tells in its own words: a span it quotes (a command it names, code,
    # the check that caught an edit: "broke `npm run build`") is not told in words.
    prose = prose_roots(re.sub(r"`[^`]*`", " ", question))
    for c in s.commands:
        if not c.program or reads(c):
            continue
        if c.flag_names & PREVIEW_FLAGS:
            continue
        others = {root(f.name.lstrip("-")) for f in c.flags if f.name.startswith("--")}
        others |= {root(w) for a in c.args if a.kind == "word"
                   for w in re.findall(r"[A-Za-z][A-Za-z0-9]+", a.text) if len(w) >= 3}  # fmt: skip
        if c.subcommand:
            verb = root(c.subcommand[-1])
            if verb in prose and (others - {verb, root(c.program)}) & prose:
                return True
        elif program(c.program) not in _INTERPRETERS:
            # read generically: its first word is its verb (``service nginx restart``)
            words = [root(w) for w in c.words[1:] if w.isalpha() and len(w) >= 3]
            named = (set(words) | others) - {root(c.program)}
            if words and words[0] in prose and len(named & prose) >= 2:
                return True
    return False


def _code_share(trigger: Trigger, s: Seen) -> float:
    if not trigger.code:
        return 0.0
    return sum(_has(s.text, t) for t in trigger.code) / len(trigger.code)


def _code(trigger: Trigger, s: Seen, code_share: float) -> str:
    share = _code_share(trigger, s)
    if share >= code_share:
        return HIT
    # A command line writing part of the lesson's code is not the mistake (a check's
    # ``pytest -q`` beside an edit's lesson); an edit writing part of it may be: the words
    # decide.
    return SILENT if share > 0 and s.call.kind != "shell" else MISS


# ---------------------------------------------------------------------- principles


def generalize(members: list[Trigger]) -> Trigger:
    """A principle's trigger from its lessons': the forms of a program that two or more
    lessons share (their common subcommand path and flags; the safe flags they all name,
    else any of them), and the code they all write; a principle of one lesson's trigger is
    that trigger."""
    if len(members) == 1:
        return members[0]
    by_program: dict[str, list[Form]] = {}
    on_call = all(t.on_call for t in members)
    for t in members:
        if t.on_call and not on_call:
            continue  # a failing call's commands: no use its lesson singled out (own_form)
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
        # (a member learned on a call may keep its call's mistakes as resembled: they decide
        # for it as named ones do, ``Trigger.deciding``)
        frozenset.intersection(*(t.deciding for t in members)),
        frozenset.intersection(*(t.resembles for t in members)),
        on_call,
    )
