"""Hard per-call deadlines, enforced from outside the work.

``run_with_deadline(fn, *args, timeout=..., **kwargs)`` runs ``fn(*args, **kwargs)`` in a
persistent worker process borrowed from a module-level pool and returns its result. When the
deadline passes, the worker is killed with SIGKILL from the calling process and replaced, and
``DeadlineExceeded`` is raised. Because the kill comes from outside, the deadline holds where
signal-based timeouts (``signal.alarm``, as used by math-verify) do not: in threads, in
processes that are themselves pool workers, and inside long C-level work such as a big-integer
power that never returns to the Python interpreter loop.

>>> from verifiers.deadline import run_with_deadline, DeadlineExceeded
>>> run_with_deadline(pow, 2, 10, timeout=5.0)
1024
>>> try:
...     run_with_deadline(pow, 9, 9**9, timeout=0.5)     # C-level work, ~minutes
... except DeadlineExceeded:
...     print("killed")
killed

Design notes (why, not what):

- Workers are plain ``subprocess`` interpreters speaking length-prefixed pickle over their
  stdin/stdout, not ``multiprocessing`` children: ``multiprocessing`` refuses to start children
  from daemonic pool workers and ``fork`` from a threaded process is unsafe. The worker gets the
  parent's ``sys.path`` and working directory (and, only when ``fn`` lives in ``__main__``, the
  parent's main module, as ``multiprocessing``'s spawn does), so anything picklable by
  reference runs. Protocol frames use a duplicate of the worker's stdout; the worker's own fd 1
  is pointed at stderr, so a chatty ``fn`` cannot corrupt the protocol.
- The deadline covers ``fn`` only. The worker first acknowledges that it has unpickled the call
  (which imports ``fn``'s module: sympy takes a second or more on a cold worker); that phase has
  its own generous bound (``STARTUP_TIMEOUT``). Counting imports against a 1 s deadline would
  turn a cold worker into a wrong "timeout" reward of 0.
- Workers persist between calls, so the per-call cost is one pickle round trip through a pipe
  (``benchmarks/verify_speed.py`` prints it); a worker is only replaced after it was killed or
  died.
- ``atexit`` closes every worker's stdin (the worker exits on EOF) and kills the ones that do
  not exit promptly, then reaps them: no zombies and no hang at interpreter exit. A worker whose
  parent vanished without cleanup notices (EOF, or its parent id changing) and exits.
- After ``os.fork`` the child starts with an empty pool: the inherited workers belong to the
  parent.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import pickle
import select
import struct
import subprocess
import sys
import threading
import time
import traceback
import types
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = [
    "DeadlineExceeded",
    "FunctionRef",
    "WorkerError",
    "run_with_deadline",
    "set_max_workers",
    "shutdown",
    "warm_up",
]

T = TypeVar("T")

# How long a worker may take to start and unpickle a call (imports included) before the call
# fails with WorkerError. Generous: a cold interpreter importing sympy on a loaded 2-core box.
STARTUP_TIMEOUT = 120.0

_HEADER = struct.Struct("!Q")
_STARTED = b"S"
_RESULT_OK = b"R"
_RESULT_ERR = b"E"


class DeadlineExceeded(TimeoutError):
    """``fn`` did not finish within ``timeout`` seconds; its worker was killed.

    >>> issubclass(DeadlineExceeded, TimeoutError)
    True
    """

    def __init__(self, timeout: float, fn_name: str = "fn") -> None:
        super().__init__(f"{fn_name} exceeded its deadline of {timeout:g} s")
        self.timeout = timeout
        self.fn_name = fn_name

    def __reduce__(self) -> tuple[Any, ...]:
        return (DeadlineExceeded, (self.timeout, self.fn_name))


class WorkerError(RuntimeError):
    """``fn`` raised inside the worker (or the worker died, or the call could not be pickled).

    Carries the original exception's type name, message and formatted traceback, so the error
    is typed and picklable whatever the original exception was.

    >>> try:
    ...     run_with_deadline(int, "x", timeout=5.0)
    ... except WorkerError as e:
    ...     print(e.type_name, "|", e.message)
    ValueError | invalid literal for int() with base 10: 'x'
    """

    def __init__(self, type_name: str, message: str, traceback_text: str = "") -> None:
        super().__init__(f"{type_name}: {message}")
        self.type_name = type_name
        self.message = message
        self.traceback = traceback_text

    def __reduce__(self) -> tuple[Any, ...]:
        return (WorkerError, (self.type_name, self.message, self.traceback))


def _resolve(target: str) -> Callable[..., Any]:
    import importlib

    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


class FunctionRef:
    """A picklable reference ``"module:function"`` that imports the module only where it runs.

    Lets a light parent hand a heavy function (one whose module imports sympy) to a worker:
    the import happens while the worker unpickles the call, before the deadline starts, and
    never in the parent.

    >>> run_with_deadline(FunctionRef("math:factorial"), 5, timeout=5.0)
    120
    """

    def __init__(self, target: str) -> None:
        if not isinstance(target, str) or ":" not in target:
            raise ValueError(f"target must look like 'package.module:function', got {target!r}")
        self.target = target
        self.__qualname__ = target

    def __reduce__(self) -> tuple[Any, ...]:
        return (_resolve, (self.target,))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _resolve(self.target)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"FunctionRef({self.target!r})"


# --------------------------------------------------------------------------------------------
# Parent side
# --------------------------------------------------------------------------------------------


def _read_exact(fd: int, n: int, deadline: float | None) -> bytes | None:
    """Read exactly ``n`` bytes; None when the deadline passed first. Raises EOFError."""
    chunks: list[bytes] = []
    remaining = n
    while remaining:
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                return None
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise EOFError("worker closed its pipe")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def _worker_env() -> dict[str, str]:
    env = dict(os.environ)
    # The worker must import this package before it receives the parent's sys.path.
    pkg_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (pkg_root, env.get("PYTHONPATH", "")) if p)
    return env


def _preparation_data() -> dict[str, Any]:
    sys_path = [os.getcwd() if p == "" else p for p in sys.path]
    data: dict[str, Any] = {"sys_path": sys_path, "dir": os.getcwd(), "main": None}
    main = sys.modules.get("__main__")
    spec_name = getattr(getattr(main, "__spec__", None), "name", None)
    if spec_name is not None:
        data["main"] = ("init_main_from_name", spec_name)
    elif getattr(main, "__file__", None):
        data["main"] = ("init_main_from_path", os.path.abspath(main.__file__))
    return data


class _MainFinder(pickle.Pickler):
    """Notes whether anything pickled by reference lives in ``__main__``: the function itself,
    or one passed inside the arguments (a rubric sends ``_call(fn, ...)``, whose ``fn`` is the
    user's script-level reward function)."""

    uses_main = False

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, (types.FunctionType, type)) and obj.__module__ == "__main__":
            self.uses_main = True
        return NotImplemented


