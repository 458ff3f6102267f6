"""verifiers.code: test kinds, strict comparison, rewards, batch runs, isolation report,
no-signal on infrastructure failure, and the wire format."""

from __future__ import annotations

import contextlib
import math
import os
import subprocess
import sys
from collections import Counter, OrderedDict, deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifiers.code import (
    CodeResult,
    Limits,
    SandboxPool,
    code_check,
    code_reward,
    extract_code,
    run_tests,
    run_tests_batch,
    stdout_matches,
    typed_equal,
    wire,
)
from verifiers.types import Verdict

ADD = "def add(a, b):\n    return a + b\n"


@pytest.fixture(scope="module")
def pool():
    p = SandboxPool(workers=2)
    yield p
    p.close()


def call(name, args, expected, **kw):
    return {"entry_point": name, "args": args, "expected": expected, **kw}


# ----------------------------------------------------------------------------- test kinds


def test_call_tests_compare_value_and_type(pool):
    r = run_tests(
        ADD,
        [call("add", [1, 2], 3), call("add", [1, 2], 3.0), call("add", [True, False], True),
         call("add", [[1], [2]], [1, 2]), call("add", [(1,), (2,)], [1, 2])],
        pool=pool,
    )  # fmt: skip
    assert [t.passed for t in r.tests] == [True, False, False, True, False]
    assert r.reward == pytest.approx(2 / 5)
    assert r.all_passed is False and r.all_or_nothing == 0.0
    assert r.tests[1].error == "wrong" and r.tests[1].got == "3"


def test_call_kwargs_and_float_tolerance(pool):
    code = "def area(r, *, pi=3.14159):\n    return pi * r * r\n"
    tests = [
        call("area", [1.0], 3.14159),
        {"entry_point": "area", "args": [2.0], "kwargs": {"pi": math.pi}, "expected": 4 * math.pi},
        call("area", [1.0], 3.0, abs_tol=0.2),
        call("area", [1.0], 3.0),
    ]
    r = run_tests(code, tests, pool=pool)
    assert [t.passed for t in r.tests] == [True, True, True, False]


def test_all_plain_types_round_trip(pool):
    value = [None, True, -(2**200), 1.5, "é", b"\x00", (1, 2), {1, 2}, frozenset({3}),
             {"k": [1]}, 1 + 2j, Counter("aab"), OrderedDict(a=1), deque([1])]  # fmt: skip
    code = f"from collections import *\ndef f():\n    return {value!r}\n"
    r = run_tests(code, [call("f", [], value)], pool=pool)
    assert r.all_passed, r.tests[0]


def test_candidate_exceptions_are_failures_with_their_type(pool):
    code = "def f(x):\n    if x < 0:\n        raise ValueError('neg')\n    return x\n"
    r = run_tests(code, [call("f", [1], 1), call("f", [-1], -1), call("g", [1], 1)], pool=pool)
    assert [t.passed for t in r.tests] == [True, False, False]
    assert r.tests[1].error == "ValueError" and "neg" in r.tests[1].message
    assert r.tests[2].error == "NameError"


def test_module_load_error_fails_every_test(pool):
    r = run_tests(
        "def add(a, b):\n    return a + b\n1/0\n", [call("add", [1, 2], 3)] * 2, pool=pool
    )
    assert r.reward == 0.0 and r.status == "ok"
    assert r.tests[0].error == "load:ZeroDivisionError"


def test_stdin_tests_are_exact_line_by_line(pool):
    code = "a, b = map(int, input().split())\nprint(a + b)\nprint(a * b)   \n"
    tests = [
        {"stdin": "2 3\n", "expected_stdout": "5\n6\n"},
        {"stdin": "2 3\n", "expected_stdout": "5\n6"},  # trailing newline/space ignored
        {"stdin": "2 3\n", "expected_stdout": "5\n"},  # a missing line is not ignored
        {"stdin": "2 3\n", "expected_stdout": "5\n6\n7\n"},  # nor an extra expected line
        {"stdin": "2 3\n", "expected_stdout": "6\n5\n"},  # order matters
        {"stdin": "", "expected_stdout": ""},  # EOFError: exit status 1
    ]
    r = run_tests(code, tests, pool=pool)
    assert [t.passed for t in r.tests] == [True, True, False, False, False, False]
    assert r.tests[5].error == "exit status 1" and "EOFError" in r.tests[5].stderr


