"""What a long run needs: bounded checkpoints on disk, a checkpoint on Ctrl-C/SIGTERM that
--resume continues exactly, curves and TensorBoard/W&B logs that survive a crash."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from policy_opt.config import ConfigError
from policy_opt.train import Trainer, main
from policy_opt.training.checkpoints import best_checkpoint, mark_best, prune_checkpoints
from policy_opt.training.metrics import rollout_metrics

ROOT = Path(__file__).resolve().parent.parent


def _argv(model, out, *extra):
    return ["--model", str(model), "--env", "arithmetic", "--out", str(out),
            "--prompts-per-step", "2", "--group-size", "3", "--max-new-tokens", "6",
            "--eval-prompts", "3", "--eval-k", "2", "--threads", "1", "--env-workers", "1",
            *extra]


def _records(out: Path, kind: str = "train") -> list[dict]:
    lines = (out / "metrics.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r["kind"] == kind]


def _steps_on_disk(out: Path) -> list[int]:
    return sorted(int(p.name[5:]) for p in (out / "checkpoints").glob("step-*"))


# --------------------------------------------------------------------------- retention


def test_prune_keeps_the_newest_the_best_and_nothing_it_did_not_write(tmp_path):
    root = tmp_path / "checkpoints"
    for step in range(1, 6):
        (root / f"step-{step:06d}").mkdir(parents=True)
        (root / f"step-{step:06d}" / "trainer_state.pt").write_bytes(b"x")
    (root / "latest").write_text("step-000005\n")
    (root / "step-000009.tmp").mkdir()  # a write in progress
    (root / "step-mine").mkdir()        # not ours
    mark_best(tmp_path, root / "step-000002", 0.75)
    removed = prune_checkpoints(tmp_path, keep=2)
    assert sorted(p.name for p in removed) == ["step-000001", "step-000003"]
    assert sorted(p.name for p in root.iterdir()) == [
        "best", "latest", "step-000002", "step-000004", "step-000005", "step-000009.tmp",
        "step-mine"]
    assert best_checkpoint(tmp_path) == (root / "step-000002", 0.75)
    assert prune_checkpoints(tmp_path, keep=0) == []  # 0 keeps all


def test_a_run_keeps_n_checkpoints_plus_the_best(tiny_model, tmp_path):
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out, "--max-steps", "5", "--save-every", "1",
                      "--eval-every", "1", "--keep-checkpoints", "2")) == 0
    evals = {r["step"]: r["accuracy"] for r in _records(out, "eval")}
    # Only an accuracy above the first evaluation's (the untrained model's) makes a best.
    better = {s: a for s, a in evals.items() if s > 0 and a > evals[0]}
    best = best_checkpoint(out)
    if not better:
        assert best is None and not (out / "checkpoints" / "best").exists()
        assert _steps_on_disk(out) == [4, 5]
        return
    best_step = max(better, key=lambda s: (better[s], -s))  # the first to reach the top
    assert best is not None and best[0].name == f"step-{best_step:06d}"
    assert best[1] == evals[best_step]
    assert _steps_on_disk(out) == sorted({4, 5, best_step})


def test_keep_checkpoints_must_not_be_negative(capsys):
    assert main(["--keep-checkpoints", "-1"]) == 2
    assert capsys.readouterr().err.strip() == "error: --keep-checkpoints must be >= 0, got -1"


# --------------------------------------------------------------------------- signals


@pytest.mark.parametrize("sig, phase, finished, code", [
    (signal.SIGINT, "rollout", 2, 130),    # mid-rollout: stop at once, keep step 2
    (signal.SIGTERM, "optimise", 3, 143),  # mid-update: finish step 3 first
])
def test_a_signal_saves_a_checkpoint_that_resume_continues_exactly(
        tiny_model, tmp_path, monkeypatch, sig, phase, finished, code):
    common = ("--mu", "2", "--eval-every", "0", "--save-every", "0")
    # what this process had (a background job started by a shell ignores SIGINT)
    own_handler = signal.getsignal(signal.SIGINT)
    full = tmp_path / "full"
    assert main(_argv(tiny_model, full, "--max-steps", "5", *common)) == 0

    original = getattr(Trainer, phase)

    def signalling(self, step, *args, **kw):
        if step == 2:  # 0-based: the third step
            os.kill(os.getpid(), sig)
        return original(self, step, *args, **kw)

    monkeypatch.setattr(Trainer, phase, signalling)
    part = tmp_path / "part"
    assert main(_argv(tiny_model, part, "--max-steps", "5", *common)) == code
    monkeypatch.setattr(Trainer, phase, original)
    assert _steps_on_disk(part) == [finished]
    assert [r["step"] for r in _records(part)] == list(range(1, finished + 1))
    assert (part / "curves.png").is_file()
    # Handlers are put back: the process's own SIGINT handling is what it was.
    assert signal.getsignal(signal.SIGINT) is own_handler
    assert main(_argv(tiny_model, part, "--max-steps", "5", *common, "--resume")) == 0
    a, b = _records(full), _records(part)
    assert [r["step"] for r in b] == [1, 2, 3, 4, 5]
    for x, y in zip(a, b):
        for key in ("reward_mean", "loss", "grad_norm", "len_mean"):
            assert x[key] == y[key], (x["step"], key)


def test_sigterm_to_a_training_process_checkpoints_and_resumes(tiny_model, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = tmp_path / "run"
    common = ["--eval-every", "0", "--save-every", "0", "--mu", "1"]
    proc = subprocess.Popen([sys.executable, "-m", "policy_opt.train",
                             *_argv(tiny_model, out, "--max-steps", "100000", *common)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            metrics = out / "metrics.jsonl"
            if metrics.is_file() and len(metrics.read_text().splitlines()) >= 3:
                break
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.1)
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        said, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err
    assert time.monotonic() - started < 30
    assert "SIGTERM: stopping" in said and "--resume" in said
    steps = _steps_on_disk(out)
    assert len(steps) == 1
    n = steps[0]
    assert [r["step"] for r in _records(out)] == list(range(1, n + 1))
    # The resumed run's next step is the uninterrupted run's.
    assert main(_argv(tiny_model, out, "--max-steps", str(n + 1), *common, "--resume")) == 0
    full = tmp_path / "full"
    assert main(_argv(tiny_model, full, "--max-steps", str(n + 1), *common)) == 0
    for key in ("reward_mean", "loss", "grad_norm", "len_mean"):
        assert _records(out)[n][key] == _records(full)[n][key], key


# --------------------------------------------------------------------------- reporting


def test_curves_are_redrawn_at_each_evaluation_so_a_crash_keeps_them(tiny_model, tmp_path,
                                                                    monkeypatch):
    original = Trainer.train_step

    def crash(self, step):
        if step == 2:
            raise RuntimeError("the machine went away")
        return original(self, step)

    monkeypatch.setattr(Trainer, "train_step", crash)
    out = tmp_path / "run"
    with pytest.raises(RuntimeError):
        main(_argv(tiny_model, out, "--max-steps", "4", "--eval-every", "1"))
    assert (out / "curves.png").stat().st_size > 1000
    assert [r["step"] for r in _records(out, "eval")] == [0, 1, 2]


def test_tensorboard_gets_train_eval_entropy_and_trl_clip_names(tiny_model, tmp_path):
    pytest.importorskip("tensorboard", reason="pip install tensorboard (the dev extra has it)")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    out = tmp_path / "run"
    # The default model earns rewards on arithmetic, so groups have signal and ratios exist.
    assert main(_argv("default", out, "--max-steps", "2", "--report-to", "tensorboard",
                      "--max-new-tokens", "32", "--prompts-per-step", "4")) == 0
    assert any(r["clip_frac"] is not None for r in _records(out))
    acc = EventAccumulator(str(out / "tensorboard"))
    acc.Reload()
    tags = set(acc.Tags()["scalars"])
    for tag in ("train/loss", "train/reward_mean", "train/entropy", "train/clip_ratio/low_mean",
                "train/clip_ratio/high_mean", "train/clip_ratio/region_mean", "eval/accuracy",
                "eval/pass_at_k"):
        assert tag in tags, tag
    assert [e.step for e in acc.Scalars("eval/accuracy")] == [0, 2]
    losses = [e.value for e in acc.Scalars("train/loss")]
    assert losses == pytest.approx([r["loss"] for r in _records(out)])


def test_a_missing_reporter_package_is_a_one_line_error(tiny_model, tmp_path, monkeypatch,
                                                        capsys):
    monkeypatch.setitem(sys.modules, "torch.utils.tensorboard", None)
    monkeypatch.setitem(sys.modules, "wandb", None)
    from policy_opt.training.reporting import make_reporter

    for kind, hint in (("tensorboard", "pip install tensorboard"), ("wandb", "pip install wandb")):
        with pytest.raises(ConfigError, match=hint):
            make_reporter(kind, tmp_path, {})
    # A run stops before it writes anything, so the same --out works once it is installed.
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out, "--max-steps", "1", "--report-to", "tensorboard")) == 2
    assert "pip install tensorboard" in capsys.readouterr().err
    assert not out.exists() or list(out.iterdir()) == []
    with pytest.raises(SystemExit) as exit_:
        main(["--report-to", "mlflow"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "argument --report-to: invalid choice: 'mlflow'" in err[0]


def test_wandb_logs_offline_without_a_key(tmp_path, monkeypatch):
    pytest.importorskip("wandb", reason="pip install wandb (optional reporter)")
    from policy_opt.training.reporting import make_reporter

    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    monkeypatch.delenv("WANDB_MODE", raising=False)
    monkeypatch.setenv("WANDB_SILENT", "true")
    rep = make_reporter("wandb", tmp_path, {"algo": "gspo"})
    rep.log({"kind": "train", "step": 1, "loss": 0.5, "clip_frac": 0.1})
    rep.close()
    assert list((tmp_path / "wandb").glob("wandb/offline-run-*")) or \
        list((tmp_path / "wandb").glob("offline-run-*"))


def test_entropy_is_the_mean_surprisal_of_the_sampled_tokens():
    # two episodes: 2 tokens with log q = -1, -2 and 1 token with log q = -3 (plus an env
    # token, mask 0, that does not count)
    stats = [(1.0, 2, True, False, False, 3.0), (0.0, 1, False, False, False, 3.0)]
    assert rollout_metrics(stats, group_size=2)["entropy"] == pytest.approx(2.0)
    assert rollout_metrics([(*s[:5], None) for s in stats], group_size=2)["entropy"] is None


def test_a_run_logs_a_positive_entropy(tiny_model, tmp_path):
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out, "--max-steps", "1")) == 0
    rec = _records(out)[0]
    assert rec["entropy"] > 0 and torch.isfinite(torch.tensor(rec["entropy"]))
