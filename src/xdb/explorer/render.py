"""How the explorer writes its pages: the Jinja environment (every value escaped) and the
filters that make its labels human: a concept by its name with the full id on hover, sizes
in KB and MB, a lesson tier's name and meaning, the query's words marked in the text."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from xdb.engine.lesson_operations import short_id as lesson_short
from xdb.ids import parse_timestep_id

__all__ = ["ENV", "Page", "page", "render"]

HERE = Path(__file__).parent
ENV = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)

# A lesson's tier (docs/engine.md, "Lessons and tiers"): its name and what it is.
TIERS = {
    "T0": ("principle", "a rule drawn from a cluster of behavioural lessons; loaded at session "
           "start"),
    "T1": ("behavioural", "a lesson confirmed 3 times; loaded at session start"),
    "T2": ("Q&A", "a question and answer with its scope (domain, language, framework, "
           "project); shown when it matches an action"),
    "T3": ("raw", "a lesson without scope (extracted, not yet tagged); shown when it matches, "
           "ranked lower"),
}  # fmt: skip
# A timestep's fidelity (docs/fidelity.md): how much of it is kept.
FIDELITY = {
    "hot": "hot: kept whole, in the live log",
    "warm": "warm: pinned, kept whole beyond the context window",
    "submitted": "submitted: given as evidence, kept whole",
    "cold": "cold: compacted into a summary record",
}
# How a hit's ranking signals (EpisodeHit.signals) are named on the page.
SIGNALS = {"bm25": "words (BM25)", "vector": "meaning (vectors)", "session": "its session",
           "concepts": "concepts", "recency": "recency"}  # fmt: skip
# The role a timestep speaks in, as a conversation shows it.
SPEAKERS = {"user": "User", "assistant": "Agent", "tool": "Tool", "system": "System"}
# A favicon for every page, inline (the pages' policy allows data: images, and a serve that
# wants keys would refuse a browser's /favicon.ico); /favicon.ico serves the same file.
FAVICON = "data:image/svg+xml," + quote((HERE / "static" / "favicon.svg").read_text().strip())


def term(concept_id: str | None) -> str:
    """A concept's human name: the term of ``pack::concept/Term`` (a graph node's
    ``concept:`` prefix dropped); any other name as it is."""
    if not concept_id:
        return ""
    value = concept_id.removeprefix("concept:")
    return value.rsplit("::concept/", 1)[-1] if "::concept/" in value else value


def concept_href(concept_id: str, kind: Any = None) -> str:
    """Where a concept links: a pack's concept to its page; a candidate (a bud's name) to
    the bud's page; any other name no pack holds to the episodes that carry it."""
    value = concept_id.removeprefix("concept:")
    if "::" in value:
        return "/concepts/" + quote(value, safe="/")
    if str(getattr(kind, "value", kind)) == "candidate":
        return "/buds/" + quote(value, safe="")
    return "/search?" + urlencode({"concept": value})


def human_bytes(size: float | None) -> str:
    """1536 -> '1.5 KB' (powers of 1024); None -> 'unknown'."""
    if size is None:
        return "unknown"
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if abs(value) < 1024 or unit == "TB":
            return f"{int(value)} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TB"  # pragma: no cover (the loop returns)


def number(value: float | None) -> str:
    """12345 -> '12,345'."""
    return "—" if value is None else f"{value:,}"


def plural(count: int | None, word: str, many: str | None = None) -> str:
    """1 -> '1 timestep', 3 -> '3 timesteps' (with thousands separated)."""
    value = count or 0
    return f"{value:,} {word if value == 1 else many or word + 's'}"


def when(moment: datetime | None, seconds: bool = False) -> Markup:
    """A ``<time>`` element: the date and time (UTC), the exact instant as its datetime."""
    if moment is None:
        return Markup("—")
    shown = moment.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
    return Markup('<time datetime="{}">{}</time>').format(moment.isoformat(), shown)


_WORD = re.compile(r"\w+", re.UNICODE)


def stem(word: str) -> str:
    """A rough stem, to tell that 'rivers' is the query's 'river' (the index stems)."""
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def highlight(text: str | None, terms: Iterable[str] | None) -> Markup:
    """``text`` escaped, with each word of ``terms`` (by stem) in ``<mark>``."""
    text = text or ""
    stems = {stem(t) for t in terms or ()}
    if not stems:
        return escape(text)
    out, last = [], 0
    for found in _WORD.finditer(text):
        if stem(found.group()) in stems:
            out.append(escape(text[last : found.start()]))
            out.append(Markup("<mark>{}</mark>").format(found.group()))
            last = found.end()
    out.append(escape(text[last:]))
    return Markup("").join(out)


def session_href(session_id: str, tick: int | None = None, zoom: str = "tick") -> str:
    """A session's timeline (at ``tick``, by ticks, when one is given)."""
    base = "/sessions/" + quote(session_id, safe="")
    return base if tick is None else f"{base}?{urlencode({'zoom': zoom, 'from': tick})}"


def node_href(node: Any) -> str:
    """A graph node's own page: an episode's, a concept's, a timestep's place in its
    session; a decision or a tool has none but the walk from it."""
    if node.episode_id:
        return "/episodes/" + quote(node.episode_id, safe="")
    if node.concept_id:
        return concept_href(node.concept_id)
    at = parse_timestep_id(node.node_id) if node.type == "Timestep" else None
    if at is not None:
        return session_href(at[0], at[1])
    return "/graph?" + urlencode({"seed": node.node_id})


def node_label(node: Any) -> str:
    """A graph node as a person reads it."""
    if node.concept_id:
        return term(node.concept_id)
    at = parse_timestep_id(node.node_id) if node.type == "Timestep" else None
    if at is not None:
        return f"{at[0]} tick {at[1]}"
    return str(node.name or node.summary or node.node_id)


def with_params(base: str, **params: Any) -> str:
    """``base?params`` (lists repeat; None and empty values left out)."""
    pairs = [
        (k, v)
        for k, vs in params.items()
        for v in (vs if isinstance(vs, list | tuple) else [vs])
        if v not in (None, "")
    ]
    return f"{base}?{urlencode(pairs)}" if pairs else base


ENV.filters.update(term=term, plural=plural, concept_href=concept_href, human_bytes=human_bytes,
                   number=number, when=when, highlight=highlight, node_href=node_href,
                   node_label=node_label, lesson_short=lesson_short)  # fmt: skip
ENV.globals.update(signals=SIGNALS, tiers=TIERS, fidelity=FIDELITY, speakers=SPEAKERS,
                   favicon=FAVICON, session_href=session_href, with_params=with_params)  # fmt: skip


@dataclass
class Page:
    """A page to write: its template and values (the caller's part is added)."""

    template: str
    values: dict[str, Any] = field(default_factory=dict)


def page(template: str, **values: Any) -> Page:
    return Page(template, values)


def render(template: str, http_status: int = 200, **values: Any) -> HTMLResponse:
    return HTMLResponse(ENV.get_template(template).render(**values), status_code=http_status)
