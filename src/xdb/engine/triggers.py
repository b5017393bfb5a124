"""Lesson triggers (issue 33): what a lesson's mistake looks like in a tool call's
structure (``xdb.engine.calls``), derived from the lesson's words (the commands, flags and
code its question and answer name) and, when it has them, from the call it was learned on
and the call that fixed it.

A trigger holds
- ``commands``: shell forms of the mistake: a program, its subcommand path, the flags the
  mistake gives (``git clean -fdx``) and the **safe flags**: those the answer or the fix
  names and the mistake lacks (``-n``, ``--atomic``, ``--force-with-lease``). A mistake of
  something left out (``helm upgrade`` without ``--atomic``) is a form with safe flags and
  no flags of its own: any call of it without a safe flag is the mistake again;
- ``safe_forms``: whole commands the answer or the fix advises (``terraform plan
  -destroy``, ``git stash push``): a call that runs one is doing what the lesson says;
- ``flags``: flags the question names without a program (``--no-verify``);
- ``code``: what the mistake writes as code (``DbContext``, ``json.Unmarshal``, ``DELETE``);
- ``safe``: code or words whose presence is the safe variant: what the answer or fix adds,
  and what the question says was missing ("no ``WHERE``", "without a timeout").

Arguments (paths, branches, namespaces, environments) are never part of a trigger: a
lesson learned on ``envs/staging`` applies to ``-chdir=envs/prod``.

``xdb.engine.trigger_match`` says what the structure tells about a call: HIT (the mistake
again), SAFE (the form the lesson advises), MISS (the lesson is about a command or code the
call does not have) or SILENT (the trigger has nothing to say about this kind of call: the
caller falls back on the words). No constant here is fitted: the thresholds the filter
decides with are in ``xdb.engine.scoring`` (chosen by ``bench.engine_cv``).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from xdb.engine.calls import Command, ToolCall, parse_call, parse_shell
from xdb.engine.prose_vocabulary import PROSE_PROGRAMS, flags_told, products
from xdb.engine.trigger_known import kept_known
from xdb.engine.words import root

HIT, SAFE, MISS, SILENT = "hit", "safe", "miss", "silent"
VERSION = 3  # stored triggers of another version are derived again

# Words that end a command inside prose.
_CLAUSE = re.compile(r"[,;:()]|\s(?:then|and|or|so|which|because|before|after|instead)\s|\.\s")
_INSTRUCTION_OPTION = re.compile(
    r"\b(?:RUN|COPY|ADD|FROM|HEALTHCHECK|ONBUILD)(?:\s+--[\w-]+(?:=\S*)?)+"
)
_BACKTICK = re.compile(r"`([^`]+)`")
_FLAG = re.compile(r"(?<![\w/.-])(--?[A-Za-z][\w-]*)")
# What a text writes as code: dotted or snake names, camelCase, PascalCase with an inner
# capital, calls, annotations (an ``@`` that starts a word: not ``pkg@version`` or an
# e-mail address), ALLCAPS keywords (SQL, Redis), assignments of a keyword.
_CODE = re.compile(
    r"(?<![\w.-])@[A-Za-z]\w+|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?|\w+\(\)|\b[a-z]+[A-Z]\w*"
    r"|\b[A-Z][a-z0-9]+[A-Z]\w*|\b[A-Za-z]\w*_\w*|\b[A-Z]{5,}\b|\b\w+=(?=[\w\s]|$)"
)
_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*)")
# A parameter expansion's guard (``${DIR:?}``, ``${N:-1}``): the answer's safe form of a variable.
_GUARD = re.compile(r"\$\{\w+(:[?=-])")
_NEGATION = re.compile(
    r"\b(?:no|without|missing|lacked|lacking)\s+(?:an?\s+|the\s+|any\s+)?([^,;.()]+)"
)
# A flag the question says was not given: right after the word saying so ("without --limit").
_LACKED = re.compile(
    r"\b(?:no|without|missing|lacked|lacking)\s+(?:an?\s+|the\s+|any\s+)?(--?[A-Za-z][\w-]*)"
)
_FILE_EXT = re.compile(r"\.(?:json|ya?ml|toml|lock|cs|py|ts|tsx|js|go|rs|java|sql|tf|env)$")
_STOP = frozenset(("the", "a", "an", "of", "to", "in", "on", "for", "its", "it", "is", "was",
                   "had", "has", "with", "by", "from", "that", "this", "could", "would",
                   "should", "not", "nobody", "every", "all"))  # fmt: skip
_PROSE_STOP = _STOP | frozenset((
    "into", "against", "ran", "run", "over", "at", "as", "and", "or", "but", "so", "then",
    "first", "only", "once", "when", "meant", "put", "left", "took", "broke", "lost", "made",
    "command", "commands", "history", "step", "job", "script", "use", "pass", "set", "keep",
    "call", "give", "add", "name", "also", "itself", "again", "too", "just", "now", "still",
    "even", "never", "always", "already", "instead", "here", "there", "anyway",
))  # fmt: skip
# Words of _PROSE_STOP that are subcommands too when a flag follows ("poetry add --group").
_VERBS = frozenset(("run", "use", "set", "add", "pass", "keep", "call", "give", "name", "put"))


@dataclass(frozen=True)
class Form:
    """A shell form: program, subcommand path, the flags it gives, the safe flags."""

    program: str
    subcommand: tuple[str, ...] = ()
    flags: frozenset[str] = frozenset()
    safe: frozenset[str] = frozenset()
    wrappers: frozenset[str] = frozenset()  # sudo: often the mistake itself
    words: tuple[str, ...] = ()  # a program read generically: its leading words (make install)

    @property
    def bare(self) -> bool:
        """Only a program's name: it says what the lesson is about, not which use errs."""
        return not (self.subcommand or self.flags or self.safe or self.wrappers or self.words)


