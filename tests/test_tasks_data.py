"""The built-in dataset tasks on the shared data: every reference solution scores 1.0 under the
task's own rubric (gsm8k all 8,792; math500 >= 99%; code tasks >= 99% on a fixed subset, the
full figures come from ``python -m tasks audit mbpp`` / ``humaneval``)."""

from __future__ import annotations

import os

import pytest
from gsm8k_label_errors import LABEL_ERRORS

import tasks
from tasks.audit import audit
from verifiers.math import math_check, math_reward
from verifiers.math_extract import last_boxed
from verifiers.types import HEDGED, MALFORMED

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SHARED = os.path.join(ROOT, "..", "shared", "data")
DATA = os.environ.get("RLVR_DATA_DIR") or (_SHARED if os.path.isdir(_SHARED) else None)
pytestmark = pytest.mark.skipif(
    DATA is None, reason="no data: RLVR_DATA_DIR is unset and ../shared/data does not exist"
)


@pytest.fixture(autouse=True)
def _data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RLVR_DATA_DIR", str(DATA))


def test_gsm8k_every_reference_scores_one_train_and_test() -> None:
    report = audit(tasks.get("gsm8k"))
    assert report.checked == 7473 + 1319
    # only the rows whose own working concludes another amount than their "####" line
    assert {f.row_id for f in report.failures} == set(LABEL_ERRORS), report.failures[:5]
    assert all("hedged" in f.reason for f in report.failures), report.failures


def test_gsm8k_parquet_layout_gives_the_same_rows_as_jsonl() -> None:
    task = tasks.get("gsm8k")
    folder = os.path.join(DATA, "gsm8k", "main")
    from_jsonl = task.rows("test")
    assert task.rows("test", path=folder) == from_jsonl
    assert from_jsonl[0].answer == "18" and from_jsonl[0].info["solution"].endswith("#### 18")


def test_gsm8k_reference_has_no_calculator_annotations() -> None:
    task = tasks.get("gsm8k")
    for row in task.rows("train", limit=200):
        completion = task.reference_completion(row)
        assert "<<" not in completion and completion.rstrip().endswith(
            f"#### {row.info['solution'].rsplit('#### ', 1)[1]}"
        )


def test_math500_references_score_one_unless_a_value_follows_their_answer() -> None:
    # Issue 30's allow-list: after the final answer only a tail without another value is
    # read (the reader cannot tell a remark from a second answer), so a worked solution that
    # goes on with numbers ("so there are $\boxed{9}$ divisors of 196.", a "Note: ..."
    # paragraph) is refused, and so is a box after a word that does not commit to it (the
    # lead rule: "at most $\boxed{2}$", "after $\boxed{36}$", "defines an $\boxed{...}$").
    # Every other reference pays, and every refused one pays once its
    # box is the last thing said: the gold and the box agree, only the tail is refused.
    report = audit(tasks.get("math500"))
    assert report.checked == 500
    assert report.passed >= 447, [f"{f.row_id}: {f.reason}" for f in report.failures]
    rows = {r.id: r for r in tasks.get("math500").rows("test")}
    for failure in report.failures:
        row = rows[failure.row_id]
        verdict = math_check(row.info["solution"], row.answer)
        assert verdict.reason in (HEDGED, MALFORMED), (failure.row_id, verdict)
        box = last_boxed(row.info["solution"])
        assert math_reward(f"So the answer is $\\boxed{{{box}}}$.", row.answer) == 1.0, row.id


def test_mbpp_splits_follow_the_task_id_ranges() -> None:
    task = tasks.get("mbpp")
    sizes = {split: len(task.rows(split)) for split in task.splits}
    assert sizes == {"train": 120, "validation": 43, "test": 257, "prompt": 7}
    row = task.rows("test", limit=1)[0]
    assert row.id == "mbpp/test/11" and row.info["tests"][0]["entry_point"] == "remove_Occ"
    assert "assert remove_Occ(" in row.prompt[-1]["content"]


@pytest.mark.parametrize(
    ("name", "split", "limit"), [("mbpp", "test", 60), ("humaneval", "test", 60)]
)
def test_code_references_pass_their_tests(name: str, split: str, limit: int) -> None:
    report = audit(tasks.get(name), splits=[split], limit=limit, workers=2)
    assert report.checked == limit
    assert report.passed >= 0.99 * limit, [f"{f.row_id}: {f.reason}" for f in report.failures]


def test_code_wrong_solution_scores_low() -> None:
    task = tasks.get("humaneval")
    row = task.rows("test", limit=1)[0]
    wrong = task.score(
        row, "```python\ndef has_close_elements(numbers, threshold):\n    return False\n```"
    )
    assert wrong.breakdown["accuracy"] == 0.0 and wrong.breakdown["format"] == 1.0
    body_only = row.answer[len(row.info["prefix"]) :]  # the original harness's completion form
    assert task.score(row, f"```python\n{body_only}```").total == 1.0


# How models phrase a final answer they keep: none of these may read as a hedge or retraction.
KEPT_ANSWERS = (
    "Therefore, the final answer is $\\boxed{%s}$. I hope it is correct.",
    "Final Answer: The final answer is $%s$. I hope it is correct.",
    "The answer is $\\boxed{%s}$.\n\nWait, let me verify this. Yes, it checks out.",
    "Hence $\\boxed{%s}$ is the answer. Hmm, let me double-check: it holds.",
)


@pytest.mark.parametrize("template", KEPT_ANSWERS)
def test_every_math500_gold_in_common_phrasings_scores_one(template: str) -> None:
    from verifiers.math import math_check

    rows = tasks.get("math500").rows("test")
    missed = [(r.answer, v.reason) for r in rows
              if (v := math_check(template.replace("%s", r.answer), r.answer)).reward != 1.0]
    assert len(rows) == 500 and missed == [], missed[:5]
