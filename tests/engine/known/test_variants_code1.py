"""The CODE catalogue's detectors on other ways of writing the same mistakes
(``variants_code1``): each mistake variant is a HIT for its pattern, and each safe variant
is not."""

from __future__ import annotations

import pytest

from tests.engine.known.variants_code1 import VARIANTS
from xdb.engine.calls import parse_call
from xdb.engine.known import CATALOGUE, HIT, verdict


@pytest.mark.parametrize(
    ("name", "side", "text", "path"),
    VARIANTS,
    ids=[f"{name}-{side}-{path}" for name, side, _, path in VARIANTS],
)
def test_variant(name: str, side: str, text: str, path: str) -> None:
    assert name in CATALOGUE
    call = parse_call("Write", {"file_path": "/w/proj/" + path, "content": text})
    got = verdict(frozenset({name}), call)
    if side == "hit":
        assert got == HIT, text
    else:
        assert side == "safe"
        assert got != HIT, text


def test_every_pattern_has_variants_of_both_sides() -> None:
    names = {name for name, _, _, _ in VARIANTS}
    for name in names:
        sides = [side for n, side, _, _ in VARIANTS if n == name]
        assert sides.count("hit") >= 3 and sides.count("safe") >= 2, name
