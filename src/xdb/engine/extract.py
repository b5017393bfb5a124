"""Lessons from a finished session's transcript (the stop hook): failures and their fixes,
retry loops and the user correcting the agent become raw (T3) lessons.

Transcripts are read into steps by ``xdb.engine.transcripts`` (Claude Code, Codex CLI,
Gemini CLI). Rules (deterministic):

- **failure then fix**: a call that failed, and a later call of the same command (its
  program, subcommand and first argument; an edit or write of the same file) that
  succeeded. The question is the FAILING call (an edit with what it wrote) and the
  informative line of its output; the answer the call that passed, what changed between
  them (flags added or dropped, arguments, lines of the edit) and what was done between.
  A check (tests, build, linter...) that failed after an edit and passed after edits of the
  same file teaches about the edit: its question is that edit, what it wrote and the check's
  error; its answer the later edits (``xdb.engine.extract_checks``);
- **failure**: a call that failed with an informative error and was never made to pass
  (not a probe such as ``grep`` or ``test``, not retried into a loop, not corrected by the
  user): the question alone says what to check;
- **retry loop**: the same command failing RETRIES times: "stop retrying; read the error
  and change the approach";
- **user correction**: the user's message after a call, when it corrects it ("Wait, no!",
  "don't", "stop", "that's wrong", "actually, use X", "never do X", "I told you", "please
  revert", ...): the question is that call, the answer the user's own words.

Each lesson carries a signature: the failing call's structure and the informative part of
its output (never generic text such as ``Exit code 1``), so different failures stay
different lessons; and ``learned_from``: the failing call, its output, the fix and what
changed, for triggers derived from them later.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from xdb.engine.calls import Command, ToolCall, parse_call
from xdb.engine.extract_checks import Blamed, blamed_edit, is_check
from xdb.engine.transcripts import (
    Step,
    change_lines,
    claude_steps,
    codex_steps,
    gemini_steps,
    informative_error,
)
from xdb.engine.words import CAUGHT

__all__ = ["RETRIES", "Found", "Step", "claude_steps", "codex_steps", "gemini_steps",
           "informative_error", "is_correction", "lessons"]  # fmt: skip

RETRIES = 3
ANSWER_CHARS = 600
INPUT_CHARS = 2000  # of each string of a call's input kept in a lesson's learned_from
BETWEEN = 3  # calls done between a failure and its fix that the answer names

# A user correcting the call just made, at the start of the message (after "wait,", "hmm",
# "oh"...), or in so many words anywhere in its first sentences. Written broadly, from how
# people stop an agent, before any benchmark was looked at.
_CORRECTS_AT_START = re.compile(r"""(?ix)^\W*
  ((wait|hold\ on|hang\ on|hmm+|uh+|um+|ugh+|oh+|oops|whoa|woah|hey|ok(ay)?|sorry)\b[\s,.!:;-]+)*
  ( no\b(?![\s,]+(problem|worries|rush|need\ to\ (worry|apologi[sz]e)
                  |(that'?s|it'?s)\ (fine|ok|okay|good|great|perfect)))
  | nope | nah\b | don'?t | dont | do\ not | never(?!\ mind)
  | stop | halt | wait\s*[,.!:;-] | hold\ on | hang\ on | wrong | incorrect
  | (that|this|it)('?s|\ is|\ was)\ (not|wrong|incorrect|the\ wrong|broken|bad)
  | (that|this|it)\ (isn'?t|wasn'?t|broke|breaks|deleted|removed|won'?t|doesn'?t|does\ not)
  | not\ (like\ (that|this)|that|this|there|here|yet|so\ fast|what\ i)
  | instead | actually | rather
  | i\ (told|said|asked|already|meant|wanted|didn'?t\ (ask|say|want|mean)|did\ not|never)
  | please\ (revert|undo|don'?t|do\ not|stop|never|roll\ ?back|put|change\ it|go\ back|use)
  | revert | undo | roll\ ?back | put\ it\ back | change\ it\ back | go\ back
  | why\ (did|are|would|do|is|were)\ you | what\ are\ you\ doing
  | you\ (should\ have|shouldn'?t|should\ not|must\ not|mustn'?t|forgot|broke|deleted
      |removed|were\ supposed|can'?t|cannot|didn'?t|did\ not|missed|ignored)
  | (be\ )?careful | bad\ idea | that'?s\ not\ what
)""")
_CORRECTS_ANYWHERE = re.compile(
    r"(?i)\b(instead\b|i told you|i said (not|no|to)|i asked you (not )?to|don'?t ever"
    r"|do not ever|never (ever )?(do|use|run|push|commit|edit|touch|delete|write|call|change"
    r"|modify|remove|force|add|install|deploy|drop)|please revert|not like that"
    r"|that'?s (wrong|not right|incorrect|not what)|revert (that|it|this|the|your)"
    r"|undo (that|it|this|your)|roll(ed)? (it |that |this )?back|put it back)"
)
# Calls that look for something: their failing (grep with no match, test -f) is an
# answer, not a mistake, unless it was retried or fixed.
_PROBES = frozenset(("grep", "rg", "ag", "ack", "test", "[", "[[", "ls", "diff", "cmp", "find",
                     "which", "command", "type", "cat", "head", "tail", "stat", "pgrep", "pidof",
                     "file", "wc", "echo", "true", "false", "pwd", "tree", "du", "df"))  # fmt: skip
# Not the command meant: moving, setting up, or filtering another command's output.
_SETUP = frozenset(("cd", "pushd", "popd", "export", "source", ".", "set", "unset", "true",
                    "echo", "sleep"))  # fmt: skip
_FILTERS = frozenset(("tail", "head", "grep", "rg", "tee", "less", "more", "sort", "uniq", "wc",
                      "cat", "cut", "awk", "sed", "jq", "column", "tr"))  # fmt: skip


@dataclass
class Found:
    rule: str
    question: str
    answer: str
    signature: str = ""
    learned_from: dict[str, Any] = field(default_factory=dict)


def is_correction(text: str) -> bool:
    return bool(_CORRECTS_AT_START.match(text) or _CORRECTS_ANYWHERE.search(text[:300]))


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _norm(text: str) -> str:
    """For signatures: case, numbers (line numbers, ids, times) and spacing do not count."""
    return " ".join(re.sub(r"0x[0-9a-f]+|\d+", "0", text.lower()).split())


def _parsed(step: Step) -> ToolCall | None:
    try:
        return parse_call(step.tool, step.data)
    except Exception:  # one call the parser cannot read must not lose a session's lessons
        return None


def _meant(call: ToolCall) -> list[Command]:
    """The commands of a shell line that do what it is for (not ``cd``, not ``| tail``)."""
    return [c for c in call.commands if c.program and c.program not in _SETUP
            and not (c.op == "|" and c.program in _FILTERS)]  # fmt: skip


def _keys(step: Step, call: ToolCall | None) -> list[tuple[str, ...]]:
    """What makes two calls attempts at the same thing: each meant command's program,
    subcommand and first argument (the first is the call's own key: what failed); an
    edit's or write's file. A later line that runs the failed command among others
    (``npm install && npm test``) is an attempt at it too."""
    if call is not None and call.kind == "shell" and (meant := _meant(call)):
        return [("shell", c.program, *c.subcommand, _first(c)) for c in meant]
    if call is not None and call.files:
        return [("file", f.path) for f in call.files]
    return [(step.tool.lower(), " ".join(step.text.split()[:2]))]


def _first(command: Command) -> str:
    kinds = ("variable", "glob", "number")
    args = (a.text for a in command.args if a.kind not in kinds and not a.text.startswith("-"))
    return next(args, "")


def _structure(step: Step, call: ToolCall | None) -> str:
    if call is not None and call.kind == "shell" and call.commands:
        words = [[c.program, *c.subcommand, *sorted(_flag(f.name, f.value) for f in c.flags),
                  *(a.text for a in c.args)] for c in call.commands]  # fmt: skip
        return "; ".join(" ".join(w) for w in words)
    return f"{step.tool.lower()} {step.text}"


def _flag(name: str, value: str | None) -> str:
    return f"{name}={value}" if value is not None else name


def _commands(call: ToolCall | None) -> frozenset[tuple[str, ...]]:
    """Each command a call runs, as its program and subcommand."""
    return frozenset((c.program, *c.subcommand) for c in call.commands) if call else frozenset()


def _parts(
    step: Step, call: ToolCall | None, shared: frozenset[tuple[str, ...]]
) -> dict[str, list[str]]:
    """A call's pieces, to compare a failing call with its fix: the flags and arguments of
    the commands both run (``shared``: program and subcommand), the whole of any other."""
    if call is not None and call.kind == "shell" and call.commands:
        same = [c for c in call.commands if (c.program, *c.subcommand) in shared]
        other = [c for c in call.commands if c.program and c not in same]
        return {
            "commands": [" ".join(c.words) for c in other],
            "flags": [_flag(f.name, f.value) for c in same for f in c.flags],
            "arguments": [a.text for c in same for a in c.args],
            "variables": [a for c in call.commands for a in c.assignments],
        }
    paths = [f.path for f in call.files] if call is not None else []
    return {"files": paths, "lines": change_lines(step.data)}


def changes(failing: Step, fix: Step) -> dict[str, list[str]]:
    """What the fix adds and drops against the failing call: ``flags_added``,
    ``arguments_dropped``, ``commands_added``, ``lines_added`` (an edit's "- old" / "+ new"
    lines) ..."""
    calls = _parsed(failing), _parsed(fix)
    shared = _commands(calls[0]) & _commands(calls[1])
    before, after = _parts(failing, calls[0], shared), _parts(fix, calls[1], shared)
    if before.keys() != after.keys():
        return {}
    out: dict[str, list[str]] = {}
    for name in before:
        added = [x for x in dict.fromkeys(after[name]) if x not in before[name]]
        dropped = [x for x in dict.fromkeys(before[name]) if x not in after[name]]
        if added:
            out[f"{name}_added"] = added
        if dropped:
            out[f"{name}_dropped"] = dropped
    return out


def _say_changes(changed: dict[str, list[str]]) -> str:
    said = []
    for name in ("commands", "flags", "variables", "arguments", "files", "lines"):
        added = ", ".join(f"`{x}`" for x in changed.get(f"{name}_added", [])[:4])
        dropped = ", ".join(f"`{x}`" for x in changed.get(f"{name}_dropped", [])[:4])
        if added and dropped and name != "commands":  # another command replaces nothing
            said.append(f"{added} instead of {dropped}")
        else:
            said += [f"added {added}"] if added else []
            said += [f"dropped {dropped}"] if dropped else []
    return "; ".join(said)


def _trim(value: Any, depth: int = 0) -> Any:
    """A call's input, bounded for storing (long strings cut, deep nesting dropped)."""
    if isinstance(value, str):
        return value if len(value) <= INPUT_CHARS else value[:INPUT_CHARS] + "…"
    if isinstance(value, dict) and depth < 4:
        return {str(k): _trim(v, depth + 1) for k, v in list(value.items())[:50]}
    if isinstance(value, list) and depth < 4:
        return [_trim(v, depth + 1) for v in value[:50]]
    return value if isinstance(value, (int, float, bool)) or value is None else str(value)[:200]


def _call_record(step: Step, output: str | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {"tool": step.tool, "input": _trim(step.data), "text": step.text}
    if output is not None:
        record["output"] = output[:INPUT_CHARS]
    return record


@dataclass
class _Attempt:
    index: int  # of its result: calls after it answer it (not those sent beside it)
    call_at: int
    call: Step
    output: str
    error: str
    signature: str


def lessons(steps: list[Step]) -> list[Found]:
    """What the transcript teaches, by the rules above (each signature once)."""
    calls = {s.call_id: s for s in steps if s.kind == "call"}
    where = {s.call_id: i for i, s in enumerate(steps) if s.kind == "call"}
    parsed = {c: _parsed(s) for c, s in calls.items()}
    keys = {c: _keys(s, parsed[c]) for c, s in calls.items()}
    out: dict[str, Found] = {}
    failing: dict[tuple[str, ...], list[_Attempt]] = {}  # a key's failures since it passed
    corrected: set[str] = set()  # call ids the user corrected
    failed_ids: set[str] = set()  # call ids that failed
    passed: dict[tuple[str, ...], int] = {}  # where each key last passed
    last_call: Step | None = None  # the latest call since the user last spoke
    for i, step in enumerate(steps):
        if step.kind == "call":
            last_call = step
        elif step.kind == "user":
            if last_call is not None and is_correction(step.text):
                corrected.add(last_call.call_id)
                _add(out, _correction(last_call, step.text))
            last_call = None
        elif step.kind == "result" and step.call_id in calls and not step.rejected:
            call, at = calls[step.call_id], where[step.call_id]
            if step.failed:
                failed_ids.add(step.call_id)
                error = informative_error(step.text)
                signature = f"{_structure(call, parsed[call.call_id])} | {_norm(error)}"
                runs = failing.setdefault(keys[step.call_id][0], [])
                runs.append(_Attempt(i, at, call, step.text, error, signature))
                if len(runs) == RETRIES:
                    _add(out, _retry(runs[-1]))
            else:
                # (a call running one program twice lists its key twice: fix it once)
                for key in [k for k in dict.fromkeys(keys[step.call_id]) if k in failing]:
                    runs = failing.pop(key)
                    for attempt, until in _distinct(runs, at):
                        done = _done(steps[attempt.index + 1 : until], key, keys, parsed)
                        # A check that caught an edit: the edit is the mistake (before it:
                        # back to the check's previous run, failed or passed).
                        n = runs.index(attempt)
                        since = runs[n - 1].index if n else passed.get(key, 0)
                        blamed = blamed_edit(
                            steps[since : attempt.call_at], steps[attempt.index + 1 : until],
                            attempt.output, parsed, failed_ids,
                            is_check(parsed[attempt.call.call_id]))  # fmt: skip
                        _add(out, _edit_fix(attempt, blamed, done) if blamed
                             else _fix(attempt, call, done))  # fmt: skip
                for key in keys[step.call_id]:
                    passed[key] = i
    for runs in failing.values():
        if len(runs) >= RETRIES:
            continue  # the retry loop is the lesson
        for attempt, _ in _distinct(runs, len(steps)):
            unfixed = attempt.error and attempt.call.call_id not in corrected
            if unfixed and not _probe(parsed[attempt.call.call_id]):
                _add(out, _failure(attempt))
    return list(out.values())


def _done(
    after: list[Step],
    key: tuple[str, ...],
    keys: dict[str, list[tuple[str, ...]]],
    parsed: dict[str, ToolCall | None],
) -> list[Step]:
    """What was done about a failure: the other calls up to its next attempt, reads and
    probes left out (they changed nothing)."""
    return [s for s in after if s.kind == "call" and key not in keys[s.call_id]
            and not _probe(parsed[s.call_id])]  # fmt: skip


def _probe(call: ToolCall | None) -> bool:
    """A read, or a shell line of probes only: its failing is an answer."""
    if call is None:
        return False
    programs = [c.program for c in call.commands if c.program]
    return call.kind == "read" or (call.kind == "shell" and all(p in _PROBES | _SETUP
                                                                 for p in programs))  # fmt: skip


def _distinct(runs: list[_Attempt], end: int) -> list[tuple[_Attempt, int]]:
    """Each different failure of a run once (its last time: what was done after it is
    what addressed it), with where the next attempt (or ``end``) is."""
    last = {a.signature: n for n, a in enumerate(runs)}
    return [(runs[n], runs[n + 1].call_at if n + 1 < len(runs) else end)
            for n in sorted(last.values())]  # fmt: skip


def _add(out: dict[str, Found], found: Found) -> None:
    out.setdefault(found.signature, found)


def _failed(attempt: _Attempt) -> str:
    error = f": {attempt.error}" if attempt.error else ""
    return f"`{attempt.call.text}` failed{error}"


def _fix(attempt: _Attempt, fix: Step, done: list[Step]) -> Found:
    changed = changes(attempt.call, fix)
    between = list(dict.fromkeys(_clip(f"{s.tool} {s.text}", 150) for s in done))
    parts = []
    if _norm(fix.text) != _norm(attempt.call.text):
        said = _say_changes(changed)
        parts.append(f"it passed as `{fix.text}`" + (f" ({said})" if said else ""))
    if between:
        parts.append("; ".join(between[:BETWEEN]) + (" …" if len(between) > BETWEEN else ""))
        parts[-1] = ("after: " if len(parts) > 1 else "it passed after: ") + parts[-1]
    answer = ", ".join(parts) or "it passed when run again unchanged (a flaky failure)"
    learned = {"rule": "fix", "failing": _call_record(attempt.call, attempt.output),
               "error": attempt.error, "fix": _call_record(fix), "changes": changed,
               "between": between}  # fmt: skip
    return Found("fix", _failed(attempt), _clip(answer, ANSWER_CHARS), attempt.signature, learned)


def _edit_fix(attempt: _Attempt, blamed: Blamed, done: list[Step]) -> Found:
    """The edit a check caught: "Edit f adding `x` broke `check`: error", fixed by the later
    edits of its file (first in the answer), with whatever else was done between."""
    edit, fix = blamed.edit, blamed.fixes[0]
    lines = change_lines(edit.data)
    added = [x[2:] for x in lines if x.startswith("+ ")]
    shown = added or [x[2:] for x in lines if x.startswith("- ")]
    verb = "adding" if added else "removing"
    path = edit.text.split(": ", 1)[0]
    wrote = f" {verb} " + ", ".join(f"`{x}`" for x in shown[:2]) if shown else ""
    error = f": {attempt.error}" if attempt.error else ""
    question = f"{edit.tool} {path}{wrote}{CAUGHT}{attempt.call.text}`{error}"
    between = list(dict.fromkeys(_clip(f"{s.tool} {s.text}", 150)
                                 for s in [*blamed.fixes, *done]))  # fmt: skip
    answer = "it passed after: " + "; ".join(between[:BETWEEN])
    answer += " …" if len(between) > BETWEEN else ""
    learned = {"rule": "fix", "failing": _call_record(edit), "error": attempt.error,
               "check": _call_record(attempt.call, attempt.output), "fix": _call_record(fix),
               "changes": changes(edit, fix), "between": between}  # fmt: skip
    signature = f"{_structure(edit, _parsed(edit))} | {_norm(attempt.error)}"
    return Found("fix", _clip(question, ANSWER_CHARS), _clip(answer, ANSWER_CHARS), signature,
                 learned)  # fmt: skip


def _failure(attempt: _Attempt) -> Found:
    learned = {"rule": "failure", "failing": _call_record(attempt.call, attempt.output),
               "error": attempt.error, "fix": None}  # fmt: skip
    answer = "the session found no fix: find the cause of this error before running it again"
    return Found("failure", _failed(attempt), answer, attempt.signature, learned)


def _retry(attempt: _Attempt) -> Found:
    error = f": {attempt.error}" if attempt.error else ""
    learned = {"rule": "retry", "failing": _call_record(attempt.call, attempt.output),
               "error": attempt.error, "fix": None}  # fmt: skip
    answer = "stop retrying the same command; read the error and change the approach"
    return Found("retry", f"retrying `{attempt.call.text}`{error}", answer,
                 f"retry | {attempt.signature}", learned)  # fmt: skip


def _correction(call: Step, words: str) -> Found:
    said = _clip(words, ANSWER_CHARS)
    learned = {"rule": "correction", "failing": _call_record(call), "correction": said,
               "fix": None}  # fmt: skip
    signature = f"correction | {_structure(call, _parsed(call))} | {_norm(said)}"
    return Found("correction", f"{call.tool} {call.text}", said, signature, learned)
