"""``run_tests``: run one candidate against plain-dict tests in the sandbox.

Three kinds of test, told apart by their keys:

* function call ``{"entry_point": "add", "args": [1, 2], "expected": 3}`` (optional
  ``"kwargs"``, ``"rel_tol"``, ``"abs_tol"``): the return value comes back as plain data
  and is compared by value and exact type here, in the trusted parent;
* stdin/stdout ``{"stdin": "1 2\\n", "expected_stdout": "3\\n"}``: the program runs as
  ``__main__`` in a fresh process per test; stdout must match line by line (trailing
  whitespace stripped) and the exit status must be 0;
* assert code ``{"assert_code": "def check(candidate): ...", "entry_point": "add"}``
  (optional ``"setup"``, e.g. MBPP's ``test_imports``): the test code runs in the trusted
  judge with ``candidate`` (and the entry point's name) bound to a proxy of the sandboxed
  function; HumanEval's ``check(candidate)`` is called when the code defines it.

All call and assert tests share one candidate process (its module runs once); each test
has ``timeout`` seconds of wall time of its own (the first one also loads the module),
stretched by the time the candidate spent waiting for a CPU on a loaded machine, and
``Limits.cpu_s`` of CPU time per test; the whole job stops at ``sandbox.LOAD_SLACK`` x
``timeout`` (so within a rubric's own deadline, twice the sandbox's by default). Each stdin test gets its own process and its own
``timeout``.

Every limit the code can break by itself scores 0 with a reason, never "no signal": code
too large for the sandbox's job (decided here, before any sandbox sees it), time, memory,
output, a value too deep or too large for the wire. ``reward is None`` ("no signal") is
left to faults of the infrastructure alone, which are:

* the sandbox could not start (``Sandbox.start``: no interpreter, a zygote that did not
  say hello), or stopped answering within the deadline plus ``GRACE_S`` (``Sandbox.run``);
* the candidate's setup, which runs before any of its code (``candidate._become_candidate``:
  namespaces, tmpfs, rlimits, uid) failed or did not finish before the deadline; the
  trusted side decides this, from a handshake only pre-exec code can write;
* the zygote did not fork, or a sandbox error (an exception in the supervisor itself).

>>> run_tests("def add(a, b):\\n    return a + b",
...           [{"entry_point": "add", "args": [1, 2], "expected": 3},
...            {"entry_point": "add", "args": [1, 2], "expected": 3.0}]).reward
0.5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from verifiers.code import wire
from verifiers.code.compare import stdout_matches, typed_equal
from verifiers.code.result import CodeResult, TestResult
from verifiers.code.sandbox import Limits, SandboxPool, default_pool

DEFAULT_TIMEOUT = 10.0
_KEYS = {
    "call": ({"entry_point", "expected"}, {"args", "kwargs", "rel_tol", "abs_tol"}),
    "stdin": ({"stdin", "expected_stdout"}, set()),
    "assert": ({"assert_code", "entry_point"}, {"setup"}),
}


def _kind(i: int, test: Any) -> str:
    if not isinstance(test, Mapping):
        raise ValueError(f"tests[{i}]: expected a dict, got {type(test).__name__}")
    if "assert_code" in test:
        kind = "assert"
    elif "stdin" in test or "expected_stdout" in test:
        kind = "stdin"
    elif "entry_point" in test:
        kind = "call"
    else:
        raise ValueError(
            f"tests[{i}]: cannot tell the test kind; give 'entry_point'+'expected', "
            "'stdin'+'expected_stdout', or 'assert_code'+'entry_point'"
        )
    required, optional = _KEYS[kind]
    if missing := required - test.keys():
        raise ValueError(f"tests[{i}]: {kind} test is missing {sorted(missing)}")
    if extra := test.keys() - required - optional:
        raise ValueError(f"tests[{i}]: unknown field(s) {sorted(extra)} for a {kind} test")
    for key in required | optional:
        if key in ("expected", "args", "kwargs", "rel_tol", "abs_tol") or key not in test:
            continue
        if not isinstance(test[key], str):
            raise ValueError(f"tests[{i}].{key}: expected a str, got {type(test[key]).__name__}")
    if "entry_point" in test and not test["entry_point"].isidentifier():
        raise ValueError(f"tests[{i}].entry_point: {test['entry_point']!r} is not a name")
    return kind


def _call_spec(i: int, test: Mapping) -> dict:
    args, kwargs = test.get("args", []), test.get("kwargs", {})
    if not isinstance(args, (list, tuple)):
        raise ValueError(f"tests[{i}].args: expected a list, got {type(args).__name__}")
    if not isinstance(kwargs, dict) or not all(isinstance(k, str) for k in kwargs):
        raise ValueError(f"tests[{i}].kwargs: expected a dict with str keys")
    try:
        wire.encode(test["expected"])
        return {
            "kind": "call",
            "entry_point": test["entry_point"],
            "args": wire.encode(list(args)),
            "kwargs": wire.encode(dict(kwargs)),
        }
    except wire.WireError as e:
        raise ValueError(f"tests[{i}]: arguments and expected must be plain data ({e})") from None


def _excerpt(value: Any, n: int = 200) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int over sys.get_int_max_str_digits() decimal digits, somewhere
        text = f"<{type(value).__name__} holding an int too long to print>"
    return text if len(text) <= n else text[: n - 3] + "..."


def run_tests(
    code: str,
    tests: Sequence[Mapping[str, Any]],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    limits: Limits | None = None,
    pool: SandboxPool | None = None,
) -> CodeResult:
    """Run ``code`` against ``tests`` in the sandbox; see the module docstring for the kinds.

    Raises ``ValueError`` naming the test and field for malformed tests; never raises for
    anything the code does.
    """
    if not isinstance(code, str):
        raise ValueError(f"code: expected a str, got {type(code).__name__}")
    if isinstance(tests, (str, bytes, Mapping)) or not isinstance(tests, Sequence) or not tests:
        raise ValueError("tests: expected a non-empty list of test dicts")
    if not isinstance(timeout, (int, float)) or not 0 < timeout <= 3600:
        raise ValueError(f"timeout: expected seconds in (0, 3600], got {timeout!r}")
    limits = limits or Limits()
    kinds = [_kind(i, t) for i, t in enumerate(tests)]
    if (size := _job_bytes(code, limits)) > wire.JOB_BYTES:
        why = f"the code is {size} bytes as a job, over the {wire.JOB_BYTES}-byte limit"
        return CodeResult(
            tests=tuple(
                TestResult(index=i, kind=k, passed=False, error="code_too_large", message=why)
                for i, k in enumerate(kinds)
            )
        )
    pool = pool or default_pool()
    base_job = {"code": code, "timeout": float(timeout), "limits": limits.as_dict()}
    results: dict[int, TestResult] = {}
    isolation: Mapping[str, Any] = {}

    grouped = [i for i, k in enumerate(kinds) if k != "stdin"]
    if grouped:
        specs = [
            _call_spec(i, tests[i])
            if kinds[i] == "call"
            else {"kind": "assert", **{k: tests[i][k] for k in ("assert_code", "entry_point")},
                  "setup": tests[i].get("setup", "")}
            for i in grouped
        ]  # fmt: skip
        reply = pool.run({**base_job, "mode": "call", "tests": specs})
        if reply.get("status") == "no_signal":
            return _no_signal(reply, len(tests))
        isolation = reply.get("isolation", isolation)
        by_index = {r.get("index"): r for r in reply.get("tests", [])}
        for j, i in enumerate(grouped):
            results[i] = _grouped_result(i, kinds[i], tests[i], by_index.get(j), reply)
    for i, kind in enumerate(kinds):
        if kind != "stdin":
            continue
        reply = pool.run({**base_job, "mode": "stdin", "stdin": tests[i]["stdin"]})
        if reply.get("status") == "no_signal":
            return _no_signal(reply, len(tests))
        isolation = reply.get("isolation", isolation)
        results[i] = _stdin_result(i, tests[i], reply, limits.excerpt_bytes)
    return CodeResult(
        tests=tuple(results[i] for i in range(len(tests))),
        isolation={**isolation, "limits": limits.as_dict(), "timeout_s": float(timeout)},
    )


def _job_bytes(code: str, limits: Limits) -> int:
    """The size of the job a candidate reads (``harness._run_job``'s ``own``), with room
    for the working folder a sandbox without a mount namespace adds."""
    own = {"mode": "stdin", "code": code, "limits": limits.as_dict(), "cwd": "/" * 4096}
    return len(wire.pack(own)) - 4


def _no_signal(reply: dict, n: int) -> CodeResult:
    return CodeResult(tests=(), status="no_signal", reason=str(reply.get("reason")))


def _grouped_result(
    i: int, kind: str, test: Mapping, judged: dict | None, reply: dict
) -> TestResult:
    common = {
        "index": i,
        "kind": kind,
        "stdout": str(reply.get("stdout", "")),
        "stderr": str(reply.get("stderr", "")),
    }
    if judged is None:  # the deadline or the output cap ended the job before this test
        status = reply.get("status", "ok")
        error = status if status != "ok" else "judge_failed"
        return TestResult(passed=False, error=error, message=str(reply.get("reason", "")), **common)
    common["time"] = float(judged.get("time", 0.0))
    if judged.get("error"):
        return TestResult(
            passed=False,
            error=str(judged["error"]),
            message=str(judged.get("message", "")),
            **common,
        )
    if kind == "assert":
        return TestResult(passed=judged.get("passed") is True, **common)
    try:
        got = wire.decode(judged.get("value"))
    except wire.WireError as e:
        return TestResult(passed=False, error="UnsupportedReturn", message=str(e), **common)
    tol = {k: float(test[k]) for k in ("rel_tol", "abs_tol") if k in test}
    ok = typed_equal(got, test["expected"], **tol)
    return TestResult(passed=ok, error=None if ok else "wrong", got=_excerpt(got), **common)


def _stdin_result(i: int, test: Mapping, reply: dict, keep: int) -> TestResult:
    out = str(reply.get("stdout", ""))
    status, exit_status = reply.get("status"), reply.get("exit_status")
    if status != "ok":
        error = str(status)
    elif exit_status != 0:
        error = f"exit status {exit_status}"
    elif not stdout_matches(out, test["expected_stdout"]):
        error = "wrong"
    else:
        error = None
    return TestResult(
        index=i,
        kind="stdin",
        passed=error is None,
        error=error,
        message=str(reply.get("reason", "")),
        time=float(reply.get("wall", 0.0)),
        stdout=out[:keep],
        stderr=str(reply.get("stderr", ""))[:keep],
        got=_excerpt(out),
    )


def run_tests_batch(
    codes: Sequence[str],
    tests: Sequence[Mapping[str, Any]] | Sequence[Sequence[Mapping[str, Any]]],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    limits: Limits | None = None,
    pool: SandboxPool | None = None,
) -> list[CodeResult]:
    """Run many candidates in parallel over the pool (e.g. one GRPO group).

    ``tests`` is either one list shared by every candidate or one list per candidate.

    >>> [r.reward for r in run_tests_batch(["def f(): return 1", "def f(): return 2"],
    ...                                    [{"entry_point": "f", "expected": 1}])]
    [1.0, 0.0]
    """
    if isinstance(codes, str):
        raise ValueError("codes: expected a list of programs, got one str")
    per_code = bool(tests) and all(
        isinstance(t, Sequence) and not isinstance(t, (str, Mapping)) for t in tests
    )
    if per_code and len(tests) != len(codes):
        raise ValueError(f"tests: {len(tests)} test lists for {len(codes)} programs")
    pool = pool or default_pool()
    with ThreadPoolExecutor(max_workers=pool.workers) as ex:
        futures = [
            ex.submit(
                run_tests, code, tests[k] if per_code else tests,
                timeout=timeout, limits=limits, pool=pool,
            )
            for k, code in enumerate(codes)
        ]  # fmt: skip
        return [f.result() for f in futures]
