"""The adapters through the trainers' own reward paths.

**TRL**: a real ``trl.GRPOTrainer`` (TRL 1.16, tiny local Llama, CPU) trains one step with
``to_trl`` rewards, and its ``_calculate_rewards`` (the method ``GRPOTrainer`` calls on every
batch) is called on the same trainer for the cases a step cannot pin down.

**verl**: verl 0.9.1's reward managers, mirrored in ``tests/verl_managers.py`` (verl
imports ``ray`` and cannot be imported here).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from verl_managers import batch as batch_manager
from verl_managers import dapo as dapo_manager
from verl_managers import naive as naive_manager
from verl_managers import prime as prime_manager

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


def test_verl_prime_reads_both_result_forms():
    # #35: prime indexes a non-number result with [0]; the default dict result used to
    # raise there, and prime scores the whole batch 0.0 when that happens.
    samples = _samples()
    assert prime_manager(to_verl(gsm8k_check, result="float"), samples) == [1.0, 1.0, 0.0]
    assert prime_manager(to_verl(gsm8k_check), _samples()) == [1.0, 1.0, 0.0]


def test_verl_reward_loop_passes_reward_model_plumbing_that_is_left_out():
    compute_score = to_verl(gsm8k_check, result="float")
    s = _samples()[0]
    extra_info = dict(s["extra_info"], num_turns=2, rollout_reward_scores={})
    assert compute_score(data_source=s["data_source"], solution_str=s["response"],
                         ground_truth=s["reward_model"]["ground_truth"], extra_info=extra_info,
                         reward_router_address="10.0.0.1:8000",
                         reward_model_tokenizer=object()) == 1.0
