"""The shell catalogue's detectors on other spellings of the same mistakes
(``variants_shell.VARIANTS``): a "hit" variant is the mistake, a "safe" one is not."""

from __future__ import annotations

import pytest

from tests.engine.known.variants_shell import VARIANTS
from xdb.engine.calls import parse_call
from xdb.engine.known import HIT, verdict


@pytest.mark.parametrize(
    ("name", "kind", "text", "path"),
    VARIANTS,
    ids=[f"{v[0]}-{v[1]}-{i}" for i, v in enumerate(VARIANTS)],
)
def test_variant(name: str, kind: str, text: str, path: str) -> None:
    if path:
        call = parse_call("Write", {"file_path": "/w/proj/" + path, "content": text})
    else:
        call = parse_call("Bash", {"command": text})
    result = verdict(frozenset({name}), call)
    if kind == "hit":
        assert result == HIT, (name, text)
    else:
        assert result != HIT, (name, text)
