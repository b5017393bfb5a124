"""Inline SVG charts for the explorer (no JavaScript, readable without colour)."""

from __future__ import annotations

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
