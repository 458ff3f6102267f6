"""The plain-data wire format between the sandbox and the trusted side.

Only values built from ``None``, ``bool``, ``int``, ``float``, ``str``, ``bytes``, ``list``,
``tuple``, ``dict``, ``set``, ``frozenset`` and ``complex`` cross the boundary, each tagged with
its exact type so that ``1``, ``1.0``, ``True`` and ``"1"`` stay different. The standard
containers ``collections.Counter``, ``OrderedDict`` and ``deque`` cross too (rebuilt on the
trusted side from their items); a ``defaultdict`` arrives as a ``dict``. Anything else (a subclass of
``int``, an object with a custom ``__eq__``, a generator) is refused with a reason, so the
trusted side never holds an object the candidate made.

This module is imported by the sandbox harness too, so it uses the standard library only.

>>> decode(encode((1, [2.5, "a"], {None: {True}})))
(1, [2.5, 'a'], {None: {True}})
>>> try:
...     encode(type("Sneaky", (int,), {})(3))
... except WireError as e:
...     print(e)
cannot send a value of type Sneaky (only plain data crosses)
"""

from __future__ import annotations

import json
import os
import struct
from collections import Counter, OrderedDict, defaultdict, deque
from typing import Any

MAX_DEPTH = 64  # deeper values are refused: a decoder must never recurse without bound
OPAQUE_REPR_CHARS = 200  # the repr sent for a value the wire cannot carry
MAX_INT_HEX_DIGITS = 50_000  # ~200k bits: big enough for factorials, small enough to parse fast
# a candidate's own job (its code and limits, as JSON) read from its memfd; ``run_tests``
# scores code over it 0 before it reaches a sandbox (a property of the code, not a fault)
JOB_BYTES = 64 << 20
_HEADER = struct.Struct(">I")
_SEQUENCE_TAGS = {list: "l", tuple: "t", set: "S", frozenset: "F", deque: "Q"}
_SEQUENCE_TYPES = {tag: t for t, tag in _SEQUENCE_TAGS.items()}
_MAPPING_TAGS = {dict: "d", defaultdict: "d", Counter: "C", OrderedDict: "O"}
_MAPPING_TYPES = {"d": dict, "C": Counter, "O": OrderedDict}


class WireError(ValueError):
    """A value or message that does not fit the plain-data wire format."""


def encode(value: Any, _depth: int = 0) -> Any:
    """Turn a plain value into a JSON-ready tagged form; raise ``WireError`` otherwise.

    >>> encode([True, 3])
    ['l', [['b', True], ['i', '3']]]
    """
    if _depth > MAX_DEPTH:
        raise WireError(f"value nested deeper than {MAX_DEPTH}")
    t = type(value)  # exact types only: a subclass could override __eq__ or __hash__
    if value is None:
        return ["N"]
    if t is bool:
        return ["b", value]
    if t is int:
        return ["i", format(value, "x")]  # hex is linear-time to parse, decimal is not
    if t is float:
        return ["f", value.hex()]
    if t is str:
        return ["s", value]
    if t is bytes:
        return ["B", value.hex()]
    if t is complex:
        return ["c", [value.real.hex(), value.imag.hex()]]
    if t in _SEQUENCE_TAGS:
        return [_SEQUENCE_TAGS[t], [encode(v, _depth + 1) for v in list(value)]]
    if t in _MAPPING_TAGS:
        # exact types only, so these are the stdlib classes; items are read as plain data
        pairs = [[encode(k, _depth + 1), encode(v, _depth + 1)] for k, v in value.items()]
        return [_MAPPING_TAGS[t], pairs]
    raise WireError(f"cannot send a value of type {t.__name__} (only plain data crosses)")


def decode(data: Any, _depth: int = 0) -> Any:
    """Rebuild a value from its tagged form, refusing anything malformed.

    >>> decode(["t", [["i", "-ff"], ["f", "0x1.8000000000000p+0"]]])
    (-255, 1.5)
    """
    if _depth > MAX_DEPTH:
        raise WireError(f"value nested deeper than {MAX_DEPTH}")
    if type(data) is not list or not data or type(data[0]) is not str:
        raise WireError("malformed value")
    tag, rest = data[0], data[1:]
    try:
        if tag == "N" and not rest:
            return None
        (payload,) = rest
        if tag == "b" and type(payload) is bool:
            return payload
        if tag == "i" and type(payload) is str and len(payload) <= MAX_INT_HEX_DIGITS:
            return int(payload, 16)
        if tag == "f" and type(payload) is str and len(payload) <= 40:
            return float.fromhex(payload)
        if tag == "s" and type(payload) is str:
            return payload
        if tag == "B" and type(payload) is str:
            return bytes.fromhex(payload)
        if tag == "c" and type(payload) is list and len(payload) == 2:
            if not all(type(x) is str and len(x) <= 40 for x in payload):
                raise WireError("malformed complex")
            return complex(float.fromhex(payload[0]), float.fromhex(payload[1]))
        if tag in _SEQUENCE_TYPES and type(payload) is list:
            return _SEQUENCE_TYPES[tag](decode(v, _depth + 1) for v in payload)
        if tag in _MAPPING_TYPES and type(payload) is list:
            out = _MAPPING_TYPES[tag]()
            for pair in payload:
                if type(pair) is not list or len(pair) != 2:
                    raise WireError("malformed dict entry")
                out[decode(pair[0], _depth + 1)] = decode(pair[1], _depth + 1)
            return out
    except WireError:
        raise
    except (ValueError, TypeError, OverflowError, RecursionError) as e:
        raise WireError(f"malformed value ({type(e).__name__})") from None
    raise WireError(f"malformed value with tag {tag!r}")


def pack(message: dict) -> bytes:
    """Frame a JSON message: 4-byte big-endian length, then UTF-8 JSON."""
    body = json.dumps(message, separators=(",", ":")).encode()
    return _HEADER.pack(len(body)) + body


def unpack(body: bytes) -> dict:
    """Parse one framed message body; raise ``WireError`` if it is not a JSON object."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError) as e:
        raise WireError(f"malformed message ({type(e).__name__})") from None
    if type(message) is not dict:
        raise WireError("malformed message (not an object)")
    return message


def header_length(header: bytes) -> int:
    """The body length announced by a 4-byte header."""
    return _HEADER.unpack(header)[0]


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd`` (a pipe may take it in parts)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks, left = [], n
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_msg(fd: int, max_bytes: int) -> dict | None:
    """Read one framed message; None on EOF. Raises ``WireError`` if oversized."""
    header = _read_exact(fd, 4)
    if header is None:
        return None
    size = header_length(header)
    if size > max_bytes:
        raise WireError(f"message of {size} bytes exceeds the {max_bytes}-byte cap")
    body = _read_exact(fd, size)
    if body is None:
        return None
    return unpack(body)


def describe(exc: BaseException) -> list:
    """An exception as the wire carries it: ``[type name, message]``, the message cut to 300
    characters; never raises, whatever the exception's ``__str__`` does."""
    try:
        text = str(exc)[:300]
    except BaseException:
        text = "<unprintable>"
    return [type(exc).__name__, text]
