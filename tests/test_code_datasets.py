"""The reference solutions of HumanEval and MBPP pass their own tests through the sandbox
(assert code run by the trusted judge, the solution behind a plain-data proxy), and
obviously wrong programs do not.

Every reference passes, under the rubric's default per-test time budget: MBPP 737, 787 and
794 return a ``re.Match`` whose tests only ask its truth (it crosses as its truth and repr,
``judge.Opaque``), and MBPP 123's slow assert has a budget of its own.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from verifiers.code import (
    DEFAULT_TIMEOUT,
    SandboxPool,
    humaneval_program,
    humaneval_tests,
    mbpp_tests,
    run_tests_batch,
)


def _data_dir() -> Path:
    env = os.environ.get("RLVR_DATA_DIR")
    if env:
        return Path(env)
    local = Path(__file__).resolve().parents[1].parent / "shared" / "data"
    if not local.is_dir():
        pytest.skip("RLVR_DATA_DIR is unset and ../shared/data does not exist")
    return local


def _rows(relative: str) -> list[dict]:
    with open(_data_dir() / relative, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="module")
def pool():
    p = SandboxPool(workers=2)
    yield p
    p.close()


def _failures(rows, results, key):
    return {
        row[key]: [(t.error, t.message[:120]) for t in res.tests if not t.passed] or res.reason
        for row, res in zip(rows, results)
        if not res.all_passed
    }


def test_humaneval_canonical_solutions_pass(pool):
    rows = _rows("humaneval/HumanEval.jsonl")
    programs = [humaneval_program(r, r["canonical_solution"]) for r in rows]
    tests = [humaneval_tests(r) for r in rows]
    results = run_tests_batch(programs, tests, timeout=DEFAULT_TIMEOUT, pool=pool)
    failures = _failures(rows, results, "task_id")
    assert len(rows) == 164
    assert failures == {}, failures
    assert all(r.status == "ok" for r in results)


def test_humaneval_wrong_bodies_fail(pool):
    rows = _rows("humaneval/HumanEval.jsonl")
    programs = [humaneval_program(r, "    return None\n") for r in rows]
    results = run_tests_batch(programs, [humaneval_tests(r) for r in rows], timeout=20.0, pool=pool)
    passed = [r["task_id"] for r, res in zip(rows, results) if res.all_passed]
    assert passed == [], passed


def test_mbpp_reference_solutions_pass(pool):
    rows = _rows("mbpp/sanitized-mbpp.jsonl")
    results = run_tests_batch(
        [r["code"] for r in rows], [mbpp_tests(r) for r in rows], timeout=DEFAULT_TIMEOUT,
        pool=pool,
    )  # fmt: skip
    failures = _failures(rows, results, "task_id")
    assert len(rows) == 427
    assert failures == {}, failures
    assert all(r.status == "ok" for r in results)
    # each test line is its own test: fractional rewards are possible
    assert all(len(res.tests) == len(r["test_list"]) for r, res in zip(rows, results))


def test_mbpp_wrong_solutions_fail(pool):
    rows = _rows("mbpp/sanitized-mbpp.jsonl")
    # the reference, then the entry point redefined to give up: every test must now fail,
    # except those that only check falsiness (``assert not f(x)``)
    wrong = [
        f"{r['code']}\n\ndef {t[0]['entry_point']}(*args, **kwargs):\n    return None\n"
        for r, t in ((r, mbpp_tests(r)) for r in rows)
    ]
    results = run_tests_batch(wrong, [mbpp_tests(r) for r in rows], timeout=20.0, pool=pool)
    still_pass = [r["task_id"] for r, res in zip(rows, results) if res.all_passed]
    for task_id in still_pass:
        row = next(r for r in rows if r["task_id"] == task_id)
        assert all(t.startswith("assert not ") for t in row["test_list"]), row["test_list"]
