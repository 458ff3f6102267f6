"""A mixture run's step (``--env gsm8k=0.7,math500=0.3``): which task each prompt of the step
comes from, the rollouts grouped by task, and the per-task metrics (``reward/<task>``,
``accuracy/<task>``, ``prompts/<task>``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from policy_opt.rollout.episodes import Episode
from policy_opt.training.evaluation import episode_correct
from tasks.mixture import Mixture


def draw_tasks(mixture: Mixture | None, env: str, n: int, seed: int) -> list[str]:
    """The task of each of a step's ``n`` prompts: ``env`` for all without a mixture, else
    weighted draws from ``random.Random(seed)`` (the step's own seed, so a resumed run draws
    the same tasks)."""
    if mixture is None:
        return [env] * n
    return mixture.draw(n, random.Random(seed))


def rollout_by_task(names: Sequence[str], seeds: Sequence[int],
                    collect: Callable[[str, list[int]], list[Episode]],
                    *, tag: bool) -> list[Episode]:
    """``collect(task, its seeds)`` once per task in order of first appearance; the episodes
    stay group-major (each call's are), and with ``tag`` each gets ``info["task"]``."""
    order = list(dict.fromkeys(names))
    episodes: list[Episode] = []
    for name in order:
        mine = [s for n, s in zip(names, seeds) if n == name]
        got = collect(name, mine)
        if tag:
            for ep in got:
                ep.info["task"] = name
        episodes += got
    return episodes


def task_stats(ep: Episode) -> tuple[str | None, float | None, bool]:
    """(task, reward, correct): what ``task_metrics`` needs of an episode."""
    return ep.info.get("task"), ep.reward, episode_correct(ep)


def task_metrics(stats: Sequence[tuple[str | None, float | None, bool]],
                 group_size: int) -> dict[str, Any]:
    """Per-task mean reward (no-signal episodes left out, as in ``reward_mean``), accuracy and
    number of prompts, from every rank's ``task_stats``; empty when no episode has a task."""
    out: dict[str, Any] = {}
    for name in dict.fromkeys(s[0] for s in stats if s[0] is not None):
        mine = [s for s in stats if s[0] == name]
        rewards = [s[1] for s in mine if s[1] is not None]
        out[f"reward/{name}"] = sum(rewards) / len(rewards) if rewards else None
        out[f"accuracy/{name}"] = sum(float(s[2]) for s in mine) / len(mine)
        out[f"prompts/{name}"] = len(mine) // group_size
    return out
