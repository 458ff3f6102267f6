"""Name -> task factory. Built-in tasks are imported on first use, so ``import tasks`` stays
cheap and a task whose dependencies are missing does not break the others.

>>> @register("tiny-demo")
... def tiny_demo(n: int = 3):
...     from tasks.arithmetic import arithmetic
...     return arithmetic(n_train=n)
>>> "tiny-demo" in names()
True
>>> len(get("tiny-demo", n=2).rows("train"))
2
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar

from tasks.base import Task

Factory = Callable[..., Task]
F = TypeVar("F", bound=Factory)

# Built-ins: name -> "module:factory", imported by ``get``.
_BUILTIN: dict[str, str] = {
    "gsm8k": "tasks.gsm8k:gsm8k",
    "math500": "tasks.math500:math500",
    "mbpp": "tasks.code:mbpp",
    "humaneval": "tasks.code:humaneval",
    "arithmetic": "tasks.arithmetic:arithmetic",
    "countdown": "tasks.countdown:countdown",
}
_REGISTRY: dict[str, Factory] = {}
# Families named "prefix:NAME" (reasoning-gym's datasets: "rg:leg_counting"): prefix ->
# "module:resolve", where resolve(NAME) returns the factory of that member.
FAMILIES: dict[str, str] = {"rg": "tasks.reasoning_gym:family_factory"}


def register(name: str) -> Callable[[F], F]:
    """Decorator: register ``factory(**kwargs) -> Task`` under ``name``.

    Registering a name twice replaces the factory (so re-running a notebook cell works); a
    built-in name cannot be taken.
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"task name must be a non-empty string, got {name!r}")

    def decorate(factory: F) -> F:
        if not callable(factory):
            raise TypeError(f"register({name!r}) expects a callable returning a Task")
        if name in _BUILTIN and _BUILTIN[name] != _qualname(factory):
            raise ValueError(f"{name!r} is a built-in task name; choose another")
        _REGISTRY[name] = factory
        return factory

    return decorate


def _qualname(factory: Factory) -> str:
    return f"{getattr(factory, '__module__', '')}:{getattr(factory, '__qualname__', '')}"


def names() -> list[str]:
    """Every registered task name, sorted (built-ins included, imported or not)."""
    return sorted({*_BUILTIN, *_REGISTRY})


def factory(name: str) -> Factory:
    """The factory ``get(name)`` would call: registered, built-in or ``"package.module:factory"``.

    Raises ``KeyError`` for an unknown name and ``ImportError`` when the module cannot be
    imported.
    """
    found = _REGISTRY.get(name)
    if found is None and name in _BUILTIN:
        _import(_BUILTIN[name])  # its @register fills _REGISTRY
        found = _REGISTRY.get(name)
    if found is None and is_family(name):
        prefix, _, member = name.partition(":")
        found = _import(FAMILIES[prefix])(member)
    elif found is None and ":" in name:
        found = _import(name)
    if found is None:
        raise KeyError(f"unknown task {name!r}; known tasks: {', '.join(names())}")
    return found


def is_family(name: str) -> bool:
    """Whether ``name`` names a member of a task family (``rg:leg_counting``), not a
    ``module:factory``."""
    return isinstance(name, str) and name.partition(":")[0] in FAMILIES and ":" in name


def get(name: str, **kwargs: Any) -> Task:
    """Build the task ``name``; ``kwargs`` go to its factory (difficulty, prompt options, ...).

    ``name`` may also be ``"package.module:factory"`` for a factory that is not registered.
    """
    task = factory(name)(**kwargs)
    if not isinstance(task, Task):
        raise TypeError(f"factory for {name!r} returned {type(task).__name__}, expected a Task")
    return task


def import_user_module(name: str) -> None:
    """Import the user's module ``name`` (which registers their tasks with ``@register``).

    Raises ``ImportError`` with a one-line message that starts with ``name`` and says how to
    fix it; any exception the module itself raises on import is reported the same way (it is
    the user's code, so the message carries its type and text).
    """
    if not isinstance(name, str) or not name.strip():
        raise ImportError(f"{name!r}: expected a module name such as my_tasks")
    name = name.strip()
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name is not None and (e.name == name or name.startswith(e.name + ".")):
            raise ImportError(
                f"{name}: cannot import it: ModuleNotFoundError: {e}; run from the folder "
                f"that holds {name.split('.')[0]}.py (or add that folder to PYTHONPATH)"
            ) from None
        raise ImportError(f"{name}: cannot import it: ModuleNotFoundError: {e}") from None
    except Exception as e:  # the user's module: any failure while importing it is theirs
        raise ImportError(f"{name}: cannot import it: {type(e).__name__}: {e}") from None


def module_of(name: str) -> str | None:
    """The module whose import registers task ``name``: ``None`` for a built-in (it imports
    itself), an unknown name, or a task registered in ``__main__`` (not importable by name).
    A fresh process (a vector env's ``spawn``/``forkserver`` worker) imports it to find the
    task."""
    found = _REGISTRY.get(name)
    if found is None or name in _BUILTIN:
        return None
    module = getattr(found, "__module__", None)
    return module if module and module != "__main__" else None


def name_of(factory: Factory) -> str | None:
    """The name ``factory`` is registered under (``None`` when it is not registered)."""
    for name, known in _REGISTRY.items():
        if known is factory:
            return name
    return None


def _import(target: str) -> Factory:
    module_name, _, attr = target.partition(":")
    module = importlib.import_module(module_name)
    try:
        return getattr(module, attr)
    except AttributeError:
        raise KeyError(f"module {module_name!r} has no task factory {attr!r}") from None