def _dumps_call(fn: Callable[..., Any], args: tuple, kwargs: dict) -> tuple[bytes, bool]:
    buf = io.BytesIO()
    pickler = _MainFinder(buf, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dump((fn, args, kwargs))
    return buf.getvalue(), pickler.uses_main


# True in a worker while it imports the caller's script as ``__mp_main__``. A script that
# scores at top level, without an ``if __name__ == "__main__":`` guard, would start workers
# of its own there, each importing the script again: thousands of processes.
_importing_main = False


class _Worker:
    def __init__(self, preload: tuple[str, ...] = ()) -> None:
        if _importing_main:
            msg = ("a reward worker imported your script and its top-level code tried to start "
                   "more workers; put that code under `if __name__ == \"__main__\":`")
            print(f"verifiers.deadline: {msg}", file=sys.stderr, flush=True)
            raise RuntimeError(msg)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from verifiers.deadline import _worker_main; _worker_main()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=_worker_env(),
            # Own session: a Ctrl-C in the terminal interrupts the caller, not every worker.
            start_new_session=True,
            close_fds=True,
        )
        data = _preparation_data()
        data["preload"] = preload
        self._send(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))

    def _send(self, payload: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(_HEADER.pack(len(payload)) + payload)
        self.proc.stdin.flush()

    def call(self, payload: bytes, timeout: float, fn_name: str) -> Any:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        self._send(payload)
        tag = _read_exact(fd, 1, time.monotonic() + STARTUP_TIMEOUT)
        if tag is None:
            raise WorkerError(
                "WorkerStartupTimeout", f"worker did not start within {STARTUP_TIMEOUT:g} s"
            )
        if tag == _RESULT_ERR:  # the call could not be unpickled in the worker
            return self._read_result(fd, tag, None, timeout, fn_name)
        if tag != _STARTED:
            raise WorkerError("ProtocolError", f"unexpected frame {tag!r}")
        deadline = time.monotonic() + timeout
        tag = _read_exact(fd, 1, deadline)
        return self._read_result(fd, tag, deadline, timeout, fn_name)

    def _read_result(
        self, fd: int, tag: bytes | None, deadline: float | None, timeout: float, fn_name: str
    ) -> Any:
        if tag is None:
            raise DeadlineExceeded(timeout, fn_name)
        # Once the first byte arrived the result is already being written: no deadline on it.
        header = _read_exact(fd, _HEADER.size, None)
        (size,) = _HEADER.unpack(header)  # type: ignore[arg-type]
        body = _read_exact(fd, size, None)
        value = pickle.loads(body)  # type: ignore[arg-type]
        if tag == _RESULT_OK:
            return value
        raise WorkerError(*value)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]

    def close(self, grace: float) -> None:
        """Ask the worker to exit (EOF on its stdin); kill it if it does not within ``grace``."""
        with contextlib.suppress(OSError):
            self.proc.stdin.close()  # type: ignore[union-attr]
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.kill()
        with contextlib.suppress(OSError):
            self.proc.stdout.close()  # type: ignore[union-attr]


