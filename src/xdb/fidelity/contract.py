"""The resource contract in force for a caller: the defaults (the tribal minimums), under
the database's contract, under the caller's own (XDB section 8.4). Contracts are stored as
policy objects of kind ``resource_contract``: key ``*`` for the database, else a caller id.
"""

from __future__ import annotations

from typing import Any

from xdb.fidelity.fidelity_models import ResourceContract
from xdb.store.protocol import Store

KIND = "resource_contract"
DATABASE = "*"


def stored_contracts(store: Store) -> dict[str, dict[str, Any]]:
    """Each stored contract's fields, by key."""
    return {key: body for kind, key, body in store.policy_objects() if kind == KIND}


def effective(store: Store, agent: str | None) -> ResourceContract:
    """The contract for ``agent`` (None: the database's)."""
    stored = stored_contracts(store)
    fields: dict[str, Any] = dict(stored.get(DATABASE, {}))
    if agent is not None:
        fields.update(stored.get(agent, {}))
    try:
        return ResourceContract.model_validate(fields)
    except ValueError:
        # Values that no longer hold together (an agent's target above the database's new
        # threshold): the agent's own fields alone, then the defaults.
        try:
            return ResourceContract.model_validate(stored.get(agent or DATABASE, {}))
        except ValueError:
            return ResourceContract()
