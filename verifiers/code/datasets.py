"""Tests in ``run_tests`` form for the rows of HumanEval and MBPP (the published files).

>>> row = {"entry_point": "inc", "test": "def check(candidate):\\n    assert candidate(1) == 2\\n"}
>>> humaneval_tests(row)[0]["entry_point"]
'inc'
>>> mbpp_tests({"code": "def f(x):\\n    return x", "test_imports": ["import math"],
...             "test_list": ["assert f(1) == 1", "assert f(2) == 2"]})[1]
{'assert_code': 'assert f(2) == 2', 'entry_point': 'f', 'setup': 'import math'}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def humaneval_tests(row: Mapping[str, Any]) -> list[dict[str, str]]:
    """One assert test: the row's ``test`` code, whose ``check(candidate)`` is called."""
    return [{"assert_code": row["test"], "entry_point": row["entry_point"]}]


def humaneval_program(row: Mapping[str, Any], completion_code: str) -> str:
    """The program HumanEval runs: the prompt (signature, imports, helpers) + the body."""
    return row["prompt"] + completion_code


def mbpp_entry_point(row: Mapping[str, Any]) -> str:
    """The function the tests call: the first name called in the first test that the
    solution defines (MBPP rows do not name it)."""
    defined = set(re.findall(r"^def\s+([A-Za-z_]\w*)", row["code"], re.M))
    for name in _CALLED.findall(row["test_list"][0]):
        if name in defined:
            return name
    raise ValueError(f"row {row.get('task_id')}: cannot find the entry point in test_list[0]")


def mbpp_tests(row: Mapping[str, Any]) -> list[dict[str, str]]:
    """One assert test per line of ``test_list``, each with ``test_imports`` as setup."""
    entry = mbpp_entry_point(row)
    setup = "\n".join(row.get("test_imports") or [])
    return [{"assert_code": t, "entry_point": entry, "setup": setup} for t in row["test_list"]]