class _Pool:
    def __init__(self, max_workers: int) -> None:
        self.pid = os.getpid()
        self.max_workers = max_workers
        self.cond = threading.Condition()
        self.idle: list[_Worker] = []
        self.busy: set[_Worker] = set()
        self.closed = False
        # Modules the calls so far needed: a replacement worker imports them as it boots, so
        # the call after a timeout does not wait for sympy's import.
        self.modules: dict[str, None] = {}

    def acquire(self) -> _Worker:
        with self.cond:
            while True:
                if self.closed:
                    raise RuntimeError("verifiers.deadline pool is shut down (interpreter exit?)")
                if self.idle:
                    worker = self.idle.pop()
                    break
                if len(self.busy) < self.max_workers:
                    worker = None
                    break
                self.cond.wait()
            if worker is None:
                worker = _Worker(tuple(self.modules))
            self.busy.add(worker)
            return worker

    def release(self, worker: _Worker, healthy: bool) -> None:
        replacement = None
        if not healthy:
            worker.kill()
            if not self.closed:
                # Start the replacement now: its interpreter boots while the caller moves on.
                with self.cond:
                    preload = tuple(self.modules)
                with contextlib.suppress(OSError):
                    replacement = _Worker(preload)
        with self.cond:
            self.busy.discard(worker)
            if healthy and not self.closed:
                self.idle.append(worker)
            elif healthy:
                worker.close(grace=1.0)
            if replacement is not None:
                if self.closed:
                    replacement.close(grace=1.0)
                else:
                    self.idle.append(replacement)
            self.cond.notify()

    def shutdown(self, grace: float = 1.0) -> None:
        with self.cond:
            self.closed = True
            workers = self.idle + list(self.busy)
            self.idle = []
            self.cond.notify_all()
        for worker in workers:
            with contextlib.suppress(OSError, ValueError):
                worker.proc.stdin.close()  # type: ignore[union-attr]
        end = time.monotonic() + grace
        for worker in workers:
            try:
                worker.proc.wait(timeout=max(0.0, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.kill()


_DEFAULT_MAX_WORKERS = max(2, os.cpu_count() or 2)
_pool_lock = threading.Lock()
_pool: _Pool | None = None


def _get_pool() -> _Pool:
    global _pool
    with _pool_lock:
        if _pool is None or _pool.closed or _pool.pid != os.getpid():
            _pool = _Pool(_DEFAULT_MAX_WORKERS)
        return _pool


def _forget_pool_after_fork() -> None:
    # The child must not talk to (or kill) the parent's workers, and locks may be held.
    global _pool, _pool_lock
    _pool = None
    _pool_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_pool_after_fork)


def set_max_workers(n: int) -> None:
    """Cap how many workers may run at once (default: the CPU count, at least 2).

    Calls beyond the cap wait for a free worker; the wait does not count against their deadline.
    """
    global _DEFAULT_MAX_WORKERS
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"max_workers must be a positive int, got {n!r}")
    _DEFAULT_MAX_WORKERS = n
    pool = _get_pool()
    with pool.cond:
        pool.max_workers = n
        pool.cond.notify_all()


def shutdown(grace: float = 1.0) -> None:
    """Stop every worker (registered with ``atexit``; a later call starts a fresh pool)."""
    pool = _pool
    if pool is not None and pool.pid == os.getpid():
        pool.shutdown(grace)


atexit.register(shutdown)


def _validate_timeout(timeout: Any) -> float:
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise TypeError(f"timeout must be a number of seconds, got {type(timeout).__name__}")
    if not (0 < timeout < float("inf")):
        raise ValueError(f"timeout must be positive and finite, got {timeout!r}")
    return float(timeout)


