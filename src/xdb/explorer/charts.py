"""Inline SVG charts for the explorer (no JavaScript, readable without colour)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape


@dataclass
class Bar:
    label: str  # under the bar
    value: float
    title: str  # the tooltip and the accessible description


def bars(items: Sequence[Bar], *, width: int = 640, height: int = 160, unit: str = "") -> str:
    """A bar chart as an ``<svg>`` element with a title per bar (an empty chart says so)."""
    if not items:
        return '<p class="empty">No data in this range.</p>'
    top = max((b.value for b in items), default=0.0) or 1.0
    gap, left, bottom = 4, 8, 22
    step = (width - left) / len(items)
    out = [
        f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="100%"'
        f' aria-label="{escape(unit or "values")} over time">'
    ]
    for i, bar in enumerate(items):
        h = (height - bottom - 4) * (bar.value / top)
        x = left + i * step
        y = height - bottom - h
        out.append(
            f"<g><title>{escape(bar.title)}</title>"
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(step - gap, 1):.1f}" height="{h:.1f}"/>'
            f'<text x="{x + (step - gap) / 2:.1f}" y="{height - 6}" text-anchor="middle">'
            f"{escape(bar.label)}</text></g>"
        )
    out.append("</svg>")
    return "".join(out)


@dataclass
class Node:
    id: str
    label: str
    kind: str  # Episode, Concept, Decision, Tool, Timestep
    depth: int
    href: str  # where clicking it goes (its own neighbourhood)


def neighbourhood(nodes: Sequence[Node], edges: Sequence[tuple[str, str, str]],
                  size: int = 640) -> str:  # fmt: skip
    """The nodes in rings by depth around the seeds, edges as lines, each node a link (to
    walk on from it) with its label and type in its title."""
    if not nodes:
        return '<p class="empty">No nodes.</p>'
    rings: dict[int, list[Node]] = {}
    for node in nodes:
        rings.setdefault(node.depth, []).append(node)
    centre, step = size / 2, (size / 2 - 40) / max(1, max(rings))
    where: dict[str, tuple[float, float]] = {}
    for depth, ring in rings.items():
        for i, node in enumerate(ring):
            if depth == 0 and len(ring) == 1:
                where[node.id] = (centre, centre)
                continue
            angle = 2 * math.pi * i / len(ring) + depth * 0.4
            radius = step * depth if depth else 30
            where[node.id] = (centre + radius * math.cos(angle), centre + radius * math.sin(angle))
    out = [f'<svg class="graph" role="img" viewBox="0 0 {size} {size}" width="100%"'
           ' aria-label="The graph around the seed">']  # fmt: skip
    for src, relation, dst in edges:
        if src in where and dst in where:
            (x1, y1), (x2, y2) = where[src], where[dst]
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
                       f' class="edge"><title>{escape(relation)}</title></line>')  # fmt: skip
    for node in nodes:
        x, y = where[node.id]
        out.append(
            f'<a href="{escape(node.href)}" class="node {escape(node.kind.lower())}">'
            f"<title>{escape(node.kind)}: {escape(node.label)}</title>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{9 if node.depth == 0 else 6}"/>'
            f'<text x="{x + 9:.1f}" y="{y + 4:.1f}">{escape(node.label[:24])}</text></a>'
        )
    out.append("</svg>")
    return "".join(out)
