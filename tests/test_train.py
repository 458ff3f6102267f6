"""The trainer end to end on a tiny model: outputs, exact resume, NaN stop, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from policy_opt.config import ConfigError, parse_config
from policy_opt.rollout.episodes import Episode
from policy_opt.train import (
    Trainer,
    TrainingError,
    lr_factor,
    main,
)
from policy_opt.training.batching import pack_episodes, plan_micro_batches


def _argv(model: Path, out: Path, *extra: str) -> list[str]:
    return ["--model", str(model), "--env", "arithmetic", "--out", str(out),
            "--prompts-per-step", "2", "--group-size", "3", "--max-new-tokens", "6",
            "--eval-prompts", "3", "--eval-k", "2", "--threads", "1", "--env-workers", "1",
            *extra]


def _capture_gradients(trainer: Trainer) -> tuple[dict, list]:
    """The weights now, and a list that receives every gradient the optimiser would apply
    (its step is replaced, so the weights never move)."""
    start = {k: v.clone() for k, v in trainer.model.state_dict().items()}
    grads: list = []
    trainer.optimizer.step = lambda: grads.append(
        [p.grad.clone() for p in trainer.model.parameters()])
    return start, grads


def _fake_clock(*seconds: float):
    """A clock that reads ``seconds`` in turn, then keeps reading the last one."""
    readings = iter(seconds)
    last = [seconds[0]]

    def clock() -> float:
        last[0] = next(readings, last[0])
        return last[0]

    return clock


def _records(out: Path, kind: str = "train") -> list[dict]:
    lines = (out / "metrics.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r["kind"] == kind]


def test_pack_episodes_aligns_completions_at_one_column():
    eps = [Episode([5, 6, 7], [8, 9], [1, 1], 1.0, 0), Episode([5], [8, 1, 9], [1, 0, 1], 0.0, 0)]
    b = pack_episodes(eps, pad_id=0)
    assert b.input_ids.tolist() == [[5, 6, 7, 8, 9, 0], [0, 0, 5, 8, 1, 9]]
    assert b.attention_mask.tolist() == [[1, 1, 1, 1, 1, 0], [0, 0, 1, 1, 1, 1]]
    assert b.position_ids[1, 2:].tolist() == [0, 1, 2, 3]
    assert b.completion_ids.tolist() == [[8, 9, 0], [8, 1, 9]]
    assert b.completion_mask.tolist() == [[1, 1, 0], [1, 0, 1]]


def test_a_run_writes_metrics_plot_and_checkpoint(tiny_model, tmp_path):
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out, "--max-steps", "2", "--algo", "grpo")) == 0
    train = _records(out)
    assert [r["step"] for r in train] == [1, 2]
    for key in ("reward_mean", "accuracy", "clip_frac", "len_mean", "tokens_per_s", "loss"):
        assert key in train[0], key
    evals = _records(out, "eval")
    assert [r["step"] for r in evals] == [0, 2]
    for ev in evals:  # mean@k never exceeds pass@k: a prompt's mean hit is at most its any-hit
        assert 0.0 <= ev["sampled_accuracy"] <= ev["pass_at_k"] <= 1.0
    assert (out / "curves.png").stat().st_size > 1000
    ckpt = out / "checkpoints" / "step-000002"
    assert (ckpt / "model.safetensors").is_file() and (ckpt / "trainer_state.pt").is_file()
    assert (out / "checkpoints" / "latest").read_text().strip() == "step-000002"
    # The checkpoint is an ordinary transformers folder.
    from transformers import AutoModelForCausalLM, AutoTokenizer

    AutoModelForCausalLM.from_pretrained(ckpt)
    assert AutoTokenizer.from_pretrained(ckpt).decode([104, 105]) is not None


def test_resume_repeats_the_uninterrupted_run_exactly(tiny_model, tmp_path):
    common = ("--max-steps", "3", "--mu", "2", "--algo", "gspo", "--eval-every", "0")
    full = tmp_path / "full"
    assert main(_argv(tiny_model, full, *common, "--save-every", "0")) == 0
    part = tmp_path / "part"
    # Stop after step 2 (checkpoint), then resume to step 3.
    assert main(_argv(tiny_model, part, "--max-steps", "2", "--mu", "2", "--algo", "gspo",
                      "--eval-every", "0")) == 0
    assert main(_argv(tiny_model, part, *common, "--resume")) == 0
    a, b = _records(full), _records(part)
    assert [r["step"] for r in b] == [1, 2, 3]
    for key in ("reward_mean", "loss", "grad_norm", "clip_frac", "len_mean"):
        assert a[2][key] == b[2][key], key


def test_resume_with_only_out_and_max_steps_continues_the_same_run(tiny_model, tmp_path):
    # The README's `--out runs/arith --max-steps 80 --resume`: the run's other settings (here
    # none of them the defaults) come from the run itself.
    common = ("--mu", "2", "--algo", "grpo", "--eval-every", "0", "--lr", "3e-3")
    full = tmp_path / "full"
    assert main(_argv(tiny_model, full, "--max-steps", "3", *common, "--save-every", "0")) == 0
    part = tmp_path / "part"
    assert main(_argv(tiny_model, part, "--max-steps", "2", *common)) == 0
    assert main(["--out", str(part), "--max-steps", "3", "--resume"]) == 0
    a, b = _records(full), _records(part)
    assert [r["step"] for r in b] == [1, 2, 3]
    for key in ("reward_mean", "loss", "grad_norm", "clip_frac", "len_mean", "lr"):
        assert a[2][key] == b[2][key], key
    saved = json.loads((part / "config.json").read_text())
    assert (saved["algo"], saved["group_size"], saved["model"]) == ("grpo", 3, str(tiny_model))


@pytest.mark.parametrize("mu, minibatches, off_policy", [(1, 1, False), (2, 1, True),
                                                         (1, 2, True)])
def test_old_logprobs_are_computed_whenever_a_batch_takes_several_optimiser_steps(
        tiny_model, tmp_path, mu, minibatches, off_policy):
    # The second minibatch of a pass is trained after the first one's step: its ratio must be
    # taken against the rollout policy, not the moved one.
    cfg = parse_config(_argv(tiny_model, tmp_path / "mb", "--max-steps", "1", "--mu", str(mu),
                             "--minibatches", str(minibatches), "--eval-every", "0",
                             "--save-every", "0", "--prompts-per-step", "4"))
    trainer = Trainer(cfg, log=lambda *a, **k: None)
    called = []
    real = trainer.frozen_logprobs

    def spy(model, *args, **kwargs):
        called.append(model is trainer.model)
        return real(model, *args, **kwargs)

    trainer.frozen_logprobs = spy
    trainer.train_step(0)
    assert called == ([True] if off_policy else [])


@pytest.mark.parametrize("schedule, at_half", [("constant", 1.0), ("linear", 0.5),
                                              ("cosine", 0.5)])
def test_lr_factor_decays_over_whichever_budget_ends_first(schedule, at_half):
    cfg = parse_config(["--lr-schedule", schedule, "--max-steps", "11", "--warmup-steps", "1"])
    assert lr_factor(cfg, 0) == 1.0  # the one warm-up step: (0 + 1) / 1
    assert lr_factor(cfg, 1) == 1.0
    assert lr_factor(cfg, 6) == pytest.approx(at_half)  # half of the 10 post-warm-up steps
    assert lr_factor(cfg, 11) == pytest.approx(1.0 if schedule == "constant" else 0.0)
    # A minutes budget half spent halves the schedule even when few steps have run ...
    assert lr_factor(cfg, 1, time_spent=0.5) == pytest.approx(at_half)
    # ... and the step count still decides when it is further along than the clock.
    assert lr_factor(cfg, 6, time_spent=0.1) == pytest.approx(at_half)
    warm = parse_config(["--warmup-steps", "4"])
    assert [lr_factor(warm, s) for s in range(5)] == [0.25, 0.5, 0.75, 1.0, 1.0]


def test_the_trainer_applies_the_schedule_and_the_minutes_budget(tiny_model, tmp_path):
    out = tmp_path / "sched"
    assert main(_argv(tiny_model, out, "--max-steps", "2", "--lr-schedule", "linear",
                      "--lr", "1e-3", "--eval-every", "0")) == 0
    assert [r["lr"] for r in _records(out)] == pytest.approx([1e-3, 5e-4])
    # A one-minute budget read from a fake clock: 0 s when the loop starts, then 0 s, 30 s
    # and 61 s at the checks before steps 1, 2 and 3. The rate halves with half the minute
    # spent, and the run stops (evaluates, checkpoints) once the minute is over.
    out = tmp_path / "minutes"
    cfg = parse_config(_argv(tiny_model, out, "--max-steps", "1000", "--max-minutes", "1",
                             "--lr-schedule", "linear", "--lr", "1e-3", "--eval-every", "0"))
    trainer = Trainer(cfg, log=lambda *a, **k: None)
    trainer.clock = _fake_clock(0.0, 0.0, 30.0, 61.0)
    trainer.train()
    assert [(r["step"], r["lr"]) for r in _records(out)] == [(1, 1e-3), (2, 5e-4)]
    assert [r["step"] for r in _records(out, "eval")] == [0, 2]
    assert (out / "checkpoints" / "latest").read_text().strip() == "step-000002"


def test_resume_continues_the_minutes_budget(tiny_model, tmp_path):
    out = tmp_path / "budget"
    common = ("--max-minutes", "1", "--lr-schedule", "linear", "--lr", "1e-3",
              "--eval-every", "0", "--save-every", "0")
    first = Trainer(parse_config(_argv(tiny_model, out, "--max-steps", "2", *common)),
                    log=lambda *a, **k: None)
    first.clock = _fake_clock(0.0, 0.0, 10.0, 20.0)  # the checkpoint after step 2 reads 20 s
    first.train()
    # A new process whose clock starts anywhere: 20 s of the minute are already spent, so the
    # rate starts at 2/3 and the run stops once the earlier 20 s plus its own 41 s pass 60 s.
    second = Trainer(parse_config(_argv(tiny_model, out, "--max-steps", "1000", "--resume",
                                        *common)), log=lambda *a, **k: None)
    second.clock = _fake_clock(100.0, 100.0, 130.0, 141.0)
    second.train()
    assert [r["step"] for r in _records(out)] == [1, 2, 3, 4]
    assert [r["lr"] for r in _records(out)][2:] == pytest.approx([1e-3 * 2 / 3, 1e-3 / 6])
    assert (out / "checkpoints" / "latest").read_text().strip() == "step-000004"


def test_nan_loss_stops_with_a_clear_message_and_keeps_the_last_checkpoint(
        tiny_model, tmp_path, monkeypatch):
    out = tmp_path / "nan"
    cfg = parse_config(_argv(tiny_model, out, "--max-steps", "3", "--save-every", "1",
                             "--eval-every", "0"))
    trainer = Trainer(cfg, log=lambda *a: None)
    real = trainer.advantages
    calls = {"n": 0}

    def poisoned(episodes):
        calls["n"] += 1
        adv, keep = real(episodes)
        return (adv * float("nan") if calls["n"] == 2 else adv), keep

    monkeypatch.setattr(trainer, "advantages", poisoned)
    with pytest.raises(TrainingError, match="step 1.*step-000001"):
        trainer.train()
    assert (out / "checkpoints" / "latest").read_text().strip() == "step-000001"


@pytest.mark.parametrize(
    "extra, flag",
    [(("--env", "no-such-env"), "--env"), (("--model", "/no/such/model"), "--model")],
)
def test_bad_env_or_model_is_a_clear_error(tmp_path, extra, flag, capsys):
    argv = ["--out", str(tmp_path / "x"), "--max-steps", "1", *extra]
    assert main(argv) == 2
    assert flag in capsys.readouterr().err


def test_resume_without_a_checkpoint_names_the_flag(tiny_model, tmp_path, capsys):
    assert main(_argv(tiny_model, tmp_path / "empty", "--resume")) == 2
    assert "--resume" in capsys.readouterr().err


def test_resume_below_the_checkpoint_step_keeps_the_checkpoint(tiny_model, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out, "--max-steps", "2", "--eval-every", "0")) == 0
    before = sorted(p.name for p in (out / "checkpoints").iterdir())
    metrics = (out / "metrics.jsonl").read_text()
    assert main(_argv(tiny_model, out, "--max-steps", "1", "--resume")) == 2
    err = capsys.readouterr().err
    assert "--max-steps (1) is below the step of the checkpoint to resume (2" in err
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == before
    assert (out / "metrics.jsonl").read_text() == metrics


@pytest.mark.parametrize("damage", ["trainer_state", "weights"])
def test_resume_from_a_damaged_only_checkpoint_is_a_clear_error(tiny_model, tmp_path, capsys,
                                                              damage):
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out, "--max-steps", "1", "--eval-every", "0")) == 0
    ckpt = next((out / "checkpoints").glob("step-*"))
    victim = ckpt / ("trainer_state.pt" if damage == "trainer_state" else "model.safetensors")
    victim.write_bytes(victim.read_bytes()[:100])  # a copy cut short
    assert main(_argv(tiny_model, out, "--max-steps", "2", "--resume")) == 2
    said = capsys.readouterr()
    assert f"--resume: skipped checkpoint {ckpt}: it cannot be loaded" in said.out
    assert f"no checkpoint in {out / 'checkpoints'} loads (tried {ckpt.name})" in said.err
    assert victim.is_file()  # the damaged one stays where it was


def test_resume_drops_a_torn_metrics_line(tiny_model, tmp_path):
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out, "--max-steps", "1", "--eval-every", "0")) == 0
    with (out / "metrics.jsonl").open("a") as fh:
        fh.write('{"kind": "train", "st')  # the line a crash cut mid-write
    assert main(_argv(tiny_model, out, "--max-steps", "2", "--eval-every", "0", "--resume")) == 0
    assert [r["step"] for r in _records(out)] == [1, 2]


def test_help_lists_flags():
    proc = subprocess.run([sys.executable, "-m", "policy_opt.train", "--help"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    for flag in ("--env", "--algo", "--group-size", "--beta", "--resume", "--config"):
        assert flag in proc.stdout


def test_config_error_type_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


def test_shared_prompt_logprobs_equal_the_plain_path_in_value_and_gradient(tiny_model):
    """Running a group's prompt once and repeating its cache is exact, gradient included."""
    from transformers import AutoModelForCausalLM

    from policy_opt.algorithm.logprobs import completion_logprobs
    from policy_opt.training.batching import prompts_shared

    model = AutoModelForCausalLM.from_pretrained(tiny_model, dtype=torch.float64)
    gen = torch.Generator().manual_seed(0)
    episodes = []
    for group, plen in enumerate((5, 9)):  # ragged prompts: left padding differs per group
        prompt = torch.randint(0, 256, (plen,), generator=gen).tolist()
        for clen in (1, 4, 7):  # ragged completions, one of length 1
            comp = torch.randint(0, 256, (clen,), generator=gen).tolist()
            episodes.append(Episode(prompt, comp, [1] * clen, 0.0, group))
    batch = pack_episodes(episodes, pad_id=257)
    assert prompts_shared(batch, 3) and not prompts_shared(batch, 2)

    def run(group_size, micro):
        model.zero_grad()
        lp = completion_logprobs(model, batch, micro, group_size=group_size)
        (lp * batch.completion_mask).sum().backward()
        return lp.detach(), [p.grad.clone() for p in model.parameters()]

    plain_lp, plain_grad = run(1, 0)
    for micro in (0, 3):
        shared_lp, shared_grad = run(3, micro)
        mask = batch.completion_mask.bool()
        torch.testing.assert_close(shared_lp[mask], plain_lp[mask], rtol=0, atol=1e-10)
        # Values agree exactly. Gradients agree to ~1e-7 of their scale, not 1e-15: HF's
        # RMSNorm computes in float32 even in a float64 model, and the prompt's gradient is
        # summed over the group in a different order. (Dropping the prompt's gradient, a
        # detached cache, is off by O(1) on this model: measured while writing this test.)
        for a, b in zip(shared_grad, plain_grad):
            torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6 * b.abs().max().item())


