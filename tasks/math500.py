"""``math500``: the 500-problem MATH test subset of "Let's Verify Step by Step".

Rows come from ``path=``, ``$RLVR_DATA_DIR/math500/test.jsonl`` or the hub
(``HuggingFaceH4/MATH-500``). Fields: ``problem``, ``solution`` (LaTeX, final answer in
``\\boxed{}``), ``answer``; ``subject``, ``level`` and ``unique_id`` are kept in ``info``.

The reference completion is the dataset's worked solution, whose last ``\\boxed{}`` holds
the answer. Only a ``test`` split exists.

Rubric: accuracy (``verifiers.math``: the last ``\\boxed{}`` against ``answer``, numbers
exactly, expressions symbolically; weight 1) + format (a ``\\boxed{}`` is present; weight
0.1), not gated.
"""

from __future__ import annotations

from collections.abc import Iterator

from tasks.base import Problem, Row, Task
from tasks.prompts import Prompt
from tasks.registry import register
from tasks.rubrics import boxed_rubric
from tasks.sources import DataSource

SOURCE = DataSource("math500", hub_id="HuggingFaceH4/MATH-500")
INSTRUCTION = "Solve the problem step by step. Put the final answer in \\boxed{}."


def reference(row: Row) -> str:
    """The dataset's worked solution (it ends with the boxed answer)."""
    return row.info["solution"]


@register("math500")
def math500(
    *, instruction: str = INSTRUCTION, system: str | None = None, few_shot: int = 0
) -> Task:
    """MATH-500 (test only; with ``few_shot`` the first test problems become the examples)."""

    def problems(split: str, seed: int, path: str | None) -> Iterator[Problem]:
        for i, record in enumerate(SOURCE.records(split, path)):
            info = {"solution": record.field("solution")}
            for key, kind in (("subject", str), ("level", (int, str)), ("unique_id", str)):
                if key in record.data:
                    info[key] = record.field(key, kind)
            # a CSV or JSON column of plain integers is read as ints; the gold is their text
            answer = str(record.field("answer", (str, int)))
            yield Problem(f"math500/{split}/{i}", record.field("problem"), answer, info)

    return Task(
        "math500",
        problems,
        boxed_rubric(),
        prompt=Prompt(instruction, system=system, few_shot=few_shot),
        reference=reference,
        splits=("test",),
        description="MATH-500 competition math, \\boxed{} answers (HuggingFaceH4/MATH-500)",
    )
