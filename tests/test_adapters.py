"""verifiers.adapters: TRL's and verl's own calling conventions.

TRL is driven through its real ``GRPOTrainer._calculate_rewards`` on a minimal stand-in trainer
(the attributes that method reads), so the test breaks if TRL changes how it calls reward
functions (tests/test_adapters_trainers.py drives a real GRPOTrainer). verl is not a
dependency (it imports ray): its convention is reproduced from
``verl/workers/reward_manager/naive.py`` (keyword call, ``extra_info`` with
``num_turns``, ``reward_kwargs`` merged in by ``custom_reward_function``, every dict key
collected into per-sample lists).
"""

from __future__ import annotations

import asyncio
import functools
import math
import time
from collections import defaultdict
from types import SimpleNamespace

import pytest

from verifiers.adapters import completion_text, to_trl, to_verl
from verifiers.format import format_reward
from verifiers.gsm8k import gsm8k_check
from verifiers.rubric import RewardFunc, Rubric
from verifiers.types import Verdict

torch = pytest.importorskip("torch")
grpo = pytest.importorskip("trl.trainer.grpo_trainer")
trl_utils = pytest.importorskip("trl.trainer.utils")

GOOD = "<think>3+4</think><answer>#### 7</answer>"


# Functions of this module run in-process (in_process=True): a deadline worker would have to
# import this module, and with it torch and TRL, which costs seconds.


def boom(completion, answer):
    raise RuntimeError("reward bug")


def level_bonus(completion, answer, **info):
    # Sees the dataset's other columns as info; TRL's machinery kwargs must not leak in.
    leaked = {"trainer_state", "log_metric", "log_extra", "completion_ids", "prompts"} & set(info)
    if leaked:
        raise AssertionError(f"machinery leaked into info: {leaked}")
    return Verdict(min(1.0, info["level"] / 10), f"level={info['level']}")


def info_keys(completion, answer, **info):
    expected = {"index", "num_turns", "mode"}
    return Verdict(float(set(info) == expected), ",".join(sorted(info)))


class StandInTrainer:
    """The attributes ``GRPOTrainer._calculate_rewards`` (and its profiling wrapper) reads."""

    _log_metric = grpo.GRPOTrainer._log_metric
    _log_completion_extra = grpo.GRPOTrainer._log_completion_extra

    def __init__(self, reward_funcs):
        self.reward_funcs = reward_funcs
        self.reward_processing_classes = [None] * len(reward_funcs)
        self.reward_func_names = [trl_utils.get_callable_name(f) for f in reward_funcs]
        self.accelerator = SimpleNamespace(device=torch.device("cpu"), is_main_process=True)
        self.state = SimpleNamespace(global_step=3)
        self.args = SimpleNamespace(report_to=[])
        self.environments = None
        self._pending_metrics = defaultdict(list)
        self._pending_extra_logs = defaultdict(list)

    def rewards(self, inputs, prompts, completions):
        completion_ids = [[1, 2, 3] for _ in completions]
        return grpo.GRPOTrainer._calculate_rewards(
            self, inputs, prompts, completions, completion_ids
        )


def test_trl_calculate_rewards_with_text_completions():
    rubric = Rubric(
        [RewardFunc("format", format_reward, weight=0.5), RewardFunc("accuracy", gsm8k_check)],
        gate="format",
    )
    funcs = [to_trl(rubric, name="math_rubric"), to_trl(gsm8k_check, answer_key="solution")]
    trainer = StandInTrainer(funcs)
    assert trainer.reward_func_names == ["math_rubric", "gsm8k_check"]
    prompts = ["What is 3+4?", "What is 3+4?", "What is 2*2?"]
    completions = [GOOD, "#### 7", "<think>2*2</think><answer>#### 5</answer>"]
    inputs = [
        {"prompt": p, "answer": a, "solution": f"... #### {a}", "level": 1}
        for p, a in zip(prompts, ["7", "7", "4"])
    ]
    rewards = trainer.rewards(inputs, prompts, completions)
    assert rewards.shape == (3, 2)
    assert rewards[:, 0].tolist() == pytest.approx([1.0, 0.0, 1 / 3])
    assert rewards[:, 1].tolist() == [1.0, 1.0, 0.0]
    metrics = trainer._pending_metrics
    assert metrics["math_rubric/accuracy"] == [pytest.approx(1 / 3)]  # gated one counts 0
    assert metrics["math_rubric/no_signal"] == [0.0]
    assert metrics["math_rubric/errors"] == [0.0]


