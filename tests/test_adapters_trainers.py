"""The adapters through the trainers' own reward paths.

**TRL**: a real ``trl.GRPOTrainer`` (TRL 1.16, tiny local Llama, CPU) trains one step with
``to_trl`` rewards, and its ``_calculate_rewards`` (the method ``GRPOTrainer`` calls on every
batch) is called on the same trainer for the cases a step cannot pin down.

**verl**: verl 0.9.1 (``pip download verl==0.9.1 --no-deps``) cannot be imported here:
``verl/__init__.py`` imports ``verl/protocol.py``, which imports ``ray`` (and its managers
need ``tensordict``/``DataProto``), so its reward managers are mirrored below from that pinned
source, call for call, minus tensors and printing:

- ``verl/workers/reward_manager/naive.py`` ``NaiveRewardManager.__call__``: keyword call
  ``compute_score(data_source=, solution_str=, ground_truth=, extra_info=)`` with
  ``extra_info["num_turns"]`` and ``extra_info["rollout_reward_scores"]`` added; a dict's keys
  are collected per sample.
- ``verl/workers/reward_manager/dapo.py``: the same call (no ``num_turns``); a float is also
  logged as ``acc``.
- ``verl/workers/reward_manager/batch.py`` ``BatchRewardManager.verify``: one call
  ``compute_score(data_sources=, solution_strs=, ground_truths=, extra_infos=,
  **reward_kwargs)`` returning a list.
- ``verl/workers/reward_manager/prime.py``: ``evaluation_func(task, completion, reference,
  task_extra_info)`` positionally in a ``ProcessPoolExecutor``; ``None``/exception -> 0.0, a
  number -> ``float``, anything else -> ``float(result[0])``.
- ``verl/trainer/ppo/reward.py`` ``get_custom_reward_fn``: ``custom_reward_function.
  reward_kwargs`` merged into every call's keywords, the configured ones winning.
- ``verl/experimental/reward_loop/reward_manager/naive.py``: the per-sample keyword call of
  the reward loop, plus ``reward_router_address`` / ``reward_model_tokenizer`` when a
  reward model is configured.
"""

from __future__ import annotations

import math
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import numpy as np
import pytest

from verifiers.adapters import to_trl, to_verl
from verifiers.format import format_reward
from verifiers.gsm8k import gsm8k_check
from verifiers.rubric import RewardFunc, Rubric
from verifiers.types import Verdict

torch = pytest.importorskip("torch")
trl = pytest.importorskip("trl")
datasets = pytest.importorskip("datasets")

GOOD = "<think>3+4</think><answer>#### 7</answer>"


# In-process (in_process=True): a deadline worker would import this module, and with it TRL.
def gold_and_level(completion, answer, **info):
    """1.0 when the gold is the answer_key column's '7' and the level column arrived."""
    return Verdict(float(answer == "7" and info.get("level") == 3), f"gold={answer!r} {info}")


def needs_tests(completion, answer, *, tests):
    return float(bool(tests))


def _in_process(name, fn):
    return Rubric([RewardFunc(name, fn, in_process=True)])


@pytest.fixture(scope="module")
def grpo(tiny_model, tmp_path_factory):
    """A real GRPOTrainer on the tiny model; every row's gold (``solution``) is 7, and a decoy
    ``answer`` column holds something else, as in a dataset keeping both."""
    from transformers import AutoTokenizer, LlamaForCausalLM

    torch.manual_seed(0)
    rows = [{"prompt": "What is 3+4?", "answer": "seven?", "solution": "7", "level": 3}] * 8
    args = trl.GRPOConfig(
        output_dir=str(tmp_path_factory.mktemp("grpo")), per_device_train_batch_size=4,
        num_generations=2, max_completion_length=4, max_steps=1, report_to=[], use_cpu=True,
        logging_steps=1, save_strategy="no", seed=0,
    )
    rewards = [to_trl(_in_process("gold", gold_and_level), answer_key="solution", name="gold"),
               to_trl(format_reward)]
    return trl.GRPOTrainer(
        model=LlamaForCausalLM.from_pretrained(tiny_model), reward_funcs=rewards, args=args,
        train_dataset=datasets.Dataset.from_list(rows),
        processing_class=AutoTokenizer.from_pretrained(tiny_model),
    )


