"""Concept ids in any of the forms users write them, resolved to full ids: the one
resolver for every place a request names a concept.

``org.hatcat/first-light@1.0.1::concept/Deception`` (the full id), ``Deception`` (the term)
and ``Deception:2`` (the pack's ``Term:layer`` key) name the same concept; terms compare
exactly (case included). When several versions of a pack hold a term, the short forms mean
the most recently imported one; when two different packs hold it, they are ambiguous and
the error lists the full ids (those the caller may see).

A concept need not be in a pack: the log keeps any string (a bud's name, a label of the
agent's own). So a name a request reads by (a filter, a lookup: ``name_concept``) is the
full id of the pack concept it names, else itself when some record carries it, else an
error saying it names no concept; a name a request writes (``written_concept``) is the
full id of the pack concept it names, else itself, as written. ``xdb.concepts.requests``
applies them to every field of every request that names a concept.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
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
    # (per store, not per call: a call's binding is a store of its own; concepts are not
    # under access policies, so every caller's are the same)
    cached = cache.get(store.unbound)
    if cached is None or cached[0] != version:
        cached = (version, build())
        cache[store.unbound] = cached
    return cached[1]


def finder(store: Store) -> ConceptFinder:
    return per_packs(_finders, store, lambda: ConceptFinder(store.concept_names()))


# The terms of every loaded concept, per open store: a name that is none of them names no
# pack concept, found without a query per name.
_terms: PackCache[frozenset[str]] = weakref.WeakKeyDictionary()


def pack_terms(store: Store) -> frozenset[str]:
    return per_packs(_terms, store, lambda: frozenset(f.term for f in store.concept_facts()))


def may_name(terms: frozenset[str], value: str) -> bool:
    """Whether ``value`` could name a pack concept of ``terms`` (False: it surely does not)."""
    if not terms or split_concept_id(value) is not None:
        return bool(terms)
    term, sep, layer = value.rpartition(":")
    return value in terms or bool(sep and layer.isdigit() and term in terms)


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
    """The full id of the pack concept ``value`` names (a lookup in the hierarchy)."""
    found = try_resolve(store, value, field, keep)
    if found is None:
        raise NotFound(
            f"{field}: no loaded concept pack holds {value!r} (give a full id, Term or "
            "Term:layer; xdb_find_concept searches by name)",
            field=field,
        )
    return found


def name_concepts(
    store: Store, values: Mapping[str, str], keep: Callable[[str], bool] | None = None
) -> dict[str, str]:
    """What each name a request reads by means (``values``: name -> the field it is in):
    the full id of the pack concept it names, else the name itself when a record carries it
    (a concept in no pack). ``keep`` as for ``try_resolve``: a concept the caller may not
    see is as unknown as one no one named. Raises ``InvalidRequest`` for an ambiguous name
    and ``NotFound`` for one that names nothing."""
    out: dict[str, str] = {}
    loose: list[str] = []
    terms = pack_terms(store)
    for value, field in values.items():
        found = try_resolve(store, value, field, keep) if may_name(terms, value) else None
        if found is None:
            loose.append(value)
        else:
            out[value] = found
    if loose:
        carried = store.concepts_carried(loose)
        for value in loose:
            if value not in carried or (keep is not None and not keep(value)):
                raise unknown(value, values[value])
            out[value] = value
    return out


def name_concept(
    store: Store, value: str, field: str, keep: Callable[[str], bool] | None = None
) -> str:
    """``name_concepts`` for one name."""
    return name_concepts(store, {value: field}, keep)[value]


def written_concepts(
    store: Store, values: Mapping[str, str], keep: Callable[[str], bool] | None = None
) -> dict[str, str]:
    """What each name a request writes is stored as (``values``: name -> its field): the
    full id of the pack concept it names, else the name as written (a full id is kept as
    given, loaded or not). Raises ``InvalidRequest`` for an ambiguous name."""
    terms = pack_terms(store)
    return {
        value: (
            try_resolve(store, value, field, keep) or value
            if split_concept_id(value) is None and may_name(terms, value)
            else value
        )
        for value, field in values.items()
    }


def written_concept(
    store: Store, value: str, field: str, keep: Callable[[str], bool] | None = None
) -> str:
    """``written_concepts`` for one name."""
    return written_concepts(store, {value: field}, keep)[value]


def unknown(value: str, field: str) -> NotFound:
    return NotFound(
        f"{field}: {value!r} names no concept: no loaded concept pack holds it and no record"
        " carries it (give a full id, Term or Term:layer; xdb_find_concept searches the"
        " packs by name, xdb_concept_packs lists them)",
        field=field,
    )


def pack_specs(store: Store, pack: str | None) -> list[str] | None:
    """The spec ids a ``pack`` option means (a spec id, or a pack id for all its versions)."""
    if pack is None:
        return None
    specs = [p.spec_id for p in store.concept_packs() if pack in (p.spec_id, p.pack_id)]
    if not specs:
        raise NotFound(f"pack: no loaded concept pack is {pack!r}", field="pack")
    return specs
