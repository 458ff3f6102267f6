"""``mbpp`` and ``humaneval``: write a Python function, scored by running tests in the
sandbox of :mod:`verifiers.code`.

Both ask for the code in one fenced ```python block; the reference completion is the
dataset's canonical solution in such a block.

**mbpp** (sanitized, 427 problems; Austin et al. 2021). Rows come from ``path=``,
``$RLVR_DATA_DIR/mbpp/`` (``sanitized-mbpp.json`` or ``.jsonl``, all splits in one file) or
the hub (``google-research-datasets/mbpp``, config ``sanitized``). The file has no split
column: splits are the paper's ``task_id`` ranges, as on the hub:

| split      | task_id  | rows |
|------------|----------|------|
| prompt     | 1-10     | 7    |
| test       | 11-510   | 257  |
| validation | 511-600  | 43   |
| train      | 601-1000 | 120  |

The prompt is the description plus the first test (it names the function and its call
shape); all tests score. Accuracy is 1 when every assert passes and 0 otherwise
(``partial_credit=True``: the fraction that pass; a constant ``return 0`` earns 2/3 of that on
many rows, so it is off by default).

**humaneval** (164 problems, ``test`` only; Chen et al. 2021). Rows come from ``path=``,
``$RLVR_DATA_DIR/humaneval/HumanEval.jsonl(.gz)`` or the hub (``openai/openai_humaneval``).
The prompt shows the function's signature and docstring. The dataset prompt is run before the
completion's code (``prefix``), so imports and helper functions defined there are available
and a completion may give the whole function or only its body, as in the original harness.
Accuracy is the row's ``check(candidate)`` passing (one test).

Rubric: accuracy (weight 1) + format (a fenced python block; weight 0.1), not gated.
"""

from __future__ import annotations

from collections.abc import Iterator

from tasks.base import Problem, Row, Task
from tasks.prompts import Prompt
from tasks.registry import register
from tasks.rubrics import code_rubric
from tasks.sources import DataError, DataSource, Record

MBPP_SPLITS: dict[str, tuple[int, int]] = {
    "train": (601, 1000),
    "validation": (511, 600),
    "test": (11, 510),
    "prompt": (1, 10),
}
_MBPP_FILES = ("sanitized-mbpp.jsonl", "sanitized-mbpp.json")
MBPP = DataSource(
    "mbpp",
    hub_id="google-research-datasets/mbpp",
    hub_config="sanitized",
    patterns=lambda split: _MBPP_FILES,
)
HUMANEVAL = DataSource(
    "humaneval",
    hub_id="openai/openai_humaneval",
    patterns=lambda split: ("HumanEval.jsonl", "HumanEval.jsonl.gz"),
)
MBPP_INSTRUCTION = "Write the Python function in one ```python code block."
HUMANEVAL_INSTRUCTION = (
    "Complete the function. Give the complete function, with its imports, in one ```python "
    "code block."
)


def fenced(code: str) -> str:
    """``code`` in a fenced python block."""
    return f"```python\n{code.rstrip()}\n```"


def reference(row: Row) -> str:
    """The canonical solution in a fenced block."""
    return fenced(row.answer)


def _mbpp_problem(record: Record, split: str) -> Problem:
    from verifiers.code import mbpp_tests

    task_id = record.field("task_id", int)
    code, description = record.field("code"), record.field("prompt")
    test_list = record.field("test_list", list)
    if not test_list or not all(isinstance(t, str) for t in test_list):
        raise DataError(f"{record.where}: field 'test_list' should be a non-empty list of str")
    imports = record.field("test_imports", list) if "test_imports" in record.data else []
    try:
        tests = mbpp_tests({"code": code, "test_imports": imports, "test_list": test_list})
    except ValueError as e:
        raise DataError(f"{record.where}: field 'test_list': {e}") from None
    question = f"{description}\nYour code should pass this test:\n{test_list[0]}"
    # public_tests: the tests the prompt shows (a feedback env may quote them; see
    # envs/code_feedback.py). Here the first assert, which the question repeats.
    info = {"tests": tuple(tests), "public_tests": (tests[0],), "task_id": task_id}
    return Problem(f"mbpp/{split}/{task_id}", question, code, info)


@register("mbpp")
def mbpp(
    *,
    instruction: str = MBPP_INSTRUCTION,
    system: str | None = None,
    few_shot: int = 0,
    partial_credit: bool = False,
) -> Task:
    """MBPP sanitized, split by ``task_id`` (see the module doc)."""

    def problems(split: str, seed: int, path: str | None) -> Iterator[Problem]:
        lo, hi = MBPP_SPLITS[split]
        for record in MBPP.records(split, path):
            if lo <= record.field("task_id", int) <= hi:
                yield _mbpp_problem(record, split)

    return Task(
        "mbpp",
        problems,
        code_rubric(partial_credit=partial_credit),
        prompt=Prompt(instruction, system=system, few_shot=few_shot),
        reference=reference,
        splits=("train", "validation", "test", "prompt"),
        description="MBPP sanitized Python problems, run against asserts in a sandbox",
        runs_code=True,
    )


@register("humaneval")
def humaneval(
    *,
    instruction: str = HUMANEVAL_INSTRUCTION,
    system: str | None = None,
    few_shot: int = 0,
    partial_credit: bool = False,
) -> Task:
    """HumanEval (test only)."""
    from verifiers.code import humaneval_tests
    from verifiers.code.datasets import humaneval_examples

    def problems(split: str, seed: int, path: str | None) -> Iterator[Problem]:
        for record in HUMANEVAL.records(split, path):
            task_id, prompt = record.field("task_id"), record.field("prompt")
            solution, entry_point = record.field("canonical_solution"), record.field("entry_point")
            tests = humaneval_tests(
                {"test": record.field("test"), "entry_point": entry_point, "prompt": prompt}
            )
            # public_tests: the docstring's examples, which the prompt shows.
            examples = humaneval_examples({"prompt": prompt, "entry_point": entry_point})
            info = {"tests": tuple(tests), "public_tests": tuple(examples), "prefix": prompt,
                    "task_id": task_id}
            question = f"```python\n{prompt.rstrip()}\n```"
            yield Problem(
                f"humaneval/{split}/{task_id.rsplit('/', 1)[-1]}", question, prompt + solution, info
            )

    return Task(
        "humaneval",
        problems,
        code_rubric(partial_credit=partial_credit),
        prompt=Prompt(instruction, system=system, few_shot=few_shot),
        reference=reference,
        splits=("test",),
        description="HumanEval Python functions, run against check(candidate) in a sandbox",
        runs_code=True,
    )
