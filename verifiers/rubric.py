r"""Rubrics: named, weighted reward functions scored together, with gating and loud failures.

>>> from verifiers.rubric import RewardFunc, Rubric
>>> from verifiers.format import format_reward
>>> from verifiers.gsm8k import gsm8k_check
>>> rubric = Rubric([RewardFunc("format", format_reward, weight=0.2),
...                  RewardFunc("accuracy", gsm8k_check)], gate="format")
>>> s = rubric.score("<think>6*7</think><answer>#### 42</answer>", "42")
>>> s.total, s.breakdown
(1.0, {'format': 1.0, 'accuracy': 1.0})
>>> s = rubric.score("#### 42", "42")                # right answer, wrong format: gated
>>> s.total, s.breakdown["accuracy"], s.reasons["accuracy"]
(0.0, 0.0, 'gated: format=0 < 1')

A reward function is ``fn(completion: str, answer: str, **info) -> float | Verdict``. ``info``
(a row's extra fields) is passed only to functions that accept ``**kwargs``; a function with a
fixed signature, like ``gsm8k_check`` or ``math_reward``, is called as ``fn(completion,
answer)`` (fix its options with ``functools.partial``). This is decided once, when the
``RewardFunc`` is built (``RewardFunc.takes_info``), never per call.

**Total.** The weighted mean ``sum(w_i * r_i) / sum(w_i)`` of the functions' rewards, so it
stays in [0, 1] like every reward (weights are relative; weight 0 logs a function without
counting it). With ``gate="format"`` the other functions run only when ``format`` gave 1.0;
otherwise they are not called and count as 0 (reason ``"gated: ..."``).

**Failures are typed, reported and counted, never a silent 0.** A function that raises, runs
past the deadline, or returns something that is not a reward (NaN, outside [0, 1], not a
number or ``Verdict``) gives a ``RewardError`` (``kind`` = ``"exception"`` | ``"timeout"`` |
``"invalid_return"``) in ``RubricScore.errors``, ``None`` in the breakdown, and adds to
``Rubric.counters``. A ``Verdict`` with ``reward=None`` (the verifier's own "no signal") also
gives ``None`` in the breakdown, without an error. In both cases **the total is ``None``**: the
sample carries no signal and trainers drop it (``verifiers.types.Verdict``'s contract). Why not
a number: scoring the failed part as 0 punishes the completion for an infrastructure fault (a
GRPO group would then push the policy away from a possibly correct answer), and re-normalising
over the functions that worked would mix rewards of different meanings within one group.
Either way the number would look like signal and hide the fault; ``None`` cannot be mistaken.

**Deadlines.** Each call runs in a killable worker process with a hard deadline of
``timeout`` seconds (``verifiers.deadline.run_with_deadline``), so a function stuck in C-level
work or a catastrophic regex is killed from outside. That needs ``fn`` to be picklable by
reference (a module-level function, a ``functools.partial`` of one, a class instance of a
module-level class). Functions that are not (lambdas, closures, functions defined inside
other functions), and functions marked ``RewardFunc(..., in_process=True)``, are called
directly in the calling process; their deadline is then *soft*: a call that overran is
reported as a ``"timeout"`` error after it returns, but it cannot be interrupted. Such
functions are listed in ``RubricScore.unguarded`` and counted (``"unguarded_calls"``), and a
``RuntimeWarning`` is emitted when the rubric is built with an unpicklable one.
``in_process=True`` suits functions that enforce their own hard deadline (``verifiers.math``)
or that are trivially fast: it saves a process round trip per call.

**Batches.** ``score_batch`` scores samples from a thread pool; each thread hands its calls to
the worker processes of ``verifiers.deadline``, so the samples are scored in parallel
processes (at most ``verifiers.deadline.set_max_workers`` at once) with deadlines enforced
from outside. Unguarded functions run in the threads (parallel only where they release the
GIL).

**Async reward functions** (``async def``, a ``functools.partial`` of one, or an instance
whose ``__call__`` is ``async``: the way in for judges and remote checkers) are awaited on an
event loop, never sent to a worker process. Their deadline is ``asyncio.wait_for``: a call
still pending after ``timeout`` seconds is cancelled and reported as a ``"timeout"`` error;
one that blocks the loop with synchronous work cannot be cancelled and is reported as a
timeout when it returns, as an in-process function is. Errors and returns are typed as for
sync functions. ``score_batch`` awaits the samples of a batch concurrently (all of them: an
async call waits on I/O, not on a CPU), while the rubric's sync functions still run at most
``workers`` at a time in threads. ``score``/``score_batch`` run them on a private event loop
thread, so they work from sync code; inside a running event loop, ``await
rubric.ascore(...)`` / ``rubric.ascore_batch(...)`` instead.
"""

