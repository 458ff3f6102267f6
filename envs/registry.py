"""Env ids, short aliases and ``make``.

Every task in ``tasks.names()`` is registered with Gymnasium as ``rlvr/<task>-v0`` (a
``SingleTurnEnv``), next to the multi-turn envs ``rlvr/guess-number-v0``,
``rlvr/calculator-v0`` and ``rlvr/code-feedback-v0``. ``make`` accepts a short alias
(``gsm8k``, ``guess-number``), a Gymnasium id, or ``"package.module:EnvClass"``.

Example:
    >>> import envs
    >>> envs.env_id("gsm8k"), envs.env_id("rlvr/guess-number-v0")
    ('rlvr/gsm8k-v0', 'rlvr/guess-number-v0')
    >>> env = envs.make("guess-number", high=10)
    >>> env.unwrapped.high
    10
"""

from __future__ import annotations

import importlib
import threading
import types
from typing import Any

import gymnasium

from envs.base import show

NAMESPACE = "rlvr"
_lock = threading.Lock()  # rollouts make envs from several threads at once

# Multi-turn envs: alias -> entry point (their ids are rlvr/<alias>-v0).
MULTI_TURN = {
    "guess-number": "envs.guess_number:GuessNumberEnv",
    "calculator": "envs.tool_use:ToolUseEnv",
    "code-feedback": "envs.code_feedback:CodeFeedbackEnv",
    "tool-calculator": "envs.tool_env:CalculatorToolEnv",
    "tool-python": "envs.tool_env:PythonToolEnv",
    "tool-search": "envs.tool_env:SearchToolEnv",
}


def _id(alias: str) -> str:
    return f"{NAMESPACE}/{alias}-v0"


def register_all() -> list[str]:
    """Register every task and multi-turn env not registered yet; return all our ids.

    Called on ``import envs`` and again by ``make``, so a task registered after the import
    (``@tasks.register("mine")``) is still reachable as ``rlvr/mine-v0``.
    """
    import tasks

    ids = []
    with _lock:
        for alias, entry in MULTI_TURN.items():
            ids.append(_register(_id(alias), entry, {}))
        for name in tasks.names():
            if name in MULTI_TURN:
                continue  # a task may not shadow a multi-turn env's alias
            module = tasks.registry.module_of(name)
            if module is None:
                ids.append(_register(_id(name), "envs.single_turn:SingleTurnEnv", {"task": name}))
            else:  # a worker process must import the module that registers the task
                ids.append(_register(_id(name), "envs.registry:user_task_env",
                                     {"task": name, "task_module": module}))
    return ids


def user_task_env(task: str, task_module: str, **kwargs: Any) -> gymnasium.Env:
    """The env of a task registered by the user's module ``task_module``, importing that
    module first when this process has not (a ``spawn``/``forkserver`` vector-env worker)."""
    import tasks
    from envs.single_turn import SingleTurnEnv
    from tasks.registry import import_user_module

    if task not in tasks.names():
        import_user_module(task_module)
    return SingleTurnEnv(task, **kwargs)


def _register(env_id: str, entry_point: str, kwargs: dict[str, Any]) -> str:
    if env_id not in gymnasium.registry:
        # No TimeLimit wrapper: the envs count their own turns (and truncate by themselves).
        gymnasium.register(env_id, entry_point=entry_point, kwargs=kwargs)
    return env_id


def names() -> list[str]:
    """The short aliases ``make`` accepts (tasks and multi-turn envs)."""
    import tasks

    return sorted({*MULTI_TURN, *tasks.names()})


def env_id(name: str) -> str:
    """The Gymnasium id for an alias or id; raises ``ValueError`` for an unknown name."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"env name must be a non-empty string, got {show(name)}")
    register_all()
    if name in gymnasium.registry:
        return name
    if _id(name) in gymnasium.registry:
        return _id(name)
    known = names()
    # the list grows with every task a session registers; the error must stay one short line
    shown = ", ".join(known[:12]) + (f", ... ({len(known) - 12} more)" if len(known) > 12 else "")
    raise ValueError(f"unknown env {show(name)}; known: {shown} (or a Gymnasium id, "
                     "'package.module:EnvClass', or a task of your own module: "
                     "--env my_tasks:double or --module my_tasks)")


def make(name: str, **kwargs: Any) -> gymnasium.Env:
    """Make an env from an alias (``gsm8k``), a Gymnasium id (``rlvr/gsm8k-v0``),
    ``"package.module:EnvClass"``, or ``"module:task"`` for a task registered in the user's
    module (``my_tasks:double``: the module is imported, which registers ``double``);
    ``kwargs`` go to the env's constructor.

    Example:
        >>> make("rlvr/guess-number-v0").spec.id
        'rlvr/guess-number-v0'
        >>> make("tasks.arithmetic:arithmetic").spec.id
        'rlvr/arithmetic-v0'
    """
    from tasks.registry import is_family

    if is_family(name):  # rg:leg_counting: a task family's member, not a module
        from envs.single_turn import SingleTurnEnv

        return SingleTurnEnv(name, **kwargs)
    if isinstance(name, str) and ":" in name:
        return _make_from_module(name, kwargs)
    return gymnasium.make(env_id(name), **kwargs)


def _make_from_module(name: str, kwargs: dict[str, Any]) -> gymnasium.Env:
    from tasks.registry import import_user_module, name_of

    module_name, _, attr = name.partition(":")
    if not module_name or not attr:
        raise ValueError(f"env {show(name)}: expected 'package.module:EnvClass' or "
                         "'module:task' with both parts non-empty")
    try:
        import_user_module(module_name)
    except ImportError as err:
        raise ImportError(f"env {show(name)}: module {err}") from None
    module = importlib.import_module(module_name)
    target = getattr(module, attr, None)
    if isinstance(target, type) and issubclass(target, gymnasium.Env):
        return target(**kwargs)
    register_all()  # the import may have registered tasks: give them their ids
    # Gymnasium's own "module:EnvId" form, or a task name / id the import registered.
    for candidate in (attr, _id(attr)):
        if candidate in gymnasium.registry:
            return gymnasium.make(candidate, **kwargs)
    task_name = name_of(target) if callable(target) else None
    if task_name is not None:  # a factory registered under another name
        return gymnasium.make(_id(task_name), **kwargs)
    import tasks

    if callable(target) and isinstance(target, types.FunctionType):
        # An unregistered task factory: tasks.get takes "module:factory" itself.
        from envs.single_turn import SingleTurnEnv

        return SingleTurnEnv(name, **kwargs)
    raise ValueError(f"env {show(name)}: {module_name} has no gymnasium.Env class, task or "
                     f"task factory {show(attr)} and registered no env id {show(attr)} (tasks "
                     f"registered: {', '.join(tasks.names())})")
