"""API keys: each maps to a caller. A key is ``xdb_<id>_<secret>``; the database keeps its
id, its caller and the SHA-256 of its secret (the secret is shown once, when made), and a
presented key is checked in constant time. A revoked key is kept, marked, and refused.
(The caller an HTTP request authenticated as travels with the request: ``interfaces.auth``'s
``request_caller``.)"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from xdb.errors import NotFound
from xdb.models.common import Caller
from xdb.policy.load import named_caller
from xdb.store.protocol import Store

KIND = "api_key"
PREFIX = "xdb_"


def make_key() -> tuple[str, str, str]:
    """(id, the key to hand out, the SHA-256 of its secret to keep)."""
    key_id = secrets.token_hex(4)
    secret = secrets.token_urlsafe(32)
    return key_id, f"{PREFIX}{key_id}_{secret}", _sha(secret)


def _sha(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def stored_keys(store: Store) -> dict[str, dict[str, Any]]:
    return {key: body for kind, key, body in store.policy_objects() if kind == KIND}


def usable(body: dict[str, Any]) -> bool:
    return body.get("revoked_at") is None


def authenticate(store: Store, presented: str) -> Caller | None:
    """The caller ``presented`` (a whole key) acts as; None for a key that is malformed,
    unknown, wrong or revoked (all alike to the presenter)."""
    if not presented.startswith(PREFIX):
        return None
    key_id, sep, secret = presented[len(PREFIX) :].partition("_")
    body = stored_keys(store).get(key_id) if sep else None
    expected = body["sha256"] if body else _sha("not a key")  # compare all the same
    matches = hmac.compare_digest(expected, _sha(secret))
    if body is None or not matches or not usable(body):
        return None
    try:
        return named_caller(store, body["caller_id"])
    except NotFound:  # its caller was removed: the key acts as no one
        return None
