"""Who may see what: disclosure policies, treaties, hush constraints and named callers,
and the requests and responses of the operations that manage them (docs/policy.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from xdb.models.common import Model, NonEmpty
from xdb.models.concept_markers import NoConcept
from xdb.timeutil import as_utc

# A time without a zone is read as UTC.
Expiry = Annotated[datetime | None, AfterValidator(lambda v: None if v is None else as_utc(v))]
RiskLevel = Literal["low", "medium", "high", "critical"]
# First-light's safety tags, least to most: a policy's maximum admits those at or below it.
RISK_ORDER: dict[str, int] = {"low": 0, "medium": 1, "high": 2, "critical": 3}


class ConceptRules(Model):
    """Which concepts a rule names. Every list is optional; a concept matches if any entry
    names it. Ids may be written in full, as ``Term`` or ``Term:layer``."""

    # Policy objects are read by admins alone (the policy group's roles): not released.
    concepts: Annotated[list[NonEmpty], NoConcept()] = Field(
        default_factory=list, description="Concept ids or terms."
    )
    prefixes: list[NonEmpty] = Field(
        default_factory=list, description="Id prefixes, e.g. 'org.hatcat/first-light@'."
    )
    packs: list[NonEmpty] = Field(
        default_factory=list, description="Whole packs: a spec id or a pack id (every version)."
    )
    subtrees: list[NonEmpty] = Field(
        default_factory=list, description="A concept and all its descendants in its hierarchy."
    )

    def empty(self) -> bool:
        return not (self.concepts or self.prefixes or self.packs or self.subtrees)


class DisclosurePolicy(Model):
    """Which concepts a caller may see. A concept is visible when no ``deny`` rule names it
    (a ``subtrees`` rule names a concept and its descendants), its risk level is at most
    ``max_risk_level``, it is stable or ``candidates_visible`` is set, and ``allow_all`` is
    set or an ``allow`` rule names it."""

    id: NonEmpty
    description: str = ""
    allow_all: bool = Field(default=False, description="Every concept no deny rule names.")
    allow: ConceptRules = Field(default_factory=ConceptRules)
    deny: ConceptRules = Field(default_factory=ConceptRules)
    max_risk_level: RiskLevel | None = Field(
        default=None, description="Hide concepts whose risk level is above this one."
    )
    candidates_visible: bool = Field(
        default=False, description="Whether candidate concepts (buds) are visible."
    )


class Treaty(Model):
    """An agreement with a partner: callers acting under it see what its disclosure policy
    allows, until it expires or is deactivated."""

    id: NonEmpty
    partner: NonEmpty = Field(description="Who the treaty is with.")
    disclosure_policy_id: NonEmpty = Field(description="The disclosure policy it grants.")
    description: str = ""
    active: bool = True
    expires_at: Expiry = Field(default=None, description="After this it grants nothing.")


class Hush(Model):
    """Concepts no one but an auditor sees in outputs while the hush lasts: in one session's
    experience, or everywhere (``session_id`` null)."""

    id: NonEmpty
    concepts: ConceptRules = Field(description="The concepts hushed.")
    session_id: str | None = Field(default=None, description="Only this session; null: all.")
    reason: str = ""
    expires_at: Expiry = Field(default=None, description="Null: until lifted.")


class CallerProfile(Model):
    """A named caller's roles, treaties and own disclosure policy: what an API key or
    ``xdb mcp --caller ID`` acts as."""

    id: NonEmpty
    roles: list[NonEmpty] = Field(default_factory=list)
    treaty_ids: list[NonEmpty] = Field(default_factory=list)
    disclosure_policy_id: str | None = None


class AccessPolicy(Model):
    """Who may read, write and delete the objects that carry it (timesteps, episodes, tags,
    comments, graph nodes and edges), and whether they may leave in a sharing export.
    A role ``*`` is every caller. What a caller may not read is absent from every answer."""

    id: NonEmpty
    description: str = ""
    read_roles: list[NonEmpty] = Field(
        default_factory=lambda: ["self"], description="Roles that read objects under it."
    )
    read_treaties: list[NonEmpty] = Field(
        default_factory=list,
        description="Treaties whose callers read them too (while the treaty is in force).",
    )
    write_roles: list[NonEmpty] = Field(
        default_factory=lambda: ["self"],
        description="Roles that create objects under it and annotate (tag, comment) them.",
    )
    delete_roles: list[NonEmpty] = Field(
        default_factory=lambda: ["self"], description="Roles that delete objects under it."
    )
    allow_export: bool = Field(default=True, description="Whether sharing exports include them.")


class AccessDefault(Model):
    """Which access policy objects without one of their own carry."""

    policy_id: NonEmpty


# The database's default until an admin sets one: everyone reads, the agent and admins write.
OPEN_ACCESS = AccessPolicy(
    id="open",
    description="The built-in default: every caller reads; self and admin write and delete.",
    read_roles=["*"],
    write_roles=["self", "admin"],
    delete_roles=["self", "admin"],
)


PolicyKind = Literal["disclosure_policy", "treaty", "hush", "caller", "access_policy"]
