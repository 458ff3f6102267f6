"""Tests in ``run_tests`` form for the rows of HumanEval and MBPP (the published files).

>>> row = {"entry_point": "inc", "test": "def check(candidate):\\n    assert candidate(1) == 2\\n"}
>>> humaneval_tests(row)[0]["entry_point"]
'inc'
>>> mbpp_tests({"code": "def f(x):\\n    return x", "test_imports": ["import math"],
...             "test_list": ["assert f(1) == 1", "assert f(2) == 2"]})[1]
{'assert_code': 'assert f(2) == 2', 'entry_point': 'f', 'setup': 'import math'}
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Any

_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def humaneval_tests(row: Mapping[str, Any]) -> list[dict[str, str]]:
    """One assert test: the row's ``test`` code, whose ``check(candidate)`` is called.

    With the row's ``prompt``, the test's setup is the prompt minus the entry point: its
    imports and helpers (``poly`` in HumanEval/32, ``encode_cyclic`` in /38) then belong to
    the test, so a candidate that redefines them changes nothing.

    >>> humaneval_tests({"prompt": "def h(x):\\n    return -x\\n\\ndef f(x):\\n    pass\\n",
    ...                  "entry_point": "f", "test": "def check(c): pass"})[0]["setup"]
    'def h(x):\\n    return -x\\n\\n'
    """
    test = {"assert_code": row["test"], "entry_point": row["entry_point"]}
    if row.get("prompt"):
        test["setup"] = _without_function(row["prompt"], row["entry_point"])
    return [test]


def _without_function(source: str, name: str) -> str:
    """``source`` with the top-level definition of ``name`` (and its decorators) removed."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ""  # a prompt that does not parse defines nothing the test could use
    drop: set[int] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            drop.update(range(first, (node.end_lineno or node.lineno) + 1))
    lines = source.splitlines(keepends=True)
    return "".join(line for i, line in enumerate(lines, 1) if i not in drop)


def humaneval_program(row: Mapping[str, Any], completion_code: str) -> str:
    """The program HumanEval runs: the prompt (signature, imports, helpers) + the body."""
    return join_program(row["prompt"], completion_code)


def join_program(prefix: str, code: str) -> str:
    """``prefix + code``, with the ``from __future__`` imports that open ``code`` moved above
    the prefix: there they are legal, after it a SyntaxError (a complete answer that starts
    with ``from __future__ import annotations``).

    >>> join_program("import math\\n", "from __future__ import annotations\\nx: int = 1\\n")
    'from __future__ import annotations\\nimport math\\nx: int = 1\\n'
    """
    if not prefix or "__future__" not in code:
        return prefix + code
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return prefix + code  # the code fails as it would have: not ours to repair
    body = tree.body
    start = 1 if body and _is_docstring(body[0]) else 0
    lines: set[int] = set()
    for node in body[start:]:
        if not (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            break
        lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    if not lines:
        return prefix + code
    source = code.splitlines(keepends=True)
    hoisted = "".join(line for i, line in enumerate(source, 1) if i in lines)
    rest = "".join(line for i, line in enumerate(source, 1) if i not in lines)
    if not hoisted.endswith("\n"):
        hoisted += "\n"
    return hoisted + prefix + rest


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


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


# A docstring example's separator between the call and its value: "==", "==>", "=>", "->",
# "➞", "=", "returns", "should return", optionally after "#".
_EXAMPLE_SEP = re.compile(r"\s*#?\s*(?:==>|==|=>|->|➞|=|(?:should\s+)?returns?)\s*", re.I)


def _balanced_call(line: str, start: int) -> int | None:
    """The index just past the ``)`` closing the call whose ``(`` follows ``start``."""
    depth, quote = 0, ""
    for i in range(line.index("(", start), len(line)):
        ch = line[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _longest_expression(text: str) -> str | None:
    """The literal value ``text`` starts with (``[1, 5] # note`` -> ``[1, 5]``), written
    back by ``ast.unparse``; ``None`` when it starts with anything else or the value runs
    on into more text (``""aaa"`` is not ``''``)."""
    text = text.strip()
    for end in range(len(text), 0, -1):
        candidate = text[:end].rstrip(" .,;")
        rest = text[end:].lstrip(" .,;")
        if not candidate or (rest and not rest.startswith(("#", "(", "because", "since"))
                             and not text[end - 1:end].isspace()):
            continue
        try:
            tree = ast.parse(candidate, mode="eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        try:
            ast.literal_eval(tree)
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            return None  # "3 - 0 - 1 = 2", a name, a call: not a plain value
        return ast.unparse(tree)  # drops a trailing comment or newline
    return None


def _literal_call(source: str, entry: str) -> bool:
    """Whether ``source`` is one call of ``entry`` with literal arguments (``is_happy(a)``
    names a variable the docstring never defines)."""
    try:
        node = ast.parse(source.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == entry):
        return False
    try:
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            ast.literal_eval(arg)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False
    return True


def _literal_comparison(source: str, entry: str) -> bool:
    """Whether ``source`` is ``entry(literals) == literal`` (a doctest that prints True)."""
    try:
        node = ast.parse(source.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1
            and isinstance(node.ops[0], ast.Eq)):
        return False
    right = ast.unparse(node.comparators[0])
    return _literal_call(ast.unparse(node.left), entry) and _longest_expression(right) == right


def humaneval_examples(row: Mapping[str, Any]) -> list[dict[str, str]]:
    """The examples a HumanEval prompt's docstring shows, as assert tests with the setup of
    :func:`humaneval_tests` (doctest ``>>> f(x)`` / ``value`` pairs, and lines such as
    ``f(x) == y``, ``f(x) ➞ y``, ``f(x) => y``, ``f(x) returns y`` whose value is a Python
    literal). These are what the prompt already tells the model, so a code env may show
    their inputs, expected values and the candidate's output.

    >>> prompt = "def inc(x):\\n    >>> inc(1)\\n    2\\n    inc(4) ➞ 5\\n"
    >>> [t["assert_code"] for t in humaneval_examples({"entry_point": "inc", "prompt": prompt})]
    ['assert inc(1) == 2', 'assert inc(4) == 5']
    """
    import doctest

    prompt, entry = str(row.get("prompt") or ""), str(row.get("entry_point") or "")
    if not entry:
        return []
    found: list[str] = []
    try:
        doc_examples = doctest.DocTestParser().get_examples(prompt)
    except ValueError:  # inconsistent indentation in a docstring
        doc_examples = []
    for example in doc_examples:
        source, want = example.source.strip(), example.want.strip()
        if _literal_call(source, entry) and _longest_expression(want) is not None:
            found.append(f"assert {source} == {_longest_expression(want)}")
        elif _literal_comparison(source, entry) and want in ("", "True", '"""', "'''"):
            found.append(f"assert {source}")  # ">>> f(x) == 3" with no output, or True
    call = re.compile(rf"(?<![\w.]){re.escape(entry)}\s*\(")
    for line in prompt.splitlines():
        if ">>>" in line or line.lstrip().startswith("def "):
            continue
        for match in call.finditer(line):
            end = _balanced_call(line, match.start())
            if end is None or not _literal_call(line[match.start():end], entry):
                continue
            sep = _EXAMPLE_SEP.match(line, end)
            if sep is None or sep.end() == end:
                continue
            want = _longest_expression(line[sep.end():])
            if want is not None:
                found.append(f"assert {line[match.start():end]} == {want}")
    setup = _without_function(prompt, entry)
    unique = list(dict.fromkeys(found))
    return [{"assert_code": a, "entry_point": entry, "setup": setup} for a in unique]

