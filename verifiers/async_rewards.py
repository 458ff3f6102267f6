"""Async reward functions: recognising them, and the event loop sync callers await them on.

``Rubric`` awaits async reward functions (judges, remote checkers); its sync ``score`` and
``score_batch`` run them on ``event_loop()``, a daemon thread per process started on first
use (and again in a forked child, which inherits the loop object but not its thread).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import os
import threading
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

__all__ = ["call_async", "event_loop", "is_async_reward", "run_coroutine"]


def is_async_reward(fn: Callable[..., Any]) -> bool:
    """Whether calling ``fn`` returns a coroutine: an ``async def`` function, a
    ``functools.partial`` of one, an instance whose ``__call__`` is ``async``, or a wrapper
    that says so with a bool ``is_async`` attribute (the adapters' argument router does).

    >>> async def judge(completion, answer): return 1.0
    >>> is_async_reward(judge), is_async_reward(functools.partial(judge, answer="x"))
    (True, True)
    """
    flag = getattr(fn, "is_async", None)
    if isinstance(flag, bool):
        return flag
    while isinstance(fn, functools.partial):
        fn = fn.func
    if inspect.iscoroutinefunction(fn):
        return True
    if inspect.isfunction(fn) or inspect.ismethod(fn) or inspect.isclass(fn):
        return False
    try:
        call = type(fn).__call__
    except AttributeError:
        return False
    return inspect.iscoroutinefunction(call)


async def call_async(fn: Callable[..., Awaitable[Any]], completion: Any, answer: Any,
                 info: Mapping[str, Any] | None) -> Any:
    return await (fn(completion, answer, **info) if info is not None else fn(completion, answer))


_LOOP_LOCK = threading.Lock()
_LOOP: tuple[int, asyncio.AbstractEventLoop, threading.Thread] | None = None


def event_loop() -> tuple[asyncio.AbstractEventLoop, threading.Thread]:
    """This process's loop for async reward functions, and the thread running it."""
    global _LOOP
    with _LOOP_LOCK:
        if _LOOP is None or _LOOP[0] != os.getpid() or not _LOOP[2].is_alive():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="rubric-async", daemon=True)
            thread.start()
            _LOOP = (os.getpid(), loop, thread)
        return _LOOP[1], _LOOP[2]


def run_coroutine(coro: Any) -> Any:
    """Run ``coro`` on ``event_loop()`` and wait for its result (from sync code)."""
    loop, thread = event_loop()
    if threading.current_thread() is thread:
        coro.close()
        raise RuntimeError("Rubric.score called from inside an async reward function; "
                           "await rubric.ascore(...) instead")
    return asyncio.run_coroutine_threadsafe(coro, loop).result()
