"""Concept ids in any of the forms users write them, resolved to full ids.

``org.hatcat/first-light@1.0.1::concept/Deception`` (the full id), ``Deception`` (the term)
and ``Deception:2`` (the pack's ``Term:layer`` key) name the same concept. When several
versions of a pack hold a term, the short forms mean the most recently imported one; when
two different packs hold it, they are ambiguous and the error lists the full ids.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from xdb.concepts.finder import ConceptFinder
from xdb.concepts.pack import split_concept_id
from xdb.errors import InvalidRequest, NotFound
from xdb.store.protocol import Store

T = TypeVar("T")
PackCache = weakref.WeakKeyDictionary[Any, tuple[tuple[str, ...], T]]

# One finder per open store, rebuilt when the set of loaded packs changes.
_finders: PackCache[ConceptFinder] = weakref.WeakKeyDictionary()


def per_packs(cache: PackCache[T], store: Store, build: Callable[[], T]) -> T:
    """What ``build`` makes of the store's concepts, made again when the set of loaded packs
    changes (one per open store: ``cache`` holds it weakly)."""
    # A pack grows (promotion adds to the local pack): its concept count is in the key.
    version = tuple(f"{p.spec_id}#{p.concept_count}" for p in store.concept_packs())
    cached = cache.get(store)
    if cached is None or cached[0] != version:
        cached = (version, build())
        cache[store] = cached
    return cached[1]


def finder(store: Store) -> ConceptFinder:
    return per_packs(_finders, store, lambda: ConceptFinder(store.concept_names()))


def try_resolve(
    store: Store, value: str, field: str, keep: Callable[[str], bool] | None = None
) -> str | None:
    """The full id ``value`` names, or None when no loaded pack holds it. ``keep``: which
    ids may be named at all (a caller's disclosure policy): others are as if not loaded,
    in the answer and in an ambiguity's error alike."""
    if split_concept_id(value) is not None:
        found = value if store.concepts_by_ids([value]) else None
        return found if found is None or keep is None or keep(found) else None
    term, sep, layer = value.rpartition(":")
    hits = (
        store.concepts_by_term(term, int(layer))
        if sep and term and layer.isdigit()
        else store.concepts_by_term(value, None)
    )
    if keep is not None:
        hits = [h for h in hits if keep(h[0])]
    if not hits:
        return None
    packs = {pack for _, pack, _ in hits}
    if len(packs) > 1:
        ids = ", ".join(sorted({cid for cid, _, _ in hits}))
        raise InvalidRequest(
            f"{field}: {value!r} names concepts in several packs ({ids}); give the full id",
            field=field,
        )
    return hits[0][0]  # newest import first


def resolve(store: Store, value: str, field: str, keep: Callable[[str], bool] | None = None) -> str:
    found = try_resolve(store, value, field, keep)
    if found is None:
        raise NotFound(
            f"{field}: no loaded concept pack holds {value!r} (give a full id, Term or "
            "Term:layer; xdb_find_concept searches by name)",
            field=field,
        )
    return found


def pack_specs(store: Store, pack: str | None) -> list[str] | None:
    """The spec ids a ``pack`` option means (a spec id, or a pack id for all its versions)."""
    if pack is None:
        return None
    specs = [p.spec_id for p in store.concept_packs() if pack in (p.spec_id, p.pack_id)]
    if not specs:
        raise NotFound(f"pack: no loaded concept pack is {pack!r}", field="pack")
    return specs
