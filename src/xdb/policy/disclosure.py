"""Which concepts a caller may see: disclosure policies and hush, compiled to one verdict.

A concept in the log is a string: a full id (``<spec_id>::concept/<Term>``), a term
(``Deception``), ``Term:layer``, or a name no pack holds. A rule matches the string itself
and every pack concept it names, so a hidden concept is hidden in all its spellings (terms
compare without case). ``Visibility.visible`` is the one verdict every output and every
request of a restricted caller goes through (``policy.release``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdb.concepts.resolve import PackCache, per_packs
from xdb.policy.policy_models import RISK_ORDER, ConceptRules, DisclosurePolicy, Hush
from xdb.store.types import ConceptFact


class ConceptIndex:
    """Every loaded concept's pack, parent and risk, and the spellings that name it."""

    def __init__(self, facts: Sequence[ConceptFact]) -> None:
        self.facts = {f.id: f for f in facts}
        self.by_name: dict[str, list[str]] = {}
        self.children: dict[str | None, list[str]] = {}
        for f in facts:
            self.by_name.setdefault(f.term.lower(), []).append(f.id)
            self.by_name.setdefault(f"{f.term.lower()}:{f.layer}", []).append(f.id)
            self.children.setdefault(f.parent_id, []).append(f.id)

    def named(self, value: str) -> list[str]:
        """The pack concepts ``value`` names (none for a name no pack holds). ``Term:layer``
        as resolution reads it: any digits (``Anger:01`` is ``Anger:1``)."""
        if value in self.facts:
            return [value]
        found = self.by_name.get(value.lower())
        if found is None:
            term, sep, layer = value.rpartition(":")
            if sep and term and layer.isdigit():
                found = self.by_name.get(f"{term.lower()}:{int(layer)}")
        return found or []

    def lineage(self, concept_id: str) -> Iterable[str]:
        """The concept and its ancestors, nearest first."""
        seen: set[str] = set()
        current: str | None = concept_id
        while current is not None and current not in seen:
            seen.add(current)
            yield current
            fact = self.facts.get(current)
            current = fact.parent_id if fact else None


_indexes: PackCache[ConceptIndex] = weakref.WeakKeyDictionary()


def concept_index(store: Any) -> ConceptIndex:
    """The store's concept index, rebuilt when the set of loaded packs changes."""
    return per_packs(_indexes, store, lambda: ConceptIndex(store.concept_facts()))


@dataclass
class Rules:
    """``ConceptRules`` resolved against the index: match a string and what it names."""

    index: ConceptIndex
    spec: ConceptRules
    _names: set[str] = field(init=False)
    _ids: set[str] = field(init=False)
    _subtrees: set[str] = field(init=False)

    def __post_init__(self) -> None:
        self._names = {c.lower() for c in self.spec.concepts}
        self._ids = {i for c in self.spec.concepts for i in self.index.named(c)}
        self._subtrees = {i for c in self.spec.subtrees for i in self.index.named(c)}
        self._names |= {c.lower() for c in self.spec.subtrees}

    def matches(self, value: str, named: Sequence[str]) -> bool:
        s = self.spec
        if value.lower() in self._names or any(i in self._ids for i in named):
            return True
        if any(value.startswith(p) or any(i.startswith(p) for i in named) for p in s.prefixes):
            return True
        facts = self.index.facts
        if s.packs and any(
            facts[i].spec_id in s.packs or facts[i].pack_id in s.packs for i in named
        ):
            return True
        return bool(self._subtrees) and any(
            a in self._subtrees for i in named for a in self.index.lineage(i)
        )


@dataclass
class Policy:
    """One disclosure policy, compiled."""

    spec: DisclosurePolicy
    allow: Rules
    deny: Rules

    def allows(self, value: str, named: Sequence[str], candidate: bool) -> bool:
        if self.deny.matches(value, named):
            return False
        if candidate and not self.spec.candidates_visible:
            return False
        limit = self.spec.max_risk_level
        if limit is not None:
            ceiling = RISK_ORDER[limit]
            for i in named:
                risk = self.allow.index.facts[i].risk_level
                if risk is not None and RISK_ORDER.get(risk.lower(), len(RISK_ORDER)) > ceiling:
                    return False
        return self.spec.allow_all or self.allow.matches(value, named)


