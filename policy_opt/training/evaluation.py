"""Held-out evaluation, shared by the trainer's periodic evaluation and
``python -m policy_opt.evaluate``: the held-out prompts are the ``test`` split drawn with fixed
seeds (``held_out_seeds``), one greedy completion per prompt gives the accuracy and mean
reward, ``k`` sampled completions at the rollout temperature give pass@k and mean@k
(``sampled_accuracy``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from policy_opt.rollout.episodes import Episode, collect_episodes

HELD_OUT_SEED = 1_000_000
"""The first held-out prompt's seed; far from the training draws' seeds by construction."""


def held_out_seeds(n: int) -> list[int]:
    """The seeds of the ``n`` held-out prompts: the same in every evaluation of every run, so
    evaluations are comparable."""
    return [HELD_OUT_SEED + i for i in range(n)]


@dataclass
class EvalRollouts:
    """One evaluation's episodes on this rank: ``greedy[i]`` and ``sampled[i*k:(i+1)*k]``
    answer the prompt of ``seeds[i]``."""

    seeds: list[int]
    greedy: list[Episode]
    sampled: list[Episode]
    k: int


def eval_rollouts(make_env: Callable[[], Any], engine: Any, tokenizer: Any, seeds: list[int], *,
                  k: int, max_new_tokens: int, max_turns: int, temperature: float,
                  top_p: float, seed: int, sample_seed: int, workers: int) -> EvalRollouts:
    """Greedy and sampled completions of the held-out prompts ``seeds``."""
    greedy = collect_episodes(make_env, engine, tokenizer, seeds, 1,
                              max_new_tokens=max_new_tokens, max_turns=max_turns,
                              temperature=0.0, seed=seed, workers=workers)
    sampled = collect_episodes(make_env, engine, tokenizer, seeds, k,
                               max_new_tokens=max_new_tokens, max_turns=max_turns,
                               temperature=temperature, top_p=top_p, seed=sample_seed,
                               workers=workers)
    return EvalRollouts(list(seeds), greedy, sampled, k)


def episode_correct(ep: Episode) -> bool:
    """Whether the env judged the final answer correct (falls back to reward >= 1)."""
    if "correct" in ep.info:
        return bool(ep.info["correct"])
    return ep.reward is not None and ep.reward >= 1.0


def verdicts(r: EvalRollouts) -> tuple[list[bool], list[float], list[bool]]:
    """(greedy correct, greedy reward, sampled correct): what ``summarise`` needs, small
    enough to gather from every rank."""
    return ([episode_correct(e) for e in r.greedy], [e.reward or 0.0 for e in r.greedy],
            [episode_correct(e) for e in r.sampled])


def summarise(parts: Sequence[tuple[list[bool], list[float], list[bool]]],
              k: int) -> dict[str, float]:
    """The held-out metrics of ``verdicts`` from every rank (in rank order).

    ``accuracy`` and ``reward_mean``: greedy; ``pass_at_k``: the share of prompts with at
    least one correct sample of ``k``; ``sampled_accuracy`` (mean@k): the share of correct
    samples, at the rollout temperature, i.e. the policy RL actually trains.

    Example:
        >>> summarise([([True, False], [1.0, 0.5], [True, False, False, False])], k=2)
        {'accuracy': 0.5, 'reward_mean': 0.75, 'pass_at_k': 0.5, 'sampled_accuracy': 0.25}
    """
    right = [c for p in parts for c in p[0]]
    rewards = [r for p in parts for r in p[1]]
    hits = [h for p in parts for h in p[2]]
    pass_k = [any(hits[i:i + k]) for i in range(0, len(hits), k)]
    return {
        "accuracy": sum(right) / len(right),
        "reward_mean": sum(rewards) / len(rewards),
        "pass_at_k": sum(pass_k) / len(pass_k),
        "sampled_accuracy": sum(hits) / len(hits),
    }


def _verdict(ep: Episode) -> dict[str, Any]:
    info = ep.info
    messages = info.get("messages") or []
    after = messages[len(_first_prompt(messages)):]
    said = [m.get("content", "") for m in after if m.get("role") == "assistant"]
    rec = {"completion": said[-1] if said else "", "reward": ep.reward,
           "correct": episode_correct(ep), "reasons": info.get("reasons", {}),
           "rubric": info.get("rubric", {}), "truncated": bool(info.get("truncated")),
           "length_cut": bool(info.get("length_cut")), "tokens": int(sum(ep.completion_mask))}
    if len(after) > 1:  # a multi-turn episode: the whole exchange after the prompt
        rec["conversation"] = after
    return rec


def row_records(r: EvalRollouts) -> list[dict[str, Any]]:
    """One JSON-ready record per held-out prompt: seed, row id, prompt messages, the greedy
    completion and the ``k`` samples, each with its reward, verdict and reasons. A ``None``
    reward is the env's "no signal" (never a 0 the model earned)."""
    out = []
    for i, seed in enumerate(r.seeds):
        g = r.greedy[i]
        out.append({
            "seed": seed, "row_id": g.info.get("row_id"),
            "prompt": _first_prompt(g.info.get("messages") or []),
            "greedy": _verdict(g),
            "samples": [_verdict(e) for e in r.sampled[i * r.k:(i + 1) * r.k]],
        })
    return out


def _first_prompt(messages: list[dict]) -> list[dict]:
    """The messages before the model's first turn."""
    head = []
    for m in messages:
        if m.get("role") == "assistant":
            break
        head.append(m)
    return head
