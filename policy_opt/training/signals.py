"""Ctrl-C and SIGTERM during training: stop at a point the run can resume from exactly.

The first SIGINT or SIGTERM asks the run to stop. During a rollout or an evaluation (which
change no weights and no optimiser state) the run stops at once, and the checkpoint is that
of the last finished step; during the optimisation phase the step finishes first (the weights
are half-updated until it does), so the wait is at most one optimisation phase. Then the run
writes its checkpoint and exits with 128 + the signal number (130 for SIGINT, 143 for
SIGTERM). A second signal quits at once, without a checkpoint.

Handlers are installed only in the main thread of a single-process run: under torchrun every
rank would have to agree on the step to stop at, and the launcher's own handling applies.

Before the loop starts (imports, flag checks, the model load) nothing can be lost, so
:func:`exit_on_signal` makes a signal end the process at once with the same exit codes and
one line instead of a traceback; nothing but ``--out``'s check has run by then.

``$POLICY_OPT_SIGNAL_AT=POINT[:SIGTERM]`` sends the process a signal (SIGINT by default) the
first time it reaches the named :func:`signal_point` (``import``, ``model-load``,
``first-eval``, ``rollout``, ``optimise``, ``checkpoint-write``), so a test can stop a run
at each moment without racing it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)
SIGNAL_AT = "POLICY_OPT_SIGNAL_AT"
POINTS = ("import", "model-load", "first-eval", "rollout", "optimise", "checkpoint-write")


def signal_point(name: str) -> None:
    """A named moment of a run: signal this process here if $POLICY_OPT_SIGNAL_AT asks (once)."""
    wanted = os.environ.get(SIGNAL_AT)
    if not wanted:
        return
    point, _, sig = wanted.partition(":")
    if point != name:
        return
    del os.environ[SIGNAL_AT]  # once: a resumed or later phase runs on
    os.kill(os.getpid(), getattr(signal, sig or "SIGINT", signal.SIGINT))


def _exit_now(signum: int, frame: Any) -> None:
    name = signal.Signals(signum).name
    print(f"\n{name}: stopped (nothing was being saved)", file=sys.stderr, flush=True)
    raise SystemExit(128 + signum)


def restore_handlers(previous: dict[int, Any]) -> None:
    """Put back the handlers :func:`exit_on_signal` replaced."""
    for s, handler in previous.items():
        signal.signal(s, handler)


def exit_on_signal() -> dict[int, Any]:
    """Until the loop installs :class:`GracefulStop`: a signal exits at once (130 / 143),
    without a traceback. Returns the previous handlers (empty off the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {s: signal.signal(s, _exit_now) for s in SIGNALS}


class StopNow(Exception):
    """Raised from the signal handler inside an ``abortable`` phase."""


class GracefulStop:
    """Signal handling for the training loop (a context manager; a no-op when not enabled)."""

    def __init__(self, enabled: bool = True, log: Any = None):
        self.enabled = enabled and threading.current_thread() is threading.main_thread()
        self.signum: int | None = None
        self.in_abortable = False
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self._previous: dict[int, Any] = {}

    @property
    def requested(self) -> bool:
        return self.signum is not None

    def _handle(self, signum: int, frame: Any) -> None:
        if self.signum is not None:  # the second signal: quit now
            raise KeyboardInterrupt
        self.signum = signum
        name = signal.Signals(signum).name
        if self.in_abortable:
            self.log(f"\n{name}: stopping; saving a checkpoint of the last finished step "
                     "(again to quit without one)")
            raise StopNow
        self.log(f"\n{name}: stopping after this step's update; saving a checkpoint "
                 "(again to quit without one)")

    @contextlib.contextmanager
    def abortable(self) -> Iterator[None]:
        """A phase that changes no training state: a signal stops it at once (StopNow)."""
        if self.requested:
            raise StopNow
        self.in_abortable = True
        try:
            yield
        finally:
            self.in_abortable = False

    def __enter__(self) -> GracefulStop:
        if self.enabled:
            for s in SIGNALS:
                self._previous[s] = signal.signal(s, self._handle)
        return self

    def __exit__(self, *exc: Any) -> None:
        for s, handler in self._previous.items():
            signal.signal(s, handler)
        self._previous.clear()

    @property
    def exit_code(self) -> int:
        return 128 + int(self.signum) if self.signum is not None else 0
