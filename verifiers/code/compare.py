"""How the trusted side compares what a candidate produced with what a test expects.

Both comparisons are strict on purpose: lenient comparators (token sets, ``zip`` over lines
that ignores missing ones, ``1 == True``) are how published harnesses accept wrong programs.

>>> typed_equal([1, (2.0, "x")], [1, (2.0, "x")])
True
>>> typed_equal(True, 1), typed_equal(1.0, 1), typed_equal([1, 2], (1, 2))
(False, False, False)
>>> stdout_matches("3  \\n4\\n\\n", "3\\n4")
True
>>> stdout_matches("3\\n", "3\\n4\\n")
False
"""

from __future__ import annotations

import math
from collections import Counter, OrderedDict, deque
from collections.abc import Iterable
from typing import Any


def typed_equal(got: Any, expected: Any, *, rel_tol: float = 1e-9, abs_tol: float = 0.0) -> bool:
    """Equal by value *and* exact type, recursively; floats within ``rel_tol``/``abs_tol``.

    Both arguments are plain data (``wire.decode`` built ``got``), so ``==`` and ``hash``
    here are the builtin ones. NaN equals NaN, since "returned NaN" is a definite answer.

    >>> typed_equal({"a": [0.1 + 0.2]}, {"a": [0.3]})
    True
    >>> typed_equal({1, 2}, {2, 1}), typed_equal(float("nan"), float("nan"))
    (True, True)
    """
    if type(got) is not type(expected):
        return False
    if type(got) is float:
        if math.isnan(got) or math.isnan(expected):
            return math.isnan(got) and math.isnan(expected)
        return got == expected or math.isclose(got, expected, rel_tol=rel_tol, abs_tol=abs_tol)
    if type(got) in (list, tuple, deque):
        return len(got) == len(expected) and all(
            typed_equal(g, e, rel_tol=rel_tol, abs_tol=abs_tol)
            for g, e in zip(got, expected, strict=True)
        )
    if type(got) in (dict, Counter, OrderedDict):
        return (
            got.keys() == expected.keys()
            and _member_types(got.keys()) == _member_types(expected.keys())  # 1 vs 1.0 keys
            and all(typed_equal(got[k], expected[k], rel_tol=rel_tol, abs_tol=abs_tol) for k in got)
        )
    # set members and dict keys meet by the builtin hash/eq, where 1 == 1.0 == True: their
    # types are compared separately. str, bytes, int, bool, None: exact.
    if type(got) in (set, frozenset):
        return got == expected and _member_types(got) == _member_types(expected)
    return got == expected


def _member_types(values: Iterable[Any]) -> list[str]:
    return sorted(map(_typed_key, values))


def _typed_key(value: Any) -> str:
    """Names a set member or dict key with its type, nested types included. Ints are in hex:
    ``repr`` of an int over 4300 decimal digits raises, and the candidate chooses the int.
    A frozenset's members are sorted, so equal frozensets get the same key.

    >>> _typed_key((1, frozenset({2.0, True})))
    'tuple(int:1,frozenset(bool:True,float:2.0))'
    """
    t = type(value)
    if t is int:
        return f"int:{value:x}"
    if t is tuple:
        return "tuple(" + ",".join(map(_typed_key, value)) + ")"
    if t is frozenset:
        return "frozenset(" + ",".join(sorted(map(_typed_key, value))) + ")"
    return f"{t.__name__}:{value!r}"


def normalise_stdout(text: str) -> list[str]:
    """Lines with trailing whitespace stripped, trailing empty lines dropped.

    >>> normalise_stdout("a \\r\\nb\\n\\n")
    ['a', 'b']
    """
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def stdout_matches(got: str, expected: str) -> bool:
    """Exact line-by-line equality after :func:`normalise_stdout` (same number of lines)."""
    return normalise_stdout(got) == normalise_stdout(expected)
