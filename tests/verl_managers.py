"""verl 0.9.1's reward managers, mirrored call for call (minus tensors and printing), for the
adapter tests: verl cannot be imported here (``verl/__init__.py`` imports ``ray``).

- ``naive``: ``verl/workers/reward_manager/naive.py``: keyword call with
  ``extra_info["num_turns"]`` and ``extra_info["rollout_reward_scores"]`` added; a dict's
  keys are collected per sample.
- ``dapo``: ``verl/workers/reward_manager/dapo.py``: the same call (no ``num_turns``); a
  float is also logged as ``acc``.
- ``batch``: ``verl/workers/reward_manager/batch.py``: one call with ``data_sources=``,
  ``solution_strs=``, ``ground_truths=``, ``extra_infos=``, ``**reward_kwargs``.
- ``prime``: ``verl/workers/reward_manager/prime.py``: ``evaluation_func(task, completion,
  reference, task_extra_info)`` positionally in a ``ProcessPoolExecutor``; ``None`` or an
  exception -> 0.0, a number -> ``float``, anything else -> ``float(result[0])``, and any
  exception there scores the whole batch 0.0 (``verify``'s ``except Exception``).
- ``reward_loop``: ``verl/experimental/reward_loop/reward_manager/naive.py``
  ``run_single``: awaits ``compute_score`` when ``inspect.iscoroutinefunction`` says it is
  async, else runs it in the loop's executor; keyword call plus ``reward_router_address``
  and ``reward_model_tokenizer``.
"""

from __future__ import annotations

import asyncio
import inspect
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import numpy as np


def naive(compute_score, samples):
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


def dapo(compute_score, samples):
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


def batch(compute_score, samples, **reward_kwargs):
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


def prime(compute_score, samples):
    """Scores only (prime keeps no extra info); the batch-wide fallback to 0.0 included."""
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
    try:
        scores = []
        for result in results:
            if isinstance(result, Exception) or result is None:
                scores.append(0.0)
            elif isinstance(result, int | float | bool):
                scores.append(float(result))
            else:
                scores.append(float(result[0]))
    except Exception:  # noqa: BLE001 - verify(): "Unexpected error during scoring", all 0
        scores = [0.0] * len(samples)
    return scores


def reward_loop(compute_score, samples):
    async def run_single(s, is_async):
        extra_info = dict(s.get("extra_info", {}))
        kwargs = dict(data_source=s["data_source"], solution_str=s["response"],
                      ground_truth=s["reward_model"]["ground_truth"], extra_info=extra_info,
                      reward_router_address=None, reward_model_tokenizer=None)
        if is_async:
            result = await compute_score(**kwargs)
        else:
            result = await asyncio.get_running_loop().run_in_executor(
                None, lambda: compute_score(**kwargs))
        if isinstance(result, dict):
            return result["score"], dict(result)
        return result, {"acc": result}

    async def main():
        is_async = inspect.iscoroutinefunction(compute_score)
        return await asyncio.gather(*(run_single(s, is_async) for s in samples))

    outputs = asyncio.run(main())
    extra = defaultdict(list)
    for _, info in outputs:
        for key, value in info.items():
            extra[key].append(value)
    return [score for score, _ in outputs], dict(extra)


MANAGERS = {"naive": naive, "dapo": dapo, "batch": batch, "prime": prime,
            "reward_loop": reward_loop}


def scores(manager: str, compute_score, samples) -> list[float]:
    """The rewards ``manager`` hands the trainer for ``samples``."""
    out = MANAGERS[manager](compute_score, samples)
    return out if manager == "prime" else out[0]