def compile_policy(index: ConceptIndex, spec: DisclosurePolicy) -> Policy:
    return Policy(spec, Rules(index, spec.allow), Rules(index, spec.deny))


@dataclass
class Visibility:
    """The verdict for one caller at one moment.

    ``policies`` None: the caller is not restricted by disclosure (self, admin); a list: a
    concept is visible when any of them allows it (a caller under two treaties sees what
    either grants; under none, nothing). ``hushes`` hide concepts from all but auditors;
    ``sees_all`` (auditors) ignores both. ``buds`` says whether a string names a candidate
    concept, asked only when a policy hides candidates."""

    index: ConceptIndex
    policies: list[Policy] | None
    hushes: list[tuple[str | None, Rules]]
    buds: Callable[[], set[str]]
    sees_all: bool = False
    _cache: dict[tuple[str, bool, str | None], bool] = field(default_factory=dict)
    _bud_names: set[str] | None = None
    _tree: tuple[dict[str, str | None], dict[str | None, list[str]]] | None = None

    @property
    def restricted(self) -> bool:
        """Whether any output can differ from what an unrestricted caller gets."""
        return not self.sees_all and (self.policies is not None or bool(self.hushes))

    def visible(self, value: str, candidate: bool = False, session: str | None = None) -> bool:
        if not self.restricted:
            return True
        key = (value, candidate, session)
        found = self._cache.get(key)
        if found is None:
            found = self._decide(value, candidate, session)
            self._cache[key] = found
        return found

    def hierarchy(self) -> tuple[dict[str, str | None], dict[str | None, list[str]]]:
        """The loaded hierarchy as this caller sees it: each visible concept's nearest
        visible ancestor (None: a root to it), and each one's visible children."""
        if self._tree is None:
            parents: dict[str, str | None] = {}
            for cid in self.index.facts:
                if self.visible(cid):
                    up = list(self.index.lineage(cid))[1:]
                    parents[cid] = next((a for a in up if self.visible(a)), None)
            children: dict[str | None, list[str]] = {}
            for cid, parent in parents.items():
                children.setdefault(parent, []).append(cid)
            self._tree = (parents, children)
        return self._tree

    def tag_visible(self, tag: Any, session: str | None = None) -> bool:
        """A tag (``log.log_models.Tag``): visible when every concept it is about is."""
        if not self.restricted:
            return True
        return all(self.visible(v, c, session) for v, c in tag.disclosed_concepts())

    def node_visible(self, node_id: str, session: str | None = None) -> bool:
        """A graph node: a ``concept:<id>`` node is visible when its concept is."""
        from xdb.store.graph_edges import CONCEPT_NODE

        if node_id.startswith(CONCEPT_NODE):
            return self.visible(node_id[len(CONCEPT_NODE) :], session=session)
        return True

    def hushed(self, value: str, session: str | None = None) -> bool:
        """Whether a hush hides ``value`` (in ``session``; None: in any session)."""
        named = self.index.named(value)
        return any(
            (scope is None or session is None or scope == session) and rules.matches(value, named)
            for scope, rules in self.hushes
        )

    def _decide(self, value: str, candidate: bool, session: str | None) -> bool:
        if self.hushes and self.hushed(value, session):
            return False
        if self.policies is None:
            return True
        named = self.index.named(value)
        if not candidate and any(not p.spec.candidates_visible for p in self.policies):
            if self._bud_names is None:
                self._bud_names = {b.lower() for b in self.buds()}
            candidate = value.lower() in self._bud_names
        return any(p.allows(value, named, candidate) for p in self.policies)

    def unknown_visible(self) -> bool:
        """The verdict for a concept no pack holds and no rule names: what a hidden concept
        in a request is answered as (``policy.release``)."""
        return self.policies is None or any(p.spec.allow_all for p in self.policies)


def compile_hushes(index: ConceptIndex, hushes: Iterable[Hush]) -> list[tuple[str | None, Rules]]:
    return [(h.session_id, Rules(index, h.concepts)) for h in hushes]
