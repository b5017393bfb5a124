"""Known mistakes (``model.Pattern``): a catalogue of mistakes that linters, reviewers and
post-mortems already name, each with the words people use for it and a detector for the
command or code that makes it. A lesson that names one in its words (``named_in``) warns
on that mistake wherever it recurs (``verdict``), whatever paths, names and identifiers
the repeat uses.

The catalogue was written from what the field's checkers flag (shellcheck, hadolint,
kube-linter, tfsec, bandit, semgrep's common rules, eslint, clippy, staticcheck, Roslyn
and SpotBugs analysers) and from how agents are known to break things, without reading
the engine's benchmark families (``bench/engine_*``): those measure it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache, lru_cache

from xdb.engine.calls import parse_shell
from xdb.engine.calls.call_structure import ToolCall
from xdb.engine.calls.programs import _SAME
from xdb.engine.known.catalogue import CATALOGUE
from xdb.engine.known.pattern import COMMAND_FILES, SHELL, Pattern
from xdb.engine.words import root

__all__ = ["CATALOGUE", "Pattern", "named_in", "verdict"]

HIT, SAFE, MISS = "hit", "safe", "miss"
_WORD = re.compile(r"[a-z0-9]+")
# A detector reads at most LINE_CHARS of a line, and a text of at most TEXT_CHARS at once (a
# longer one in pieces of whole lines): some detectors' lazy spans backtrack quadratically or
# worse on long runs of their own words (a 20,000-character line of repeated `go get -u`
# took one 160 s; 64 KB of repeated `git commit` lines another 3.8 s), and a hook must
# answer whatever a call holds. At these sizes the slowest detector takes under 0.3 s on
# such a piece (``bench.engine_detectors``). A mistake past a line's first 1,000 characters
# goes unseen, and one whose lines straddle two pieces (a multi-line detector's).
LINE_CHARS = 1000
TEXT_CHARS = 16_384


# Words that say something is absent, one word to phrases: "a DELETE with no WHERE" says
# "delete without where", "the lock was never taken" says "without lock".
_ABSENT = frozenset(("no", "not", "without", "missing", "lacking", "lack", "lacks", "lacked",
                     "absent", "omitted", "omitting", "forgot", "forgotten", "forgetting",
                     "never"))  # fmt: skip


def _roots(text: str) -> frozenset[str]:
    return frozenset("without" if w in _ABSENT else root(w) for w in _WORD.findall(text.lower()))


@lru_cache(maxsize=1)
def _phrases() -> tuple[tuple[str, tuple[frozenset[str], ...]], ...]:
    return tuple((p.name, tuple(_roots(phrase) for phrase in p.said)) for p in CATALOGUE.values())


@lru_cache(maxsize=4096)
def named_in(text: str) -> frozenset[str]:
    """The known mistakes a lesson's words name: every word of one of a pattern's phrases
    is in the text (by their roots, anywhere: a lesson tells the mistake in its question
    and the fix in its answer, and a phrase may take words from both)."""
    roots = _roots(text)
    return frozenset(name for name, phrases in _phrases() if any(p and p <= roots for p in phrases))


@cache
def programs(name: str) -> frozenset[str]:
    """The programs a pattern of shell commands only runs in its examples (empty for one
    that reads files too): a lesson that names its own commands is about those programs."""
    p = CATALOGUE[name]
    if p.where != {SHELL}:
        return frozenset()
    return frozenset(
        _SAME.get(c.program, c.program) for text in p.hits for c in parse_shell(text, None)[0]
    )


def texts(p: Pattern, call: ToolCall) -> list[tuple[str, ...]]:
    """What of the call ``p`` reads: the command line, or each touched file's added lines
    (stripped of their indentation, blank ones left out, one per line); each in pieces a
    detector reads in bounded time (``LINE_CHARS``, ``TEXT_CHARS``)."""
    out = []
    if call.kind == "shell" and SHELL in p.where:
        out.append(tuple(pieces(call.text.split("\n"))))
    for f in call.files:
        if (
            f.kind in p.where
            or any(f"role:{r}" in p.where for r in f.roles)
            or (SHELL in p.where and (f.kind in COMMAND_FILES or "ci" in f.roles))
        ):
            out.append(tuple(pieces(f.added)))
    return [t for t in out if any(t)]


def pieces(lines: Iterable[str]) -> list[str]:
    """``lines`` joined into texts of at most ``TEXT_CHARS``, each line cut to
    ``LINE_CHARS`` (a line is never split between two texts)."""
    out: list[str] = []
    part: list[str] = []
    size = 0
    for whole in lines:
        line = whole[:LINE_CHARS]
        if part and size + len(line) > TEXT_CHARS:
            out.append("\n".join(part))
            part, size = [], 0
        part.append(line)
        size += len(line) + 1
    if part:
        out.append("\n".join(part))
    return out


@lru_cache(maxsize=1024)
def _judged(name: str, text: tuple[str, ...]) -> str | None:
    # (a check asks it of one call for the candidates' lessons, then for each lesson's
    # match, then the judge again: the same pattern on the same text)
    p = CATALOGUE[name]
    if len(text) == 1:
        return p.judge(text[0])
    # A text read in pieces is judged as one: the mistake in any piece; a safe variant that
    # is a marker (``^import pytest``) counts from any piece, one that says the whole text
    # lacks the unguarded form (``\A(?!...)``) must hold in each piece that makes it.
    said = [p.judge(piece) for piece in text]
    if not any(said):
        return None
    if p.unless.startswith("\\A"):
        return "hit" if "hit" in said else "safe"
    return "safe" if any(p.guarded(piece) for piece in text) else "hit"


def verdict(names: frozenset[str], call: ToolCall, every: bool = False) -> str | None:
    """HIT: a named mistake is made again; SAFE: its operation is done the safe way; MISS:
    the call is of a kind a named mistake is made in, and does not make it; None: no
    named mistake is about such a call.

    ``every``: HIT only when each named mistake about such a call is made (the mistakes a
    failing call made together, ``sudo pip install``: its system-wide install without
    ``sudo`` is not that call again), SAFE when one of them is done the safe way."""
    found = []
    for name in sorted(names):
        p = CATALOGUE.get(name)
        if p is None:
            continue  # (a pattern since removed from the catalogue)
        got = None
        for text in texts(p, call):
            judged = _judged(name, text)
            if judged == "hit":
                got = HIT
                break
            got = SAFE if judged == "safe" or got == SAFE else MISS
        if got == HIT and not every:
            return HIT  # (the others cannot change it)
        if got is not None:
            found.append(got)
    if not found:
        return None
    if every:
        return SAFE if SAFE in found else HIT if all(g == HIT for g in found) else MISS
    return HIT if HIT in found else SAFE if SAFE in found else MISS
