"""Every known mistake in the catalogue: its examples, its words, and that it stays quiet
on everyday calls."""

from __future__ import annotations

import re

import pytest

from tests.engine.known.everyday import CODE, COMMANDS
from xdb.engine import known
from xdb.engine.calls import parse_call
from xdb.engine.known import CATALOGUE, named_in, verdict
from xdb.engine.known.pattern import SHELL, Pattern

PATTERNS = sorted(CATALOGUE.values(), key=lambda p: p.name)


def _lines(text: str) -> str:
    """An example as the detector reads added lines: stripped, blank ones left out."""
    return "\n".join(s for line in text.split("\n") if (s := line.strip()))


def test_catalogue_is_not_empty_and_names_are_unique() -> None:
    from xdb.engine.known import catalogue

    names = [p.name for m in catalogue._MODULES for p in m.PATTERNS]
    assert len(names) >= 100
    assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]


@pytest.mark.parametrize("p", PATTERNS, ids=lambda p: p.name)
def test_pattern_examples(p: Pattern) -> None:
    assert p.said and p.where, "a pattern needs words and a place"
    assert len(p.hits) >= 2 and len(p.safe) >= 2, "two examples of each side at least"
    for text in p.hits:
        assert p.judge(_lines(text) if SHELL not in p.where else text) == "hit", text
    for text in p.safe:
        assert p.judge(_lines(text) if SHELL not in p.where else text) != "hit", text


@pytest.mark.parametrize("p", PATTERNS, ids=lambda p: p.name)
def test_pattern_words_are_specific(p: Pattern) -> None:
    """A phrase of one word names the mistake only where it is the code's own name
    (``unwrap``, ``innerHTML``): one everyday word would make every lesson that says it
    warn on this."""
    for phrase in p.said:
        words = re.findall(r"[a-z0-9]+", phrase.lower())
        assert words, phrase
        if len(words) == 1:
            assert any(words[0] in h.lower() for h in p.hits), (p.name, phrase)
    # The pattern is named by its own words.
    assert p.name in named_in(p.said[0])


@pytest.mark.parametrize("p", PATTERNS, ids=lambda p: p.name)
def test_pattern_quiet_on_everyday_calls(p: Pattern) -> None:
    if SHELL in p.where:
        for command in COMMANDS:
            assert p.judge(command) != "hit", command
    for kind, snippets in CODE.items():
        if kind in p.where:
            for text in snippets:
                assert p.judge(_lines(text)) != "hit", text


def test_verdict_reads_the_calls_that_pattern_is_about() -> None:
    """A shell pattern reads a shell call and a CI file's run lines; a file pattern reads
    files of its kind only."""
    shell = next(p for p in PATTERNS if SHELL in p.where)
    names = frozenset((shell.name,))
    assert verdict(names, parse_call("Bash", {"command": shell.hits[0]})) == known.HIT
    workflow = {"file_path": "/w/a/.github/workflows/ci.yml", "content": f"- run: {shell.hits[0]}"}
    assert verdict(names, parse_call("Write", workflow)) == known.HIT
    readme = {"file_path": "/w/a/README.md", "content": shell.hits[0]}
    assert verdict(names, parse_call("Write", readme)) is None
    assert verdict(frozenset(("no-such-pattern",)), parse_call("Bash", {"command": "ls"})) is None
