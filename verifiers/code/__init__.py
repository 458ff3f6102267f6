"""Run model-written code against tests in a sandbox it cannot fool or escape.

>>> code_reward("def add(a, b):\\n    return a + b", [{"entry_point": "add", "args": [2, 3], "expected": 5}])
1.0

See ``run.py`` for the test kinds, ``harness.py`` for what isolates a candidate (and the
invariant: a candidate's memory never holds a test), ``jail.py`` for the allowlisted
filesystem it sees and ``sandbox.py`` for the worker pool.
"""

from verifiers.code.check import code_check, code_reward, extract_code
from verifiers.code.compare import stdout_matches, typed_equal
from verifiers.code.datasets import humaneval_program, humaneval_tests, mbpp_tests
from verifiers.code.result import CodeResult, TestResult
from verifiers.code.run import DEFAULT_TIMEOUT, run_tests, run_tests_batch
from verifiers.code.sandbox import Limits, SandboxPool, default_pool

__all__ = [
    "DEFAULT_TIMEOUT",
    "CodeResult",
    "Limits",
    "SandboxPool",
    "TestResult",
    "code_check",
    "code_reward",
    "default_pool",
    "extract_code",
    "humaneval_program",
    "humaneval_tests",
    "mbpp_tests",
    "run_tests",
    "run_tests_batch",
    "stdout_matches",
    "typed_equal",
]