@dataclass(frozen=True)
class Trigger:
    commands: tuple[Form, ...] = ()
    safe_forms: tuple[Form, ...] = ()
    flags: frozenset[str] = frozenset()
    code: frozenset[str] = frozenset()
    safe: frozenset[str] = frozenset()
    known: frozenset[str] = frozenset()  # the known mistakes it names (``xdb.engine.known``)
    # Those its words resemble where they name none (``known.similar``): a guess, which
    # finds the mistake and its safe variant but clears no call.
    resembles: frozenset[str] = frozenset()
    # Learned on a call: its forms are that call's commands, and the known mistakes it keeps
    # are those that call makes (a form the lesson's words choose is more specific).
    on_call: bool = False

    @property
    def deciding(self) -> frozenset[str]:
        """The known mistakes whose detector decides where it reads a call: those named, or
        of a lesson learned on a call, those resembled that the call made (as good as
        named)."""
        return self.known or (self.resembles if self.on_call else frozenset())

    @property
    def empty(self) -> bool:
        return not (self.commands or self.flags or self.code or self.known or self.resembles)

    def to_json(self) -> dict[str, Any]:
        def form(f: Form) -> dict[str, Any]:
            return {"program": f.program, "subcommand": list(f.subcommand),
                    "flags": sorted(f.flags), "safe": sorted(f.safe),
                    "wrappers": sorted(f.wrappers), "words": list(f.words)}  # fmt: skip

        return {
            "version": VERSION,
            "commands": [form(f) for f in self.commands],
            "safe_forms": [form(f) for f in self.safe_forms],
            "flags": sorted(self.flags),
            "code": sorted(self.code),
            "safe": sorted(self.safe),
            "known": sorted(self.known),
            "resembles": sorted(self.resembles),
            "on_call": self.on_call,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Trigger | None:
        """The stored trigger (None: absent, or of another version)."""
        if not isinstance(data, dict) or data.get("version") != VERSION:
            return None

        def form(d: dict[str, Any]) -> Form:
            return Form(str(d["program"]), tuple(d.get("subcommand", ())),
                        frozenset(d.get("flags", ())), frozenset(d.get("safe", ())),
                        frozenset(d.get("wrappers", ())), tuple(d.get("words", ())))  # fmt: skip

        return Trigger(
            tuple(form(d) for d in data.get("commands", [])),
            tuple(form(d) for d in data.get("safe_forms", [])),
            frozenset(data.get("flags", ())),
            frozenset(data.get("code", ())),
            frozenset(data.get("safe", ())),
            frozenset(data.get("known", ())),
            frozenset(data.get("resembles", ())),
            bool(data.get("on_call", False)),
        )


# ---------------------------------------------------------------------- derivation


def prose_commands(text: str) -> list[Command]:
    """The shell commands a lesson's prose names: backticked spans, and in each clause each
    known program's name (or a clause's first word followed by a flag) up to the next."""
    found: list[Command] = []
    for span in _BACKTICK.findall(text):
        # A quoted flag or a lone word (`--context=staging`, `master`) is not a command.
        found += [c for c in shell_commands(span) if _a_command(c)]
    text = _BACKTICK.sub(" ", text)
    for clause in _CLAUSE.split(f" {text} "):
        words = clause.split()
        starts = [
            i
            for i, word in enumerate(words)
            if word in PROSE_PROGRAMS
            or (
                (i == 0 or (i == 1 and words[0] == "sudo"))  # (a clause's first, or sudo's)
                and not (len(word) > 4 and word.endswith(("ed", "ing")))  # ("passed --force")
                and len(words) > i + 1
                and words[i + 1].startswith("-")
                and word not in _PROSE_STOP
                and re.fullmatch(r"[a-z][\w-]+", word) is not None
            )
        ]
        covered = 0  # a program's name inside a command already read is its word
        for i in starts:
            if i < covered:
                continue
            if words[i - 1 : i] == ["sudo"]:
                i -= 1  # the wrapper is part of what was done
            named = _prose_words(words[i:])
            covered = i + len(named)
            found += shell_commands(" ".join(named))[:1]
    return found


def _a_command(c: Command) -> bool:
    """Whether a backticked span's command is one: a program, not a flag, and either one
    xdb knows or given something to act on."""
    from xdb.engine.calls.programs import spec_of

    if not c.program or c.program.startswith("-"):
        return False
    return spec_of(c.program) is not None or c.program in PROSE_PROGRAMS or len(c.words) > 1


def _prose_words(words: list[str]) -> list[str]:
    """A command named in prose, without the sentence that goes on after it: it ends at the
    first word that is not a flag, a value, a path or a short lowercase word of the
    command's own (function words and past tenses end it)."""
    out = words[:1]
    for n, word in enumerate(words[1:], 1):
        bare = word.strip("'\".")
        flag_next = bare in _VERBS and words[n + 1 : n + 2] != [] and words[n + 1].startswith("-")
        if word.startswith("-") or "/" in word or "=" in word or "$" in word or "*" in word:
            out.append(word)
        elif (bare.lower() in _PROSE_STOP and not flag_next) or bare.endswith("ed") or not bare:
            break  # (a verb a flag follows is the command's subcommand: "uv add --dev")
        else:
            out.append(word)
    return out


def _form(c: Command, literals: bool = False, told: bool = False) -> Form:
    """A command's form. ``literals``: keep the numbers it gives as arguments (a lesson
    that writes ``chmod -R 777`` is about 777, not 750). ``told``: the lesson's words name
    the command, so a program read generically keeps its first two words (``vault kv
    patch``); a call's second word is as often what it acts on (``vagrant destroy db``)."""
    from xdb.engine.calls.programs import spec_of

    words: tuple[str, ...] = ()
    if spec_of(c.program) is None and len(c.words) > 1 and c.words[1].isalpha():
        # A program read generically: its first word says which use; told, its first two
        # (``gh pr merge`` is not ``gh pr view``, ``vault kv patch`` not ``vault kv put``).
        words = tuple(itertools.takewhile(str.isalpha, c.words[1 : 3 if told else 2]))
    if literals:
        words += tuple(a.text for a in c.args if a.kind == "number" and a.text.isdigit())
    wrappers = frozenset(w for w in c.wrappers if w == "sudo")
    return Form(c.program, c.subcommand, c.flag_names, wrappers=wrappers, words=words)


def shell_commands(text: str) -> list[Command]:
    commands, _ = parse_shell(text.replace("<", " ").replace(">", " "), None)
    return [c for c in commands if c.program]


def _flags_for(form: Form, text: str) -> frozenset[str]:
    """The canonical names the program gives the flags ``text`` writes by themselves."""
    raw = _FLAG.findall(text)
    if not raw:
        return frozenset()
    line = " ".join([form.program, *form.subcommand, *raw])
    parsed = shell_commands(line)
    return parsed[0].flag_names if parsed else frozenset(raw)


# A token that reads as an API: a dotted or snake name, a keyword argument, an inner capital.
_API = re.compile(r"[a-z0-9][A-Z]|[A-Za-z][._=][A-Za-z]|=$|^[A-Z][a-z0-9]+[A-Z]")
# Names written in code's casing that are products, not code ("a GitHub Action").
_BRANDS = frozenset((
    "github", "gitlab", "bitbucket", "javascript", "typescript", "postgresql", "mysql",
    "mariadb", "mongodb", "nodejs", "macos", "ios", "iphone", "ipad", "youtube", "linkedin",
    "openai", "pypi", "dockerhub", "cloudflare", "cloudfront", "dynamodb", "elasticsearch",
    "opensearch", "rabbitmq", "sqlserver", "powershell", "devops", "graphql", "oauth",
    "fastapi", "nextjs", "vscode", "intellij", "pycharm", "webstorm", "circleci",
    "sonarqube", "grafana", "kubernetes", "argocd", "terraform", "bigquery", "redshift",
))  # fmt: skip


def code_tokens(text: str) -> set[str]:
    """What a text writes as code (lowercase; flags, file names and products apart)."""
    text = _BACKTICK.sub(lambda m: f" {m.group(1)} ", text)
    # A shell variable is an argument (its name differs in each repeat), not code.
    variables = {v.lower() for v in _VARIABLE.findall(text)}
    out = set()
    for token in _CODE.findall(text):
        token = token.rstrip("()").lstrip("@")
        if (
            len(token) >= 3
            and not _FILE_EXT.search(token.lower())
            and (token.lower() not in _BRANDS)
        ):
            out.add(token.lower())
    return out - variables


def _negated(text: str) -> set[str]:
    """What the question says was missing ("no WHERE clause", "without a timeout"): its
    code, else its significant words."""
    out: set[str] = set()
    for span in _NEGATION.findall(text):
        span = _CLAUSE.split(f" {span} ")[0]
        code = code_tokens(span)
        words = {w.lower() for w in re.findall(r"[A-Za-z]\w{3,}", span)} - _STOP
        out |= code or set(sorted(words, key=span.lower().find)[:2])
    return out


def derive(
    question: str,
    answer: str,
    example_call: dict[str, Any] | None = None,
    fix_call: dict[str, Any] | None = None,
) -> Trigger:
    """A lesson's trigger, from its words and, when given, the failing call and its fix
    (``{"tool_name": ..., "tool_input": ...}``)."""
    # A tool named as its product ("Pulumi", "the k8s CLI") and a flag told in words ("the
    # staging flag") are read as if written out; the known mistakes the lesson names are
    # found in its words as written.
    as_written = (question, answer)
    question, answer = flags_told(products(question)), flags_told(products(answer))
    answer_cmds = prose_commands(answer)
    failing = _parsed(example_call)
    fixed = _parsed(fix_call)
    # Given the call it was learned on, the lesson's mistake is that call: the rest of its
    # question (the error a check printed, the check's own command line after an edit)
    # names no command, code or missing thing of the mistake.
    told = question if failing is None else ""
    forms = [_form(c, literals=True, told=True) for c in prose_commands(told)]
    if failing is not None:
        forms += [_form(c) for c in failing.commands]
    forms += _advised_verbs(question, answer_cmds, forms)
    if not forms and failing is None:
        forms += _advised_flags(answer)
    safe_forms = [_form(c, told=True) for c in answer_cmds]
    # (an option a Dockerfile instruction takes, ``RUN --mount=...``, is code, not a flag of
    # a program the lesson names)
    flag_answer = _INSTRUCTION_OPTION.sub(" ", answer)
    loose_answer = _strip_commands(flag_answer)
    # Flags the answer writes outside any command it names ("pass --project on every
    # gcloud command"): what a program the lesson names only by itself must be given.
    written = {f.raw for c in answer_cmds for f in c.flags}
    free = " ".join(x for x in _FLAG.findall(_BACKTICK.sub(" ", flag_answer)) if x not in written)
    # The answer's flags by themselves, and its command of the same program: what the
    # mistake lacks (a flag both write is context, not the difference).
    out_forms = []
    # An answer that runs a step and then the mistake's own command, flags and all (``git
    # stash push && git reset --hard``): that command is no safe form and its flags no fix;
    # the step before it is the lesson.
    rerun = [
        c for c in answer_cmds
        if c.op in ("&&", ";")
        and any(c.program == f.program and c.subcommand == f.subcommand and f.flags
                and f.flags <= c.flag_names for f in forms)
    ]  # fmt: skip
    safe_forms = [g for g in safe_forms if g not in {_form(c, told=True) for c in rerun}]
    # Flags the question says were not given ("without --limit"): what the mistake lacked.
    lacked = " ".join(_LACKED.findall(told))
    for f in dict.fromkeys(forms):
        adds = _flags_for(f, loose_answer) | (_flags_for(f, lacked) if lacked else frozenset())
        if f.bare and free and re.search(rf"(?<![\w-]){re.escape(f.program)}(?![\w-])", answer):
            adds |= _flags_for(f, free)
        for c in answer_cmds:
            if c in rerun:
                continue
            # (not to a form without the subcommand the answer's has: ``git`` named alone
            # would take ``git add -p``'s flag and match every git call that lacks it; the
            # same for a program read generically: ``poetry`` and ``poetry add --group``)
            if (
                c.program == f.program
                and c.subcommand[: len(f.subcommand)] == f.subcommand
                and (f.subcommand or not c.subcommand)
                and (f.words or not _form(c, told=True).words)
            ):
                adds |= c.flag_names
        if fixed is not None:
            for c in fixed.commands:
                if c.program == f.program and c.subcommand == f.subcommand:
                    adds |= c.flag_names - f.flags
        out_forms.append(Form(f.program, f.subcommand, f.flags - adds, frozenset(adds - f.flags),
                              f.wrappers, f.words))  # fmt: skip
    # Flags the question names outside any command it names ("with --no-verify").
    named = {x for f in out_forms for x in f.flags}
    loose = frozenset(
        x
        for x in _FLAG.findall(_strip_commands(told))
        if x.startswith("--") and x not in named and x not in lacked.split()
    )
    code: set[str] = code_tokens(told)
    safe: set[str] = (code_tokens(answer) - code) | _negated(told)
    safe |= set(_GUARD.findall(answer)) - set(_GUARD.findall(question))
    if failing is not None:
        for fc in failing.files:
            code |= {t.lower() for t in fc.added_tokens if len(t) >= 3}
    if fixed is not None and failing is not None:
        # What the fix adds that reads as an API (``AbortController``, ``fmt.Errorf``,
        # ``timeout=``), not a name or keyword it happens to write (``users``, ``return``):
        # one of those in a repeat would make it look heeded.
        before = "\n".join(line for fc in failing.files for line in fc.added).lower()
        after = "\n".join(line for fc in fixed.files for line in fc.added)
        safe |= {
            t.lower() for fc in fixed.files for t in fc.added_tokens
            if len(t) >= 3 and t.lower() not in before and (
                _API.search(t)
                or re.search(rf"[(,]\s*{re.escape(t)}\s*=(?!=)|\b{re.escape(t)}\(", after)
            )
        }  # fmt: skip
    code -= safe
    # A signal the question names (``SIGKILL``) is the option a form of it already reads
    # (``kill -9``, ``-KILL``, ``-s KILL``: ``--signal-kill``), not code a repeat must write.
    if signals := [x[9:] for f in out_forms for x in f.flags if x.startswith("--signal-")]:
        from xdb.engine.calls.programs_system import SIGNAL_NAMES  # (a lesson about signals)

        code -= {"sig" + name for name in signals if name in SIGNAL_NAMES}
    return Trigger(
        tuple(out_forms),
        tuple(f for f in safe_forms if all(f != g for g in out_forms)),
        loose,
        frozenset(code),
        frozenset(safe),
        *kept_known(*as_written, failing, [*out_forms, *safe_forms], fixed),
        failing is not None,
    )


@lru_cache(maxsize=4096)
def prose_roots(text: str) -> frozenset[str]:
    """The roots of a text's words of three letters or more (remembered: a check asks it of
    the same lessons' questions for every candidate command)."""
    return frozenset(root(w) for w in re.findall(r"[A-Za-z][A-Za-z0-9]+", text) if len(w) >= 3)


# Flags whose purpose is safety (a preview, a check, a rollback, a guard), whatever the
# program: an answer advising one tells what the mistake lacked.
SAFETY_FLAGS = frozenset((
    "--dry-run", "--dryrun", "--check", "--diff", "--what-if", "--whatif", "--noop",
    "--simulate", "--preview", "--atomic", "--force-with-lease", "--interactive",
    "--no-clobber", "--backup", "--validate", "--verify", "--confirm", "--wait",
    "--cleanup-on-fail", "--rollback-on-failure", "--safe", "--list",
))  # fmt: skip


def _advised_verbs(question: str, advised: list[Command], forms: list[Form]) -> list[Form]:
    """The mistake an advised command implies: the answer's command with a safety flag
    whose verb the question tells of ("a crate version published with a missing file" and
    "run cargo publish --dry-run") is that command without it (``cargo publish``, safe
    ``--dry-run``), unless the question names its own form of that program."""
    told = prose_roots(question)
    named = {f.program for f in forms}
    out = []
    for c in advised:
        advised_flag = c.subcommand and c.flag_names & SAFETY_FLAGS
        if advised_flag and c.program not in named and root(c.subcommand[-1]) in told:
            out.append(Form(c.program, c.subcommand))
            named.add(c.program)
    return out


_SENTENCE = re.compile(r"[;:]|\.\s")


def _advised_flags(answer: str) -> list[Form]:
    """The mistake an answer's flag for a program it names implies, where the question
    names no command (it tells the effect: "every accented name showed as Ã©"): "load with
    --default-character-set=utf8mb4 on both mysqldump and mysql" is each of those programs
    run without it. (A command the answer writes out, flags and all, is a safe form.) The
    forms are the programs alone: ``derive`` gives them the answer's flags to lack."""
    return [
        Form(c.program, ())
        for sentence in _SENTENCE.split(_BACKTICK.sub(" ", answer))
        if _FLAG.search(sentence)
        for c in prose_commands(sentence)
        if not (c.subcommand or c.flags)
    ]


def _strip_commands(text: str) -> str:
    """The text without the clauses that name a command (their flags are the form's)."""
    kept = []
    for clause in _CLAUSE.split(f" {_BACKTICK.sub(' ', text)} "):
        if not prose_commands(clause):
            kept.append(clause)
    return " ".join(kept)


def _parsed(call: dict[str, Any] | None) -> ToolCall | None:
    """A call given as ``{tool_name, tool_input}`` (add_lesson) or ``{tool, input}``
    (what extraction keeps of it)."""
    if not isinstance(call, dict):
        return None
    data = call.get("tool_input", call.get("input"))
    if not isinstance(data, dict):
        return None
    return parse_call(str(call.get("tool_name", call.get("tool", ""))), data)


@lru_cache(maxsize=4096)
def derived(question: str, answer: str) -> Trigger:
    """``derive`` from the words alone, remembered (lessons stored before triggers were)."""
    return derive(question, answer)
