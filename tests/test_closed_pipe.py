"""Listing commands end quietly when their reader goes away (``... | head``): no
``BrokenPipeError`` traceback, no "Exception ignored" line, the status a shell gives a
process ended by SIGPIPE (or 0 when all was written before the pipe closed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "args",
    [
        ["verifiers", "probe", "--list-families"],
        ["verifiers", "--help"],
        ["tasks", "list"],
        ["tasks", "audit", "arithmetic", "--split", "test", "--limit", "5"],
        ["envs", "probe", "--list-families"],
        ["envs", "probe", "--help"],
    ],
    ids=" ".join,
)
def test_a_closed_pipe_ends_the_command_quietly(args: list[str]) -> None:
    # the reader is gone before the first write: the surest `| head -0`, on any buffer size
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert done.stderr == ""
    assert done.returncode in (0, 141)