def test_stdin_nonzero_exit_fails_even_with_right_output(pool):
    r = run_tests(
        "print(3)\nraise SystemExit(2)\n", [{"stdin": "", "expected_stdout": "3\n"}], pool=pool
    )
    assert not r.all_passed and r.tests[0].error == "exit status 2"


def test_stdout_comparator_helpers():
    assert stdout_matches("a\t \nb", "a\nb\n\n")
    assert not stdout_matches("a b", "a  b")
    assert not stdout_matches("", "0")
    assert not typed_equal({1}, {True}) and not typed_equal({1: 0}, {1.0: 0})


def test_assert_tests_humaneval_and_mbpp_style(pool):
    check = (
        "def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(-1, 1) == 0\n"
    )
    tests = [
        {"assert_code": check, "entry_point": "add"},
        {"assert_code": "assert add(1, 1) == 2", "entry_point": "add"},
        {"assert_code": "assert math.isclose(add(0.1, 0.2), 0.3)", "entry_point": "add",
         "setup": "import math"},
        {"assert_code": "assert add(1, 1) == 3", "entry_point": "add"},
    ]  # fmt: skip
    r = run_tests(ADD, tests, pool=pool)
    assert [t.passed for t in r.tests] == [True, True, True, False]
    assert r.tests[3].error == "AssertionError"


def test_assert_code_can_expect_a_builtin_exception(pool):
    code = "def f(x):\n    raise ValueError('bad')\n"
    test = "try:\n    f(1)\n    raise AssertionError('no error')\nexcept ValueError:\n    pass\n"
    assert run_tests(code, [{"assert_code": test, "entry_point": "f"}], pool=pool).all_passed


def test_test_names_resolve_in_the_test_not_in_the_candidate(pool):
    # the entry point may call its own helpers; the test code reaches the entry point only
    code = "def sq(x):\n    return x * x\ndef f(x):\n    return sq(x) + 1\n"
    own = {"assert_code": "assert f(2) == 5", "entry_point": "f"}
    theirs = {"assert_code": "assert f(2) == sq(2) + 1", "entry_point": "f"}
    helper = {"assert_code": "assert f(2) == sq(2) + 1", "entry_point": "f",
              "setup": "def sq(x):\n    return x * x"}  # fmt: skip
    r = run_tests(code, [own, theirs, helper], pool=pool)
    assert [t.passed for t in r.tests] == [True, False, True]
    assert r.tests[1].error == "NameError" and "sq" in r.tests[1].message


def test_assert_test_passing_a_non_plain_argument_is_unsupported(pool):
    r = run_tests(ADD, [{"assert_code": "add(lambda: 1, 2)", "entry_point": "add"}], pool=pool)
    assert r.tests[0].error == "UnsupportedTest" and r.reward == 0.0


def test_mixed_kinds_in_one_run(pool):
    code = "import sys\ndef add(a, b):\n    return a + b\nif __name__ == '__main__':\n    print(add(*map(int, sys.stdin.read().split())))\n"
    tests = [call("add", [1, 2], 3), {"stdin": "4 5", "expected_stdout": "9"},
             {"assert_code": "assert add(2, 2) == 4", "entry_point": "add"}]  # fmt: skip
    r = run_tests(code, tests, pool=pool)
    assert [t.kind for t in r.tests] == ["call", "stdin", "assert"]
    assert r.all_passed


def test_timeout_fails_remaining_tests_and_keeps_earlier_ones(pool):
    code = "def f(x):\n    while x:\n        pass\n    return x\n"
    r = run_tests(
        code, [call("f", [0], 0), call("f", [1], 1), call("f", [0], 0)], timeout=1.0, pool=pool
    )
    assert [t.passed for t in r.tests] == [True, False, False]
    assert r.tests[1].error == "timeout" and r.status == "ok"