def _use(trainer, funcs):
    """Give the real trainer other reward functions, as its constructor would have."""
    from trl.trainer.utils import get_callable_name

    trainer.reward_funcs = funcs
    trainer.reward_func_names = [get_callable_name(f) for f in funcs]
    trainer.reward_processing_classes = [None] * len(funcs)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the decoy column is reported, on purpose
def test_grpo_trainer_step_takes_the_gold_from_answer_key_despite_an_answer_column(grpo):
    grpo.train()
    log = grpo.state.log_history[0]
    assert log["rewards/gold/mean"] == 1.0  # not NaN (collision) and not 0 (clobbered gold)
    assert log["gold/no_signal"] == 0.0 and log["gold/errors"] == 0.0
    assert "rewards/format_reward/mean" in log


def test_calculate_rewards_conversational_and_without_a_gold_column(grpo):
    _use(grpo, [to_trl(format_reward), to_trl(gsm8k_check, answer_key="solution")])
    prompts = [[{"role": "user", "content": "What is 3+4?"}]] * 2
    completions = [[{"role": "assistant", "content": GOOD}],
                   [{"role": "assistant", "content": "#### 8"}]]
    inputs = [{"prompt": p, "solution": np.int64(7)} for p in prompts]  # no 'answer' column
    rewards = grpo._calculate_rewards(inputs, prompts, completions, [[1], [2]])
    assert rewards.tolist() == [[1.0, 1.0], [0.0, 0.0]]


def test_calculate_rewards_fails_loudly_on_a_parameter_no_column_fills(grpo):
    _use(grpo, [to_trl(_in_process("tests", needs_tests))])
    inputs = [{"prompt": "p", "answer": "1", "test_list": ["assert True"]}]
    with pytest.raises(TypeError, match=r"'tests' requires \['tests'\]"):
        grpo._calculate_rewards(inputs, ["p"], ["x"], [[1]])


def test_calculate_rewards_no_signal_is_nan_not_zero(grpo):
    _use(grpo, [to_trl(_in_process("gold", gold_and_level))])
    inputs = [{"prompt": "p", "answer": "7", "level": 3}]
    assert grpo._calculate_rewards(inputs, ["p"], [GOOD], [[1]]).tolist() == [[1.0]]
    _use(grpo, [to_trl(Rubric([RewardFunc("bad", gold_and_level, in_process=True),
                               RewardFunc("worse", _raises, in_process=True)]))])
    assert math.isnan(grpo._calculate_rewards(inputs, ["p"], [GOOD], [[1]]).item())


def _raises(completion, answer):
    raise RuntimeError("reward bug")


# --- verl: the managers of verl 0.9.1, mirrored (see the module doc) -----------------------


def _samples():
    # verl's examples/data_preprocess/gsm8k.py keeps the question and the worked solution in
    # extra_info, 'answer' among them; parquet round trips give numpy ground truths.
    extra = {"split": "train", "index": 0, "answer": "Natalia sold ... #### 7", "question": "q"}
    return [
        {"data_source": "openai/gsm8k", "response": "#### 7",
         "reward_model": {"ground_truth": np.int64(7)}, "extra_info": dict(extra)},
        {"data_source": "openai/gsm8k", "response": "so 7",
         "reward_model": {"ground_truth": "7"}, "extra_info": dict(extra, index=1)},
        {"data_source": "openai/gsm8k", "response": "#### 8",
         "reward_model": {"ground_truth": "7"}, "extra_info": dict(extra, index=2)},
    ]


def custom_reward_fn(raw_fn, reward_kwargs):
    """verl/trainer/ppo/reward.py get_custom_reward_fn + _call_with_kwargs."""
    def call(*args, **kwargs):
        return raw_fn(*args, **{**kwargs, **reward_kwargs})
    return call


def naive_manager(compute_score, samples):
    rewards, extra = [], defaultdict(list)
    for s in samples:
        extra_info = s.get("extra_info", {})
        extra_info["num_turns"] = None
        extra_info["rollout_reward_scores"] = {}
        score = compute_score(data_source=s["data_source"], solution_str=s["response"],
                              ground_truth=s["reward_model"]["ground_truth"],
                              extra_info=extra_info)
        if isinstance(score, dict):
            reward = score["score"]
            for key, value in score.items():
                extra[key].append(value)
        else:
            reward = score
        rewards.append(reward)
    return rewards, dict(extra)


