"""Misbehaving ``module:Class`` envs for the trainer's bad-input tests (``--env odd_envs:X``)."""

from __future__ import annotations

from typing import Any

from envs.base import TextEnv
from envs.single_turn import SingleTurnEnv


class RaisesOnInit(TextEnv):
    def __init__(self, **kwargs: Any):
        raise RuntimeError("the env's own bug")


class _OneTurn(TextEnv):
    """A one-turn env whose prompt is one of five, and whose reward ``reward_for`` decides."""

    def __init__(self, split: str = "train", **kwargs: Any):
        super().__init__(max_turns=1)

    def _start(self, options: dict) -> list[dict[str, str]]:
        return [{"role": "user", "content": f"say {int(self.np_random.integers(5))}"}]

    def _respond(self, text: str) -> tuple[list, float, bool, dict]:
        return [], self.reward_for(text), True, {}

    def reward_for(self, text: str) -> float:
        return 0.0


class NanReward(_OneTurn):
    def reward_for(self, text: str) -> float:
        return float("nan")


class InfReward(_OneTurn):
    def reward_for(self, text: str) -> float:
        return float("inf")


class TwoRowArithmetic(SingleTurnEnv):
    """The arithmetic task with two rows per split (a tiny custom dataset)."""

    def __init__(self, split: str = "train", **kwargs: Any):
        super().__init__("arithmetic", split=split, limit=2)


class LengthParity(_OneTurn):
    """Reward 1 for an answer of odd length: sampled completions of a group disagree."""

    def reward_for(self, text: str) -> float:
        return float(len(text) % 2)
