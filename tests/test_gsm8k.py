"""verifiers.gsm8k: '#### N' parsing, policies, and the whole dataset scored against itself."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from gsm8k_label_errors import LABEL_ERRORS, row_index

from verifiers.gsm8k import gsm8k_check, gsm8k_reward, parse_gsm8k_answer
from verifiers.math import math_reward


def _data_dir() -> Path | None:
    env = os.environ.get("RLVR_DATA_DIR")
    if env:
        return Path(env)
    local = Path(__file__).resolve().parents[1].parent / "shared" / "data"
    return local if local.exists() else None


DATA = _data_dir()


def _rows() -> list[dict]:
    rows = []
    for split in ("train", "test"):
        with open(DATA / "gsm8k" / f"{split}.jsonl", encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f)
    return rows


@pytest.mark.parametrize(
    ("row_answer", "expected"),
    [
        ("48/2 = <<48/2=24>>24\n#### 72", "72"),
        ("#### 1,000", "1000"),
        ("#### -3", "-3"),
        ("text #### 5 more\n#### 6", "6"),
        ("#### 0.5", "0.5"),
        ("####    12  ", "12"),
    ],
)
def test_parse_gsm8k_answer(row_answer, expected):
    assert parse_gsm8k_answer(row_answer) == expected


@pytest.mark.parametrize("bad", ["no hashes here", "#### twelve", "####"])
def test_parse_gsm8k_answer_rejects_rows_without_a_number(bad):
    with pytest.raises(ValueError, match="row_answer"):
        parse_gsm8k_answer(bad)


def test_parse_gsm8k_answer_rejects_non_strings():
    with pytest.raises(TypeError, match="row_answer"):
        parse_gsm8k_answer(72)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("completion", "answer", "flexible", "strict"),
    [
        ("so #### 18", "18", 1.0, 1.0),
        ("so #### 18", "#### 18", 1.0, 1.0),
        ("#### $1,000.", "1000", 1.0, 1.0),
        ("#### 18 dollars", "18", 1.0, 1.0),
        ("#### 17", "18", 0.0, 0.0),
        (r"The total is $\boxed{18}$.", "18", 1.0, 0.0),
        ("The total is 18.", "18", 1.0, 0.0),
        ("The total is 18 and then 19.", "18", 0.0, 0.0),
        # issue 30: a value after the final answer is an alternative, wherever it stands
        ("#### 18\nthen later 19", "18", 0.0, 0.0),
        # ... but on the '####' line itself, more after the number is no clean answer
        ("#### 18 then later 19", "18", 0.0, 0.0),
        (r"#### 19 \boxed{18}", "18", 0.0, 0.0),  # '####' outranks a box
        ("It is -3 degrees.", "-3", 1.0, 0.0),
        ("#### -3", "-3", 1.0, 1.0),
        ("5 - 3 = 2", "2", 1.0, 0.0),
        ("no number at all", "2", 0.0, 0.0),
        # an approximation is a hedge (issue 22): "#### about 18" as "#### 18 approx"
        ("#### about 18", "18", 0.0, 0.0),
        ("", "5", 0.0, 0.0),
        ("#### 1,000,000", "1000000", 1.0, 1.0),
        ("#### 10000", "1,000", 0.0, 0.0),
        ("#### 0.5", "1/2", 1.0, 1.0),
    ],
)
def test_policies(completion, answer, flexible, strict):
    assert gsm8k_reward(completion, answer) == flexible
    assert gsm8k_reward(completion, answer, policy="strict") == strict


def test_check_reports_reason_and_extraction():
    v = gsm8k_check("Half is 24, so 48 + 24 = 72.", "#### 72")
    assert (v.reward, v.reason, v.pred, v.gold, v.details["source"]) == (
        1.0,
        "correct",
        "72",
        "72",
        "last_number",
    )
    v = gsm8k_check("nothing", "72")
    assert (v.reward, v.reason) == (0.0, "no_answer")
    v = gsm8k_check("#### 71", "72", policy="strict")
    assert (v.reward, v.reason, v.pred) == (0.0, "wrong", "71")


def test_bad_arguments_raise_clear_errors():
    with pytest.raises(ValueError, match="policy"):
        gsm8k_check("#### 1", "1", policy="lenient")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="answer"):
        gsm8k_check("#### 1", "one")
    # the gold is checked before the completion: bad data raises even for a None completion
    with pytest.raises(ValueError, match="answer"):
        gsm8k_check(None, "one")  # type: ignore[arg-type]


@pytest.mark.skipif(DATA is None, reason="RLVR_DATA_DIR unset and ../shared/data missing")
def test_whole_dataset_scores_itself_and_nothing_else():
    rows = _rows()
    assert len(rows) == 8792
    golds = [parse_gsm8k_answer(r["answer"]) for r in rows]
    own_failures, cross_failures, equal_pairs = [], [], 0
    inconsistent = {row_index(r): pair for r, pair in LABEL_ERRORS.items()}
    for i, row in enumerate(rows):
        for policy in ("strict", "flexible"):
            verdict = gsm8k_check(row["answer"], golds[i], policy=policy)
            if i in inconsistent:  # its working concludes another amount: two answers
                assert verdict.reward == 0.0 and verdict.reason == "hedged", (i, verdict)
                assert inconsistent[i] == (verdict.details["problem"].split("'")[1], golds[i]), verdict
            elif verdict.reward != 1.0:
                own_failures.append((i, policy))
        j = (i + 1) % len(rows)  # another row's answer
        same = golds[i] == golds[j]
        equal_pairs += same
        if gsm8k_reward(row["answer"], golds[j]) != (1.0 if same else 0.0):
            cross_failures.append((i, j))
    assert own_failures == []
    assert cross_failures == []
    assert 0 < equal_pairs < len(rows) // 10  # some neighbours share an answer; most do not


@pytest.mark.skipif(DATA is None, reason="RLVR_DATA_DIR unset and ../shared/data missing")
def test_math_reward_agrees_on_gsm8k_solutions():
    # The math verifier reads GSM8K solutions too ('####' is in its extraction precedence),
    # through the in-process exact path.
    rows = _rows()[:2000]
    golds = [parse_gsm8k_answer(r["answer"]) for r in rows]
    inconsistent = {row_index(r) for r in LABEL_ERRORS}
    for i, row in enumerate(rows):
        assert math_reward(row["answer"], golds[i]) == (0.0 if i in inconsistent else 1.0), i
        j = (i + 7) % len(rows)
        assert math_reward(row["answer"], golds[j]) == float(golds[i] == golds[j]), (i, j)


@pytest.mark.parametrize(
    ("completion", "answer", "reason"),
    [
        ("#### 5 or 6", "5", "hedged"),
        ("#### 5 or 6", "6", "hedged"),
        ("#### 5, 6", "6", "hedged"),
        ("#### 5 + 13 = 18", "5", "malformed"),
        ("#### 5 + 13 = 18", "18", "malformed"),
        ("#### 1e400", "1", "malformed"),
        ("#### 1e400", "400", "malformed"),
        ("#### 5. No wait, it is 6", "5", "hedged"),
        ("#### 5?", "5", "hedged"),
        ("#### 10/3", "10", "wrong"),
        ("#### 1/2", "0.5", "correct"),
        ("#### 3 1/2", "3.5", "correct"),
        ("#### $1,000.", "1000", "correct"),
        ("#### 18 cookies", "18", "correct"),
        ("#### 18. That is all.", "18", "correct"),
        ("#### 5 squared", "5", "malformed"),
        ("#### 5 thousand", "5000", "correct"),
        ("<think>6*7</think><answer>#### 42</answer>", "42", "correct"),  # the tag ends the line
        ("<answer>#### 42 or 43</answer>", "42", "hedged"),
    ],
)
def test_hashes_line_must_hold_one_clean_number(completion, answer, reason):
    for policy in ("flexible", "strict"):
        v = gsm8k_check(completion, answer, policy=policy)
        assert (v.reward, v.reason) == (1.0 if reason == "correct" else 0.0, reason), (policy, v)


@pytest.mark.parametrize(
    ("completion", "answer"),
    [
        ("it is 5 or maybe 6", "6"),
        ("it is 5 or maybe 6", "5"),
        ("So the total is 6 or possibly 7.", "7"),
        ("The candidates are 6, 7", "7"),
        (r"The total is $\boxed{5 \text{ or } 6}$.", "6"),
        ("So she has 6 apples. No wait", "6"),
        (r"The total is \boxed{6}. Hmm, not sure.", "6"),
    ],
)
def test_flexible_policy_refuses_hedged_last_numbers(completion, answer):
    v = gsm8k_check(completion, answer)
    assert (v.reward, v.reason) == (0.0, "hedged"), v


@pytest.mark.parametrize("line", ["#### 1 apple", "#### 1 book.", "The answer is 1 apple."])
def test_one_takes_a_singular_count_noun(line):
    assert gsm8k_check(line, "#### 1", policy="flexible").reward == 1.0


@pytest.mark.parametrize("line", ["#### 2 apple", "#### 1 squared", "#### 1 more", "#### 1 not"])
def test_words_that_change_the_number_are_no_singular_noun(line):
    assert gsm8k_check(line, "#### 1", policy="flexible").reward == 0.0


@pytest.mark.parametrize(
    ("completion", "reward", "reason"),
    [
        ("#### 18\n\nThe answer is 18.", 1.0, "correct"),  # the same amount said again
        ("#### 18\n\\boxed{18}", 1.0, "correct"),
        ("#### 18\n\nThe answer is 17.", 0.0, "hedged"),  # a later, different answer
        ("#### 18\n\nThe answer is 18. No wait", 0.0, "hedged"),
        ("#### 18 or 19\nThe answer is 18.", 0.0, "hedged"),
    ],
)
def test_strict_policy_and_a_later_answer(completion, reward, reason):
    v = gsm8k_check(completion, "18", policy="strict")
    assert (v.reward, v.reason) == (reward, reason), v


def test_a_count_in_the_solution_refuses_a_unit_of_measure():
    # gsm8k/test/499: the solution counts guests; "#### 10 cents" scored 1.0 (the README's
    # probe command failed on it), while a count noun or no word at all still compares.
    solution = (
        "Then, X = 200/20 = 10, so when there are 10 guests the two venues will be equal "
        "in cost.\n#### 10"
    )
    assert gsm8k_check("#### 10 cents", solution).reward == 0.0
    assert gsm8k_check("#### 10 dollars", solution).reward == 0.0
    assert gsm8k_check("#### 10 guests", solution).reward == 1.0
    assert gsm8k_check("#### 10", solution).reward == 1.0
    # A unit named earlier than the last unitless mention still holds: "$5 ... equals 5."
    money = "She made $5 because 20 times .25 equals 5.\n#### 5"
    assert gsm8k_check("#### 5 cents", money).reward == 0.0
    assert gsm8k_check("#### 5", money).reward == 1.0
