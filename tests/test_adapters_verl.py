"""No silent zeros through verl and TRL (#35): every verl manager at its defaults, every gold
type, and async reward functions in the form each trainer expects.

verl's managers are mirrored in ``tests/verl_managers.py``. The reward functions here are
module-level, so they run in deadline workers (and prime's process pool) like a user's."""

from __future__ import annotations

import asyncio
import inspect
import pickle

import numpy as np
import pytest
from verl_managers import MANAGERS, scores

from verifiers.adapters import to_trl, to_verl
from verifiers.gsm8k import gsm8k_check
from verifiers.rubric import RewardFunc, Rubric
from verifiers.types import Verdict

# one right and one wrong completion for each gold, which always accepts 7
GOLDS = {
    "str": "7",
    "int": 7,
    "numpy_scalar": np.int64(7),
    "list": ["seven", "7"],
    "tuple": ("7",),
    "numpy_array": np.array(["6", "7"], dtype=object),
    "numpy_int_array": np.array([7, 8]),
}


def _samples(gold):
    return [{"data_source": "openai/gsm8k", "response": response,
             "reward_model": {"ground_truth": gold}, "extra_info": {"index": i}}
            for i, response in enumerate(["so #### 7", "#### 9"])]


@pytest.mark.parametrize("manager", sorted(MANAGERS))
def test_every_manager_at_its_defaults_scores_a_right_answer_one(manager):
    assert scores(manager, to_verl(gsm8k_check), _samples("7")) == [1.0, 0.0]


@pytest.mark.parametrize("gold", sorted(GOLDS))
@pytest.mark.parametrize("manager", ["naive", "batch", "reward_loop"])
def test_every_gold_type_through_the_managers(manager, gold):
    assert scores(manager, to_verl(gsm8k_check), _samples(GOLDS[gold])) == [1.0, 0.0]


@pytest.mark.parametrize("gold", ["list", "numpy_array"])
def test_list_golds_through_prime_and_dapo(gold):
    assert scores("prime", to_verl(gsm8k_check), _samples(GOLDS[gold])) == [1.0, 0.0]
    assert scores("dapo", to_verl(gsm8k_check), _samples(GOLDS[gold])) == [1.0, 0.0]


def test_a_list_gold_reports_the_matching_candidate_and_stays_in_the_breakdown():
    result = to_verl(gsm8k_check)("src", "#### 7", ["8", "7", "9"], None)
    assert result == {"score": 1.0, "gsm8k_check": 1.0, "no_signal": 0.0, "errors": 0.0}
    assert result[0] == 1.0 and float(result) == 1.0  # what prime reads


@pytest.mark.parametrize("gold, message", [
    ([], "empty list"),
    ([["7"]], r"item \[0\] is a list"),
    ([{"answer": "7"}], r"item \[0\] is a dict"),
    (np.array([["7"], ["8"]]), "2-d array"),
])
@pytest.mark.parametrize("manager", ["naive", "batch"])
def test_a_gold_that_cannot_mean_any_of_these_raises_naming_the_field(manager, gold, message):
    with pytest.raises(TypeError, match=message) as info:
        scores(manager, to_verl(gsm8k_check), _samples(gold))
    assert "ground_truth" in str(info.value)


def takes_tests(completion, answer):
    """A code-style reward: the gold is a list of test strings, taken whole."""
    return Verdict(float(isinstance(answer, list) and completion in answer), repr(answer))


def test_gold_as_is_passes_the_structure_through():
    compute_score = to_verl(takes_tests, gold="as_is")
    assert scores("naive", compute_score, _samples([{"t": 1}, "#### 9"])) == [0.0, 1.0]
    reward = to_trl(takes_tests, gold="as_is")
    assert reward(["q"], ["b"], answer=[["a", "b"]]) == [1.0]
    with pytest.raises(ValueError, match="gold"):
        to_verl(takes_tests, gold="first")


def test_trl_list_golds_mean_any_of_them_and_bad_ones_name_the_column():
    reward = to_trl(gsm8k_check, answer_key="solutions")
    out = reward(["q"] * 3, ["#### 7", "#### 7", "#### 5"],
                 solutions=[["6", "7"], np.array([7]), ("4", "6")])
    assert out == [1.0, 1.0, 0.0]
    with pytest.raises(TypeError, match=r"column 'solutions' \(row 1\) is an empty list"):
        reward(["q"] * 2, ["#### 7", "#### 7"], solutions=[["7"], []])


# --- async reward functions ----------------------------------------------------------


async def async_judge(completion, answer, **info):
    await asyncio.sleep(0.05)
    return Verdict(float(completion.strip().endswith(str(answer))), "judged")


def _async_rubric():
    return Rubric([RewardFunc("judge", async_judge), RewardFunc("gsm8k", gsm8k_check)])


def test_trl_gets_an_async_reward_for_an_async_rubric():
    trl_utils = pytest.importorskip("trl.trainer.utils")
    reward = to_trl(_async_rubric())
    assert trl_utils.is_async_callable(reward)
    assert not trl_utils.is_async_callable(to_trl(gsm8k_check))
    logged = {}
    out = asyncio.run(reward(["q"] * 3, ["#### 7", "#### 8", "#### 7"],
                             answer=["7", "7", ["3", "7"]],
                             log_metric=lambda k, v: logged.setdefault(k, v)))
    assert out == [1.0, 0.0, 1.0] and logged["rubric/judge"] == pytest.approx(2 / 3)


@pytest.mark.parametrize("manager", sorted(MANAGERS))
def test_verl_sync_compute_score_of_an_async_rubric_works_in_every_manager(manager):
    assert scores(manager, to_verl(_async_rubric()), _samples(["7"])) == [1.0, 0.0]


def test_verl_asynchronous_form_is_awaited_by_the_reward_loop_and_pickles():
    compute_score = to_verl(_async_rubric(), asynchronous=True)
    assert inspect.iscoroutinefunction(compute_score)
    assert compute_score.rubric.names == ("judge", "gsm8k")
    rewards, extra = MANAGERS["reward_loop"](compute_score, _samples(np.array(["7"])))
    assert rewards == [1.0, 0.0] and extra["judge"] == [1.0, 0.0]
    copy = pickle.loads(pickle.dumps(compute_score))
    assert inspect.iscoroutinefunction(copy)
    assert asyncio.run(copy("src", "#### 7", "7", None))["score"] == 1.0
