"""A ``ToolEnv`` as TRL's ``GRPOTrainer`` wants it: ``environment_factory`` + a reward.

TRL (1.16) calls a tool env's public methods as tools, renders their schemas with
``apply_chat_template(..., tools=...)``, parses ``<tool_call>`` blocks with the tokenizer's
response template, and passes the env instances to reward functions as ``environments``.
This module gives it our env on those terms:

- ``trl_environment_factory(make_env)``: a zero-argument factory of objects whose methods
  are the env's tools (same names, signatures and docstrings, so TRL's schemas are ours);
  every call goes through the env's ``ToolBox`` (validation, deadline, result cap) and
  counts against the env's ``max_calls``; ``reset(row_id=...)`` picks the env's row;
- ``trl_dataset(make_env, n)``: rows ``{"prompt": [...], "row_id": ...}`` (no tools text in
  the prompt: TRL's template call adds the tools section);
- ``trl_reward``: the task's rubric on the final assistant message, from the env the rollout
  used (``None``, no signal, if the env never ran);
- ``prepare_tokenizer(tok)``: a Hermes/Qwen response template for a tokenizer TRL does not
  know (ours), so TRL can parse the calls.

Example (see ``tests/test_tool_env_trl.py`` for a real ``GRPOTrainer.train()``)::

    make = lambda: envs.make("tool-calculator").unwrapped
    trainer = trl.GRPOTrainer(model, reward_funcs=[trl_reward], args=args,
                              train_dataset=datasets.Dataset.from_list(trl_dataset(make, 64)),
                              processing_class=prepare_tokenizer(tok),
                              environment_factory=trl_environment_factory(make))
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from envs.single_turn import score_info
from envs.tool_env import ToolEnv
from envs.tools import Tool, ToolCall


class TRLToolEnvironment:
    """One rollout's env for TRL; its tool methods are added by ``trl_environment_factory``."""

    def __init__(self, env: ToolEnv):
        self._env = env
        self._started = False

    def reset(self, **row: Any) -> None:
        options = {"row_id": row["row_id"]} if "row_id" in row else {}
        self._env.reset(seed=row.get("seed"), options=options)
        self._env.tool_calls = self._env.tool_errors = self._env.tool_successes = 0
        self._started = True
        return None  # the prompt is the dataset's; nothing to append

    def _call(self, name: str, arguments: dict) -> str:
        env = self._env
        env.tool_calls += 1
        if env.tool_calls > env.max_calls:
            env.tool_errors += 1
            return f"Error: at most {env.max_calls} tool calls per episode"
        result = env.toolbox.run(ToolCall(name, dict(arguments)))
        if result.startswith("Error:"):
            env.tool_errors += 1
        else:
            env.tool_successes += 1
        return result

    def _score(self, completion: Any) -> float | None:
        if not self._started:
            return None
        text = _final_text(completion)
        if text is None:  # the rollout ended on a tool call: no final answer
            return 0.0
        reward, info = score_info(self._env.task.score(self._env.row, text))
        if info.get("no_signal"):
            return None
        if self._env.tool_bonus and self._env.tool_successes and info.get("correct"):
            reward += self._env.tool_bonus
        return reward


def _final_text(completion: Any) -> str | None:
    if isinstance(completion, str):
        return completion
    for message in reversed(list(completion or ())):
        if message.get("role") == "assistant":
            if message.get("tool_calls"):
                return None
            content = message.get("content")
            return content if isinstance(content, str) else None
    return None


def _method(tool: Tool) -> Callable[..., str]:
    """A method named like ``tool`` whose signature, hints and docstring are its function's,
    so ``get_json_schema`` on the bound method gives the tool's own schema."""
    fn = tool.fn if inspect.isfunction(tool.fn) else type(tool.fn).__call__
    signature = inspect.signature(fn)
    params = [p for p in signature.parameters.values() if p.name != "self"]

    def method(self: TRLToolEnvironment, **arguments: Any) -> str:
        return self._call(tool.name, arguments)

    functools.update_wrapper(method, fn)
    method.__name__ = method.__qualname__ = tool.name
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    # An explicit signature stops inspect at the wrapper (it would otherwise follow
    # __wrapped__ and, for the bound method, drop the tool's first argument as "self").
    method.__signature__ = signature.replace(parameters=[self_param, *params])
    return method


def trl_environment_factory(make_env: Callable[[], ToolEnv]) -> Callable[[], TRLToolEnvironment]:
    """A factory for ``GRPOTrainer(environment_factory=...)``: one class whose methods are
    the env's tools, one fresh env per instance."""
    probe = make_env()
    if not isinstance(probe, ToolEnv):
        raise TypeError(f"make_env must return a ToolEnv, got {type(probe).__name__}")
    names = set(vars(TRLToolEnvironment))
    methods = {}
    for name, tool in probe.toolbox.tools.items():
        if name in names or name.startswith("_") or not name.isidentifier():
            raise ValueError(f"tool name {name!r} cannot be a TRL environment method")
        methods[name] = _method(tool)
    cls = type(f"TRL{type(probe).__name__}", (TRLToolEnvironment,), methods)
    return functools.partial(_build, cls, make_env)


def _build(cls: type, make_env: Callable[[], ToolEnv]) -> TRLToolEnvironment:
    return cls(make_env())


def trl_dataset(make_env: Callable[[], ToolEnv], n: int, *, seed: int = 0) -> list[dict]:
    """``n`` rows of the env's task for TRL: the prompt without the tools text (TRL's
    template call writes it) and the ``row_id`` that ``reset`` picks the row by."""
    env = make_env()
    env.tools_in_prompt = "template"
    rows = []
    for i in range(n):
        prompt, _ = env.reset(seed=seed + i)
        rows.append({"prompt": prompt, "row_id": env.row.id})
    return rows


def trl_reward(completions: list, environments: list | None = None,
               **kwargs: Any) -> list[float | None]:
    """GRPOTrainer reward: the task's rubric on each rollout's final assistant message."""
    if environments is None:
        raise ValueError("trl_reward needs GRPOTrainer(environment_factory="
                         "trl_environment_factory(...))")
    return [env._score(c) for c, env in zip(completions, environments, strict=True)]


def prepare_tokenizer(tokenizer: Any) -> Any:
    """Give ``tokenizer`` the Hermes/Qwen response template (``<tool_call>{json}
    </tool_call>``, what our default template writes) unless it has one, so TRL parses
    tool calls. Returns the same tokenizer."""
    if getattr(tokenizer, "response_template", None) is None and getattr(
            tokenizer, "response_schema", None) is None:
        from trl.chat_template_utils import qwen3_template

        tokenizer.response_template = qwen3_template
    return tokenizer
