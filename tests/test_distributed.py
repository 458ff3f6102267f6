"""torchrun data parallelism: 2 CPU ranks (gloo) equal a single process on the same batch."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import torch

WORKER = Path(__file__).with_name("distributed_worker.py")
ROOT = Path(__file__).resolve().parents[1]


def _flags(model: Path, out: Path) -> list[str]:
    return ["--model", str(model), "--env", "arithmetic", "--out", str(out), "--max-steps", "2",
            "--prompts-per-step", "4", "--group-size", "4", "--max-new-tokens", "8",
            "--mu", "2", "--eval-every", "0", "--eval-prompts", "2", "--eval-k", "2",
            "--threads", "1", "--env-workers", "1", "--lr", "1e-2", "--algo", "grpo",
            # exercises the clock broadcast; 10 minutes never runs out in 2 steps
            "--max-minutes", "10", "--lr-schedule", "cosine"]


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run(cmd: list[str], cwd: Path) -> None:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    # Own process group, killed whole on timeout: killing torchrun alone once left a rank
    # waiting forever on its peer. 240 s stays inside pytest-timeout's 300 s.
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"{cmd[0]} did not finish in 240 s:\n{out[-3000:]}{err[-3000:]}")
    assert proc.returncode == 0, out[-3000:] + err[-3000:]


@pytest.mark.slow
def test_two_gloo_ranks_equal_one_process(tiny_model, tmp_path):
    torchrun = shutil.which("torchrun")
    launcher = [torchrun] if torchrun else [sys.executable, "-m", "torch.distributed.run"]
    single, multi = tmp_path / "single", tmp_path / "multi"
    single.mkdir()
    multi.mkdir()
    _run([sys.executable, str(WORKER), str(single), "--", *_flags(tiny_model, single / "run")],
         tmp_path)
    _run([*launcher, "--nproc_per_node", "2", "--master_addr", "127.0.0.1",
          "--master_port", str(_free_port()), str(WORKER), str(multi),
          "--", *_flags(tiny_model, multi / "run")], tmp_path)

    one = torch.load(single / "params-rank0.pt")
    r0 = torch.load(multi / "params-rank0.pt")
    r1 = torch.load(multi / "params-rank1.pt")
    from safetensors.torch import load_file

    start = load_file(str(tiny_model / "model.safetensors"))
    moved = max((one[k] - start[k]).abs().max().item() for k in start)
    # Adam turns float-rounding differences of the all-reduced gradient into parameter
    # differences of ~1e-5 here, against a movement of ~1e-2: compare at that scale.
    assert moved > 1e-3, "the update did nothing: the comparison would be vacuous"
    for k in one:
        assert torch.equal(r0[k], r1[k]), f"ranks disagree on {k}"
        torch.testing.assert_close(r0[k], one[k], rtol=1e-4, atol=1e-4, msg=k)
    # Only rank 0 wrote the run's outputs.
    assert (multi / "run" / "metrics.jsonl").is_file()
    assert (multi / "run" / "checkpoints" / "latest").read_text().strip() == "step-000002"
