"""verifiers.adapters: a configuration mistake is resolved by the documented argument rule or
fails on the first call; it never becomes a run of silent zeros / no-signal samples.

The reward functions here are module-level, so they run in deadline workers like a user's
would (that path pickles ``_Routed`` and the options along with them)."""

from __future__ import annotations

import functools
import pickle
import warnings

import numpy as np
import pytest

from verifiers.adapters import to_trl, to_verl
from verifiers.format import format_reward
from verifiers.gsm8k import gsm8k_check
from verifiers.rubric import RewardFunc, Rubric
from verifiers.types import Verdict

GOOD = "<think>3+4</think><answer>#### 7</answer>"


def gsm8k_accuracy(completion, answer, **info):
    """A task-style reward: gold as ``answer``, row fields as ``info``."""
    return gsm8k_check(completion, answer)


def uses_level(completion, answer, **info):
    return Verdict(float(answer == "7" and info.get("level") == 3), f"info={sorted(info)}")


def needs_tests(completion, answer, *, tests):
    return float(bool(tests))


def test_trl_an_answer_column_next_to_answer_key_does_not_clobber_the_gold():
    reward = to_trl(gsm8k_accuracy, answer_key="solution")
    with pytest.warns(RuntimeWarning, match="not passing answer to gsm8k_accuracy"):
        out = reward(prompts=["p", "p"], completions=["#### 7", "#### 8"],
                     solution=["... #### 7", "... #### 7"], answer=["wrong", "wrong"])
    assert out == [1.0, 0.0]
    assert reward.rubric.counters["errors"] == 0
    with warnings.catch_warnings():  # said once, not on every batch
        warnings.simplefilter("error")
        reward(prompts=["p"], completions=["#### 7"], solution=["7"], answer=["x"])


def test_trl_other_columns_still_reach_info():
    reward = to_trl(uses_level)
    assert reward(prompts=["p", "p"], completions=["x", "x"], answer=["7", "7"],
                  level=[3, 2]) == [1.0, 0.0]


def test_verl_gsm8k_preprocessing_extra_info_answer_is_not_a_second_gold():
    # verl's examples/data_preprocess/gsm8k.py stores the full solution as extra_info["answer"]
    compute_score = to_verl(Rubric([RewardFunc("accuracy", gsm8k_accuracy)]))
    extra = {"split": "train", "index": 0, "answer": "Natalia sold ... #### 72",
             "question": "How many?"}
    with pytest.warns(RuntimeWarning, match="not passing answer to accuracy"):
        right = compute_score("openai/gsm8k", "#### 72", "72", dict(extra))
    wrong = compute_score("openai/gsm8k", "#### 71", "72", dict(extra))
    assert (right["score"], right["no_signal"]) == (1.0, 0.0)
    assert (wrong["score"], wrong["no_signal"]) == (0.0, 0.0)


def test_verl_reward_kwargs_reach_keyword_parameters():
    compute_score = to_verl(gsm8k_check, result="float")
    hedge = "maybe 7, maybe 8: the answer is 8"
    assert compute_score("s", "7", "7", None) == 1.0  # flexible: the last number
    assert compute_score("s", "7", "7", None, policy="strict") == 0.0  # strict: '#### N' only
    assert compute_score("s", "#### 7", "7", None, policy="strict") == 1.0
    assert compute_score("s", hedge, "7", None) == 0.0
    # a partial's bound option is the default; reward_kwargs win, as verl merges them
    strict = to_verl(functools.partial(gsm8k_check, policy="strict"), result="float")
    assert strict("s", "7", "7", None) == 0.0
    assert strict("s", "7", "7", None, policy="flexible") == 1.0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"polcy": "strict"}, r"\['polcy'\] are parameters of no reward function"),
        ({"answer": "7"}, r"\['answer'\] would overwrite"),
    ],
)
def test_verl_an_option_no_function_takes_fails_on_the_first_call(options, message):
    compute_score = to_verl(gsm8k_check)
    with pytest.raises(TypeError, match=message):
        compute_score("s", "#### 7", "7", None, **options)


def test_a_required_parameter_nothing_fills_fails_on_the_first_call():
    with pytest.raises(TypeError, match=r"'needs_tests' requires \['tests'\]"):
        to_verl(needs_tests)("s", "x", "y", {"index": 0})
    with pytest.raises(TypeError, match=r"'needs_tests' requires \['tests'\]"):
        to_trl(needs_tests)(prompts=["p"], completions=["x"], answer=["y"], test_list=[[1]])
    assert to_verl(needs_tests, result="float")("s", "x", "y", None, tests=[1]) == 1.0
    # a column or extra_info key fills the parameter too, as TRL passes columns
    assert to_trl(needs_tests)(prompts=["p"], completions=["x"], answer=["y"],
                               tests=[[1]]) == [1.0]
    assert to_verl(needs_tests, result="float")("s", "x", "y", {"tests": [1]}) == 1.0


@pytest.mark.parametrize("gold", [np.int64(7), np.int32(7), np.float64(7.0), np.str_("7"),
                                  np.array(7)])
def test_verl_numpy_ground_truths_are_compared_as_text(gold):
    result = to_verl(gsm8k_check)("s", "#### 7", gold, None)
    assert (result["score"], result["no_signal"]) == (1.0, 0.0)


def test_trl_numpy_answers_are_compared_as_text():
    assert to_trl(gsm8k_check)(prompts=["p"], completions=["#### 7"],
                               answer=[np.int64(7)]) == [1.0]


def test_trl_a_reward_without_gold_needs_no_answer_column():
    reward = to_trl(format_reward)
    assert reward(prompts=["p", "p"], completions=[GOOD, "plain"], level=[1, 2]) == [1.0, 0.0]
    gated = to_trl(Rubric([RewardFunc("format", format_reward), gsm8k_check]))
    with pytest.raises(KeyError, match="needs the dataset column 'answer'"):
        gated(prompts=["p"], completions=[GOOD])


def test_verl_batch_call_and_float_mode():
    compute_score = to_verl(Rubric([RewardFunc("format", format_reward, weight=0.5),
                                    gsm8k_check]))
    out = compute_score(data_sources=np.array(["a", "b"], dtype=object),
                        solution_strs=[GOOD, "#### 7"], ground_truths=["7", np.int64(7)],
                        extra_infos=np.array([{"index": 0}, {"index": 1}], dtype=object),
                        policy="strict")
    assert [r["score"] for r in out] == pytest.approx([1.0, 2 / 3])
    floats = to_verl(gsm8k_check, result="float")
    assert floats(data_sources=["a"], solution_strs=["#### 7"], ground_truths=["7"],
                  extra_infos=[None]) == [1.0]
    with pytest.raises(ValueError, match="result"):
        to_verl(gsm8k_check, result="tuple")  # type: ignore[arg-type]


def test_adapters_pickle_for_process_pools():
    # verl's prime manager sends compute_score to a ProcessPoolExecutor
    compute_score = pickle.loads(pickle.dumps(to_verl(gsm8k_check, result="float")))
    assert compute_score("s", "#### 7", "7", None, policy="strict") == 1.0
    reward = pickle.loads(pickle.dumps(to_trl(gsm8k_accuracy)))
    assert reward(prompts=["p"], completions=["#### 7"], answer=["7"]) == [1.0]
