"""Markers on model fields that name concepts: the policy's release walk reads them. They
are the kernel's, beside ``common``, so that any model (the records storage reads and
writes among them) carries them without importing the policy's room.

A response field that holds a concept id, a list of them, a mapping keyed by them, or a
graph node id carries one of these in its ``Annotated`` metadata; a request field marked
the same way is rewritten for a caller who may not see the concept (``policy.release``).
``tests/policy/test_markers.py`` fails for a field whose name says "concept" and that
carries no marker, so a new model cannot slip a concept past the policy unnoticed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ConceptRef:
    """One concept id. When hidden, the object holding the field is left out of its list
    (``on_hidden="drop"``), or the field is cleared (``"clear"``: a parent link, where the
    caller sees the concept as a root of what it may see).

    ``candidate_if``: (field, value) that marks the concept a candidate (a bud)."""

    on_hidden: str = "drop"
    candidate_if: tuple[str, str] | None = None


@dataclass(frozen=True)
class ConceptList:
    """A list of concept ids: hidden ones are left out."""


@dataclass(frozen=True)
class ConceptKeys:
    """A mapping keyed by concept ids (activations, motive profiles): hidden keys are left
    out."""


@dataclass(frozen=True)
class NodeRef:
    """A graph node id; ``concept:<id>`` nodes are concepts. The holding object is left out
    when the node is a hidden concept."""


@dataclass(frozen=True)
class NoConcept:
    """Says a field whose name mentions concepts holds none (e.g. a count)."""


Marker = ConceptRef | ConceptList | ConceptKeys | NodeRef | NoConcept
