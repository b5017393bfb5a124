"""A known mistake (``Pattern``): how people say it in words, and what it looks like in a
shell command or in the lines an edit adds.

A lesson written in prose ("a mutable default argument leaked state between calls")
names no command and no code a repeat in another file would share. What it names is a
mistake that linters and reviewers already know by name. A pattern ties those names to a
detector, so the lesson warns on the mistake wherever it recurs, in other words, paths
and identifiers, and stays quiet on the safe variant (``items=None``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

# Where a pattern looks: ``shell`` (a shell call's command line, and the commands a shell
# script, Dockerfile, Makefile or CI file adds), a file kind (``python``, ``yaml``,
# ``dockerfile``: ``xdb.engine.calls.files.file_kind``) or a role (``role:ci``,
# ``role:infrastructure``, ``role:migration``, ``role:test``, ``role:config``).
SHELL = "shell"
# Files whose added lines are commands too.
COMMAND_FILES = frozenset(("shell", "dockerfile", "makefile"))


@dataclass(frozen=True)
class Pattern:
    """``said``: ways a lesson names the mistake, each a phrase whose words must all be in
    the lesson (by their roots: "force-pushed" says "force push"); ``where``: see above;
    ``mistake``: a regular expression (multi-line mode) found in the command line or the
    added lines when the mistake is made; ``unless``: found in the same text, the safe
    variant (a guard, a flag, a pin) is there: the call heeds the lesson; ``hits`` and
    ``safe``: calls' texts that must and must not be the mistake (the catalogue's tests)."""

    name: str
    said: tuple[str, ...]
    where: frozenset[str]
    mistake: str
    unless: str = ""
    hits: tuple[str, ...] = ()
    safe: tuple[str, ...] = ()

    def judge(self, text: str) -> str | None:
        """ "hit" (the mistake), "safe" (the mistake's operation with the safe variant), or
        None (the text does not do what the mistake does)."""
        if not _compiled(self.mistake).search(text):
            return None
        if self.guarded(text):
            return "safe"
        return "hit"

    def guarded(self, text: str) -> bool:
        """Whether ``text`` holds the safe variant (``unless``)."""
        return bool(self.unless) and _compiled(self.unless).search(text) is not None


@cache
def _compiled(source: str) -> re.Pattern[str]:
    # Compiled on first use: a hook process loads the whole catalogue but reads only the
    # patterns its candidate lessons name.
    return re.compile(source, re.M)


def near(a: str, b: str, chars: int) -> str:
    """A regular expression for ``a`` and ``b`` within ``chars`` of each other, in either
    order (a token's name and the weak generator that made it)."""
    return rf"(?:{a})[\s\S]{{0,{chars}}}?(?:{b})|(?:{b})[\s\S]{{0,{chars}}}?(?:{a})"


def pattern(
    name: str,
    said: str | tuple[str, ...],
    where: str,
    mistake: str,
    unless: str = "",
    hits: tuple[str, ...] | str = (),
    safe: tuple[str, ...] | str = (),
) -> Pattern:
    """A pattern written compactly: ``said`` phrases separated by ``|``, ``where`` by
    spaces; one example may be given as a string."""
    phrases = tuple(p.strip() for p in said.split("|")) if isinstance(said, str) else said
    return Pattern(
        name,
        tuple(p for p in phrases if p),
        frozenset(where.split()),
        mistake,
        unless,
        (hits,) if isinstance(hits, str) else hits,
        (safe,) if isinstance(safe, str) else safe,
    )
