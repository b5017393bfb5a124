"""The config/infra detectors on other ways of writing their mistakes
(``variants_infra.VARIANTS``, written blind from each pattern's name and examples): each
"hit" variant is caught as the mistake, each "safe" one is not."""

from __future__ import annotations

import pytest

from tests.engine.known.variants_infra import VARIANTS
from xdb.engine.calls import parse_call
from xdb.engine.known import CATALOGUE, HIT, verdict


def test_variants_name_known_patterns() -> None:
    assert {name for name, *_ in VARIANTS} <= set(CATALOGUE)
    assert {side for _, side, *_ in VARIANTS} == {"hit", "safe"}


@pytest.mark.parametrize(
    ("name", "side", "text", "path"),
    VARIANTS,
    ids=[f"{name}-{side}-{i}" for i, (name, side, _, _) in enumerate(VARIANTS)],
)
def test_variant(name: str, side: str, text: str, path: str) -> None:
    call = parse_call("Write", {"file_path": "/w/proj/" + path, "content": text})
    got = verdict(frozenset({name}), call)
    if side == "hit":
        assert got == HIT, f"{name} missed in {path}:\n{text}"
    else:
        assert got != HIT, f"{name} flagged the safe variant in {path}:\n{text}"
