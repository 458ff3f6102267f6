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


class LeakyQuiz(TextEnv):
    """Deliberately farmable (for ``python -m envs probe``): a wrong first answer is told the
    right one, and the second answer is scored. A lookup of the feedback earns 1."""

    def __init__(self, **kwargs: Any):
        super().__init__(max_turns=2)

    def _start(self, options: dict) -> list[dict[str, str]]:
        self.secret = int(self.np_random.integers(1000, 10_000))
        return [{"role": "user", "content": "Which four-digit number am I thinking of?"}]

    def _respond(self, text: str) -> tuple[list, float, bool, dict]:
        if self.turn == 1 and str(self.secret) not in text:
            return [{"role": "user", "content": f"No: it was {self.secret}. Try again."}], 0.0, \
                False, {}
        return [], float(text.strip().endswith(str(self.secret))), True, {}


class EchoEveryLine(TextEnv):
    """Deliberately unbounded: one reply message per line of the action, so a flood of lines
    puts the observation past ``ChatMessages``' 64 messages."""

    def __init__(self, **kwargs: Any):
        super().__init__(max_turns=2)

    def _start(self, options: dict) -> list[dict[str, str]]:
        return [{"role": "user", "content": "Say anything."}]

    def _respond(self, text: str) -> tuple[list, float, bool, dict]:
        return [{"role": "user", "content": line} for line in text.splitlines()], 0.0, False, {}


class PaysAfterTheEnd(_OneTurn):
    """Deliberately careless: ``step`` after the end still scores (no episode guard), and a
    ``None`` action crashes deep inside with ``AttributeError``."""

    def step(self, action: Any) -> tuple:
        if self._not_running is not None and self.messages:
            return [], 1.0, True, False, {}
        if action is None:
            action.strip()
        return super().step(action)
