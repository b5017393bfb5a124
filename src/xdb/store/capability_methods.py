"""The store methods of every capability, written once for both stores (each standing on
``SharedMethods``): one class, so the SQLite and the PostgreSQL store are made of the same
ones in the same order."""

from __future__ import annotations

from xdb.store.concept_methods import ConceptMethods
from xdb.store.fidelity_methods import FidelityMethods
from xdb.store.graph_methods import GraphMethods
from xdb.store.learning_methods import LearningMethods
from xdb.store.policy_methods import PolicyMethods
from xdb.store.sync_methods import SyncMethods


class CapabilityMethods(
    ConceptMethods, GraphMethods, PolicyMethods, LearningMethods, SyncMethods, FidelityMethods
):
    pass
