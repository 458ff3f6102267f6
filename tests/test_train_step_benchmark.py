"""benchmarks/train_step.py runs both trainers on one model and reports the ratio, the
breakdown, peak RSS, and which side flushed subnormal floats to zero."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_train_step_benchmark_races_ours_against_trl_on_the_same_prompts(tiny_model):
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "train_step.py"), "--model", str(tiny_model),
         "--steps", "1", "--prompts", "2", "--group-size", "2", "--max-new-tokens", "4",
         "--threads", "1", "--ours-flush-denormal", "false", "--trl-flush-denormal", "true"],
        capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    out = proc.stdout
    ratio = re.search(r"full step\s+([\d.]+) s\s+([\d.]+) s\s+ratio ours/TRL ([\d.]+)x", out)
    assert ratio, out
    ours, trl, r = map(float, ratio.groups())
    half = 0.0005  # the seconds are printed to 3 decimals, the ratio from the exact ones
    assert trl > half and (ours - half) / (trl + half) <= r <= (ours + half) / (trl - half)
    assert re.search(r"peak RSS \(ru_maxrss, whole process\).*ratio ours/TRL [\d.]+x", out)
    # The flags reach each side's process: ours off, TRL on (the reverse of the defaults).
    assert re.search(r"subnormal floats flushed to 0\s+no\s+yes", out), out
    assert "same prompts, same order on both sides: yes" in out
