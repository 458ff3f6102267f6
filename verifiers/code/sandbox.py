"""The trusted side of the sandbox: zygote processes and a pool of them.

A :class:`Sandbox` owns one supervisor and its clean zygote (``harness.py`` under
``python -I -S`` with an empty environment, in its own session) and one uid for its
candidates; a :class:`SandboxPool`
keeps several so the candidates of a GRPO group run in parallel. A sandbox that cannot start
or stops answering yields ``None`` from :meth:`Sandbox.run` ("no signal") and is restarted.

>>> pool = SandboxPool(workers=1)
>>> pool.run({"mode": "stdin", "code": "print(input()[::-1])", "stdin": "abc",
...           "timeout": 5.0, "limits": Limits().as_dict()})["stdout"]
'cba\\n'
>>> pool.close()
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from typing import Any

from verifiers.code import wire

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.py")
START_TIMEOUT_S = 30.0  # a cold interpreter on two busy cores can take seconds
# The zygote enforces the deadline, then may spend up to 10 s killing a fork bomb; the parent
# waits this much longer before it declares the sandbox broken (no signal).
GRACE_S = 15.0
LOAD_SLACK = 1.5  # harness.LOAD_SLACK: no job runs past LOAD_SLACK x its timeout


@dataclass(frozen=True)
class Limits:
    """Resource limits for one candidate process (bytes, seconds, counts).

    >>> Limits(memory_bytes=256 << 20).memory_bytes
    268435456
    """

    memory_bytes: int = 1 << 30  # RLIMIT_AS
    cpu_s: int = 10  # RLIMIT_CPU; the wall-clock timeout is separate and usually shorter
    # RLIMIT_NPROC (tasks, threads included) for the candidate's own uid. Memory is capped per
    # process, so the candidate's whole footprint is at most memory_bytes * processes, plus
    # its /tmp (Sandbox.tmpfs_bytes) and SysV shared memory (memory_bytes; memfds are refused).
    processes: int = 8
    file_bytes: int = 16 << 20  # RLIMIT_FSIZE
    open_files: int = 64  # RLIMIT_NOFILE
    output_bytes: int = 8 << 20  # stdout+stderr read before the candidate is killed
    stdout_bytes: int = 1 << 20  # stdout kept for comparison in stdin/stdout tests
    excerpt_bytes: int = 2048  # stdout/stderr kept in the per-test details
    value_bytes: int = 8 << 20  # one encoded return value
    judge_memory_bytes: int = 2 << 30  # the trusted judge runs dataset test code

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if type(value) is not int or value <= 0:
                raise ValueError(f"Limits.{name}: expected a positive int, got {value!r}")

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def _uid_base() -> int:
    # Candidates of different sandboxes must never share a uid: a uid is what RLIMIT_NPROC
    # counts and what the final kill(-1) sweeps. Live pids are unique, so pid * 256 is too.
    return 1_000_000 + os.getpid() * 256


class Sandbox:
    """One zygote and the uid its candidates run as; use from one thread at a time."""

    def __init__(self, uid: int | None, *, tmpfs_bytes: int = 256 << 20) -> None:
        self.uid = uid
        self.tmpfs_bytes = tmpfs_bytes  # each candidate's /tmp, its only writable folder
        self.proc: subprocess.Popen | None = None
        self.isolation: dict[str, Any] = {}
        self.start_error: str | None = None

    def start(self) -> bool:
        config = {"uid": self.uid, "tmpfs_bytes": self.tmpfs_bytes}
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-S", HARNESS, json.dumps(config)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env={},
                start_new_session=True,
                close_fds=True,
            )
            hello = self._read(time.monotonic() + START_TIMEOUT_S)
        except OSError as e:
            hello, self.start_error = None, f"cannot start the sandbox: {e}"
        if not hello or "hello" not in hello:
            self.start_error = self.start_error or "the sandbox did not start"
            self.kill()
            return False
        self.isolation = dict(hello["hello"])
        self.isolation["uid"] = self.uid
        return True

    def _read(self, deadline: float) -> dict | None:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        buf = b""
        need = 4
        while len(buf) < need:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, max(need - len(buf), 1 << 16))
            if not chunk:
                return None
            buf += chunk
            if need == 4 and len(buf) >= 4:
                need = 4 + wire.header_length(buf[:4])
        return wire.unpack(buf[4:need])

    def run(self, job: dict) -> dict | None:
        """Send one job; return the zygote's report, or None if the sandbox failed."""
        if (self.proc is None or self.proc.poll() is not None) and not self.start():
            return None
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(wire.pack(job))
            self.proc.stdin.flush()
            # each test has ``timeout`` seconds of its own, stretched by time spent waiting
            # for a CPU, and the whole job at most LOAD_SLACK x timeout (harness)
            budget = job["timeout"] * LOAD_SLACK
            reply = self._read(time.monotonic() + budget + GRACE_S)
        except (OSError, wire.WireError):
            reply = None
        if reply is None:
            self.start_error = "the sandbox stopped answering"
            self.kill()
        elif reply.get("restart"):
            # the sandbox could not vouch for its own state (it exits by itself): the verdict
            # above stands, the next job gets a fresh sandbox
            self.kill()
        return reply

    def kill(self) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)  # the zygote leads its own session
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()
        self.proc = None


class SandboxPool:
    """A fixed set of sandboxes; :meth:`run` borrows a free one (blocking until one is).

    ``workers`` defaults to the number of CPUs. Uids are given per sandbox when running as
    root, otherwise candidates keep the caller's uid (weaker; reported in ``isolation``).
    What a candidate can see of the filesystem is an allowlist (``jail.py``), the same for
    every sandbox.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, int(workers or os.cpu_count() or 1))
        base = _uid_base() if os.geteuid() == 0 else None
        self._free: queue.SimpleQueue[Sandbox] = queue.SimpleQueue()
        self._all = [Sandbox(None if base is None else base + i) for i in range(self.workers)]
        for box in self._all:
            self._free.put(box)
        self.closed = False
        self.pid = os.getpid()

    def run(self, job: dict) -> dict:
        if self.closed:
            raise RuntimeError("the sandbox pool is closed")
        if os.getpid() != self.pid:
            raise RuntimeError("a SandboxPool cannot be used from a forked child; make one there")
        box = self._free.get()
        try:
            reply = box.run(job)
            if reply is None:
                return {"status": "no_signal", "reason": box.start_error, "tests": []}
            reply.setdefault("isolation", box.isolation)
            return reply
        finally:
            self._free.put(box)

    def close(self) -> None:
        self.closed = True
        for box in self._all:
            box.kill()


_default_pool: SandboxPool | None = None
_default_lock = threading.Lock()


def default_pool() -> SandboxPool:
    """The process-wide pool, created on first use and closed at exit."""
    global _default_pool
    with _default_lock:
        if _default_pool is None or _default_pool.closed or _default_pool.pid != os.getpid():
            _default_pool = SandboxPool()
            atexit.register(_default_pool.close)
        return _default_pool
