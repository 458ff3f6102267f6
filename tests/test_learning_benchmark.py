"""benchmarks/learning.py runs the comparison with cosine decay and reports against the target."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import learning  # noqa: E402


def _run(tiny_model: Path, out: Path, *extra: str) -> None:
    assert learning.main([
        "--algos", "gspo", "--minutes", "5", "--out", str(out), "--eval-prompts", "2",
        "--eval-every", "0", "--threads", "1", "--model", str(tiny_model), "--steps", "1",
        "--prompts-per-step", "2", "--group-size", "3", "--max-new-tokens", "4", "--eval-k", "2",
        "--env-workers", "1", *extra]) == 0


@pytest.mark.parametrize("extra, schedule", [((), "cosine"),
                                             (("--lr-schedule", "constant"), "constant")])
def test_learning_reports_each_algorithm_against_the_target(tiny_model, tmp_path, capsys,
                                                             extra, schedule):
    out = tmp_path / "learning"
    _run(tiny_model, out, *extra)
    printed = capsys.readouterr().out
    line = next(x for x in printed.splitlines() if x.strip().startswith("gspo "))
    assert "points" in line and "target +20 points within 15 min: " in line
    assert (out / "compare.md").is_file() and (out / "compare.png").is_file()
    config = json.loads((out / "gspo" / "config.json").read_text())
    assert config["lr_schedule"] == schedule  # the benchmark's default, overridable
    assert config["max_minutes"] == 5.0
