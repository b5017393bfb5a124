"""The store methods of policy, shared by both stores (``SharedMethods``): which access
policy each thing is under (``store.access``), the policy objects (``store.policy_objects``:
policies, roles, keys, treaties, concept facts) and the audit log (``store.audit``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdb.store import access, audit, policy_objects
from xdb.store.shared_methods import SharedMethods
from xdb.store.types import ConceptFact, ResolvedTarget


class PolicyMethods(SharedMethods):
    # ------------------------------------------------------------------ access

    def assign_access(self, kind: str, keys: Sequence[Sequence[Any]], policy_id: str | None) -> int:
        d = self._flavor.d
        return self._in_transaction(lambda c: access.assign(c, d, kind, keys, policy_id))

    def access_policies_of(
        self, kind: str, keys: Sequence[Sequence[Any]]
    ) -> dict[tuple[Any, ...], str | None]:
        return self._on_reader(lambda c: access.policies_of(c, self._flavor.d, kind, keys))

    def episode_policies(self, seqs: Sequence[int]) -> dict[int, str]:
        # The table itself, whoever is calling.
        whole = self.unrestricted()
        return whole._on_reader(lambda c: access.episode_policies(c, self._flavor.d, seqs))

    def access_in_use(self, policy_id: str) -> list[str]:
        return self._on_reader(lambda c: access.in_use(c, self._flavor.d, policy_id))

    def target_policies(self, target: ResolvedTarget) -> set[str | None]:
        return self._on_reader(lambda c: access.covered(c, self._flavor.d, target))

    # ------------------------------------------------------------------ policy objects

    def policy_objects(self) -> list[tuple[str, str, dict[str, Any]]]:
        return self._on_reader(policy_objects.read_all)

    def put_policy_object(
        self, kind: str, key: str, body: dict[str, Any], at_us: int, by: str
    ) -> bool:
        d = self._flavor.d
        return self._in_transaction(lambda c: policy_objects.put(c, d, kind, key, body, at_us, by))

    def delete_policy_object(self, kind: str, key: str) -> bool:
        d = self._flavor.d
        return self._in_transaction(lambda c: policy_objects.delete(c, d, kind, key))

    def concept_facts(self) -> list[ConceptFact]:
        return self._on_reader(policy_objects.concept_facts)

    # ------------------------------------------------------------------ the audit log

    def audit_append(self, entries: Sequence[audit.AuditEntry]) -> int:
        d = self._flavor.d
        return self._in_transaction(lambda c: audit.append(c, d, entries, lock=d.arrays)[0])

    def audit_read(
        self,
        after: int,
        limit: int,
        kind: str | None = None,
        caller: str | None = None,
        operation: str | None = None,
    ) -> list[audit.AuditRecord]:
        d = self._flavor.d
        self.settle_audit()
        return self._on_reader(lambda c: audit.read(c, d, after, limit, kind, caller, operation))

    def audit_verify(self) -> audit.Verdict:
        d = self._flavor.d
        self.settle_audit()
        return self._on_reader(lambda c: audit.verify_snapshot(c, d))

    def audit_prune(self, before_us: int, at_us: int) -> int:
        d = self._flavor.d
        return self._in_transaction(lambda c: audit.prune(c, d, before_us, at_us, lock=d.arrays))
