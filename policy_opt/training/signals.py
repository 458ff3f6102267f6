"""Ctrl-C and SIGTERM during training: stop at a point the run can resume from exactly.

The first SIGINT or SIGTERM asks the run to stop. During a rollout or an evaluation (which
change no weights and no optimiser state) the run stops at once, and the checkpoint is that
of the last finished step; during the optimisation phase the step finishes first (the weights
are half-updated until it does), so the wait is at most one optimisation phase. Then the run
writes its checkpoint and exits with 128 + the signal number (130 for SIGINT, 143 for
SIGTERM). A second signal quits at once, without a checkpoint.

Handlers are installed only in the main thread of a single-process run: under torchrun every
rank would have to agree on the step to stop at, and the launcher's own handling applies.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)


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
