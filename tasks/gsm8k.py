"""``gsm8k``: grade-school math word problems (Cobbe et al. 2021), ``#### N`` answers.

Rows come from ``path=``, ``$RLVR_DATA_DIR/gsm8k/`` (``train.jsonl`` / ``test.jsonl``, or the
hub layout ``main/train-00000-of-00001.parquet``) or the hub (``openai/gsm8k``, ``main``).
Fields: ``question`` and ``answer`` (a worked solution ending in ``#### N``).

``row.answer`` is the normalised final number (``"1,000"`` -> ``"1000"``), ``row.info
["solution"]`` the dataset's worked solution. The reference completion is that solution with
the calculator annotations ``<<48/2=24>>`` removed; it already ends with ``#### N``.

Rubric: accuracy (``verifiers.gsm8k``, flexible: ``####``, else ``\\boxed{}``, else the last
number; weight 1) + format (the last line is ``#### N``; weight 0.1), not gated, so a right
number in the wrong format still earns most of the reward.

>>> import tasks
>>> task = tasks.get("gsm8k")
>>> row = task.rows("test", limit=1)[0]   # doctest: +SKIP
>>> row.answer                            # doctest: +SKIP
'18'
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tasks.base import Problem, Row, Task
from tasks.prompts import Prompt
from tasks.registry import register
from tasks.rubrics import answer_line_rubric
from tasks.sources import DataError, DataSource

SOURCE = DataSource("gsm8k", hub_id="openai/gsm8k", hub_config="main")
INSTRUCTION = (
    "Solve the problem step by step. Write the final answer as a number on the last line, "
    "in the form '#### N'."
)
_CALCULATOR = re.compile(r"<<[^<>]*>>")


def reference(row: Row) -> str:
    """The worked solution without calculator annotations; it ends with ``#### N``."""
    return _CALCULATOR.sub("", row.info["solution"])


@register("gsm8k")
def gsm8k(*, instruction: str = INSTRUCTION, system: str | None = None, few_shot: int = 0) -> Task:
    """GSM8K train (7,473 rows) and test (1,319 rows)."""
    from verifiers.gsm8k import parse_gsm8k_answer

    def problems(split: str, seed: int, path: str | None) -> Iterator[Problem]:
        for i, record in enumerate(SOURCE.records(split, path)):
            question, solution = record.field("question"), record.field("answer")
            try:
                answer = parse_gsm8k_answer(solution)
            except ValueError as e:
                raise DataError(f"{record.where}: field 'answer': {e}") from None
            yield Problem(f"gsm8k/{split}/{i}", question, answer, {"solution": solution})

    return Task(
        "gsm8k",
        problems,
        answer_line_rubric(),
        prompt=Prompt(instruction, system=system, few_shot=few_shot),
        reference=reference,
        splits=("train", "test"),
        description="grade-school math word problems, '#### N' answers (openai/gsm8k)",
    )