def test_vllm_engine_without_vllm_is_a_clear_error(tiny_model, tmp_path, capsys):
    try:
        import vllm  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("vLLM is installed here; this checks the message when it is not")
    assert main(_argv(tiny_model, tmp_path / "v", "--engine", "vllm")) == 2
    assert "--engine vllm" in capsys.readouterr().err


def test_an_empty_dataset_is_a_clear_error_naming_the_file(tmp_path, monkeypatch, capsys):
    data = tmp_path / "data" / "gsm8k"
    data.mkdir(parents=True)
    (data / "train.jsonl").write_text("")
    (data / "test.jsonl").write_text("")
    monkeypatch.setenv("RLVR_DATA_DIR", str(tmp_path / "data"))
    assert main(["--env", "gsm8k", "--out", str(tmp_path / "run"), "--max-steps", "1"]) == 2
    err = capsys.readouterr().err
    # Which split trips first depends on what earlier tests left in the env's row cache.
    assert "--env 'gsm8k'" in err and ".jsonl: file is empty" in err


@pytest.mark.parametrize("algo", ["grpo", "dr_grpo", "gspo"])
def test_skipping_groups_without_signal_keeps_the_full_batch_gradient(tiny_model, tmp_path,
                                                                      algo):
    """Groups whose rewards are all equal have A = 0 on every row; skipping their forward and
    backward passes must give the loss and gradient of the whole batch."""
    cfg = parse_config(_argv(tiny_model, tmp_path / "run", "--algo", algo, "--group-size", "3",
                             "--micro-batch-size", "3"))
    trainer = Trainer(cfg, log=lambda *a, **k: None)
    gen = torch.Generator().manual_seed(1)
    episodes = []
    for group, rewards in enumerate(([1.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0],
                                     [0.0, 1.0, 1.0])):
        prompt = torch.randint(0, 256, (4 + group,), generator=gen).tolist()
        for r in rewards:
            comp = torch.randint(0, 256, (int(torch.randint(1, 6, (1,), generator=gen)),),
                                 generator=gen).tolist()
            episodes.append(Episode(prompt, comp, [1] * len(comp), r, group))
    adv, _ = trainer.advantages(episodes)
    batch = pack_episodes(episodes, trainer.tokenizer.pad_token_id)
    assert trainer.groups_with_signal(batch, adv).tolist() == [True, False, False, True]

    start, grads = _capture_gradients(trainer)

    skipped = trainer.optimise(0, batch, adv)
    trainer.model.load_state_dict(start)
    trainer.groups_with_signal = lambda b, a: torch.ones(4, dtype=torch.bool)
    full = trainer.optimise(0, batch, adv)

    assert skipped["rows_trained"] == 0.5 and full["rows_trained"] == 1.0
    assert skipped["loss"] == pytest.approx(full["loss"], abs=1e-6)
    assert skipped["grad_norm"] == pytest.approx(full["grad_norm"], rel=1e-5)
    assert full["grad_norm"] > 0
    half = len(grads) // 2  # one capture per optimiser step (mu of them), skipped run first
    assert half == cfg.mu
    for step_a, step_b in zip(grads[:half], grads[half:]):
        for a, b in zip(step_a, step_b):
            torch.testing.assert_close(a, b, rtol=1e-4,
                                       atol=1e-6 * max(b.abs().max().item(), 1e-6))