from __future__ import annotations

import asyncio
import inspect
import math
import numbers
import os
import pickle
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable, Generator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from verifiers.async_rewards import call_async, is_async_reward, run_coroutine
from verifiers.deadline import DeadlineExceeded, WorkerError, run_with_deadline
from verifiers.types import Verdict

__all__ = ["DEFAULT_TIMEOUT", "RewardError", "RewardFunc", "Rubric", "RubricScore",
           "is_async_reward"]

# A backstop against hangs, not a precision limit: it also covers a nested worker's start-up
# (verifiers.math starts its own sympy worker, which can take seconds on a cold, busy machine).
DEFAULT_TIMEOUT = 20.0

ErrorKind = Literal["exception", "timeout", "invalid_return"]
ERROR_KINDS: tuple[str, ...] = ("exception", "timeout", "invalid_return")


@dataclass(frozen=True)
class RewardError:
    """Why a reward function gave no reward for one sample.

    ``kind``: ``"exception"`` (it raised, or its worker died), ``"timeout"`` (it ran past the
    deadline), ``"invalid_return"`` (NaN, infinite, outside [0, 1], or not a number/Verdict).

    >>> str(RewardError("accuracy", "timeout", "exceeded 5 s"))
    'accuracy: timeout: exceeded 5 s'
    """

    name: str
    kind: ErrorKind
    message: str

    def __str__(self) -> str:
        return f"{self.name}: {self.kind}: {self.message}"


@dataclass(frozen=True)
class RubricScore:
    """One sample's score.

    - ``total``: weighted mean of the breakdown, or ``None`` (no signal) when any function
      errored or gave ``None``.
    - ``breakdown``: each function's own (unweighted) reward; ``None`` where it had none.
    - ``reasons``: a reason for every function that gave one (``Verdict.reason``), errored,
      or was gated off.
    - ``errors``: the ``RewardError`` of each function that failed.
    - ``unguarded``: names of the functions that ran without a hard deadline.
    """

    total: float | None
    breakdown: dict[str, float | None]
    reasons: dict[str, str]
    errors: tuple[RewardError, ...] = ()
    unguarded: tuple[str, ...] = ()


