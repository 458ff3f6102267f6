"""Command lines that end quietly when their reader goes away (``python -m tasks list | head``).

Python ignores SIGPIPE, so a write to a closed pipe raises ``BrokenPipeError`` wherever the
command happens to be printing, and a second one in the interpreter's exit-time flush. A
listing cut short by ``head`` is not an error of the command: it exits with the status a
shell gives a process ended by SIGPIPE, and says nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable

CLOSED_PIPE_STATUS = 141  # 128 + SIGPIPE, what a shell reports for `cmd | head`


def run_main(main: Callable[[], int | None]) -> int | None:
    """``main()``'s exit status, or :data:`CLOSED_PIPE_STATUS` with nothing printed when
    stdout was closed under it. A ``SystemExit`` (argparse's ``--help``) passes through."""
    try:
        try:
            status = main()
        finally:
            sys.stdout.flush()  # a closed pipe must surface here, not in the exit-time flush
        return status
    except BrokenPipeError:
        # point stdout at /dev/null so the interpreter's own flush at exit does not raise again
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_PIPE_STATUS
