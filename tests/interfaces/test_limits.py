"""The id of an oversized request, found in the bytes kept of it (its head and tail), so that
the client's call fails at once with the refusal instead of waiting for ever."""

from __future__ import annotations

import pytest

from xdb.interfaces.limits import Oversized, request_id

HUGE = b'"' + b"x" * 200  # the start of a value far larger than what is kept


@pytest.mark.parametrize(
    ("head", "tail", "expected"),
    [
        # The Python SDK's layout, and the id first.
        (b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"a":' + HUGE, b"", 4),
        (b'{"id":7,"jsonrpc":"2.0","method":"tools/call","params":{"a":' + HUGE, b"", 7),
        # Anywhere among the members before the huge value, any id the spec allows.
        (b'{"method":"tools/call","id":2,"jsonrpc":"2.0","params":{"x":' + HUGE, b"", 2),
        (b'{ "method" : "x" , "id" : "a\\"b" , "params":{"x":' + HUGE, b"", 'a"b'),
        (b'{"method":"x","meta":{"k":[1,{"z":2}]},"id":-3,"params":' + HUGE, b"", -3),
        # The TypeScript SDK's layout: id last.
        (b'{"method":"x","params":{"a":' + HUGE, b'xx"},"jsonrpc":"2.0","id":11}', 11),
        # Not the request's id: nested, inside a string, or no request at all.
        (b'{"method":"tools/call","params":{"id":5,"x":' + HUGE, b"", None),
        (b'{"method":"x","note":"\\"id\\":9,","params":{"x":' + HUGE, b"", None),
        (b'{"jsonrpc":"2.0","id":1,"result":{"x":' + HUGE, b"", None),
        (b'{"method":"x","id":1.5,"params":' + HUGE, b"", None),
    ],
)
def test_the_id_is_found_wherever_the_request_shows_it(
    head: bytes, tail: bytes, expected: int | str | None
) -> None:
    assert request_id(Oversized(10**9, head, tail)) == expected
