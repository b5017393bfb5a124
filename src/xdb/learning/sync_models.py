"""Tribe sync: the requests and answers of bundles out and in."""

from __future__ import annotations

from pydantic import Field

from xdb.models.common import DeferredModel, Model, NonEmpty

SYNC_KINDS = (
    "candidate_concept",
    "exemplar",
    "dataset",
    "training_run",
    "artifact",
    "graph_fragment",
)


class SyncExportRequest(Model):
    """Write a content-addressed sync bundle (a manifest and one file per object, named by
    its SHA-256) of the learning harness's objects: candidate concepts, exemplars, datasets,
    training runs, artifacts and graph fragments (a Decision or Tool node with its edges).
    Objects under an access policy that does not allow export are left out, and with a
    receiving tribe's disclosure policy (or treaty) so is every object about a concept it
    may not see."""

    path: NonEmpty = Field(
        description="The bundle's directory (made; empty if it exists); over HTTP, MCP and"
        " Python, inside the data root (docs/policy.md)."
    )
    to: str | None = Field(default=None, description="Who it is for, e.g. tribeA-repo.")
    disclosure_policy_id: str | None = Field(
        default=None, description="The receiving tribe's disclosure policy: what it may see."
    )
    treaty_id: str | None = Field(
        default=None, description="Or the treaty whose disclosure policy applies."
    )
    kinds: list[NonEmpty] | None = Field(
        default=None, description="Only these kinds (default all): " + ", ".join(SYNC_KINDS)
    )
    notes: str | None = None


class SyncExportResponse(DeferredModel):
    bundle_id: str
    path: str
    objects: dict[str, int] = Field(description="Objects written, by kind.")
    left_out: dict[str, int] = Field(description="Objects left out, by reason.")


class SyncImportRequest(Model):
    """Merge a sync bundle into this database: every object's hash is verified first (a
    bundle that fails is refused whole), then each is added unless stored already;
    importing twice changes nothing. An object stored with other content (a candidate
    concept whose definition diverges) is reported as a conflict, never overwritten."""

    path: NonEmpty = Field(
        description="The bundle's directory; over HTTP, MCP and Python, inside the data root"
        " (docs/policy.md)."
    )


class SyncConflict(DeferredModel):
    kind: str
    id: str
    reason: str


class SyncImportResponse(DeferredModel):
    bundle_id: str
    verified: int = Field(description="Objects whose hash was checked.")
    imported: dict[str, int] = Field(description="Objects added, by kind.")
    unchanged: int = Field(description="Objects already stored as the bundle has them.")
    conflicts: list[SyncConflict]
