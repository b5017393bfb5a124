"""How deeply one message may nest, told from its bytes before any parser sees it.

``MAX_NESTING`` (128) levels of arrays and objects, counting the message's own outer object:
an MCP line (``xdb mcp``'s stdin) or the JSON body of an HTTP request nested deeper is
refused unread (``limits``). Every parser behind it recurses: the MCP SDK's (pydantic's
jiter) gives up past about 200 levels, Python's ``json`` past about 1,000 with a
RecursionError, and a line neither could read was passed over in silence, so the client's
call waited for ever. 128 sits under all of them, so whatever passes here every parser
reads; no record, tag or episode needs a tenth of it.

The check is linear and runs in C-speed passes over the bytes (``translate``, ``replace``),
since a message may be a 64 MiB batch of timesteps (0.07 s for one here, where ``json.loads``
takes 2 s): a message with no more than ``MAX_NESTING`` brackets in all (nearly every
one) costs one ``translate`` and nothing else.
"""

from __future__ import annotations

import re
from array import array
from itertools import accumulate

__all__ = ["MAX_NESTING", "too_deep"]

MAX_NESTING = 128

# JSON's structure without its content: brackets (both kinds as "[" and "]", since only how
# deep they go matters here) and the quotes that say which brackets sit inside strings.
_SHAPE = bytes.maketrans(b"{}", b"[]")
_NOT_SHAPE = bytes(c for c in range(256) if c not in b'"[]{}')
_STRING = re.compile(rb'"[^"]*"')
# Each bracket, or run of 8 or 64 (see ``_deeper``), as a signed byte: its step in depth.
_STEPS = bytes.maketrans(b"[](){}", bytes([1, 255, 8, 256 - 8, 64, 256 - 64]))
_PASSES = 8  # innermost pairs peeled before counting; ordinary data is gone by then
_CHUNK = 1 << 20


def too_deep(data: bytes, limit: int = MAX_NESTING) -> bool:
    """Whether the JSON text ``data`` nests arrays and objects more than ``limit`` deep.

    Brackets inside strings do not count. Text that is no JSON may be called either way
    (whatever is said, a parser refuses it).
    """
    shape = data.translate(_SHAPE, _NOT_SHAPE)  # one pass in C, far shorter than data
    if shape.count(b"[") <= limit:
        return False  # too few openers to nest that deep
    if b"\\" in data and b'\\"' in data:  # (the first, one byte, is found far faster)
        # An escaped quote does not end its string. Escaped backslashes go first, so that
        # the quote after one (``"a\\"``) still ends it; no backslash stands outside strings.
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
        shape = data.translate(_SHAPE, _NOT_SHAPE)
    # Adjacent quotes are an empty string, or the end of one and the start of the next with
    # no bracket between: dropping them leaves what lies outside strings as it was.
    shape = shape.replace(b'""', b"")
    if b'"' in shape:
        shape = _STRING.sub(b"", shape)  # the strings that hold brackets
    return _deeper(shape, limit)


def _deeper(shape: bytes, limit: int) -> bool:
    """Whether brackets ``shape`` (only "[" and "]") nest more than ``limit`` deep."""
    peeled = 0
    # Each pass drops every "[]": the innermost pairs, one level of depth. Ordinary data is
    # a few levels deep and mostly gone after a pass or two; a run of limit + 1 openers is
    # too deep however it goes on. A pass that drops less than a quarter (tall shapes, each
    # pass a scan of them all for a few pairs) hands over to counting.
    while shape and peeled < min(_PASSES, limit):
        if b"[" * (limit + 1 - peeled) in shape:
            return True
        size = len(shape)
        shape = shape.replace(b"[]", b"")
        peeled += 1
        if len(shape) > size * 3 // 4:
            break
    # Deeper, or shaped to peel slowly: the running depth, summed a chunk at a time in C and
    # stopping at the first chunk past the limit. Runs of 64 and of 8 like brackets are one
    # step each first (the deepest point of a run is its end either way): a tall shape is
    # summed in a few steps per run, not one per bracket.
    for one, eight, sixty_four in ((b"[", b"(", b"{"), (b"]", b")", b"}")):
        shape = shape.replace(one * 64, sixty_four).replace(one * 8, eight)
    level = peeled
    for start in range(0, len(shape), _CHUNK):
        steps = array("b", shape[start : start + _CHUNK].translate(_STEPS))
        if max(accumulate(steps, initial=level)) > limit:
            return True
        level += sum(steps)
    return False
