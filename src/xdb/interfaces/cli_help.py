"""How the command line's help reads: ``xdb --help`` lists the commands grouped by capability,
every summary whole, and every command's help ends with an example to copy.

The sections are a table of this skin keyed by the command's name (a generated command's is
its operation's, ``record_batch`` -> ``record-batch``); ``tests/interfaces/test_cli_browse.py``
holds every command to exactly one section. Only click is imported here.
"""

from __future__ import annotations

import shlex

import click

# Section title -> its commands, in the order they are listed.
SECTIONS: dict[str, tuple[str, ...]] = {
    "Recording": ("record", "record-batch", "tag", "create-tag", "comment"),
    "Reading the log": ("query", "recent", "annotations", "tags", "status"),
    "Episodes and recall": (
        "search",
        "add-episode",
        "get-episode-detail",
        "similar-episodes",
        "delete-episode",
        "graph-neighborhood",
        "add-node",
        "link",
    ),
    "Concepts": (
        "concepts",
        "find-concept",
        "get-concept",
        "concept-neighborhood",
        "concept-packs",
        "concept-usage-summary",
    ),
    "Learning (buds, exemplars, datasets, training, sync)": (
        "buds",
        "bud-examples",
        "bud-ready",
        "set-bud-status",
        "promote-bud",
        "list-candidate-concepts",
        "add-exemplar",
        "exemplars",
        "remove-exemplar",
        "build-dataset",
        "datasets",
        "dataset",
        "record-training-run",
        "training-runs",
        "training-run",
        "record-artifact",
        "sync",
    ),
    "Fidelity (context window, pins, quotas, compression)": (
        "context",
        "compact",
        "pin",
        "unpin",
        "quota",
        "submit-evidence",
        "resolve-submission",
        "maintenance",
        "set-resource-contract",
    ),
    "Experience engine (lessons and coding-agent hooks)": (
        "session-start",
        "check",
        "judge",
        "feedback",
        "add-lesson",
        "lessons",
        "extract",
        "hook",
        "hooks",
    ),
    "Policy and access": (
        "policies",
        "set-caller",
        "set-disclosure-policy",
        "set-treaty",
        "hush",
        "remove-policy",
        "set-access-policy",
        "set-default-access-policy",
        "assign-access-policy",
        "keys",
        "audit",
    ),
    "Serving and admin": ("serve", "demo", "mcp", "import", "export", "migrate", "reindex"),
}
# Where a command no section names is listed (a test keeps it empty).
OTHER = "Other commands"


def _rows(group: click.Group, ctx: click.Context) -> dict[str, tuple[str, str]]:
    """Each visible command's name and its summary, whole (click cuts them to fit a line)."""
    rows: dict[str, tuple[str, str]] = {}
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is not None and not command.hidden:
            rows[name] = (name, command.get_short_help_str(limit=1 << 16))
    return rows


class ListingGroup(click.Group):
    """A group whose help lists its commands with their summaries whole."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = _rows(self, ctx)
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(list(rows.values()))


class SectionedGroup(ListingGroup):
    """The ``xdb`` group: its commands listed section by section (``SECTIONS``)."""

    group_class = ListingGroup  # what ``@cli.group`` makes

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = _rows(self, ctx)
        listed = {name for names in SECTIONS.values() for name in names}
        sections = {**SECTIONS, OTHER: tuple(name for name in rows if name not in listed)}
        width = max((len(name) for name in rows), default=0)
        for title, names in sections.items():
            # Names padded alike, so every section's summaries start in one column.
            found = [(name.ljust(width), rows[name][1]) for name in names if name in rows]
            if found:
                with formatter.section(title):
                    formatter.write_dl(found)


def epilog(*lines: str) -> str:
    """A command's help epilog: its example command lines, kept as written (a line click
    wrapped could not be pasted)."""
    heading = "Example:" if len(lines) == 1 else "Examples:"
    return "\b\n" + "\n".join([heading, *(f"  {line}" for line in lines)])


def examples(command: click.Command) -> list[str]:
    """The example command lines in ``command``'s help (``epilog``'s)."""
    text = command.epilog or ""
    _, found, rest = text.partition("Example")
    if not found:
        return []
    return [line.strip() for line in rest.split("\n")[1:] if line.strip()]


def shows(example: str, path: list[str]) -> bool:
    """Whether ``example`` runs the command ``path`` (``["audit", "verify"]``): its words,
    after an ``xdb`` and any global options, in order."""
    words = shlex.split(example)
    for start, word in enumerate(words):
        rest = words[start + 1 :]
        if word != "xdb":
            continue
        while rest[:1] and rest[0] in ("--db", "--session", "--caller"):
            rest = rest[2:]
        if rest[: len(path)] == path:
            return True
    return False
