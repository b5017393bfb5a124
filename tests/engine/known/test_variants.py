"""Every pattern's detector on other ways of making the same mistake and of doing it safely
(``variants_*``: written blind, from each pattern's name and examples, before its detector
was read; each file's docstring keeps what the detectors caught before they were widened):
a "hit" variant is the mistake, a "safe" one is not. A variant with no path is a Bash
call's command; one with a path is the content a Write puts in that file."""

from __future__ import annotations

import pytest

from tests.engine.known import (
    variants_code1,
    variants_code2,
    variants_infra,
    variants_shell,
    variants_wave5_c1,
    variants_wave5_c2,
    variants_wave5_i1,
    variants_wave5_s1,
    variants_wave5_s2,
)
from xdb.engine.calls import parse_call
from xdb.engine.known import CATALOGUE, HIT, verdict

AREAS = {
    "shell": variants_shell.VARIANTS,
    "code1": variants_code1.VARIANTS,
    "code2": variants_code2.VARIANTS,
    "infra": variants_infra.VARIANTS,
    "wave5_s1": variants_wave5_s1.VARIANTS,
    "wave5_s2": variants_wave5_s2.VARIANTS,
    "wave5_c1": variants_wave5_c1.VARIANTS,
    "wave5_c2": variants_wave5_c2.VARIANTS,
    "wave5_i1": variants_wave5_i1.VARIANTS,
}
CASES = [(area, *variant) for area, variants in AREAS.items() for variant in variants]


def test_every_pattern_has_variants_of_both_sides() -> None:
    sides: dict[str, list[str]] = {}
    for _, name, side, _, _ in CASES:
        assert name in CATALOGUE, name
        assert side in ("hit", "safe"), (name, side)
        sides.setdefault(name, []).append(side)
    assert set(sides) == set(CATALOGUE), sorted(set(CATALOGUE) - set(sides))
    for name, of in sides.items():
        assert of.count("hit") >= 3 and of.count("safe") >= 2, name


@pytest.mark.parametrize(
    ("area", "name", "side", "text", "path"),
    CASES,
    ids=[f"{area}:{name}-{side}-{i}" for i, (area, name, side, _, _) in enumerate(CASES)],
)
def test_variant(area: str, name: str, side: str, text: str, path: str) -> None:
    if path:
        call = parse_call("Write", {"file_path": "/w/proj/" + path, "content": text})
    else:
        call = parse_call("Bash", {"command": text})
    got = verdict(frozenset({name}), call)
    assert (got == HIT) == (side == "hit"), (area, name, path, text)