def dapo_manager(compute_score, samples):
    rewards, extra = [], defaultdict(list)
    for s in samples:
        extra_info = s.get("extra_info", {})
        extra_info["rollout_reward_scores"] = {}
        result = compute_score(data_source=s["data_source"], solution_str=s["response"],
                               ground_truth=s["reward_model"]["ground_truth"],
                               extra_info=extra_info)
        if isinstance(result, dict):
            score = result["score"]
            for key, value in result.items():
                extra[key].append(value)
        else:
            score = result
            extra["acc"].append(score)
        rewards.append(score)
    return rewards, dict(extra)


def batch_manager(compute_score, samples, **reward_kwargs):
    extras = np.array([s.get("extra_info", {}) for s in samples], dtype=object)
    for e in extras:
        e["rollout_reward_scores"] = {}
    scores = compute_score(
        data_sources=np.array([s["data_source"] for s in samples], dtype=object),
        solution_strs=[s["response"] for s in samples],
        ground_truths=[s["reward_model"].get("ground_truth", None) for s in samples],
        extra_infos=extras, **reward_kwargs)
    rewards, extra = [], defaultdict(list)
    for score in scores:
        if isinstance(score, dict):
            rewards.append(score["score"])
            for key, value in score.items():
                extra[key].append(value)
        else:
            rewards.append(score)
    return rewards, dict(extra)


def prime_manager(compute_score, samples):
    """prime.py: positional calls in a process pool; its result handling, exactly."""
    with ProcessPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(partial(compute_score, s["data_source"], s["response"],
                                       s["reward_model"]["ground_truth"], s.get("extra_info")))
                   for s in samples]
        results = []
        for f in futures:
            try:
                results.append(f.result(timeout=120))
            except Exception as e:  # noqa: BLE001 - prime turns any failure into None
                results.append(e)
    scores = []
    for result in results:
        if isinstance(result, Exception) or result is None:
            scores.append(0.0)
        elif isinstance(result, int | float | bool):
            scores.append(float(result))
        else:
            scores.append(float(result[0]))
    return scores


def accuracy(completion, answer, **info):
    """A task-style reward (``**info``): the case where extra_info['answer'] collided."""
    return gsm8k_check(completion, answer)


@pytest.mark.filterwarnings("ignore:.*not passing answer:RuntimeWarning")
@pytest.mark.parametrize("manager", [naive_manager, dapo_manager, batch_manager])
def test_verl_managers_score_gsm8k_rows_with_answer_in_extra_info(manager):
    compute_score = to_verl(Rubric([RewardFunc("accuracy", accuracy),
                                    RewardFunc("fmt", format_reward, weight=0.0)]))
    rewards, extra = manager(compute_score, _samples())
    assert rewards == [1.0, 1.0, 0.0]
    assert extra["no_signal"] == [0.0, 0.0, 0.0]
    assert set(extra) == {"score", "accuracy", "fmt", "no_signal", "errors"}


def test_verl_reward_kwargs_from_the_config_reach_the_verifier():
    strict = custom_reward_fn(to_verl(gsm8k_check), {"policy": "strict"})
    assert naive_manager(strict, _samples())[0] == [1.0, 0.0, 0.0]  # 'so 7' has no '####'
    assert batch_manager(to_verl(gsm8k_check), _samples(), policy="strict")[0] == [1.0, 0.0, 0.0]
    typo = custom_reward_fn(to_verl(gsm8k_check), {"polcy": "strict"})
    with pytest.raises(TypeError, match="polcy"):
        naive_manager(typo, _samples())


def test_verl_prime_needs_the_float_mode_and_gets_it():
    samples = _samples()
    assert prime_manager(to_verl(gsm8k_check, result="float"), samples) == [1.0, 1.0, 0.0]
    with pytest.raises(KeyError):  # prime indexes a non-number result with [0]
        prime_manager(to_verl(gsm8k_check), samples)


def test_verl_reward_loop_passes_reward_model_plumbing_that_is_left_out():
    compute_score = to_verl(gsm8k_check, result="float")
    s = _samples()[0]
    extra_info = dict(s["extra_info"], num_turns=2, rollout_reward_scores={})
    assert compute_score(data_source=s["data_source"], solution_str=s["response"],
                         ground_truth=s["reward_model"]["ground_truth"], extra_info=extra_info,
                         reward_router_address="10.0.0.1:8000",
                         reward_model_tokenizer=object()) == 1.0
