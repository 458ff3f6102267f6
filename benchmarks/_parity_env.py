"""The arithmetic prompts with a reward any model earns half the time: 1 when the completion
has an odd number of characters. A random-weight model gets no arithmetic reward at all, so
every group would have equal rewards (no gradient, and our trainer skips such groups); with
this reward nearly every group is mixed, so both sides of ``benchmarks/train_step.py`` do the
full work of a step. TRL gets the same rule as :func:`parity_reward`."""

from __future__ import annotations

from typing import Any

from envs.single_turn import SingleTurnEnv


def parity(text: str) -> float:
    return float(len(text) % 2)


class ArithmeticParity(SingleTurnEnv):
    """``--env _parity_env:ArithmeticParity`` (with ``benchmarks/`` on ``sys.path``)."""

    def __init__(self, split: str = "train", **kwargs: Any):
        super().__init__("arithmetic", split=split)

    def _respond(self, text: str) -> tuple[list, float, bool, dict[str, Any]]:
        return [], parity(text), True, {"row_id": self.row.id}


def parity_reward(prompts: list, completions: list, **kwargs: Any) -> list[float]:
    """TRL's reward function for the same rule (conversational completions)."""
    return [parity(c[-1]["content"] if isinstance(c, list) else c) for c in completions]
