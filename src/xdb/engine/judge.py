"""The judge: after tool calls, whether the agent followed the warnings it was shown,
decided by the brain when one is configured (``brain.Brain.judge``) and otherwise, or when
it does not answer, by deterministic rules over the calls' structure (docs/engine.md,
``xdb.engine.judge_shapes``).

A warning is judged on the calls after the one it was shown for (that call was already
under way), comparing three things: the call it was shown for (the warned call), the
lesson (what its mistake and its fix name), and the later call.

- The warned call runs none of the programs the lesson is about (a lesson on ``helm
  upgrade`` shown on ``git push``): the warning was false, IRRELEVANT (wrong_task), and
  nothing later can make it FOLLOWED. The warned call already does what the fix says (the
  fix's flag, the fix's command) and nothing of the mistake: it was the safe variant,
  UNCLEAR.
- A later call on the lesson's subject (the same program, the fix's command, a file of the
  same kind) that does what the fix says, a flag, command or word only the fix names and
  the warned call lacked, is FOLLOWED.
- A later call doing the same operation as the warned call (same program and subcommand;
  a change of the same kind of file about the same thing) with what made it the mistake (a
  flag or word of the mistake the warned call had) is IGNORED; without it, FOLLOWED (the
  operation done the safe way). When the mistake is what is missing (the warned call had
  nothing of the mistake), the same operation still without the fix is IGNORED.
- A later call in another language than the lesson's makes it IRRELEVANT (wrong_language)
  when the warned call had no language of its own; after a call in the lesson's language it
  is about something else and decides nothing.
- After WINDOW calls with none of these, UNCLEAR.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from xdb.engine import known, scoring, trigger_match
from xdb.engine.calls import ToolCall, parse_call
from xdb.engine.judge_shapes import Op, Shape, call_ops, shape
from xdb.engine.trigger_match import Seen
from xdb.engine.triggers import HIT, MISS, SAFE, Trigger

WINDOW = 5  # calls after the warning within which it is judged
INPUT_CHARS = 4000  # of each string of the warned call's input kept with its warning
LEARNED_CHARS = 20_000  # of the lesson's learned_from (JSON) kept with it
# Files whose kind says what they are about (a Dockerfile, a migration, a manifest): a
# change of the same kind and role is the same operation. In a general-purpose language
# the two changes must also share a word of the lesson (``requests``, ``useEffect``).
_LANGUAGES = frozenset(("python", "typescript", "javascript", "go", "rust", "java", "kotlin",
                        "csharp", "fsharp", "ruby", "php", "swift", "c", "cpp", "scala",
                        "elixir", "dart", "lua", "r", "julia", "vue", "svelte", "groovy",
                        "shell", "powershell", "markdown", "text", "rst", "html"))  # fmt: skip


@dataclass
class Pending:
    lesson_id: str
    question: str
    answer: str
    language: str | None
    shown_at: int  # the session's call count when it was shown
    text: str = ""  # the warning as shown
    shown_on_language: str | None = None  # the language of the call it was shown for
    tool: str | None = None  # the warned call (None: a warning recorded before it was kept)
    tool_input: dict[str, Any] = field(default_factory=dict)
    cwd: str | None = None
    learned: str = ""  # the lesson's learned_from as JSON, when extraction kept one
    structure: str = ""  # what the lesson's trigger said of the warned call (hit: its form)
    trigger: dict[str, Any] = field(default_factory=dict)  # the lesson's trigger, as stored


def warned_call(
    tool: str, tool_input: dict[str, Any], cwd: str | None, learned_from: Any
) -> dict[str, Any]:
    """What a pending warning keeps of the call it was shown for and of its lesson's
    ``learned_from`` (``Pending``'s fields): each string of the input cut to INPUT_CHARS,
    so a session's state stays small whatever the agent wrote."""
    kept = _trimmed(tool_input)
    learned = json.dumps(learned_from, sort_keys=True, default=str) if learned_from else ""
    return {"tool": tool, "tool_input": kept, "cwd": cwd, "learned": learned[:LEARNED_CHARS]}


def _trimmed(value: Any) -> Any:
    if isinstance(value, str):
        return value[:INPUT_CHARS]
    if isinstance(value, dict):
        return {str(k): _trimmed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_trimmed(v) for v in value[:100]]
    return value if isinstance(value, int | float | bool) or value is None else str(value)


def _is_file(op: Op) -> bool:
    return op.program.startswith("file:")


def _about(op: Op, lesson: Shape) -> bool:
    """Whether an operation is on the lesson's subject: one of its programs, a command
    its fix names, or a file of a program's kind (``.tf`` for terraform)."""
    if _is_file(op):
        return op.program[5:] in lesson.programs
    return op.program in lesson.programs or (op.program, op.sub) in lesson.fix_ops


def _touches(warned: list[Op], lesson: Shape) -> bool:
    """Whether shell operations touch what the lesson is about at all: one of its programs,
    as a program or an argument (``systemctl restart nginx``), or one of its flags."""
    named = lesson.culprits | lesson.programs
    flags = lesson.danger_flags | lesson.fix_flags
    return any(w.program in named or w.words & named or w.flags & flags for w in warned)


def _same(later: Op, warned: Op, lesson: Shape) -> bool:
    if not later.same(warned):
        return False
    if _is_file(later) and later.program[5:] in _LANGUAGES:
        return bool(later.words & warned.words & lesson.words)
    return True


def _fixes(op: Op, lesson: Shape, warned: list[Op], fix_words: frozenset[str]) -> bool:
    """Whether ``op`` does what the fix says that the warned call did not."""
    had = frozenset().union(*(w.flags for w in warned))
    if op.flags & (lesson.fix_flags - had):
        return True
    if (op.program, op.sub) in lesson.fix_ops and not any(
        (w.program, w.sub) == (op.program, op.sub) for w in warned
    ):
        return True
    return bool(op.words & fix_words)


def _by_trigger(pending: Pending, seen: Seen) -> str | None:
    """A warning shown on the lesson's own form: a later call of that form again is the
    mistake repeated (IGNORED), one of the form the lesson advises is the lesson heeded
    (FOLLOWED), whatever words either shares with the lesson; else None (the rules decide)."""
    if pending.structure != HIT:
        return None  # shown for its words only: the structure cannot say it was heeded
    trigger = Trigger.from_json(pending.trigger)
    if trigger is None or trigger.empty:
        return None
    said = trigger_match.match(trigger, seen, scoring.FLAG_SHARE, scoring.TRIGGER_CODE_SHARE,
                               pending.question, scoring.LINE_WORDS)  # fmt: skip
    return {HIT: "ignored", SAFE: "followed"}.get(said)


def _by_known(pending: Pending, seen: Seen) -> str | None:
    """A warning shown where a known mistake the lesson names was made: that detector
    judges the next call before any word does (IGNORED: made again; FOLLOWED: done the safe
    way, or the same file or command again without it), where those mistakes may decide
    the call (``trigger_match.known_decides``: not a command of the lesson's own form, nor
    another use of its program)."""
    if pending.structure != HIT or not (
        pending.trigger.get("known") or pending.trigger.get("resembles")
    ):
        return None
    trigger = Trigger.from_json(pending.trigger)
    if trigger is None or not trigger_match.known_decides(trigger, seen):
        return None
    names = trigger.known or trigger.resembles
    every = trigger_match.needs_every(trigger)  # (as match reads them)
    said = known.verdict(names, seen.call, every)
    if said == HIT:
        return "ignored"
    if said == SAFE or _redone(names, pending, seen.call, every):
        return "followed"
    return None


def _redone(names: frozenset[str], pending: Pending, call: ToolCall, every: bool) -> bool:
    """Whether ``call`` does again what the warned call did (the same file; the same
    program and subcommand) without the known mistake (``names``) the warned call made: the
    mistake left out is the lesson heeded (``def collect(rows, out=None)`` after
    ``out=[]``)."""
    if not (names and pending.tool) or known.verdict(names, call, every) != MISS:
        return False
    warned = parse_call(pending.tool, pending.tool_input, pending.cwd)
    if known.verdict(names, warned, every) != HIT:
        return False
    if {f.path for f in warned.files} & {f.path for f in call.files}:
        return True
    ran = {(c.program, c.subcommand[:1]) for c in warned.commands}
    return any((c.program, c.subcommand[:1]) in ran for c in call.commands)


def verdict(
    pending: Pending,
    call: int,
    later: list[Op],
    action_language: str | None,
    seen: Seen | None = None,
) -> tuple[str, str | None] | None:
    """(verdict, reason) for a pending warning at call number ``call``, whose operations
    are ``later`` (``judge_shapes.call_ops``) and structure ``seen``
    (``trigger_match.seen``), or None: not yet."""
    if call <= pending.shown_at:
        return None  # the call the warning came with was already decided
    waited = ("unclear", None) if call - pending.shown_at >= WINDOW else None
    if action_language and pending.language and action_language != pending.language:
        if pending.shown_on_language is None:  # shown on a call of no known language, and
            return "irrelevant", "wrong_language"  # the work turned out to be in another
        return waited  # shown on a call in its own language: this one is about another thing
    # A known mistake's detector first: it tells the mistake made again from the safe way
    # better than any word the calls share with the lesson.
    named = _by_known(pending, seen) if seen is not None else None
    if named is not None:
        return named, None
    lesson = shape(pending.question, pending.answer, pending.learned)
    if pending.tool is not None:
        warned = call_ops(pending.tool, pending.tool_input, pending.cwd)
    else:  # a warning kept before the warned call was: the mistake the lesson names
        warned = list(lesson.mistake)
    shell = [w for w in warned if not _is_file(w)]
    if lesson.culprits and shell and len(shell) == len(warned) and not _touches(shell, lesson):
        return "irrelevant", "wrong_task"  # a lesson about other programs
    on = [w for w in warned if _about(w, lesson)] or warned
    had_words = frozenset().union(*(w.words for w in on))
    had_flags = frozenset().union(*(w.flags for w in on))
    # What made the warned call the mistake, and what would have fixed it (less what it
    # already had: a word the warned call carries is its subject, not the fix).
    danger = (had_flags & lesson.danger_flags) | (had_words & lesson.danger_words)
    fix_words = lesson.fix_words - had_words
    # In code, words both sides name and the warned change lacked: "no timeout" -> "pass
    # timeout=" (a command's are its subcommands and arguments: its flags say it there).
    code_fix = fix_words | (lesson.shared - had_words)
    if not danger and had_flags & lesson.fix_flags:
        return "unclear", None  # shown on the safe variant: it was already done right
    related = [op for op in later if _about(op, lesson) or any(op.same(w) for w in on)]
    # What the fix names: its flag or command, or in code its words, first; then the
    # lesson's own form; then a command's words (arguments too: a repeat in the fix's
    # folder shares them, so they come after what the form says).
    none: frozenset[str] = frozenset()
    if any(_fixes(op, lesson, on, code_fix if _is_file(op) else none) for op in related):
        return "followed", None
    structural = _by_trigger(pending, seen) if seen is not None else None
    if structural is not None:
        return structural, None
    if any(_fixes(op, lesson, on, fix_words) for op in related if not _is_file(op)):
        return "followed", None
    same = [op for op in related if any(_same(op, w, lesson) for w in on)]
    if danger:
        if any(had_flags & lesson.danger_flags - op.flags for op in same):
            return "followed", None  # the same operation without the mistake's flag
        # In code, any word of the mistake in the same kind of change is the mistake again
        # (a repeat in other words need not have the warned change's own words).
        # A command's dangerous flag or word recurring in another command is the mistake
        # again too (``git commit --no-verify``, then ``git push --no-verify``; ``ssh -o
        # StrictHostKeyChecking=no``, then ``scp`` with it).
        again = same + [op for op in later if not _is_file(op)]
        if any(op.flags & danger or op.words & (lesson.danger_words if _is_file(op) else danger)
               for op in again):  # fmt: skip
            return "ignored", None
        if any(_is_file(op) for op in same):
            return "followed", None  # the same change without what made it the mistake
        # A command without the mistake's words (an argument: a database's name) is not
        # the safe form: without a dropped flag it is judged as one missing the fix.
    if same and (lesson.fix_flags or fix_words or lesson.fix_ops):
        return "ignored", None  # the same operation, still without what the fix adds
    return waited