def _accepts_var_kwargs(fn: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # some builtins have no signature: give them no info
        return False
    return any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def _is_picklable(fn: Callable[..., Any]) -> bool:
    try:
        pickle.dumps(fn, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - any failure means "cannot go to a worker"
        return False
    return True


@dataclass(frozen=True)
class RewardFunc:
    """A named reward function with a weight.

    ``in_process=True`` calls ``fn`` in the calling process (soft deadline): for functions
    with their own hard deadline or trivially fast ones. ``takes_info`` (computed) says
    whether ``fn`` accepts ``**info``; ``is_async`` (computed) whether it is awaited
    (``is_async_reward``).

    >>> from verifiers.format import format_reward
    >>> RewardFunc("format", format_reward, weight=0.5).takes_info
    False
    """

    name: str
    fn: Callable[..., Any]
    weight: float = 1.0
    in_process: bool = False
    takes_info: bool = field(init=False, repr=False, compare=False)
    picklable: bool = field(init=False, repr=False, compare=False)
    is_async: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"RewardFunc name must be a non-empty str, got {self.name!r}")
        if not callable(self.fn):
            raise TypeError(f"RewardFunc {self.name!r}: fn must be callable, got {self.fn!r}")
        weight = self.weight
        if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
            raise TypeError(f"RewardFunc {self.name!r}: weight must be a number, got {weight!r}")
        if not math.isfinite(weight) or weight < 0:
            raise ValueError(
                f"RewardFunc {self.name!r}: weight must be finite and >= 0, got {weight!r} "
                "(express a penalty as a reward: 1 - penalty)"
            )
        object.__setattr__(self, "weight", float(weight))
        object.__setattr__(self, "takes_info", _accepts_var_kwargs(self.fn))
        object.__setattr__(self, "is_async", is_async_reward(self.fn))
        # an async function is awaited here, never pickled into a worker
        object.__setattr__(self, "picklable", self.is_async or _is_picklable(self.fn))

    @property
    def guarded(self) -> bool:
        """Whether calls run in a killable worker (sync) or are cancelled at the deadline
        (async)."""
        return self.is_async or (self.picklable and not self.in_process)


def _call(fn: Callable[..., Any], completion: Any, answer: Any, info: Mapping[str, Any] | None):
    # Module-level so that it pickles by reference into a deadline worker.
    return fn(completion, answer, **info) if info is not None else fn(completion, answer)


def _as_reward(name: str, value: Any) -> tuple[float | None, str | None, RewardError | None]:
    """(reward, reason, error) from what a reward function returned."""
    reason = None
    if isinstance(value, Verdict):
        reason = value.reason
        if value.reward is None:
            return None, reason, None
        value = value.reward
    if not isinstance(value, numbers.Real):
        return (
            None,
            reason,
            RewardError(
                name, "invalid_return", f"returned a {type(value).__name__}, not a float or Verdict"
            ),
        )
    try:
        reward = float(value)
    except (ArithmeticError, TypeError, ValueError) as exc:
        # 10**400 is a Real that no float holds; that is a bad return, not a crash of fn.
        return (
            None,
            reason,
            RewardError(
                name,
                "invalid_return",
                f"returned a {type(value).__name__} that is not a float: {type(exc).__name__}",
            ),
        )
    if not math.isfinite(reward) or not 0.0 <= reward <= 1.0:
        return (
            None,
            reason,
            RewardError(name, "invalid_return", f"returned {reward!r}, not in [0, 1]"),
        )
    return reward, reason, None


def _check_timeout(timeout: Any) -> float:
    if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real):
        raise TypeError(f"timeout must be a number of seconds, got {timeout!r}")
    if not 0 < timeout < math.inf:
        raise ValueError(f"timeout must be positive and finite, got {timeout!r}")
    return float(timeout)