def test_stdout_excerpt_is_captured_and_capped(pool):
    code = "print('hello')\nprint('x' * 100000)\ndef f():\n    return 1\n"
    r = run_tests(code, [call("f", [], 1)], pool=pool, limits=Limits(excerpt_bytes=100))
    assert (
        r.tests[0].passed
        and r.tests[0].stdout.startswith("hello")
        and len(r.tests[0].stdout) == 100
    )


# ----------------------------------------------------------------------------- isolation


def test_isolation_report_and_what_the_candidate_sees(pool):
    code = """
import os, socket
def probe(paths):
    try:
        socket.create_connection(("1.1.1.1", 53), timeout=0.5)
        net = "up"
    except OSError:
        net = "down"
    return [os.getuid(), dict(os.environ), net, os.getcwd(), os.listdir("/tmp"),
            sorted(p for p in os.listdir("/proc") if p.isdigit()), sorted(os.listdir("/")),
            [p for p in paths if os.path.lexists(p)]]
"""
    here = os.path.dirname(os.path.abspath(__file__))
    host_paths = [here, os.path.expanduser("~"), "/work", "/home", "/etc/passwd", "/usr/bin",
                  "/var", os.environ.get("RLVR_DATA_DIR", "/nonexistent"), sys.executable]  # fmt: skip
    r = run_tests(code, [call("probe", [host_paths], None)], pool=pool)
    assert r.status == "ok" and r.tests[0].error == "wrong"
    uid, env, net, cwd, tmp, pids, root, seen = eval(r.tests[0].got)  # a repr of plain data
    assert env == {} and net == "down" and cwd == "/tmp" and tmp == []
    iso = r.isolation
    assert iso["net_namespace"] == "yes" and iso["env"] == "empty" and iso["python"] == "-I -S"
    assert iso["ipc_namespace"] == "yes" or iso["ipc_namespace"].startswith("no (")
    if iso["uid"] is not None:
        assert uid == iso["uid"] != 0
    assert iso["limits"]["memory_bytes"] == Limits().memory_bytes
    if iso["mount_namespace"] != "yes":
        return  # no allowlist without a mount namespace (reported as such)
    visible = iso["filesystem"]["visible (read-only)"]
    assert len(pids) == 1  # hidepid: the sandbox's own supervisor and judge are not listed
    # every top-level name is on the way to something the report lists, nothing else
    assert set(root) <= {"dev", "etc", "proc", "tmp", "lib", "lib64", "bin", "sbin", "usr"} | {
        p.split("/")[1] for p in visible
    }
    assert "/etc/ld.so.cache" in visible or "etc" not in root

    assert seen == [p for p in host_paths if _in_the_jail(p, visible)]
    assert here not in seen and "/work" not in seen and "/etc/passwd" not in seen


def _in_the_jail(path: str, visible: list[str]) -> bool:
    """Whether ``path`` exists for a candidate: it lies inside an allowlisted folder or on the
    way to one, and each symlink on the way does too (the jail recreates a symlink only on
    the way to what it exposes). A venv's ``bin/python`` links to the real interpreter, but
    the venv itself is not exposed: the candidate sees the interpreter, not the link (the
    sandbox runs ``-S``, so nothing in a venv is meant for it)."""

    def on_the_way(p: str) -> bool:
        return any((p + "/").startswith(v + "/") or v.startswith(p + "/") for v in visible)

    path = os.path.abspath(path)
    for _ in range(40):  # symlink hops
        parts = [p for p in path.split("/") if p]
        for i in range(1, len(parts) + 1):
            here = "/" + "/".join(parts[:i])
            if not on_the_way(here):
                return False
            if i < len(parts) and os.path.islink(here):
                target = os.path.join(os.path.dirname(here), os.readlink(here))
                path = os.path.normpath(os.path.join(target, *parts[i:]))
                break
        else:
            return True
    return False