def test_trl_conversational_completions_and_dataset_columns_as_info():
    funcs = [
        to_trl(gsm8k_check),
        to_trl(Rubric([RewardFunc("level", level_bonus, in_process=True)]), name="bonus"),
    ]
    trainer = StandInTrainer(funcs)
    prompts = [[{"role": "user", "content": "What is 3+4?"}]] * 2
    completions = [
        [{"role": "assistant", "content": "3+4 = 7\n#### 7"}],
        [{"role": "assistant", "content": [{"type": "text", "text": "#### 8"}]}],
    ]
    inputs = [{"prompt": p, "answer": "7", "level": lv} for p, lv in zip(prompts, [5, 20])]
    rewards = trainer.rewards(inputs, prompts, completions)
    assert rewards[:, 0].tolist() == [1.0, 0.0]
    assert rewards[:, 1].tolist() == [0.5, 1.0]


def test_trl_errors_become_nan_not_zero_and_are_logged():
    reward = to_trl(
        Rubric([RewardFunc("fmt", format_reward), RewardFunc("bug", boom, in_process=True)])
    )
    trainer = StandInTrainer([reward, to_trl(format_reward)])
    prompts = ["p", "p"]
    completions = [GOOD, "no tags"]
    inputs = [{"prompt": "p", "answer": "7"}] * 2
    rewards = trainer.rewards(inputs, prompts, completions)
    assert all(math.isnan(x) for x in rewards[:, 0].tolist())  # no signal, not 0
    assert rewards[:, 1].tolist() == [1.0, 0.0]
    assert trainer._pending_metrics["rubric/errors"] == [2.0]
    assert trainer._pending_metrics["rubric/no_signal"] == [1.0]
    assert reward.rubric.counters["errors/exception/bug"] == 2


def test_trl_missing_answer_column_names_the_columns():
    reward = to_trl(gsm8k_check, answer_key="gold")
    with pytest.raises(KeyError, match="'gold'.*'answer'"):
        reward(prompts=["p"], completions=["#### 1"], answer=["1"], trainer_state=None)
    with pytest.raises(ValueError, match="'answer'"):
        to_trl(gsm8k_check)(prompts=["p"], completions=["#### 1"], answer=["1", "2"])


def test_trl_names_and_bad_arguments():
    assert to_trl(functools.partial(gsm8k_check, policy="strict")).__name__ == "gsm8k_check"
    assert to_trl(Rubric([format_reward])).__name__ == "rubric"
    with pytest.raises(TypeError, match="Rubric"):
        to_trl(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="answer_key"):
        to_trl(gsm8k_check, answer_key="")


def test_trl_numeric_answers_are_compared_as_text():
    reward = to_trl(gsm8k_check)
    assert reward(prompts=["p", "p"], completions=["#### 12", "#### 3"], answer=[12, 3.0]) == [
        1.0,
        1.0,
    ]


def test_completion_text_picks_the_last_assistant_message():
    messages = [
        {"role": "assistant", "content": "calling a tool"},
        {"role": "tool", "content": "42"},
        {"role": "assistant", "content": "#### 42"},
        {"role": "user", "content": "thanks"},
    ]
    assert completion_text(messages) == "#### 42"
    assert completion_text([{"role": "tool", "content": "x"}]) == ""
    assert completion_text("plain") == "plain"
    assert completion_text(None) is None


def verl_naive_manager(compute_score, samples, reward_kwargs=None):
    """verl's NaiveRewardManager loop, minus tensors: keyword call, collect dict keys."""
    rewards, extra = [], defaultdict(list)
    for sample in samples:
        extra_info = dict(sample.get("extra_info", {}))
        extra_info["num_turns"] = None
        kwargs = {
            "data_source": sample["data_source"],
            "solution_str": sample["response"],
            "ground_truth": sample["reward_model"]["ground_truth"],
            "extra_info": extra_info,
        }
        score = compute_score(**{**kwargs, **(reward_kwargs or {})})
        if isinstance(score, dict):
            for key, value in score.items():
                extra[key].append(value)
            score = score["score"]
        rewards.append(score)
    return rewards, dict(extra)