class Rubric:
    """Named reward functions with weights, an optional gate, and a per-call deadline.

    ``funcs``: ``RewardFunc``s (a bare callable becomes ``RewardFunc(fn.__name__, fn)``), with
    distinct names. ``gate``: the name of the function that must give 1.0 for the others to
    count. ``timeout``: seconds per function call.

    ``counters`` (a snapshot dict a trainer can log) counts ``samples``,
    ``samples_no_signal``, ``calls``, ``errors``, ``errors/<kind>``,
    ``errors/<kind>/<function>``, ``no_signal/<function>`` (Verdicts with ``reward=None``),
    ``gated`` and ``unguarded_calls``.

    >>> from verifiers.format import format_reward
    >>> r = Rubric([format_reward])
    >>> r.score("<think>a</think><answer>b</answer>", None).total
    1.0
    >>> r.counters["samples"], r.counters["errors"]
    (1, 0)
    """

    def __init__(
        self,
        funcs: Sequence[RewardFunc | Callable[..., Any]],
        *,
        gate: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        if isinstance(funcs, RewardFunc) or callable(funcs) or not isinstance(funcs, Sequence):
            raise TypeError("funcs must be a list of RewardFunc (or callables)")
        built: list[RewardFunc] = []
        for item in funcs:
            if isinstance(item, RewardFunc):
                built.append(item)
            elif callable(item):
                name = getattr(item, "__name__", None) or type(item).__name__
                built.append(RewardFunc(name, item))
            else:
                raise TypeError(f"funcs holds {item!r}, which is neither a RewardFunc nor callable")
        if not built:
            raise ValueError("funcs must hold at least one reward function")
        names = [f.name for f in built]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"reward function names must be distinct; repeated: {duplicates}")
        if gate is not None and gate not in names:
            raise ValueError(f"gate={gate!r} names no reward function; have {names}")
        if sum(f.weight for f in built) <= 0:
            raise ValueError("at least one reward function needs a weight > 0")
        self.funcs: tuple[RewardFunc, ...] = tuple(built)
        # Weights are relative, so scale them by the largest: summing 1e308 + 1e308 gives inf
        # and the total came out 0.0 for any rewards. Scaled, the sum is at most len(funcs).
        largest = max(f.weight for f in built)
        self._weights = tuple(f.weight / largest for f in built)
        self.gate = gate
        self.timeout = _check_timeout(timeout)
        unpicklable = [f.name for f in built if not f.picklable and not f.in_process]
        if unpicklable:
            warnings.warn(
                f"reward functions {unpicklable} cannot be pickled (lambda or local function?), "
                "so they run in-process without a hard deadline; define them at module level "
                "to get one",
                RuntimeWarning,
                stacklevel=2,
            )
        self._lock = threading.Lock()
        self._counters: Counter[str] = Counter()

    def __repr__(self) -> str:
        return f"Rubric({list(self.funcs)!r}, gate={self.gate!r}, timeout={self.timeout!r})"

    # Locks do not pickle; a copy (in a worker) starts with its own lock and counters.
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.funcs)

    @property
    def counters(self) -> dict[str, int]:
        """A snapshot of the failure and call counters (keys listed in the class docstring)."""
        with self._lock:
            snapshot = dict(self._counters)
        for key in ("samples", "samples_no_signal", "calls", "errors", "gated", "unguarded_calls"):
            snapshot.setdefault(key, 0)
        for kind in ERROR_KINDS:
            snapshot.setdefault(f"errors/{kind}", 0)
        return snapshot

    def reset_counters(self) -> None:
        with self._lock:
            self._counters.clear()

    def _count(self, *keys: str) -> None:
        with self._lock:
            self._counters.update(keys)

    def _run(
        self, rf: RewardFunc, completion: Any, answer: Any, info: Mapping[str, Any]
    ) -> tuple[float | None, str | None, RewardError | None]:
        kwargs = dict(info) if rf.takes_info else None
        counts = ["calls"]
        try:
            if rf.guarded:
                value = run_with_deadline(
                    _call, rf.fn, completion, answer, kwargs, timeout=self.timeout
                )
            else:
                counts.append("unguarded_calls")
                start = time.monotonic()
                value = _call(rf.fn, completion, answer, kwargs)
                elapsed = time.monotonic() - start
                if elapsed > self.timeout:
                    raise DeadlineExceeded(self.timeout, rf.name)
            reward, reason, error = _as_reward(rf.name, value)
        except DeadlineExceeded:
            reward, reason = None, None
            how = "killed" if rf.guarded else "ran in-process, could not be stopped"
            error = RewardError(rf.name, "timeout", f"exceeded {self.timeout:g} s ({how})")
        except WorkerError as exc:
            reward, reason = None, None
            kind: ErrorKind = "invalid_return" if exc.type_name == "PicklingError" else "exception"
            error = RewardError(rf.name, kind, f"{exc.type_name}: {exc.message}")
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - fn's failures are reported
            # SystemExit too: sys.exit() in an in-process reward function would otherwise end
            # the training run (a guarded one already reports it from its worker).
            reward, reason = None, None
            error = RewardError(rf.name, "exception", f"{type(exc).__name__}: {exc}")
        return self._counted(rf, counts, reward, reason, error)

    def _counted(self, rf: RewardFunc, counts: list[str], reward: float | None,
                 reason: str | None, error: RewardError | None
                 ) -> tuple[float | None, str | None, RewardError | None]:
        if error is not None:
            counts += ["errors", f"errors/{error.kind}", f"errors/{error.kind}/{rf.name}"]
        elif reward is None:
            counts.append(f"no_signal/{rf.name}")
        self._count(*counts)
        return reward, reason, error

    async def _arun(
        self, rf: RewardFunc, completion: Any, answer: Any, info: Mapping[str, Any],
        sync_slots: asyncio.Semaphore | None,
    ) -> tuple[float | None, str | None, RewardError | None]:
        if not rf.is_async:  # a sync function: in a thread, as score() would call it
            if sync_slots is None:
                return await asyncio.to_thread(self._run, rf, completion, answer, info)
            async with sync_slots:
                return await asyncio.to_thread(self._run, rf, completion, answer, info)
        kwargs = dict(info) if rf.takes_info else None
        start = time.monotonic()
        try:
            value = await asyncio.wait_for(call_async(rf.fn, completion, answer, kwargs),
                                           self.timeout)
            if time.monotonic() - start > self.timeout:  # it blocked the loop: not cancellable
                raise DeadlineExceeded(self.timeout, rf.name)
            reward, reason, error = _as_reward(rf.name, value)
        except (asyncio.TimeoutError, DeadlineExceeded) as exc:
            reward, reason = None, None
            how = ("cancelled" if isinstance(exc, asyncio.TimeoutError)
                   else "blocked the event loop, could not be cancelled")
            error = RewardError(rf.name, "timeout", f"exceeded {self.timeout:g} s ({how})")
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - fn's failures are reported
            reward, reason = None, None
            error = RewardError(rf.name, "exception", f"{type(exc).__name__}: {exc}")
        return self._counted(rf, ["calls"], reward, reason, error)

    @property
    def has_async(self) -> bool:
        """Whether any function is async (then ``score`` runs them on an event loop)."""
        return any(f.is_async for f in self.funcs)

    def score(self, completion: Any, answer: Any, /, **info: Any) -> RubricScore:
        """Score one completion against its reference; ``info`` goes to functions taking it.

        >>> from verifiers.format import format_check
        >>> s = Rubric([format_check]).score("no tags", None)
        >>> s.total, s.reasons["format_check"]
        (0.0, 'missing_tag: <think> not found')
        """
        if self.has_async:
            return run_coroutine(self.ascore(completion, answer, **info))
        steps = self._steps()
        rf = next(steps)
        while True:
            try:
                rf = steps.send(self._run(rf, completion, answer, info))
            except StopIteration as done:
                return done.value

    async def ascore(self, completion: Any, answer: Any, /, **info: Any) -> RubricScore:
        """``score`` for async code: async functions are awaited, sync ones run in a thread."""
        return await self._ascore(completion, answer, info, None)

    async def _ascore(self, completion: Any, answer: Any, info: Mapping[str, Any],
                      sync_slots: asyncio.Semaphore | None) -> RubricScore:
        steps = self._steps()
        rf = next(steps)
        while True:
            result = await self._arun(rf, completion, answer, info, sync_slots)
            try:
                rf = steps.send(result)
            except StopIteration as done:
                return done.value

    def _steps(self) -> Generator[RewardFunc, tuple[float | None, str | None,
                                                     RewardError | None], RubricScore]:
        """One sample's scoring, shared by the sync and async paths: yields each function to
        run (the gate first), receives its ``(reward, reason, error)``, returns the score."""
        breakdown: dict[str, float | None] = {}
        reasons: dict[str, str] = {}
        errors: list[RewardError] = []
        order = list(self.funcs)
        if self.gate is not None:  # the gate runs first: when it fails the rest is skipped
            order.sort(key=lambda f: f.name != self.gate)
        gate_open = True
        for rf in order:
            if not gate_open:
                gate_value = breakdown[self.gate]  # type: ignore[index]
                if gate_value is None:
                    breakdown[rf.name] = None
                    reasons[rf.name] = f"not run: gate {self.gate} gave no reward"
                else:
                    breakdown[rf.name] = 0.0
                    reasons[rf.name] = f"gated: {self.gate}={gate_value:g} < 1"
                continue
            reward, reason, error = yield rf
            breakdown[rf.name] = reward
            if error is not None:
                errors.append(error)
                reasons[rf.name] = f"{error.kind}: {error.message}"
            elif reason is not None:
                reasons[rf.name] = reason
            if rf.name == self.gate and (reward is None or reward < 1.0):
                gate_open = False
                if reward is not None:
                    self._count("gated")
        breakdown = {f.name: breakdown[f.name] for f in self.funcs}  # declaration order
        if any(v is None for v in breakdown.values()):
            total = None
        else:
            total = sum(
                w * breakdown[f.name]  # type: ignore[operator]
                for w, f in zip(self._weights, self.funcs)
            ) / sum(self._weights)
        self._count("samples", *(["samples_no_signal"] if total is None else []))
        unguarded = tuple(f.name for f in self.funcs if not f.guarded)
        return RubricScore(total, breakdown, reasons, tuple(errors), unguarded)

    def score_batch(
        self,
        completions: Sequence[Any],
        answers: Sequence[Any],
        infos: Sequence[Mapping[str, Any]] | None = None,
        *,
        workers: int | None = None,
    ) -> list[RubricScore]:
        """Score many samples in parallel; results in input order.

        ``workers``: samples in flight at once (default: the CPU count, at most the batch
        size); ``1`` scores sequentially in this thread.

        >>> from verifiers.format import format_reward
        >>> scores = Rubric([format_reward]).score_batch(
        ...     ["<think>a</think><answer>b</answer>", "b"], [None, None], workers=2)
        >>> [s.total for s in scores]
        [1.0, 0.0]
        """
        infos, workers = self._check_batch(completions, answers, infos, workers)
        if self.has_async:
            return run_coroutine(self._ascore_batch(completions, answers, infos, workers))
        n = len(completions)

        def one(i: int) -> RubricScore:
            return self.score(completions[i], answers[i], **infos[i])

        if workers == 1:
            return [one(i) for i in range(n)]
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rubric") as pool:
            return list(pool.map(one, range(n)))

    async def ascore_batch(
        self,
        completions: Sequence[Any],
        answers: Sequence[Any],
        infos: Sequence[Mapping[str, Any]] | None = None,
        *,
        workers: int | None = None,
    ) -> list[RubricScore]:
        """``score_batch`` for async code: every sample's async calls are awaited
        concurrently; sync calls run in threads, ``workers`` at a time."""
        infos, workers = self._check_batch(completions, answers, infos, workers)
        return await self._ascore_batch(completions, answers, infos, workers)

    async def _ascore_batch(self, completions: Sequence[Any], answers: Sequence[Any],
                            infos: Sequence[Mapping[str, Any]], workers: int
                            ) -> list[RubricScore]:
        slots = asyncio.Semaphore(workers)
        return list(await asyncio.gather(*(
            self._ascore(c, a, i, slots) for c, a, i in zip(completions, answers, infos))))

    @staticmethod
    def _check_batch(completions: Sequence[Any], answers: Sequence[Any],
                     infos: Sequence[Mapping[str, Any]] | None, workers: int | None
                     ) -> tuple[Sequence[Mapping[str, Any]], int]:
        # A str is a Sequence too: one completion passed bare was scored per character.
        for label, items in (("completions", completions), ("answers", answers)):
            if isinstance(items, (str, bytes)):
                raise TypeError(f"{label} must be a sequence of items, not one {type(items).__name__}")
        n = len(completions)
        if len(answers) != n:
            raise ValueError(f"answers has {len(answers)} items, completions has {n}")
        if infos is None:
            infos = [{}] * n
        elif len(infos) != n:
            raise ValueError(f"infos has {len(infos)} items, completions has {n}")
        for i, info in enumerate(infos):
            if not isinstance(info, Mapping):
                raise TypeError(f"infos[{i}] must be a mapping, got {type(info).__name__}")
        if workers is None:
            workers = os.cpu_count() or 1
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a positive int, got {workers!r}")
        return infos, min(workers, max(n, 1))
