"""The one exception tree of xdb.

Every error a caller can see is one of these; the interfaces convert them at the
edge (MCP ``isError``, an HTTP status with the JSON envelope, CLI exit code 2)::

    XdbError                      base: ``code``, ``message``, ``field``, ``status``
    ├── InvalidRequest            400  bad input: names the field and what is allowed
    ├── NotFound                  404  an id that names nothing (timestep, event, tag, session)
    ├── Conflict                  409  the request contradicts what is stored
    ├── Unauthorized              401  no valid API key (HTTP): who is calling is unknown
    ├── PermissionDenied          403  the caller may not do this (policy)
    ├── NotReady                  503  what was asked to be waited for was not ready in time
    └── StoreError                500  the storage failed; nothing was written
        └── MigrationError        500  the file's schema cannot be brought up to date
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "Conflict",
    "InvalidRequest",
    "MigrationError",
    "NotFound",
    "NotReady",
    "PermissionDenied",
    "StoreError",
    "Unauthorized",
    "XdbError",
    "from_validation_errors",
    "not_unicode",
    "path_error",
]


class XdbError(Exception):
    """Base of every error xdb raises on purpose."""

    code = "error"
    status = 500

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def to_dict(self) -> dict[str, Any]:
        """The JSON error envelope's inner object, identical on every interface."""
        return {"type": self.code, "message": self.message, "field": self.field}


class InvalidRequest(XdbError):
    """The request is malformed: the message names the field and what is allowed."""

    code = "invalid_request"
    status = 400


class NotFound(XdbError):
    """The request names a timestep, event, tag or session that does not exist."""

    code = "not_found"
    status = 404


class Conflict(XdbError):
    """The request contradicts stored state (e.g. a tag name already used by another type)."""

    code = "conflict"
    status = 409


class Unauthorized(XdbError):
    """The request carries no API key where one is required, or one that is unknown, wrong
    or revoked (all alike, to the presenter)."""

    code = "unauthorized"
    status = 401


class PermissionDenied(XdbError):
    """The caller is not allowed to perform this operation or see this data."""

    code = "permission_denied"
    status = 403


class NotReady(XdbError):
    """A read asked to wait for something (e.g. the vectors of episodes it would otherwise
    miss) that was not ready within its bound; nothing was answered, retrying may succeed."""

    code = "not_ready"
    status = 503


class StoreError(XdbError):
    """The storage layer failed; the transaction was rolled back."""

    code = "store_error"
    status = 500


class MigrationError(StoreError):
    """The database's schema is newer than this xdb or could not be migrated."""

    code = "migration_error"


def path_error(field: str, path: object, exc: OSError) -> InvalidRequest:
    """A filesystem error on a path the caller gave, as the caller's mistake: it names the
    field and the path (shortened: a 4,000-character name would drown the message)."""
    shown = str(path)
    if len(shown) > 120:
        shown = f"{shown[:100]}...({len(shown)} characters)"
    reason = exc.strerror or type(exc).__name__
    return InvalidRequest(f"{field}: cannot use {shown!r}: {reason}", field=field)


_NOT_UNICODE = (
    "is not valid Unicode text (it holds a lone surrogate such as \\ud800, half of an emoji's "
    "pair): send the whole character"
)


def not_unicode(request: Mapping[str, Any]) -> InvalidRequest:
    """The request held text that is not Unicode where no validator looked (a free-form
    value): name the first such place."""

    def find(value: Any, loc: tuple[Any, ...]) -> tuple[Any, ...] | None:
        if isinstance(value, str):
            return None if _encodes(value) else loc
        items: Iterable[tuple[Any, Any]] = ()
        if isinstance(value, Mapping):
            items = value.items()
        elif isinstance(value, list | tuple):
            items = enumerate(value)
        for key, inner in items:
            if isinstance(key, str) and not _encodes(key):
                return (*loc, key)
            found = find(inner, (*loc, key))
            if found is not None:
                return found
        return None

    where = find(request, ())
    field = _field_path(where) if where else None
    return InvalidRequest(f"{field}: {_NOT_UNICODE}" if field else _NOT_UNICODE, field=field)


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _field_path(loc: Iterable[Any]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif parts:
            parts.append(f".{_printable(item)}")
        else:
            parts.append(_printable(item))
    return "".join(parts)


def _printable(item: Any) -> str:
    # A dict key can be the very text that is not Unicode; the message must still encode.
    return str(item).encode("utf-8", "backslashreplace").decode("utf-8")


def _describe(err: Mapping[str, Any]) -> str:
    msg = str(err.get("msg", "invalid value"))
    if err.get("type") == "string_unicode":
        return f"{_NOT_UNICODE} (got {err.get('input')!r})"
    # pydantic phrases literal/enum problems as "Input should be 'a', 'b' or 'c'": keep it,
    # and show what was received so the caller sees both sides.
    if err.get("type") == "missing":
        return "is required"
    if err.get("type") == "extra_forbidden":
        return "is not a known field (check the spelling against the operation's schema)"
    received = err.get("input")
    if received is not None and not isinstance(received, dict | list) and len(repr(received)) < 80:
        return f"{msg[0].lower()}{msg[1:]} (got {received!r})"
    return f"{msg[0].lower()}{msg[1:]}"


def from_validation_errors(
    errors: Iterable[Mapping[str, Any]], *, strip: tuple[str, ...] = ()
) -> InvalidRequest:
    """Turn pydantic/FastAPI validation errors into one ``InvalidRequest``.

    ``strip`` removes leading location parts that are not request fields (FastAPI's "body").
    """
    lines: list[str] = []
    first_field: str | None = None
    for err in errors:
        loc = list(err.get("loc", ()))
        if loc and loc[0] in strip:
            loc.pop(0)  # one prefix only: a field may itself be called "query"
        # Function validators add their own name to the location; it is noise to a caller.
        loc = [part for part in loc if not (isinstance(part, str) and part.startswith("function-"))]
        field = _field_path(loc) or None
        if first_field is None:
            first_field = field
        text = _describe(err)
        if text.startswith("value error, "):
            text = text[len("value error, ") :]
        lines.append(f"{field}: {text}" if field else text)
    return InvalidRequest("; ".join(lines) or "invalid request", field=first_field)
