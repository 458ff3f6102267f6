"""The real training loop on a GPU: ``python -m pytest -m gpu tests/test_gpu.py``.

Each test body takes the device as a parameter: the ``cuda`` cases are marked ``gpu`` and
skipped without CUDA; the ``cpu`` cases run the same body everywhere, which keeps the test
logic itself checked on machines without a GPU (and the CPU path covered).

What a GPU run adds over the CPU one: the CUDA kernels, bf16 on tensor cores, the
host/device boundary (``tests/test_device_discipline.py`` checks that boundary on the CPU
too), and the fast decode path's CUDA graphs.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch

from policy_opt.config import parse_config
from policy_opt.train import Trainer

needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
DEVICES = [pytest.param("cpu", id="cpu"),
           pytest.param("cuda", id="cuda", marks=[pytest.mark.gpu, needs_cuda])]
PRECISIONS = ["float32", "bfloat16", "bf16-mixed"]
ALGOS = ["grpo", "dr_grpo", "gspo"]
# Metrics that come from the rollout alone: the same weights and seeds sample the same
# tokens on any device (forward kernels are deterministic).
ROLLOUT_KEYS = ("reward_mean", "accuracy", "len_mean", "mixed_groups")
# Metrics of the update: bitwise on the CPU; some CUDA backward kernels add in a varying
# order (atomics), so two identical CUDA steps may differ in the last bits.
UPDATE_KEYS = ("loss", "grad_norm", "kl", "clip_frac", "ratio_mean", "rows_trained")


def _argv(model: Path, out: Path, device: str, dtype: str, algo: str, *extra: str) -> list[str]:
    return ["--model", str(model), "--env", "odd_envs:LengthParity", "--out", str(out),
            "--device", device, "--dtype", dtype, "--algo", algo, "--beta", "0.04",
            "--mu", "2", "--minibatches", "2", "--micro-batch-size", "4",
            "--prompts-per-step", "4", "--group-size", "4", "--max-new-tokens", "8",
            "--eval-prompts", "4", "--eval-k", "2", "--eval-every", "1", "--save-every", "1",
            "--threads", "1", "--env-workers", "1", "--seed", "3", *extra]


def _records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]


def _trainer(argv: list[str]) -> Trainer:
    return Trainer(parse_config(argv), log=lambda *a, **k: None)


@pytest.mark.parametrize("dtype", PRECISIONS)
@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("device", DEVICES)
def test_train_evaluate_checkpoint_and_resume_exactly(tiny_model, tmp_path, device, algo,
                                                     dtype, monkeypatch, request):
    """Two steps straight, against one step, a checkpoint and a resumed second step: with
    mu=2, two minibatches (old log-probs), micro-batches, a reference model (beta > 0) and
    held-out evaluations."""
    if device == "cuda":
        # Exact repetition needs kernels that add in a fixed order where torch has them
        # (warn_only: an op without one warns instead of failing the run).
        monkeypatch.setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.use_deterministic_algorithms(True, warn_only=True)
        request.addfinalizer(lambda: torch.use_deterministic_algorithms(False))
    full = tmp_path / "full"
    straight = _trainer(_argv(tiny_model, full, device, dtype, algo, "--max-steps", "2"))
    seen: set[torch.dtype] = set()
    layer = straight.model.model.layers[0].mlp.down_proj
    layer.register_forward_hook(lambda mod, inp, out: seen.add(out.dtype))
    straight.train()
    # bf16-mixed: float32 weights and AdamW state, bfloat16 compute (rollout, log-probs)
    assert seen == {torch.float32 if dtype == "float32" else torch.bfloat16}
    param_dtype = torch.float32 if dtype == "bf16-mixed" else getattr(torch, dtype)
    for model in (straight.model, straight.ref_model):
        assert {(p.device.type, p.dtype) for p in model.parameters()} == {(device, param_dtype)}
    state = straight.optimizer.state[next(straight.model.parameters())]
    assert state["exp_avg"].dtype == param_dtype and state["exp_avg"].device.type == device

    part = tmp_path / "part"
    _trainer(_argv(tiny_model, part, device, dtype, algo, "--max-steps", "1")).train()
    resumed = _trainer(_argv(tiny_model, part, device, dtype, algo, "--max-steps", "2",
                             "--resume"))
    resumed.train()

    a, b = _records(full), _records(part)
    kinds = [(r["kind"], r["step"]) for r in a]
    assert kinds == [("eval", 0), ("train", 1), ("eval", 1), ("train", 2), ("eval", 2)]
    assert [(r["kind"], r["step"]) for r in b] == kinds
    trains = [r for r in a if r["kind"] == "train"]
    assert all(r["rows_trained"] > 0 for r in trains), "no group had signal: nothing trained"
    for rec in a:
        for key, value in rec.items():
            assert not isinstance(value, float) or math.isfinite(value), (rec["kind"], key)
    assert all(0.0 <= r["accuracy"] <= 1.0 for r in a if r["kind"] == "eval")
    assert (full / "checkpoints" / "latest").read_text().strip() == "step-000002"

    # The resumed run's step 2 (and the evaluation after it) is the straight run's.
    exact = device == "cpu"
    for ra, rb in zip(a[3:], b[3:]):
        for key in ra:
            if key.startswith("time") or key == "tokens_per_s":
                continue
            if exact or key in ROLLOUT_KEYS or not isinstance(ra[key], float):
                assert ra[key] == rb[key], (ra["kind"], key)
            elif key in UPDATE_KEYS:
                assert math.isclose(ra[key], rb[key], rel_tol=1e-3, abs_tol=1e-6), key
    for pa, pb in zip(straight.model.parameters(), resumed.model.parameters()):
        if exact:
            assert torch.equal(pa, pb)
        else:
            torch.testing.assert_close(pa, pb, rtol=1e-2, atol=1e-3)


@pytest.mark.parametrize("device", DEVICES)
def test_the_race_against_trl_prints_the_ratio_and_each_sides_memory(device):
    """``benchmarks/train_step.py`` on a random-weight shape with the parity reward: both
    sides train every group, and (on a GPU) the peak memory of each and the decode rate
    against the bandwidth ceiling are printed."""
    import re
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    dtype = "bfloat16" if device == "cuda" else "bf16-mixed"
    proc = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "train_step.py"), "--device", device,
         "--model-shape", "tiny", "--dtype", dtype, "--steps", "1", "--prompts", "2",
         "--group-size", "4", "--max-new-tokens", "8", "--threads", "1"],
        capture_output=True, text=True, timeout=900, cwd=root)
    out = proc.stdout
    assert proc.returncode == 0, out[-2000:] + proc.stderr[-4000:]
    assert f"{device}, ours {dtype} / TRL fp32 + bf16 autocast, reward parity" in out
    assert re.search(r"full step\s+[\d.]+ s\s+[\d.]+ s\s+ratio ours/TRL [\d.]+x", out), out
    assert "same prompts, same order on both sides: yes" in out
    gpu_lines = [r"GPU peak allocated \(after loading\)\s+[\d.]+ MiB\s+[\d.]+ MiB\s+ratio",
                 r"our decode vs bandwidth ceiling\s+\d+ tok/s of \d+"]
    for line in gpu_lines:
        assert bool(re.search(line, out)) == (device == "cuda"), line
