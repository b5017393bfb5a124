"""Word roots shared by the engine's matching: a command's verb meets a lesson's prose."""

from __future__ import annotations


def root(word: str) -> str:
    """A word without its inflection (restarting, restarted, restart -> restart; upgrading,
    upgrade -> upgrad)."""
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s", "e"):
        if len(word) >= len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