def test_a_step_where_no_group_has_signal_still_steps_adamw(tiny_model, tmp_path):
    cfg = parse_config(_argv(tiny_model, tmp_path / "run", "--algo", "grpo"))
    trainer = Trainer(cfg, log=lambda *a, **k: None)
    episodes = [Episode([5, 6], [7, 8], [1, 1], 0.0, g) for g in range(2) for _ in range(3)]
    adv, _ = trainer.advantages(episodes)
    batch = pack_episodes(episodes, trainer.tokenizer.pad_token_id)
    calls = []
    step = trainer.optimizer.step
    trainer.optimizer.step = lambda: calls.append(
        [p.grad.abs().max().item() for p in trainer.model.parameters()]) or step()
    rec = trainer.optimise(0, batch, adv)
    assert rec["rows_trained"] == 0.0 and rec["loss"] == 0.0 and rec["clip_frac"] is None
    # Zero gradients, but AdamW ran once per optimiser step.
    assert len(calls) == cfg.mu and max(max(c) for c in calls) == 0.0


def _plan_cost(widths, cuts, group_size, overhead):
    return sum((b - a) * group_size * widths[a] + overhead for a, b in zip(cuts, cuts[1:]))


def test_micro_batch_plan_is_the_cheapest_contiguous_cut():
    """The dynamic programme against every contiguous partition (brute force)."""
    import itertools
    import random

    rng = random.Random(0)
    for _ in range(200):
        m = rng.randint(1, 7)
        widths = sorted((rng.randint(1, 40) for _ in range(m)), reverse=True)
        g, max_rows, overhead = rng.choice([1, 2, 4]), rng.randint(1, 20), rng.randint(0, 80)
        per = max(1, max_rows // g)
        cuts = plan_micro_batches(widths, g, max_rows, overhead)
        assert cuts[0] == 0 and cuts[-1] == m and cuts == sorted(set(cuts))
        assert all(b - a <= per for a, b in zip(cuts, cuts[1:]))
        best = min(
            _plan_cost(widths, [0, *inner, m], g, overhead)
            for k in range(m)
            for inner in itertools.combinations(range(1, m), k)
            if all(b - a <= per for a, b in zip([0, *inner], [*inner, m]))
        )
        assert _plan_cost(widths, cuts, g, overhead) == best


def test_length_planned_micro_batches_keep_the_gradient(tiny_model, tmp_path):
    """Cutting a minibatch into length-sorted micro-batches changes only float rounding:
    the loss and every gradient match one micro-batch holding every row."""
    cfg = parse_config(_argv(tiny_model, tmp_path / "run", "--algo", "grpo", "--group-size",
                             "2", "--micro-batch-size", "8", "--mu", "1"))
    trainer = Trainer(cfg, log=lambda *a, **k: None)
    gen = torch.Generator().manual_seed(3)
    episodes = []
    for group, length in enumerate((2, 30, 3, 25)):  # two short and two long groups
        prompt = torch.randint(0, 256, (5,), generator=gen).tolist()
        for r in (1.0, 0.0):
            comp = torch.randint(0, 256, (length,), generator=gen).tolist()
            episodes.append(Episode(prompt, comp, [1] * length, r, group))
    adv, _ = trainer.advantages(episodes)
    batch = pack_episodes(episodes, trainer.tokenizer.pad_token_id)
    parts = trainer.micro_batches(batch, torch.arange(8), 8)
    assert len(parts) == 2  # long groups together, short ones together
    assert sorted(parts[0][0].tolist()) == [2, 3, 6, 7] and sorted(parts[1][0].tolist()) == [0, 1, 4, 5]
    assert [w for _, w in parts] == [30, 3]  # each part's longest completion

    start, grads = _capture_gradients(trainer)
    planned = trainer.optimise(0, batch, adv)
    trainer.model.load_state_dict(start)
    trainer.micro_batches = lambda b, idx, micro: [(idx, b.completion_ids.shape[1])]
    single = trainer.optimise(0, batch, adv)
    assert planned["loss"] == pytest.approx(single["loss"], abs=1e-6)
    for a, b in zip(*grads):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-6 * max(b.abs().max().item(), 1e-6))


