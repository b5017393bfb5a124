"""The policy parts of the ``Store`` protocol (``xdb.store.protocol``): the audit log, the
policy objects (disclosure policies, treaties, hushes, named callers) and which access
policy each stored object is under. (They sat in ``ConceptStore`` and ``GraphStore``, whose
rows they are not.)"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from xdb.store.types import ResolvedTarget

if TYPE_CHECKING:
    from xdb.store.audit import AuditEntry, AuditRecord, Verdict


class AuditStore(Protocol):
    """The audit log: a hash chain of what callers did (``store/audit.py``)."""

    def audit_append(self, entries: Sequence[AuditEntry]) -> int:
        """Chain records onto the audit log in a transaction of their own; the last seq."""
        ...

    def audit_read(
        self,
        after: int,
        limit: int,
        kind: str | None = None,
        caller: str | None = None,
        operation: str | None = None,
    ) -> list[AuditRecord]: ...

    def audit_verify(self) -> Verdict:
        """Walk the whole chain (``store.audit.verify``)."""
        ...

    def audit_prune(self, before_us: int, at_us: int) -> int:
        """Remove records older than ``before_us`` behind a checkpoint; how many."""
        ...


class PolicyObjectStore(Protocol):
    """The stored policy objects that disclosure rules, treaties, hushes and named callers
    are loaded from."""

    def policy_objects(self) -> list[tuple[str, str, dict[str, Any]]]:
        """(kind, id, body) of every disclosure policy, treaty, hush and named caller."""
        ...

    def put_policy_object(
        self, kind: str, key: str, body: dict[str, Any], at_us: int, by: str
    ) -> bool:
        """Insert or replace a policy object; whether it is new."""
        ...

    def delete_policy_object(self, kind: str, key: str) -> bool: ...


class AccessStore(Protocol):
    """Which access policy each stored object is under (``store/access.py``)."""

    def assign_access(self, kind: str, keys: Sequence[Sequence[Any]], policy_id: str | None) -> int:
        """Put objects under an access policy (``store/access.py``'s ``KEYS`` names their
        kinds and keys); how many changed."""
        ...

    def access_policies_of(
        self, kind: str, keys: Sequence[Sequence[Any]]
    ) -> dict[tuple[Any, ...], str | None]:
        """Each named object's policy, of those that exist and the current caller reads."""
        ...

    def episode_policies(self, seqs: Sequence[int]) -> dict[int, str]:
        """The access policy of each of ``seqs`` that has one, whoever is calling."""
        ...

    def access_in_use(self, policy_id: str) -> list[str]:
        """The tables holding objects under ``policy_id``."""
        ...

    def target_policies(self, target: ResolvedTarget) -> set[str | None]:
        """The access policies of the timesteps a tag or comment target covers, of those
        the current caller reads (empty: none it reads)."""
        ...