def test_the_isolation_test_passes_when_the_project_runs_from_a_venv(tmp_path):
    """Most users install into a virtualenv, CI into the system Python: run the isolation
    test from a venv too, where ``sys.executable`` is a link the candidate must not see."""
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
        check=True, timeout=120,
    )  # fmt: skip
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    here = os.path.relpath(os.path.abspath(__file__), root)
    cmd = [str(venv / "bin" / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider",
           f"{here}::test_isolation_report_and_what_the_candidate_sees"]  # fmt: skip
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:]  # 5 if nothing ran, 1 if it failed


def test_threads_processes_and_the_interpreter_work_in_the_jail(pool):
    """The seccomp filter refuses ``clone3`` (libc falls back to ``clone``) and the jail
    holds copies: threads, a child process and ``sys.executable`` still work."""
    code = """
import concurrent.futures, multiprocessing, subprocess, sys, sqlite3
def f(n):
    with concurrent.futures.ThreadPoolExecutor(4) as ex:
        threads = sum(ex.map(abs, range(-n, 0)))
    q = multiprocessing.Queue()
    p = multiprocessing.Process(target=q.put, args=(n,))
    p.start()
    child = q.get()
    p.join()
    run = subprocess.run([sys.executable, "-c", "print(6 * 7)"], capture_output=True, text=True)
    db = sqlite3.connect(":memory:")
    return [threads, child, run.stdout.strip(), db.execute("select 1 + 1").fetchone()[0]]
"""
    r = run_tests(code, [call("f", [5], [15, 5, "42", 2])], pool=pool, timeout=30.0,
                  limits=Limits(processes=16))  # fmt: skip
    assert r.all_passed, [(t.error, t.message, t.got) for t in r.tests]


def test_os_refusing_a_limit_is_no_signal_not_zero(pool):
    # RLIMIT_NOFILE above the hard maximum: the OS refuses, the code is not to blame
    r = run_tests(ADD, [call("add", [1, 2], 3)], pool=pool, limits=Limits(open_files=2**40))
    assert r.status == "no_signal" and r.reward is None and r.all_or_nothing is None
    assert "setrlimit" in r.reason
    v = code_check(ADD, [call("add", [1, 2], 3)], pool=pool, limits=Limits(open_files=2**40))
    assert v.reward is None and v.reason == "no_signal"


def test_sandbox_that_cannot_start_is_no_signal(pool, monkeypatch):
    from verifiers.code import sandbox

    monkeypatch.setattr(sandbox, "HARNESS", "/nonexistent/harness.py")
    broken = SandboxPool(workers=1)
    try:
        r = run_tests(ADD, [call("add", [1, 2], 3)], pool=broken)
        assert r.reward is None and r.status == "no_signal" and "did not start" in r.reason
    finally:
        broken.close()


# ----------------------------------------------------------------------------- API


def test_run_tests_rejects_bad_input_naming_the_field(pool):
    with pytest.raises(ValueError, match="code"):
        run_tests(None, [call("add", [], 1)], pool=pool)
    with pytest.raises(ValueError, match="tests"):
        run_tests(ADD, [], pool=pool)
    with pytest.raises(ValueError, match=r"tests\[0\]: cannot tell"):
        run_tests(ADD, [{"args": [1]}], pool=pool)
    with pytest.raises(ValueError, match=r"tests\[0\]: call test is missing \['expected'\]"):
        run_tests(ADD, [{"entry_point": "add", "args": [1]}], pool=pool)
    with pytest.raises(ValueError, match=r"unknown field\(s\) \['expect'\]"):
        run_tests(ADD, [{"entry_point": "add", "expected": 1, "expect": 1}], pool=pool)
    with pytest.raises(ValueError, match="plain data"):
        run_tests(ADD, [call("add", [object()], 1)], pool=pool)
    with pytest.raises(ValueError, match=r"tests\[0\].entry_point"):
        run_tests(ADD, [call("a b", [], 1)], pool=pool)
    with pytest.raises(ValueError, match="timeout"):
        run_tests(ADD, [call("add", [1, 2], 3)], timeout=0, pool=pool)