def test_env_workers_default_to_inline_unless_the_task_runs_code(tiny_model, tmp_path):
    import tasks

    cfg = parse_config(_argv(tiny_model, tmp_path / "run", "--env-workers", "0"))
    assert Trainer(cfg, log=lambda *a, **k: None).env_workers == 1
    assert tasks.get("mbpp").runs_code and tasks.get("humaneval").runs_code
    assert not tasks.get("arithmetic").runs_code


_FLUSH_PROBE = """
import sys, torch
torch.set_num_threads(2)
if sys.argv[1] == "pool-first":
    torch.ones(1 << 20).mul(2.0)  # starts torch's intra-op worker thread before the call
from policy_opt.training.precision import SUBNORMAL_BITS, flush_denormals
ok = flush_denormals()
tiny = torch.full((1 << 20,), SUBNORMAL_BITS, dtype=torch.int32).view(torch.float32)
print(ok, int((tiny * 1.0).view(torch.int32).ne(0).sum()))
"""


@pytest.mark.parametrize("order, expect_ok", [("fresh", True), ("pool-first", False)])
def test_flush_denormals_reaches_the_worker_threads_started_after_it(order, expect_ok):
    # Each case in a fresh process: the mode is per thread and sticks to a thread for life.
    proc = subprocess.run([sys.executable, "-c", _FLUSH_PROBE, order], capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0, proc.stderr
    ok, subnormal_results = proc.stdout.split()
    assert ok == str(expect_ok)
    if expect_ok:
        assert subnormal_results == "0"
    else:  # the worker that existed before kept computing subnormals: the probe saw it
        assert int(subnormal_results) > 0


@pytest.mark.parametrize("flag, calls", [([], 1), (["--flush-denormal", "false"], 0)])
def test_the_trainer_sets_flush_to_zero_unless_told_not_to(tiny_model, tmp_path, monkeypatch,
                                                          flag, calls):
    import policy_opt.training.session as train_mod

    seen: list[bool] = []
    monkeypatch.setattr(train_mod, "flush_denormals", lambda: seen.append(True) or True)
    trainer = Trainer(parse_config(_argv(tiny_model, tmp_path / "run", *flag)),
                      log=lambda *a, **k: None)
    assert len(seen) == calls
    assert trainer.denormals_flushed is bool(calls)


def test_an_env_that_raises_on_construction_is_a_config_error(tmp_path, capsys):
    assert main(["--env", "odd_envs:RaisesOnInit", "--out", str(tmp_path / "r"),
                 "--max-steps", "1"]) == 2
    err = capsys.readouterr().err
    assert "--env 'odd_envs:RaisesOnInit'" in err and "RuntimeError: the env's own bug" in err


@pytest.mark.parametrize("env", ["NanReward", "InfReward"])
def test_a_non_finite_reward_stops_with_a_message_naming_the_env(tiny_model, tmp_path, env,
                                                                 capsys):
    argv = _argv(tiny_model, tmp_path / "r", "--env", f"odd_envs:{env}", "--max-steps", "1")
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"--env 'odd_envs:{env}' returned a reward of" in err and "no_signal" in err


def test_check_rewards_passes_no_signal_and_names_the_row_of_a_nan():
    from policy_opt.training.metrics import check_rewards

    good = Episode([1], [2], [1], 1.0, 0)
    check_rewards([good, Episode([1], [2], [1], None, 0)], "x")  # None is no signal: fine
    with pytest.raises(TrainingError, match="reward of nan.*row 'r7'"):
        check_rewards([good, Episode([1], [2], [1], float("nan"), 0, {"row_id": "r7"})], "x")


@pytest.fixture(scope="module")
def short_context_model(tmp_path_factory) -> Path:
    """The tiny Llama with 100 positions: an arithmetic prompt (~67 byte tokens) fits, with
    room for about 30 generated ones."""
    from transformers import LlamaForCausalLM

    from policy_opt.models import default_config, default_tokenizer

    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("short")
    cfg = default_config(hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                         intermediate_size=64, max_position_embeddings=100)
    LlamaForCausalLM(cfg).save_pretrained(path)
    default_tokenizer().save_pretrained(path)
    return path


def test_max_new_tokens_past_the_models_context_is_a_config_error(short_context_model,
                                                                  tmp_path, capsys):
    argv = _argv(short_context_model, tmp_path / "r", "--max-new-tokens", "500")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--max-new-tokens 500 does not fit" in err and "context is 100 tokens" in err
    assert "use --max-new-tokens" in err


def test_a_prompt_longer_than_the_context_stops_the_run_naming_the_flags(
        short_context_model, tmp_path, monkeypatch):
    cfg = parse_config(_argv(short_context_model, tmp_path / "r", "--max-new-tokens", "4",
                             "--max-steps", "1"))
    trainer = Trainer(cfg, log=lambda *a: None)
    # A later row of the split can be longer than the one probed at start-up.
    monkeypatch.setattr(trainer.model.config, "max_position_embeddings", 20)
    with pytest.raises(TrainingError, match="a prompt of --env 'arithmetic' does not fit"):
        trainer.train()


@pytest.mark.parametrize("flag, value", [("--algo", "grpo"), ("--env", "countdown"),
                                         ("--model", "other")])
def test_resume_refuses_a_checkpoint_of_another_env_algo_or_model(tiny_model, tmp_path, capsys,
                                                                  flag, value):
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out, "--max-steps", "1", "--eval-every", "0")) == 0
    metrics = (out / "metrics.jsonl").read_text()
    if flag == "--model":  # another folder with the same architecture: the weights would load
        import shutil

        value = str(shutil.copytree(tiny_model, tmp_path / value))
    assert main(_argv(tiny_model, out, "--max-steps", "2", "--resume", flag, value)) == 2
    err = capsys.readouterr().err
    assert f"was trained with {flag} " in err and f"not {value!r}" in err
    assert (out / "metrics.jsonl").read_text() == metrics


