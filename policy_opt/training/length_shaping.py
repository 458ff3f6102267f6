"""Length shaping in the trainer (``--overlong-buffer``, ``--overlong-penalty``,
``--truncation-penalty``): the rubric terms of ``verifiers.length`` applied to each episode.

The env has scored the answer (its reward, the task rubric's total). The trainer knows what
the env does not: how many tokens the model wrote and whether a turn was cut at its token
limit. It scores a second rubric whose first term is the env's reward and whose other terms
are ``SoftOverlong`` and ``Truncation``, passing each episode's ``completion_length`` and
``truncated`` in the info, so the terms read them as they do under ``to_trl``. The shaped
reward is that rubric's total (docs/length_shaping.md has the formulas):

- overlong at weight ``f``: ``(r + f (1 + R_length)) / (1 + f)``, DAPO's ``r + f R_length``
  up to an increasing affine map;
- ``--truncation-penalty W``: a truncated episode loses ``W / (1 + f + W)`` of its total;
- ``--truncation-penalty gate``: a truncated episode's reward is 0.

An episode without signal (reward None) stays None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from policy_opt.errors import TrainingError
from policy_opt.rollout.episodes import Episode
from verifiers.length import SoftOverlong, Truncation
from verifiers.rubric import RewardFunc, Rubric


def env_reward(completion: Any, answer: Any = None, **info: Any) -> float:
    """The env's own reward for the episode, passed in the info as ``env_reward``."""
    return float(info["env_reward"])


class LengthShaping:
    """The length terms of a run, or inactive (``bool(shaping)`` is False) when no flag asks
    for one. ``max_length``: the completion token limit (``--max-new-tokens`` x turns)."""

    def __init__(self, max_length: int, *, overlong_buffer: int = 0,
                 overlong_penalty: float = 1.0, truncation_penalty: str = "0") -> None:
        funcs = [RewardFunc("env", env_reward, in_process=True)]
        gate = None
        if overlong_buffer and overlong_penalty > 0:
            funcs.append(RewardFunc("overlong", SoftOverlong(max_length, overlong_buffer),
                                    weight=overlong_penalty, in_process=True))
        if truncation_penalty == "gate":
            # Weight 0: the gate decides, it does not add to the mean when passed.
            funcs.append(RewardFunc("not_truncated", Truncation(max_length), weight=0.0,
                                    in_process=True))
            gate = "not_truncated"
        elif float(truncation_penalty) > 0:
            funcs.append(RewardFunc("not_truncated", Truncation(max_length),
                                    weight=float(truncation_penalty), in_process=True))
        self.active = len(funcs) > 1
        self.rubric = Rubric(funcs, gate=gate)

    def __bool__(self) -> bool:
        return self.active

    def apply(self, episodes: Sequence[Episode]) -> None:
        """Replace each episode's reward by the shaped one, in place; the length terms'
        rewards go to ``info["length_shaping"]`` and the env's to ``info["env_reward"]``."""
        for ep in episodes:
            if ep.reward is None:
                continue
            info = {"env_reward": ep.reward, "completion_length": sum(ep.completion_mask),
                    "truncated": bool(ep.info.get("length_cut"))}
            score = self.rubric.score("", None, **info)
            if score.total is None:  # e.g. an env reward outside [0, 1], which no term takes
                raise TrainingError(
                    "length shaping (--overlong-buffer / --truncation-penalty) could not score "
                    f"an episode of reward {ep.reward!r}: "
                    + "; ".join(f"{e.kind}: {e.message}" for e in score.errors)
                    + ". The length terms are rubric terms: they need env rewards in [0, 1]")
            ep.info["env_reward"] = ep.reward
            ep.info["length_shaping"] = {k: v for k, v in score.breakdown.items() if k != "env"}
            ep.reward = float(score.total)


def shaping_metrics(episodes: Sequence[Episode]) -> dict[str, float]:
    """Mean change of the reward by length shaping (``length_shaping``, <= 0 when it only
    penalises), over the episodes it shaped."""
    deltas = [ep.reward - ep.info["env_reward"] for ep in episodes
              if ep.reward is not None and "env_reward" in ep.info]
    return {"length_shaping": sum(deltas) / len(deltas)} if deltas else {}