def run_with_deadline(fn: Callable[..., T], /, *args: Any, timeout: float, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` in a killable worker process; return its result.

    ``fn``, the arguments and the result must be picklable (``fn`` by reference: a module-level
    function, a builtin, a class). Raises ``DeadlineExceeded`` when ``fn`` runs longer than
    ``timeout`` seconds (the worker is killed and replaced), ``WorkerError`` when ``fn`` raises,
    the worker dies, or the call or its result cannot be pickled. Thread-safe: concurrent calls
    run in parallel in different workers.

    >>> run_with_deadline(sorted, [3, 1, 2], timeout=5.0, reverse=True)
    [3, 2, 1]
    """
    timeout = _validate_timeout(timeout)
    fn_name = getattr(fn, "__qualname__", None) or type(fn).__name__
    try:
        body, needs_main = _dumps_call(fn, args, kwargs)
        # One flag byte ahead of the pickle: the worker must set up __main__ before unpickling.
        payload = (b"M" if needs_main else b"-") + body
    except Exception as exc:  # noqa: BLE001 - any pickling failure is the caller's input
        raise WorkerError(type(exc).__name__, f"cannot send the call to a worker: {exc}") from exc
    pool = _get_pool()
    module = (
        fn.target.partition(":")[0]
        if isinstance(fn, FunctionRef)
        else getattr(fn, "__module__", None)
    )
    if module and module not in ("__main__", "builtins") and module not in pool.modules:
        with pool.cond:
            pool.modules[module] = None
    worker = pool.acquire()
    healthy = False
    try:
        result = worker.call(payload, timeout, fn_name)
        healthy = True
        return result
    except DeadlineExceeded:
        raise  # a TimeoutError, hence an OSError: must not be mistaken for a dead worker
    except WorkerError as exc:
        healthy = exc.type_name not in ("WorkerStartupTimeout", "ProtocolError")
        raise
    except (EOFError, BrokenPipeError, OSError) as exc:
        try:  # the pipe closes a moment before the exit status is available
            code = worker.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            code = None
        raise WorkerError(
            "WorkerDied", f"worker exited (code {code}) while running {fn_name}: {exc}"
        ) from None
    finally:
        pool.release(worker, healthy)


def _import_modules(names: tuple[str, ...]) -> None:
    import importlib

    for name in names:
        importlib.import_module(name)


def warm_up(count: int = 1, *modules: str) -> None:
    """Start ``count`` workers now and import ``modules`` in each, so first calls are fast.

    >>> warm_up(1, "fractions")
    """
    pool = _get_pool()
    workers = [pool.acquire() for _ in range(count)]
    try:
        for worker in workers:
            payload = b"-" + pickle.dumps((_import_modules, (modules,), {}))
            worker.call(payload, STARTUP_TIMEOUT, "import_modules")
    finally:
        for worker in workers:
            pool.release(worker, True)


# --------------------------------------------------------------------------------------------
# Worker side
# --------------------------------------------------------------------------------------------


def _watch_parent(parent: int) -> None:
    # A parent that died without cleanup leaves us reparented; exit instead of lingering.
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _worker_main() -> None:
    proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
    proto_out = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # fn's prints go to stderr, never into the protocol
    os.close(devnull)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()

    def read_frame() -> bytes | None:
        try:
            header = _read_exact(proto_in.fileno(), _HEADER.size, None)
            (size,) = _HEADER.unpack(header)  # type: ignore[arg-type]
            return _read_exact(proto_in.fileno(), size, None)
        except EOFError:
            return None

    def write(tag: bytes, value: Any = None) -> None:
        if tag == _STARTED:
            proto_out.write(tag)
            return
        body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        proto_out.write(tag + _HEADER.pack(len(body)) + body)

    def error(exc: BaseException) -> tuple[str, str, str]:
        return (type(exc).__name__, str(exc), "".join(traceback.format_exception(exc)))

    prep = read_frame()
    if prep is None:
        return
    data = pickle.loads(prep)
    sys.path[:] = data["sys_path"]
    with contextlib.suppress(OSError):
        os.chdir(data["dir"])
    for name in data.get("preload", ()):
        with contextlib.suppress(Exception):
            __import__(name)
    main_ready = False
    while True:
        frame = read_frame()
        if frame is None:
            return
        try:
            if frame[:1] == b"M" and not main_ready and data["main"]:
                import multiprocessing.spawn

                global _importing_main
                key, value = data["main"]
                _importing_main = True
                try:
                    multiprocessing.spawn.prepare({key: value})
                finally:
                    _importing_main = False
                main_ready = True
            fn, args, kwargs = pickle.loads(frame[1:])
        except BaseException as exc:  # noqa: BLE001 - report, keep serving
            write(_RESULT_ERR, error(exc))
            continue
        write(_STARTED)
        try:
            result = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - SystemExit etc. are fn's errors too
            write(_RESULT_ERR, error(exc))
            continue
        try:
            write(_RESULT_OK, result)
        except Exception as exc:  # noqa: BLE001 - an unpicklable result
            write(_RESULT_ERR, ("PicklingError", f"cannot return the result: {exc}", ""))
