"""Concept packs for tests: the real first-light pack, and tiny packs written on the fly."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path
from typing import Any

ARCHIVE = Path(__file__).resolve().parents[1] / "data" / "first-light.tar.xz"
SPEC = "org.hatcat/first-light@1.0.1"


def unpack_first_light(folder: Path) -> Path:
    """The vendored first-light pack (tests/data), unpacked under ``folder``."""
    with tarfile.open(ARCHIVE) as archive:
        archive.extractall(folder, filter="data")
    return folder / "first-light"


def full(term: str, spec: str = SPEC) -> str:
    return f"{spec}::concept/{term}"


def hierarchy(pack: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((pack / "hierarchy.json").read_text())
    return data


def concept_files(pack: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(pack.glob("concepts/layer*/*.json"))]


def write_pack(
    folder: Path,
    *,
    pack_id: str = "tiny",
    version: str = "1.0.0",
    tree: dict[str, str | None] | None = None,
    aliases: dict[str, list[str]] | None = None,
    related: dict[str, list[str]] | None = None,
    risk: dict[str, str] | None = None,
) -> Path:
    """A pack in HatCat's format: ``tree`` maps each term to its parent (None for a root)."""
    tree = tree or {"Root": None, "Child": "Root", "Leaf": "Child"}
    layer: dict[str, int] = {}

    def depth(term: str) -> int:
        if term not in layer:
            parent = tree[term]
            layer[term] = 0 if parent is None else depth(parent) + 1
        return layer[term]

    folder.mkdir(parents=True)
    spec = f"org.test/{pack_id}@{version}"
    (folder / "pack.json").write_text(
        json.dumps({"pack_id": pack_id, "spec_id": spec, "version": version, "description": "t"})
    )
    child_to_parent = {f"{t}:{depth(t)}": f"{p}:{depth(p)}" for t, p in tree.items() if p}
    (folder / "hierarchy.json").write_text(json.dumps({"child_to_parent": child_to_parent}))
    for term in tree:
        where = folder / "concepts" / f"layer{depth(term)}"
        where.mkdir(parents=True, exist_ok=True)
        (where / f"{term.lower()}.json").write_text(
            json.dumps(
                {
                    "term": term,
                    "layer": depth(term),
                    "definition": f"the {term.lower()} of things",
                    "aliases": (aliases or {}).get(term, []),
                    "relationships": {"related": (related or {}).get(term, [])},
                    "safety_tags": {"risk_level": (risk or {}).get(term, "low")},
                }
            )
        )
    return folder
