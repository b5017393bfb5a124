"""Word roots shared by the engine's matching: a command's verb meets a lesson's prose; and
the part of an extracted question that tells the mistake."""

from __future__ import annotations

# How an extracted lesson names the check that caught an edit: "Edit f adding `x` broke
# `check`: error" (``extract``).
CAUGHT = " broke `"


def mistake_told(question: str) -> str:
    """The question without the check that caught an edit and the check's error: running
    the check again (``docker build`` after a Dockerfile broke it) repeats no mistake."""
    return question.split(CAUGHT, 1)[0]


def root(word: str) -> str:
    """A word without its inflection (restarting, restarted, restart -> restart; upgrading,
    upgrade -> upgrad)."""
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s", "e"):
        if len(word) >= len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