def test_resume_notes_other_changed_settings_and_accepts_another_spelling_of_the_model(
        tiny_model, tmp_path):
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out, "--max-steps", "1", "--eval-every", "0")) == 0
    lines: list[str] = []
    same = str(tiny_model / ".." / tiny_model.name)
    cfg = parse_config(_argv(same, out, "--max-steps", "2", "--resume", "--lr", "0.001"))
    Trainer(cfg, log=lines.append).train()
    [note] = [line for line in lines if line.startswith("note: resuming")]
    assert "--lr 0.0001 -> 0.001" in note and "--model" not in note and "--max-steps" not in note


def test_more_eval_prompts_than_held_out_rows_is_noted(tiny_model, tmp_path):
    lines: list[str] = []
    argv = _argv(tiny_model, tmp_path / "r", "--env", "odd_envs:TwoRowArithmetic")
    Trainer(parse_config([*argv, "--eval-prompts", "2"]), log=lines.append)
    assert not [line for line in lines if "--eval-prompts" in line]
    Trainer(parse_config([*argv, "--eval-prompts", "3"]), log=lines.append)
    [note] = [line for line in lines if "--eval-prompts" in line]
    assert "--eval-prompts 3 is more than the 2 rows" in note


def test_greedy_rollouts_train_nothing_and_say_so(tiny_model, tmp_path):
    """Temperature 0 makes a group's completions identical: advantages are exactly 0 (no NaN
    from a zero std), no row is trained, and the log says why."""
    lines: list[str] = []
    for algo in ("grpo", "gspo"):
        out = tmp_path / algo
        cfg = parse_config(_argv(tiny_model, out, "--temperature", "0", "--algo", algo,
                                 "--max-steps", "1", "--eval-every", "0",
                                 "--env", "odd_envs:LengthParity"))
        Trainer(cfg, log=lines.append).train()
        [rec] = _records(out)
        assert rec["loss"] == 0.0 and rec["rows_trained"] == 0.0 and rec["grad_norm"] == 0.0
        assert rec["mixed_groups"] == 0.0
    assert any("--temperature 0 decodes greedily" in line for line in lines)


