"""Inline SVG charts for the explorer, written on the server (no JavaScript), readable
without colour: a bar chart with its axes (counts up the side, dates along the bottom), and
the graph around a node with its relations written on the edges and a legend."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape


@dataclass
class Bar:
    label: str  # under the bar (some are left out when they would crowd)
    value: float
    title: str  # the tooltip and the accessible description
    href: str | None = None  # where the bar leads (the episodes it counts)


def nice_ticks(top: float, count: int = 4) -> list[float]:
    """Round whole values from 0 to at least ``top`` for a count's axis: 0, 5, 10, 15 or
    0, 1, 2."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / count
    power = 10 ** math.floor(math.log10(raw))
    step = max(next(m * power for m in (1, 2, 5, 10) if m * power >= raw), 1.0)  # counts
    return [step * i for i in range(math.ceil(top / step) + 1)]


def _num(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def bars(items: Sequence[Bar], *, unit: str = "", axis: str = "",
         width: int = 480, height: int = 210) -> str:  # fmt: skip
    """A bar chart as an ``<svg>``: a y-axis of ``unit`` with round ticks and grid lines,
    the bars' labels (dates) along the x-axis, titled ``axis``; each bar has a title and,
    with an ``href``, is a link (an empty chart says so)."""
    if not items:
        return '<p class="empty">No data in this range.</p>'
    ticks = nice_ticks(max(b.value for b in items))
    top = ticks[-1] or 1.0
    left, right, upper, lower = 44, 8, 12, 46
    plot_w, plot_h = width - left - right, height - upper - lower
    step = plot_w / len(items)
    gap = min(4.0, step * 0.2)
    out = [
        f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="100%"'
        f' aria-label="{escape(unit or "values")} over time">'
    ]
    for tick in ticks:  # the y-axis: grid lines and their values
        y = upper + plot_h * (1 - tick / top)
        out.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y:.1f}"'
                   f' y2="{y:.1f}"/><text class="tick" x="{left - 6}" y="{y + 4:.1f}"'
                   f' text-anchor="end">{_num(tick)}</text>')  # fmt: skip
    mid = upper + plot_h / 2
    out.append(f'<text class="axis-title" x="10" y="{mid:.1f}" text-anchor="middle"'
               f' transform="rotate(-90 10 {mid:.1f})">{escape(unit)}</text>')  # fmt: skip
    every = max(1, math.ceil(len(items) / 5))  # at most ~5 labels along the bottom
    for i, bar in enumerate(items):
        h = plot_h * (bar.value / top)
        x = left + i * step + gap / 2
        y = upper + plot_h - h
        shape = (f"<title>{escape(bar.title)}</title>"
                 f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(step - gap, 1):.1f}"'
                 f' height="{max(h, 0.0):.1f}"/>')  # fmt: skip
        if bar.href and bar.value:
            out.append(f'<a href="{escape(bar.href)}" class="bar">{shape}</a>')
        else:
            out.append(f'<g class="bar">{shape}</g>')
        if i % every == 0:
            out.append(f'<text class="tick" x="{x + (step - gap) / 2:.1f}"'
                       f' y="{upper + plot_h + 16}" text-anchor="middle">'
                       f"{escape(bar.label)}</text>")  # fmt: skip
    base = upper + plot_h
    out.append(f'<line class="axis" x1="{left}" x2="{width - right}" y1="{base}" y2="{base}"/>')
    out.append(f'<line class="axis" x1="{left}" x2="{left}" y1="{upper}" y2="{base}"/>')
    if axis:
        out.append(f'<text class="axis-title" x="{left + plot_w / 2:.1f}" y="{height - 6}"'
                   f' text-anchor="middle">{escape(axis)}</text>')  # fmt: skip
    out.append("</svg>")
    return "".join(out)


@dataclass
class Node:
    id: str
    label: str
    kind: str  # Episode, Concept, Decision, Tool, Timestep
    depth: int
    href: str  # where clicking it goes (its own neighbourhood)
    title: str = ""  # the whole label, its type and id (default: kind: label)


LABEL = 22  # characters of a node's label drawn (the whole one is its title)
EDGE_GAP = (110, 20)  # a relation is written only this far from another (its title tells)


def _short(text: str, size: int = LABEL) -> str:
    text = " ".join(text.split())
    return text if len(text) <= size else text[: size - 1] + "…"


def neighbourhood(nodes: Sequence[Node], edges: Sequence[tuple[str, str, str]],
                  size: int = 640) -> str:  # fmt: skip
    """The nodes in rings by depth around the seeds, edges as lines with their relation
    written at the middle (where it would not cover another's), each node a link (to walk
    on from it) with its label beside it (on the outer side, cut short; the whole label,
    type and id in its title)."""
    if not nodes:
        return '<p class="empty">No nodes.</p>'
    rings: dict[int, list[Node]] = {}
    for node in nodes:
        rings.setdefault(node.depth, []).append(node)
    margin = 150  # room for the labels beside the outermost nodes
    width = size + 2 * margin
    cx, cy = width / 2, size / 2
    step = (size / 2 - 30) / max(1, max(rings))
    where: dict[str, tuple[float, float]] = {}
    for depth, ring in rings.items():
        for i, node in enumerate(ring):
            if depth == 0 and len(ring) == 1:
                where[node.id] = (cx, cy)
                continue
            angle = 2 * math.pi * i / len(ring) + depth * 0.4
            radius = step * depth if depth else 40
            if len(ring) > 12 and i % 2:  # a crowded ring: every other node a little inside
                radius -= step * 0.35
            where[node.id] = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
    out = [f'<svg class="graph" role="img" viewBox="0 0 {width} {size}" width="100%"'
           ' aria-label="The graph around the seed">']  # fmt: skip
    drawn = [(s, r, d) for s, r, d in edges if s in where and d in where]
    placed: list[tuple[float, float]] = []  # where relations are written, not to overlap
    for src, relation, dst in drawn:
        (x1, y1), (x2, y2) = where[src], where[dst]
        rel = escape(relation)
        out.append(f'<g class="edge rel-{rel.lower()}"><title>{rel}</title>'
                   f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')  # fmt: skip
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        if math.dist((x1, y1), (x2, y2)) > 60 and all(
            abs(mx - px) > EDGE_GAP[0] or abs(my - py) > EDGE_GAP[1] for px, py in placed
        ):
            placed.append((mx, my))
            out.append(f'<text x="{mx:.1f}" y="{my - 3:.1f}" text-anchor="middle">'
                       f"{rel.lower().replace('_', ' ')}</text>")  # fmt: skip
        out.append("</g>")
    for node in nodes:
        x, y = where[node.id]
        right = x >= cx
        tx = x + 11 if right else x - 11
        title = node.title or f"{node.kind}: {node.label}"
        out.append(
            f'<a href="{escape(node.href)}" class="node {escape(node.kind.lower())}">'
            f"<title>{escape(title)}</title>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{9 if node.depth == 0 else 6}"/>'
            f'<text x="{tx:.1f}" y="{y + 4:.1f}" text-anchor="{"start" if right else "end"}">'
            f"{escape(_short(node.label))}</text></a>"
        )
    out.append("</svg>")
    return "".join(out)
