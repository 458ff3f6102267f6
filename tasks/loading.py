"""Building a task by name for the ``python -m tasks`` commands: import the user's modules, check
the factory's ``-o KEY=VALUE`` options against its signature, and turn every failure into one
line (:class:`LoadError`)."""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any

from tasks.base import Task
from tasks.registry import factory, get, import_user_module
from tasks.sources import DataError, DataNotFound, _short


def _type_name(hint: Any) -> str:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in typing.get_args(hint))
    if hint is type(None):
        return "None"
    if isinstance(hint, type) and not typing.get_args(hint):
        return hint.__name__
    return str(hint).replace("typing.", "")


def _matches(value: Any, hint: Any) -> bool:
    """Whether ``value`` fits the annotation ``hint``; a hint we cannot judge lets it pass
    (the factory still checks)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, a) for a in typing.get_args(hint))
    if origin is typing.Literal:
        return value in typing.get_args(hint)
    if hint is None or hint is type(None):
        return value is None
    if origin is not None:
        return not isinstance(origin, type) or isinstance(value, origin)
    if not isinstance(hint, type):
        return True
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:  # True is an int to Python, but -o few_shot=True is a mistake
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def _check_options(make: Callable[..., Any], options: dict[str, Any]) -> None:
    """Raise ``ValueError`` naming the ``-o`` option the factory does not take or whose value
    has the wrong type: deep in the factory a str where an int belongs only says
    "'<' not supported between instances of 'str' and 'int'"."""
    try:
        params = inspect.signature(make).parameters
    except (TypeError, ValueError):
        return
    if not any(p.kind is p.VAR_KEYWORD for p in params.values()):
        accepted = [
            n for n, p in params.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        ]
        for key in options:
            if key not in accepted:
                raise ValueError(
                    f"-o {key}: not an option of this task (options: {', '.join(accepted) or 'none'})"
                )
    try:
        hints = typing.get_type_hints(make)
    except Exception:  # annotations naming what the module does not import: skip the check
        return
    for key, value in options.items():
        if key in hints and not _matches(value, hints[key]):
            raise ValueError(
                f"-o {key}={_short(value)}: expected {_type_name(hints[key])}, "
                f"got {type(value).__name__}"
            )


class LoadError(Exception):
    """A task that cannot be built: its message is the one line the CLI prints."""


def load_task(
    name: str, *, modules: Sequence[str] = (), options: dict[str, Any] | None = None
) -> Task:
    """Import ``modules`` (they register tasks), then build task ``name`` with the factory
    ``options`` checked against its signature; ``LoadError`` names what is wrong (shared
    with ``python -m tasks probe``)."""
    for module in modules:
        try:
            import_user_module(module)
        except ImportError as e:
            hint = " (give a module; a factory goes in the task argument)" if ":" in module else ""
            raise LoadError(f"--module {e}{hint}") from None
    options = dict(options or {})
    try:
        make = factory(name)
    except ImportError as e:
        raise LoadError(f"task {name}: cannot import it: {type(e).__name__}: {e}") from None
    except KeyError as e:
        raise LoadError(e.args[0]) from None  # str(KeyError) would wrap it in quotes
    try:
        _check_options(make, options)
        return get(name, **options)
    except KeyError as e:
        raise LoadError(e.args[0] if e.args else e) from None
    except (DataNotFound, DataError, ValueError, TypeError) as e:
        raise LoadError(e) from None