@pytest.mark.parametrize("scale", ["group", "batch", "none"])
def test_the_trainer_keeps_none_rewards_out_of_the_group_statistics(scale):
    # Issue 31: [1, None x 6, 0] gave the real members +-1.87 (filled with the group mean);
    # they must get what [1, 0] alone gives, and the Nones advantage 0 and row mask 0.
    from types import SimpleNamespace

    from policy_opt.algorithm.advantages import group_advantages

    rewards = [1.0, *[None] * 6, 0.0, 0.5, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.5]
    episodes = [Episode([1], [2], [1], r, i // 8) for i, r in enumerate(rewards)]
    owner = SimpleNamespace(cfg=SimpleNamespace(group_size=8, env="x"),
                            loss_cfg=SimpleNamespace(adv_scale=scale))
    adv, keep = Trainer.advantages(owner, episodes)
    assert keep.tolist() == [float(r is not None) for r in rewards]
    assert torch.equal(adv[1:7], torch.zeros(6))
    if scale != "batch":  # per-group statistics: the group alone, Nones removed
        alone = group_advantages(torch.tensor([1.0, 0.0], dtype=torch.float64), 2, scale=scale)
        torch.testing.assert_close(adv[[0, 7]], alone.float())
        assert abs(adv[0].item()) < 1.0
    else:  # one std over the valid rewards of the batch
        import statistics

        std = statistics.stdev([r for r in rewards if r is not None])
        torch.testing.assert_close(adv[[0, 7]], torch.tensor([0.5, -0.5]) / (std + 1e-4))


def test_rollout_metrics_log_the_share_of_no_signal_episodes():
    from policy_opt.training.metrics import rollout_metrics

    stats = [(1.0, 3, True, False, False, None), (None, 3, False, False, False, None),
             (None, 2, False, False, False, None), (0.0, 1, False, False, False, None)]
    m = rollout_metrics(stats, group_size=2)
    assert m["no_signal"] == 2 and m["no_signal_frac"] == 0.5 and m["reward_mean"] == 0.5


@pytest.mark.parametrize(("flag", "own", "turns", "noted"), [
    (0, 10, 10, None), (0, 1, 1, None), (0, None, 1, None), (0, True, 1, None),
    (3, 10, 3, None), (1, 10, 1, "one turn of its 10"), (12, 4, 12, "above"), (1, 1, 1, None),
])
def test_the_turn_limit_is_the_envs_own_unless_the_flag_says_otherwise(flag, own, turns, noted):
    from policy_opt.training.session import resolve_max_turns

    got, note = resolve_max_turns(flag, "guess-number", own)
    assert got == turns
    assert (note is None) if noted is None else (noted in note and "--max-turns" in note)


def test_a_multi_turn_env_gets_its_own_turn_limit_by_default(tiny_model, tmp_path):
    base = [a for a in _argv(tiny_model, tmp_path / "own") if a != "arithmetic"]
    base[base.index("--env") + 1:base.index("--env") + 1] = ["guess-number"]
    trainer = Trainer(parse_config(base), log=lambda *a, **k: None)
    assert parse_config(base).max_turns == 0 and trainer.max_turns == 10
    # Dr.GRPO's constant normaliser counts every turn's budget
    assert trainer.loss_cfg.max_completion_length == 6 * 10
    logged: list[str] = []
    one = Trainer(parse_config([*base, "--max-turns", "1"]), log=logged.append)
    assert one.max_turns == 1 and any("one turn of its 10" in m for m in logged)
