"""The code mistakes of modules code_jvm_dotnet, code_jvm_dotnet_cs, code_jvm_dotnet_spring,
code_other, code_other_native and code_more_jvm, written other ways than their examples
(``variants_code2``): each mistake is found, each safe twin is not."""

from __future__ import annotations

import pytest

from tests.engine.known.variants_code2 import VARIANTS
from xdb.engine import known
from xdb.engine.calls import parse_call
from xdb.engine.known import CATALOGUE, verdict


def test_variants_name_known_patterns() -> None:
    names = {name for name, _, _, _ in VARIANTS}
    assert names <= set(CATALOGUE), sorted(names - set(CATALOGUE))
    assert {side for _, side, _, _ in VARIANTS} == {"hit", "safe"}


@pytest.mark.parametrize(
    ("name", "side", "text", "path"),
    VARIANTS,
    ids=[f"{name}-{side}-{i}" for i, (name, side, _, _) in enumerate(VARIANTS)],
)
def test_variant(name: str, side: str, text: str, path: str) -> None:
    call = parse_call("Write", {"file_path": "/w/proj/" + path, "content": text})
    got = verdict(frozenset({name}), call)
    if side == "hit":
        assert got == known.HIT, (name, path, text)
    else:
        assert got != known.HIT, (name, path, text)
