"""Read a concept pack in HatCat's own format into rows a store can keep.

A pack directory holds ``pack.json`` (its ``spec_id``, e.g. ``org.hatcat/first-light@1.0.1``),
``hierarchy.json`` (``child_to_parent`` keyed ``Term:layer``) and one JSON file per concept
under ``concepts/layerN/``. A concept's id is ``<spec_id>::concept/<Term>``, the form the
seeds use. The hierarchy file is the source of truth for parents; each concept's own file
for everything else.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xdb.errors import InvalidRequest, path_error
from xdb.store.types import ConceptRow, PackRow

# Columns of their own; everything else a concept file says is kept in ``details``.
_COLUMNS = {"term", "layer", "definition", "aliases", "domain", "parent_concepts", "children"}


def concept_id(spec_id: str, term: str) -> str:
    return f"{spec_id}::concept/{term}"


def split_concept_id(value: str) -> tuple[str, str] | None:
    """(spec_id, term) of a full concept id; None for any other string."""
    spec, sep, term = value.partition("::concept/")
    return (spec, term) if sep and spec and term else None


@dataclass
class Pack:
    info: PackRow
    concepts: list[ConceptRow]
    related: list[tuple[str, str]]  # RELATED_CONCEPT edges between the pack's own concepts


def _load(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidRequest(
            f"path: no {what} in {path.parent} (give the pack's directory, the one holding "
            "pack.json and hierarchy.json)",
            field="path",
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidRequest(f"path: {path} is not valid JSON ({exc})", field="path") from None
    except OSError as exc:  # a name too long, a file we may not read, a directory...
        raise path_error("path", path, exc) from None


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _is_term(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def _is_layer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def read_pack(directory: str | Path, inside: Callable[[Path], Path] = lambda p: p) -> Pack:
    """Every concept of the pack in ``directory``; a clear error for anything malformed.
    ``inside`` checks each file before it is read (``xdb.paths``: a link in the pack may
    not lead out of the data root)."""
    try:
        root = Path(directory).expanduser()
        if not root.is_dir():
            raise InvalidRequest(f"path: {str(root)!r} is not a directory", field="path")
        files = sorted((root / "concepts").glob("layer*/*.json"))
    except OSError as exc:  # is_dir() raises for a name too long, a loop of links...
        raise path_error("path", directory, exc) from None
    manifest = _load(inside(root / "pack.json"), "pack.json")
    hierarchy = _load(inside(root / "hierarchy.json"), "hierarchy.json")
    spec_id = manifest.get("spec_id") if isinstance(manifest, dict) else None
    if not isinstance(spec_id, str) or not spec_id:
        raise InvalidRequest("path: pack.json has no spec_id", field="path")
    parents = hierarchy.get("child_to_parent", {}) if isinstance(hierarchy, dict) else None
    if not isinstance(parents, dict):
        raise InvalidRequest("path: hierarchy.json needs a child_to_parent object", field="path")
    if not files:
        raise InvalidRequest(f"path: no concepts/layerN/*.json under {root}", field="path")
    raw: list[dict[str, Any]] = [_load(inside(f), f.name) for f in files]
    for f, d in zip(files, raw, strict=True):
        if not (isinstance(d, dict) and _is_term(d.get("term")) and _is_layer(d.get("layer"))):
            raise InvalidRequest(
                f"path: {f} needs a term (text) and a layer (a whole number)", field="path"
            )
    by_key = {f"{d['term']}:{d['layer']}": d["term"] for d in raw}
    if len(by_key) != len(raw):
        raise InvalidRequest("path: two concept files name the same term and layer", field="path")
    children: dict[str, int] = {}
    for child_key, parent_key in parents.items():
        if child_key in by_key and parent_key in by_key:
            children[parent_key] = children.get(parent_key, 0) + 1
    terms = set(by_key.values())
    concepts: list[ConceptRow] = []
    related: list[tuple[str, str]] = []
    for d in raw:
        term, layer = str(d["term"]), int(d["layer"])
        key = f"{term}:{layer}"
        above = parents.get(key)
        parent = by_key.get(above) if above else None
        safety = d.get("safety_tags") or {}
        cid = concept_id(spec_id, term)
        for other in _strings((d.get("relationships") or {}).get("related")):
            if other in terms and other != term:
                related.append((cid, concept_id(spec_id, other)))
        concepts.append(
            ConceptRow(
                id=cid,
                spec_id=spec_id,
                term=term,
                layer=layer,
                parent_id=concept_id(spec_id, parent) if parent else None,
                domain=d.get("domain"),
                definition=str(d.get("definition") or ""),
                aliases=_strings(d.get("aliases")),
                child_count=children.get(key, 0),
                risk_level=safety.get("risk_level"),
                treaty_relevant=bool(safety.get("treaty_relevant")),
                harness_relevant=bool(safety.get("harness_relevant")),
                details={k: v for k, v in d.items() if k not in _COLUMNS},
            )
        )
    info = PackRow(
        spec_id=spec_id,
        pack_id=str(manifest.get("pack_id") or spec_id),
        version=str(manifest.get("version") or ""),
        description=str(manifest.get("description") or ""),
        concept_count=len(concepts),
        imported_us=0,
    )
    return Pack(info=info, concepts=concepts, related=sorted(set(related)))