def test_verl_naive_reward_manager_convention():
    rubric = Rubric([RewardFunc("format", format_reward, weight=0.5), gsm8k_check])
    compute_score = to_verl(rubric)
    samples = [
        {"data_source": "openai/gsm8k", "response": GOOD, "reward_model": {"ground_truth": "7"}},
        {"data_source": "openai/gsm8k", "response": "#### 7", "reward_model": {"ground_truth": 7}},
        {
            "data_source": "openai/gsm8k",
            "response": "<think>a</think><answer>#### 8</answer>",
            "reward_model": {"ground_truth": "7"},
            "extra_info": {"split": "train", "index": 2},
        },
    ]
    rewards, extra = verl_naive_manager(compute_score, samples, reward_kwargs={"policy": "flexible"})
    assert rewards == pytest.approx([1.0, 2 / 3, 1 / 3])
    assert set(extra) == {"score", "format", "gsm8k_check", "no_signal", "errors"}
    assert all(len(v) == 3 for v in extra.values())
    assert all(isinstance(x, float) for v in extra.values() for x in v)
    assert extra["gsm8k_check"] == [1.0, 1.0, 0.0]


def test_verl_positional_call_and_no_signal_flag():
    compute_score = to_verl(
        Rubric([RewardFunc("fmt", format_reward), RewardFunc("bug", boom, in_process=True)])
    )
    result = compute_score("src", GOOD, "7", None)
    assert result == {"score": 0.0, "fmt": 1.0, "bug": 0.0, "no_signal": 1.0, "errors": 1.0}
    assert compute_score.rubric.counters["errors/exception"] == 1
    with pytest.raises(TypeError, match="extra_info"):
        compute_score("src", GOOD, "7", "not a dict")


def test_verl_passes_extra_info_and_reward_kwargs_but_not_reward_model_plumbing():
    compute_score = to_verl(Rubric([RewardFunc("echo", info_keys, in_process=True)]))
    result = compute_score(
        data_source="src",
        solution_str="x",
        ground_truth="y",
        extra_info={"index": 3, "num_turns": None},
        mode="strict",
        reward_router_address="10.0.0.1:8000",
        reward_model_tokenizer=object(),
    )
    assert result["score"] == 1.0, result


def test_verl_rejects_names_that_clash_with_result_keys():
    with pytest.raises(ValueError, match="score"):
        to_verl(Rubric([RewardFunc("score", format_reward)]))


async def async_judge(completion, answer, **info):
    await asyncio.sleep(0.3)
    return Verdict(float(completion.strip().endswith(str(answer))), "judged")


def test_trl_awaits_an_async_rubric_on_its_own_loop_next_to_sync_rewards():
    from trl.trainer.utils import shutdown_event_loop_in_daemon, start_event_loop_in_daemon

    judged = to_trl(Rubric([RewardFunc("judge", async_judge)]), name="judge")
    trainer = StandInTrainer([judged, to_trl(gsm8k_check)])
    thread, trainer.async_loop, ready = start_event_loop_in_daemon()
    ready.wait()
    try:
        n = 6
        prompts = ["What is 3+4?"] * n
        completions = ["#### 7", "#### 8"] * (n // 2)
        inputs = [{"prompt": p, "answer": "7"} for p in prompts]
        start = time.monotonic()
        rewards = trainer.rewards(inputs, prompts, completions)
        elapsed = time.monotonic() - start
    finally:
        shutdown_event_loop_in_daemon(thread, trainer.async_loop)
    assert rewards[:, 0].tolist() == [1.0, 0.0] * (n // 2)
    assert rewards[:, 1].tolist() == [1.0, 0.0] * (n // 2)
    assert elapsed < n * 0.3 / 2, f"{n} judge calls of 0.3 s took {elapsed:.2f} s"
    assert trainer._pending_metrics["judge/judge"] == [pytest.approx(0.5)]
