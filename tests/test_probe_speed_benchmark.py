"""benchmarks/probe_speed.py times the probe command itself, not its usage error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# a subprocess benchmark run (8 s on 2 loaded cores): the slow set, as tests/conftest.py chooses
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


def test_the_benchmark_times_a_command_that_runs():
    done = subprocess.run([sys.executable, "benchmarks/probe_speed.py", "--task", "arithmetic",
                           "-n", "2"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    cli = next(x for x in done.stdout.splitlines() if x.startswith("cli ("))
    assert cli.startswith("cli (python -m tasks probe):"), cli
