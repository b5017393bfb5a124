"""What the audit log keeps of a call: who, which operation, a digest of its arguments, how
many results it gave, and whether it was allowed (and if not, or if it failed, why)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel

from xdb.errors import PermissionDenied, XdbError
from xdb.models.common import Caller
from xdb.ops.registry import Operation
from xdb.store.audit import AuditEntry
from xdb.timeutil import now_us


def digest_of(payload: Any) -> str:
    if isinstance(payload, BaseModel):
        payload = payload.model_dump(mode="json", exclude_unset=True)
    text = json.dumps(payload or {}, sort_keys=True, default=str)  # ASCII: lone surrogates too
    return hashlib.sha256(text.encode()).hexdigest()


def result_count(response: BaseModel | None) -> int:
    """The length of the answer's first list (its results), else 1 (0 for no answer)."""
    if response is None:
        return 0
    for name in type(response).model_fields:
        value = getattr(response, name)
        if isinstance(value, list):
            return len(value)
    return 1


def call_entry(
    who: Caller,
    op: Operation[Any, Any],
    payload: Any,
    response: BaseModel | None,
    error: Exception | None,
    before: bool = False,
) -> AuditEntry:
    """``before``: the record a write's transaction carries, made before its answer (its
    ``results`` is null)."""
    body = {
        "arguments_sha256": digest_of(payload),
        "results": None if before else result_count(response),
        "allowed": not isinstance(error, PermissionDenied),
        "error": None
        if error is None
        else error.code
        if isinstance(error, XdbError)
        else "internal_error",
        "roles": list(who.roles),
        "treaty_ids": list(who.treaty_ids),
    }
    return AuditEntry(now_us(), "call", who.id, f"{op.group}.{op.name}", body)