def test_code_check_extracts_the_last_python_block(pool):
    completion = (
        "First try:\n```python\ndef add(a, b):\n    return a - b\n```\n"
        "Fixed:\n```python\ndef add(a, b):\n    return a + b\n```\nDone."
    )
    v = code_check(completion, [call("add", [1, 2], 3)], pool=pool)
    assert isinstance(v, Verdict) and v.reward == 1.0 and v.reason == "correct"
    assert v.details["passed"] == 1 and "return a + b" in v.pred
    assert code_reward("no code here", [call("add", [1, 2], 3)], pool=pool) == 0.0
    assert code_check("```python\n```", [call("add", [1, 2], 3)], pool=pool).reason == "no_answer"
    assert extract_code("```\nx = 1\n```") == "x = 1\n"


def test_code_check_all_or_nothing_and_json_tests(pool):
    tests = '[{"entry_point": "add", "args": [1, 2], "expected": 3},' \
            ' {"entry_point": "add", "args": [1, 2], "expected": 4}]'  # fmt: skip
    assert code_reward(ADD, tests, pool=pool) == 0.5
    assert code_reward(ADD, tests, pool=pool, all_or_nothing=True) == 0.0
    with pytest.raises(ValueError, match="JSON"):
        code_check(ADD, "not json", pool=pool)


def test_batch_runs_a_group_in_parallel_order_preserved(pool):
    codes = [f"def f():\n    return {k}\n" for k in range(6)]
    results = run_tests_batch(codes, [call("f", [], 3)], pool=pool)
    assert [r.reward for r in results] == [0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    per_code = run_tests_batch(codes[:2], [[call("f", [], 0)], [call("f", [], 0)]], pool=pool)
    assert [r.reward for r in per_code] == [1.0, 0.0]
    with pytest.raises(ValueError, match="test lists"):
        run_tests_batch(codes, [[call("f", [], 0)]], pool=pool)


def test_code_result_rewards():
    assert CodeResult(tests=()).reward is None
    assert CodeResult(tests=(), status="no_signal").all_passed is False


def test_verifiers_code_does_not_import_torch():
    out = subprocess.run(
        [sys.executable, "-c", "import sys, verifiers.code; print('torch' in sys.modules)"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert out.stdout.strip() == "False"


# ----------------------------------------------------------------------------- wire format

plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
    | st.binary(),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=3)
    | st.frozensets(st.integers() | st.text(max_size=3), max_size=3),
    max_leaves=20,
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(plain)
def test_wire_round_trip_keeps_value_and_type(value):
    back = wire.decode(wire.unpack(wire.pack({"v": wire.encode(value)})[4:])["v"])
    assert typed_equal(back, value, rel_tol=0.0)


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                    lambda i: st.lists(i, max_size=4), max_leaves=15))  # fmt: skip
def test_wire_decode_of_garbage_only_raises_wire_error(data):
    with contextlib.suppress(wire.WireError):  # anything else would fail the test
        wire.decode(data)


def test_wire_refuses_deep_or_foreign_values():
    deep: list = []
    for _ in range(100):
        deep = [deep]
    with pytest.raises(wire.WireError, match="deeper"):
        wire.encode(deep)
    with pytest.raises(wire.WireError, match="type Yes"):
        wire.encode(type("Yes", (), {"__eq__": lambda s, o: True})())
    with pytest.raises(wire.WireError):
        wire.decode(["S", [["l", []]]])  # an unhashable set member
    with pytest.raises(wire.WireError):
        wire.decode(["i", "f" * (wire.MAX_INT_HEX_DIGITS + 1)])


def test_typed_equal_set_members_by_type_not_by_repr():
    from verifiers.code import typed_equal

    # equal frozensets built in another order print differently: still equal
    assert typed_equal({frozenset([0, 8])}, {frozenset([8, 0])})
    assert not typed_equal({frozenset([0, 8])}, {frozenset([8, 0.0])})  # 0 vs 0.0 inside
    assert not typed_equal({(1,)}, {(True,)}) and not typed_equal({1: 2}, {True: 2})
    assert typed_equal({1 << 20_000}, {1 << 20_000})  # no decimal repr needed
