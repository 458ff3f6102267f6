"""``ChatMessages`` observations in ``AsyncVectorEnv``'s shared memory, so
``gymnasium.make_vec(id, n, vectorization_mode="async")`` works with its default
``shared_memory=True`` (Gymnasium has handlers for its own spaces only, and refuses
dynamic-size ones such as ``Sequence``).

Each sub-env gets a fixed slot of ``ChatMessages.shared_memory_bytes`` bytes: an 8-byte
length, then the observation pickled (UTF-8 strings, so at most 4 bytes a character plus a
small overhead per message). An observation that does not fit raises a ``ValueError`` that
names the sizes and the fix (``shared_memory=False``), instead of being cut. Only our own
worker processes write the slots, so unpickling them trusts nothing it did not produce.

The batch of observations is a live view (``ChatMessagesBatch``): Gymnasium builds it once
and reads it after every step (its ``copy=True`` default hands out a ``deepcopy``, a tuple
of message lists, as its unshared path does).

A sub-env that fails to build in its worker process (an unknown task in a ``spawn`` worker,
a missing dependency) used to kill the worker before Gymnasium's error reporting starts, so
the parent saw only ``ConnectionResetError``/``EOFError``. Importing this module wraps
Gymnasium's worker (``gymnasium.vector.async_vector_env._async_worker``, which
``AsyncVectorEnv`` looks up when it starts its workers) so that the construction error goes
through Gymnasium's own error queue: the parent raises the worker's exception, its traceback
logged, from ``AsyncVectorEnv(...)`` itself.

Example:
    >>> import multiprocessing
    >>> from envs.base import ChatMessages
    >>> space = ChatMessages(max_chars=50, max_messages=2)
    >>> memory = create_shared_memory(space, n=2, ctx=multiprocessing)
    >>> view = read_from_shared_memory(space, memory, n=2)
    >>> write_to_shared_memory(space, 1, [{"role": "user", "content": "hi ✓"}], memory)
    >>> view[0], view[1]
    ([], [{'role': 'user', 'content': 'hi ✓'}])
"""

from __future__ import annotations

import copy
import pickle
import struct
import sys
import traceback
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

from gymnasium.vector import async_vector_env
from gymnasium.vector.utils import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

from envs.base import ChatMessages

_HEADER = struct.Struct("<Q")


class ChatMessagesBatch(Sequence):
    """The observations of ``n`` sub-envs, decoded from shared memory when read."""

    def __init__(self, memory: Any, n: int, slot: int) -> None:
        self._memory, self._n, self._slot = memory, n, slot

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: int | slice) -> Any:  # type: ignore[override]
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._n)))
        if not -self._n <= index < self._n:
            raise IndexError(f"sub-env index {index} out of range for {self._n} envs")
        start = (index % self._n) * self._slot
        buffer = memoryview(self._memory.get_obj()).cast("B")
        (size,) = _HEADER.unpack_from(buffer, start)
        if size == 0:
            return []
        body = start + _HEADER.size
        return pickle.loads(buffer[body : body + size])

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(self._n))

    def __deepcopy__(self, memo: dict) -> tuple:
        return tuple(copy.deepcopy(list(self), memo))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"ChatMessagesBatch({list(self)!r})"


@create_shared_memory.register(ChatMessages)
def _create(space: ChatMessages, n: int = 1, ctx: ModuleType | Any = None) -> Any:
    import multiprocessing

    ctx = ctx or multiprocessing
    # 'B' arrays start zeroed: every slot reads as an empty message list until written
    return ctx.Array("B", n * space.shared_memory_bytes)


@read_from_shared_memory.register(ChatMessages)
def _read(space: ChatMessages, shared_memory: Any, n: int = 1) -> ChatMessagesBatch:
    return ChatMessagesBatch(shared_memory, n, space.shared_memory_bytes)


@write_to_shared_memory.register(ChatMessages)
def _write(space: ChatMessages, index: int, value: Any, shared_memory: Any) -> None:
    slot = space.shared_memory_bytes
    payload = pickle.dumps([dict(m) for m in value], protocol=pickle.HIGHEST_PROTOCOL)
    if _HEADER.size + len(payload) > slot:
        raise ValueError(
            f"an observation of {len(payload)} bytes does not fit the {slot}-byte shared-memory "
            f"slot of {space!r}; raise the space's max_total_chars or pass shared_memory=False "
            "to AsyncVectorEnv / make_vec(..., vector_kwargs={'shared_memory': False})"
        )
    buffer = memoryview(shared_memory.get_obj()).cast("B")
    start = index * slot
    _HEADER.pack_into(buffer, start, len(payload))
    buffer[start + _HEADER.size : start + _HEADER.size + len(payload)] = payload


_gymnasium_worker = async_vector_env._async_worker


def _async_worker(index: int, env_fn: Any, pipe: Any, parent_pipe: Any, shared_memory: Any,
                  error_queue: Any, *args: Any, **kwargs: Any) -> None:
    """Gymnasium's worker, with a failure to build the env reported like any other error."""
    try:
        env = env_fn()
    except Exception:  # noqa: BLE001 - whatever it is, the parent must see it, not a reset
        parent_pipe.close()
        _report_until_closed(index, pipe, error_queue, sys.exc_info(), traceback.format_exc())
        return
    _gymnasium_worker(index, lambda: env, pipe, parent_pipe, shared_memory, error_queue,
                      *args, **kwargs)


def _report_until_closed(index: int, pipe: Any, error_queue: Any, exc_info: Any,
                         trace: str) -> None:
    # Gymnasium's protocol: each command a failed worker cannot serve is answered with
    # (None, False) and one entry on the error queue, which the parent turns into its raise.
    exc_type, exc = exc_info[:2]
    while True:
        try:
            command, _ = pipe.recv()
        except (EOFError, OSError):  # the parent closed the pipe after raising
            return
        if command == "close":
            pipe.send((None, True))
            return
        error_queue.put((index, exc_type, exc, trace))
        pipe.send((None, False))


async_vector_env._async_worker = _async_worker
