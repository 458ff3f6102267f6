"""Long-number arithmetic with a calculator tool: the task of ``benchmarks/tool_learning.py``.

The default model was warm-started on one-digit arithmetic, so problems on 5-6 digit numbers
(``long_arithmetic``: ``arithmetic`` with its own knobs, two operands, ``+ - *``) are out of
its reach in its head, and within it with the calculator: copy the expression into a tool
call, copy the result into the ``#### N`` line.

``LongCalculatorEnv`` is ``ToolEnv`` with the calculator on that task, and a one-line tools
section instead of the full JSON-schema one (~700 characters): the default model was
pretrained on sequences of at most 384 bytes (its positions past that are untrained) and a
schema it cannot read would only make every rollout and update three times longer.

Example:
    >>> env = LongCalculatorEnv(split="test")
    >>> prompt, _ = env.reset(seed=0)
    >>> [m["role"] for m in prompt]
    ['system', 'user']
    >>> prompt[1]["content"].startswith("What is ")
    True
"""

from __future__ import annotations

from typing import Any

from envs.tool_env import ToolEnv, calculator
from envs.tools import Tool

LONG_DIGITS = (5, 6)
LONG_OPS = "+-*"
SYSTEM = ('You may call calculator(expression): <tool_call>{"name": "calculator", '
          '"arguments": {"expression": "..."}}</tool_call>')


def long_arithmetic(digits: tuple[int, int] = LONG_DIGITS, ops: str = LONG_OPS,
                    **kwargs: Any) -> Any:
    """``arithmetic`` on two ``digits``-digit operands (its generator unchanged: only its
    documented knobs are set), so train and test never share a computation.

    Example:
        >>> row = long_arithmetic().rows("test", limit=1)[0]
        >>> len(row.info["steps"])
        1
    """
    import tasks

    return tasks.get("arithmetic", digits=digits, operands=2, ops=ops, **kwargs)


class LongCalculatorEnv(ToolEnv):
    """The calculator tool on ``long_arithmetic`` with a one-line tools section (``SYSTEM``).

    Takes ``ToolEnv``'s keyword arguments; ``task_kwargs`` override ``long_arithmetic``'s
    knobs (``digits``, ``ops``, ...).
    """

    def __init__(self, *, task_kwargs: dict[str, Any] | None = None, max_turns: int = 3,
                 **kwargs: Any):
        kwargs.setdefault("max_calls", 4)
        # By name and kwargs, not as an object: envs cache a named task's rows per process,
        # and a rollout makes one env per episode (a task object would regenerate its 10,000
        # rows each time, ~15 s).
        knobs = {"digits": LONG_DIGITS, "operands": 2, "ops": LONG_OPS, **dict(task_kwargs or {})}
        super().__init__("arithmetic", tools=[Tool(calculator, timeout=5.0)],
                         max_turns=max_turns, tools_in_prompt="template", task_kwargs=knobs,
                         **kwargs)

    def _start(self, options: dict[str, Any]) -> list[dict[str, str]]:
        prompt = super()._start(options)
        return [{"role": "system", "content": SYSTEM}, *prompt]


class LongAdditionEnv(LongCalculatorEnv):
    """``LongCalculatorEnv`` on sums of two 5-digit numbers: the operands have a fixed width
    and the sum 5 or 6 digits, so each copy of the tool exchange (the expression into the call,
    the result into ``#### N``) stands at a nearly fixed distance, the easiest copy there is
    (``benchmarks/tool_copy_sft.py``)."""

    def __init__(self, *, task_kwargs: dict[str, Any] | None = None, **kwargs: Any):
        super().__init__(task_kwargs={"digits": (5, 5), "ops": "+", **dict(task_kwargs or {})},
                         **kwargs)
