"""A run stopped at any moment, and continued from its folder alone (issue 36, items 1, 2).

Each run here is a real ``python -m policy_opt.train`` process. ``$POLICY_OPT_SIGNAL_AT``
(policy_opt.training.signals) sends it SIGINT or SIGTERM at a named moment, so no test races
the process it stops.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _argv(model: Path, out: Path, *extra: str) -> list[str]:
    return ["--model", str(model), "--out", str(out), "--prompts-per-step", "2",
            "--group-size", "2", "--max-new-tokens", "4", "--eval-prompts", "2", "--eval-k", "1",
            "--threads", "1", "--env-workers", "1", "--mu", "1", *extra]


def _clean_env(**extra: str) -> dict[str, str]:
    """A fresh shell's environment: none of the test session's RLVR_* or HF_* settings."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    return {**env, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", **extra}


def _train(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "policy_opt.train", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def _steps(out: Path, kind: str = "train") -> list[int]:
    lines = (out / "metrics.jsonl").read_text().splitlines()
    return [r["step"] for r in map(json.loads, lines) if r["kind"] == kind]


def _gsm8k_folder(root: Path) -> Path:
    rows = [{"question": f"What is {a} plus {a}?", "answer": f"{a} + {a} = {2 * a}\n#### {2 * a}"}
            for a in range(1, 7)]
    folder = root / "gsm8k"
    folder.mkdir(parents=True)
    for split in ("train", "test"):
        (folder / f"{split}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


# The README's own commands name the data relatively (RLVR_DATA_DIR=../shared/data).
@pytest.mark.parametrize("relative", [False, True], ids=["absolute-data", "relative-data"])
def test_the_printed_continue_command_runs_in_a_fresh_shell(tiny_model, tmp_path, relative):
    data = _gsm8k_folder(tmp_path / "data")
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere" / "deeper"  # ../data: none
    here.mkdir()
    elsewhere.mkdir(parents=True)
    data_dir = "../data" if relative else str(data)
    first = _train(_argv(tiny_model, Path("runs/r"), "--env", "gsm8k", "--max-steps", "2",
                         "--eval-every", "0", "--save-every", "0"),
                   _clean_env(RLVR_DATA_DIR=data_dir, POLICY_OPT_SIGNAL_AT="optimise"), here)
    assert first.returncode == 130, first.stderr
    out = here / "runs" / "r"
    assert _steps(out) == [1]
    said = re.search(r"continue with: (.+)", first.stdout)
    assert said, first.stdout
    # The command as printed, from another folder, in a shell that sets no RLVR_DATA_DIR.
    again = subprocess.run(said.group(1), shell=True, env=_clean_env(), cwd=elsewhere,
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert _steps(out) == [1, 2]
    assert "RLVR_DATA_DIR" in again.stdout  # it says where the data location came from


def test_resume_warns_when_the_shell_now_names_other_data(tiny_model, tmp_path):
    data = _gsm8k_folder(tmp_path / "data")
    other = _gsm8k_folder(tmp_path / "other")
    out = tmp_path / "run"
    args = _argv(tiny_model, out, "--env", "gsm8k", "--eval-every", "0", "--save-every", "0")
    first = _train([*args, "--max-steps", "1"], _clean_env(RLVR_DATA_DIR=str(data)), tmp_path)
    assert first.returncode == 0, first.stderr
    again = _train(["--out", str(out), "--resume", "--max-steps", "2"],
                   _clean_env(RLVR_DATA_DIR=str(other)), tmp_path)
    assert again.returncode == 0, again.stderr
    assert f"$RLVR_DATA_DIR is now {str(other)!r}" in again.stdout
    assert json.loads((out / "inputs.json").read_text())["env_vars"]["RLVR_DATA_DIR"] == str(data)


# Every moment a newcomer can press Ctrl-C or a scheduler can send SIGTERM.
MOMENTS = [
    ("import", signal.SIGINT), ("import", signal.SIGTERM),
    ("model-load", signal.SIGINT), ("model-load", signal.SIGTERM),
    ("first-eval", signal.SIGINT), ("first-eval", signal.SIGTERM),
    ("rollout", signal.SIGTERM), ("optimise", signal.SIGINT),
    ("checkpoint-write", signal.SIGTERM),
]


@pytest.mark.parametrize(("point", "sig"), MOMENTS, ids=[f"{p}-{s.name}" for p, s in MOMENTS])
def test_a_signal_at_any_moment_exits_cleanly_and_leaves_a_consistent_folder(
        tiny_model, tmp_path, point, sig):
    out = tmp_path / "run"
    args = _argv(tiny_model, out, "--env", "arithmetic", "--max-steps", "2", "--eval-every", "0",
                 "--save-every", "1")
    ran = _train(args, _clean_env(POLICY_OPT_SIGNAL_AT=f"{point}:{sig.name}"), tmp_path)
    assert ran.returncode == 128 + sig, ran.stderr
    said = ran.stdout + ran.stderr
    assert "Traceback" not in said, said
    assert f"{sig.name}: stop" in said
    if point in ("import", "model-load"):
        assert not out.exists()  # nothing was written, so nothing is half-written
        return
    # The folder is a run that --resume continues: its metrics, config and a whole checkpoint.
    assert (out / "config.json").is_file() and (out / "inputs.json").is_file()
    checkpoints = out / "checkpoints"
    latest = checkpoints / (checkpoints / "latest").read_text().strip()
    assert (latest / "trainer_state.pt").is_file()
    assert not list(checkpoints.glob("*.tmp"))
    done = int(latest.name[5:])
    assert _steps(out) == list(range(1, done + 1))
    assert "--resume" in ran.stdout
    if point in ("first-eval", "checkpoint-write"):
        again = _train(["--out", str(out), "--resume"], _clean_env(), tmp_path)
        assert again.returncode == 0, again.stderr
        assert _steps(out) == [1, 2]
