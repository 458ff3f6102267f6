"""One full GRPO training step, ours (``policy_opt.train.Trainer.train_step``) against TRL 1.16's
``GRPOTrainer``, measured in the same run: step time (median), where it goes, and peak RSS.

A step is rollout + reward + loss + backward + clip + AdamW, mu = 1, no KL (beta = 0), B
prompts x G completions of at most ``--max-new-tokens`` tokens, on the same model:

- the model is the default model (``--model default``: the warm-started ~2.4M-parameter
  Llama the trainer starts from, so groups have mixed rewards as in real training), or
  ``--model random`` (its shape, random weights: every reward is 0) or any saved model;
  both sides load it from the same folder;
- the prompts are the rows of the ``arithmetic`` task our trainer draws at steps 0..N (the
  script replays its seeding and checks afterwards that both trainers saw the same row ids,
  in the same order); TRL gets them as a conversational dataset with ``shuffle_dataset=False``;
- the reward is the arithmetic task's rubric: our env scores with it, TRL gets it through
  ``verifiers.adapters.to_trl``;
- sampling: the same temperature, top_p 1, no top-k. Both sides stop a row at the
  tokenizer's EOS (``<|im_end|>``) and the loss ignores what follows; TRL's ``generate`` keeps
  finished rows in the batch (padding them) while our engine drops them, which is part of
  what is compared (the mean lengths are printed to show the work is equal);
- what ours does differently, all exact (tests/test_train.py, tests/test_kv_decode.py): a
  group's prompt is prefilled once and its keys/values shared by the G rows (in sampling
  and in the training forward); decoding writes into a preallocated key/value cache; groups
  whose rewards are all equal (A = 0 on every row, so no gradient) skip the forward and
  backward; the rows that train are cut into micro-batches of similar completion length (the
  cheapest cut of length-sorted groups, ``policy_opt.training.batching.plan_micro_batches``; with
  ``--micro-batch-size`` = B*G that is at most the whole batch, the cap TRL's single batch
  has), so less padding is computed; env steps (the pure-Python rubric) run inline;
- and one that is not bit-exact: our trainer sets the CPU's flush-to-zero mode
  (``--flush-denormal``, on by default), so the near-zero probabilities of peaked softmaxes
  are computed as 0 instead of as subnormal floats, which x86 handles many times slower.
  TRL runs as its users run it, without; ``--trl-flush-denormal true`` gives it the same mode,
  ``--ours-flush-denormal false`` takes it from ours;
- the loss is DeepSeekMath GRPO on both sides (ours ``--algo grpo``, TRL ``loss_type="grpo"``,
  eps 0.2, group-scaled advantages), lr 3e-4, constant schedule, grad-norm clip 1.0;
- ``torch.set_num_threads(--threads)`` on both sides, float32, CPU;
- TRL keeps its default ``gradient_checkpointing=True`` (less activation memory, one more
  forward inside backward); ``--trl-gradient-checkpointing false`` compares equal compute.

Each side runs in its own subprocess (so the peak-RSS high-water marks are separate): one
warm-up step (discarded), then ``--steps`` timed steps. Peak RSS is ``ru_maxrss`` at the end
(it includes importing torch/transformers, and for TRL, trl/datasets/accelerate); the RSS
before the first step is printed too so the training part can be read off.

On a shared machine the seconds swing with other processes' load (printed before and
after); with as many threads as cores every parallel op also waits for a descheduled
thread. Read the ratio, the fastest-step ratio and the CPU-time ratio together, and prefer
``--threads 1`` when the machine is busy.

    python benchmarks/train_step.py                          # 4 timed steps, B=16, G=8, 32 tokens
    python benchmarks/train_step.py --steps 6 --prompts 16 --group-size 8 --max-new-tokens 64
    python benchmarks/train_step.py --threads 1 --trl-gradient-checkpointing false
    python benchmarks/train_step.py --model random                  # random weights: no signal
    python benchmarks/train_step.py --threads 1 --trl-flush-denormal true   # both flush to 0
    python benchmarks/train_step.py --threads 1 --ours-flush-denormal false # neither does

Target (issue "Proof that it learns, and fast"): ours <= 0.2x TRL's median step time on CPU.

On a GPU (``--device cuda``; issue "The GPU path"), the race is run on a random-weight Llama
with a Qwen2.5 body and the project tokenizer (``--model-shape qwen2.5-0.5b``: 24 x 896, 14
heads, 2 KV heads, 4864 FFN; ``qwen2.5-1.5b``: 28 x 1536, 12 heads, 2 KV heads, 8960 FFN),
whose arithmetic reward is always 0, so the reward is the parity of the completion's length
(``--reward parity``, ``benchmarks/_parity_env.py``: nearly every group mixed, both sides do
the whole step). Precision (``--dtype``): ours ``bfloat16`` (bf16 parameters and AdamW
state), ``bf16-mixed`` (fp32 parameters, bf16 autocast) or ``float32``; TRL always holds
fp32 parameters, with ``bf16=True`` (autocast) unless ``--dtype float32``. Each side's GPU
peak (``torch.cuda.max_memory_allocated`` from after loading to the end) is printed, and
ours' decode rate against the bandwidth ceiling (``--gpu-bandwidth-tbs``).

    python benchmarks/train_step.py --device cuda --model-shape qwen2.5-0.5b --dtype bfloat16 \
        --max-new-tokens 128 --steps 3 --threads 8
    python benchmarks/train_step.py --device cpu --model-shape tiny --dtype bf16-mixed --steps 1

Target (issue "The GPU path"): ours <= 0.25x TRL's step on the 0.5B shape in bf16, with less
GPU memory.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.2
GPU_TARGET = 0.25
# Body dimensions of the Qwen2.5 models (their config.json), on a Llama with the project's
# tokenizer; "tiny" is for checking the script on a CPU.
SHAPES = {
    "tiny": dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                 num_key_value_heads=2, intermediate_size=128),
    "qwen2.5-0.5b": dict(hidden_size=896, num_hidden_layers=24, num_attention_heads=14,
                         num_key_value_heads=2, intermediate_size=4864),
    "qwen2.5-1.5b": dict(hidden_size=1536, num_hidden_layers=28, num_attention_heads=12,
                         num_key_value_heads=2, intermediate_size=8960),
}


# --------------------------------------------------------------------------- shared


def build_model(out: Path, seed: int, shape: str = "default") -> int:
    """Save a random-weight Llama (default shape, or one of ``SHAPES``) and the project
    tokenizer to ``out``; return its parameter count."""
    import torch
    from transformers import AutoTokenizer, LlamaForCausalLM

    from policy_opt.models import default_config, default_tokenizer

    torch.manual_seed(seed)
    cfg = default_config()
    for key, value in SHAPES.get(shape, {}).items():
        setattr(cfg, key, value)
    if shape != "default":
        cfg.head_dim = cfg.hidden_size // cfg.num_attention_heads
        cfg.rope_theta = 1_000_000.0  # Qwen2.5's
    model = LlamaForCausalLM(cfg)
    model.save_pretrained(out)
    tok = default_tokenizer()
    tok.save_pretrained(out)
    # The round trip must give the same tokenizer back (see offline-model-notes.md).
    back = AutoTokenizer.from_pretrained(out)
    probe = [{"role": "user", "content": "What is 2+3?"}]
    if back.apply_chat_template(probe, add_generation_prompt=True, tokenize=False) != \
            tok.apply_chat_template(probe, add_generation_prompt=True, tokenize=False):
        raise RuntimeError(f"the tokenizer saved to {out} does not load back identically")
    return sum(p.numel() for p in model.parameters())


def _count_params(model_dir: str) -> int:
    from transformers import AutoModelForCausalLM

    return sum(p.numel() for p in AutoModelForCausalLM.from_pretrained(model_dir).parameters())


def prompt_rows(seed: int, steps: int, prompts: int) -> list[Any]:
    """The ``arithmetic`` rows ``Trainer.rollout`` draws at steps ``0..steps-1`` (B each)."""
    import envs
    from policy_opt.training.schedule import step_seed

    env = envs.make("arithmetic", split="train")
    rows = []
    for step in range(steps):
        rng = random.Random(step_seed(seed, step, "prompts"))
        for env_seed in [rng.randrange(2**31) for _ in range(prompts)]:
            env.reset(seed=env_seed)
            rows.append(env.unwrapped.row)
    env.close()
    return rows


def rss_now_mib() -> float:
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


class Timers:
    """Accumulates seconds per label for the current step."""

    def __init__(self) -> None:
        self.current: dict[str, float] = defaultdict(float)

    def wrap(self, label: str, fn: Any) -> Any:
        @functools.wraps(fn)
        def timed(*a: Any, **kw: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self.current[label] += time.perf_counter() - t0

        return timed

    def take(self) -> dict[str, float]:
        out, self.current = dict(self.current), defaultdict(float)
        return out


# --------------------------------------------------------------------------- the two sides


def run_ours(args: argparse.Namespace) -> dict[str, Any]:
    import torch

    torch.set_num_threads(args.threads)
    import policy_opt.train as train_mod
    from envs.single_turn import SingleTurnEnv
    from policy_opt.config import parse_config

    out = str(Path(args.result).parent / "ours-out")  # inside the parent's temporary folder
    env = "_parity_env:ArithmeticParity" if args.reward == "parity" else "arithmetic"
    cfg = parse_config([
        "--model", args.model_dir, "--env", env, "--algo", "grpo",
        "--mu", "1", "--beta", "0", "--minibatches", "1",
        "--prompts-per-step", str(args.prompts), "--group-size", str(args.group_size),
        "--max-new-tokens", str(args.max_new_tokens), "--temperature", str(args.temperature),
        "--top-p", "1.0", "--lr", "3e-4",
        # Micro-batches of at most the whole batch, as TRL's single batch of B*G rows.
        "--micro-batch-size", str(args.prompts * args.group_size),
        "--grad-clip", "1.0", "--threads", str(args.threads),
        "--device", args.device, "--dtype", args.dtype, "--seed", str(args.seed), "--out", out,
        "--flush-denormal", args.ours_flush_denormal,
    ])
    trainer = train_mod.Trainer(cfg, log=lambda *a, **k: None)
    cuda = args.device == "cuda"
    timers = Timers()
    # Instrumentation only: wrap the pieces train_step calls, on this process's objects.
    trainer.engine.generate = timers.wrap("generate", trainer.engine.generate)
    trainer.optimizer.step = timers.wrap("adamw", trainer.optimizer.step)
    train_mod.completion_logprobs = timers.wrap("forward", train_mod.completion_logprobs)
    SingleTurnEnv._respond = timers.wrap("score", SingleTurnEnv._respond)
    if args.reward == "parity":
        import _parity_env

        _parity_env.ArithmeticParity._respond = timers.wrap(
            "score", _parity_env.ArithmeticParity._respond)
    seen: list[list[str]] = []
    rollout = trainer.rollout

    def recorded_rollout(step: int) -> Any:
        episodes = rollout(step)
        seen.append([e.info.get("row_id") for e in episodes[:: args.group_size]])
        return episodes

    trainer.rollout = recorded_rollout
    rss_before = rss_now_mib()
    peak_before = peak_rss_mib()
    if cuda:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    steps = []
    for step in range(args.steps + 1):
        timers.take()
        cpu = time.process_time()
        wall = time.perf_counter()
        rec = trainer.train_step(step)
        if cuda:
            torch.cuda.synchronize()  # the step's queued kernels count in its time
        wall = time.perf_counter() - wall
        cpu = time.process_time() - cpu
        parts = timers.take()
        steps.append({
            "step": wall, "cpu": cpu, "rollout": rec["time_rollout"],
            "optimise": rec["time_optimise"], **parts,
            "len_mean": rec["len_mean"], "reward_mean": rec["reward_mean"],
            "rows_trained": rec["rows_trained"],
        })
    n_params = sum(p.numel() for p in trainer.model.parameters())
    return {"side": "ours", "threads": torch.get_num_threads(), "steps": steps,
            "gpu_peak_mib": torch.cuda.max_memory_allocated() / 2**20 if cuda else None,
            "param_bytes": sum(p.numel() * p.element_size() for p in trainer.model.parameters()),
            "n_params": n_params,
            "denormals_flushed": trainer.denormals_flushed,
            "micro_batch_size": cfg.micro_batch_size,
            "row_ids": seen, "rss_before_mib": rss_before, "peak_before_mib": peak_before,
            "peak_rss_mib": peak_rss_mib()}


def run_trl(args: argparse.Namespace) -> dict[str, Any]:
    import torch

    torch.set_num_threads(args.threads)
    flushed = False
    if args.trl_flush_denormal == "true":
        from policy_opt.training.precision import flush_denormals

        flushed = flush_denormals()  # before any parallel op, as our trainer does
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _trl_setup import build_trl_trainer

    rows = prompt_rows(args.seed, args.steps + 1, args.prompts)
    cuda = args.device == "cuda"
    trainer, timers = build_trl_trainer(
        args.model_dir, rows, prompts_per_step=args.prompts, group_size=args.group_size,
        max_new_tokens=args.max_new_tokens, temperature=args.temperature, seed=args.seed,
        out_dir=str(Path(args.result).parent / "trl-out"),
        gradient_checkpointing=args.trl_gradient_checkpointing == "true",
        device=args.device, bf16=args.dtype != "float32", reward=args.reward)
    torch.set_num_threads(args.threads)  # in case accelerate changed it
    rss_before = rss_now_mib()
    peak_before = peak_rss_mib()
    if cuda:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    trainer.train()
    return {"side": "trl", "threads": torch.get_num_threads(), "steps": timers.steps,
            "gpu_peak_mib": torch.cuda.max_memory_allocated() / 2**20 if cuda else None,
            "denormals_flushed": flushed,
            "row_ids": timers.prompt_ids, "rss_before_mib": rss_before,
            "peak_before_mib": peak_before, "peak_rss_mib": peak_rss_mib()}


# --------------------------------------------------------------------------- report


def _median(steps: list[dict], key: str) -> float | None:
    values = [s[key] for s in steps if s.get(key) is not None]
    return statistics.median(values) if values else None


def _fmt(x: float | None, unit: str = "s") -> str:
    return "-" if x is None else f"{x:7.3f} {unit}"


def report(ours: dict, trl: dict, args: argparse.Namespace) -> float:
    o, t = ours["steps"][1:], trl["steps"][1:]  # drop the warm-up step
    o_step, t_step = _median(o, "step"), _median(t, "step")
    t_interval = _median(t, "interval")
    ratio = o_step / t_step
    target = GPU_TARGET if args.device == "cuda" else TARGET
    print(f"\nmedian of {len(o)} timed steps (warm-up step discarded), threads ours "
          f"{ours['threads']} / TRL {trl['threads']}; ours --micro-batch-size "
          f"{ours.get('micro_batch_size')} (= B*G), TRL one batch of B*G")
    print(f"  {'':34s} {'ours':>11s} {'TRL':>11s}")
    print(f"  {'full step':34s} {_fmt(o_step)} {_fmt(t_step)}   ratio ours/TRL {ratio:.3f}x "
          f"(target <= {target}x: {'met' if ratio <= target else 'NOT met'})")
    o_min, t_min = min(s["step"] for s in o), min(s["step"] for s in t)
    if ours.get("gpu_peak_mib") is not None:
        print(f"  {'GPU peak allocated (after loading)':34s} "
              f"{_fmt(ours['gpu_peak_mib'], 'MiB')} {_fmt(trl['gpu_peak_mib'], 'MiB')}   ratio "
              f"ours/TRL {ours['gpu_peak_mib'] / trl['gpu_peak_mib']:.3f}x (target on the GPU: "
              f"<= {GPU_TARGET}x step time, < 1x memory)")
    print(f"  {'  fastest step (least disturbed)':34s} {_fmt(o_min)} {_fmt(t_min)}   ratio "
          f"{o_min / t_min:.3f}x")
    o_cpu, t_cpu = _median(o, "cpu"), _median(t, "cpu")
    print(f"  {'  CPU time of the step (all threads)':34s} {_fmt(o_cpu)} {_fmt(t_cpu)}   ratio "
          f"{o_cpu / t_cpu:.3f}x")
    print(f"  {'  TRL step incl. dataloader + hooks':34s} {'':>11s} {_fmt(t_interval)}")
    # Rollout = everything before the loss: generation + env/scoring + tokenise/pack.
    o_gen, t_gen = _median(o, "generate"), _median(t, "generate")
    o_score, t_score = _median(o, "score"), _median(t, "score")
    o_roll, t_prep = _median(o, "rollout"), _median(t, "prepare")
    print(f"  {'rollout phase (gen + score + pack)':34s} {_fmt(o_roll)} {_fmt(t_prep)}")
    print(f"  {'  generate':34s} {_fmt(o_gen)} {_fmt(t_gen)}"
          + (f"   ratio TRL/ours {t_gen / o_gen:.2f}x" if o_gen and t_gen else ""))
    if args.device == "cuda" and o_gen:
        # Each decode step reads every parameter once: B*G tokens per param_bytes / bandwidth.
        tokens = _median(o, "len_mean") * args.prompts * args.group_size
        ceiling = args.prompts * args.group_size / (
            ours["param_bytes"] / (args.gpu_bandwidth_tbs * 1e12))
        print(f"  {'  our decode vs bandwidth ceiling':34s} {tokens / o_gen:9.0f} tok/s of "
              f"{ceiling:.0f} ({100 * tokens / o_gen / ceiling:.2f} %; the ceiling reads the "
              f"{ours['param_bytes'] / 2**20:.0f} MiB of parameters once per token step at "
              f"{args.gpu_bandwidth_tbs} TB/s; prefill and sampling are not in it)")
    print(f"  {'  scoring (rubric)':34s} {_fmt(o_score)} {_fmt(t_score)}")
    o_other = [s["rollout"] - s.get("generate", 0) - s.get("score", 0) for s in o]
    t_other = [s["prepare"] - s.get("generate", 0) - s.get("score", 0) for s in t]
    print(f"  {'  the rest (envs/tokenise/decode)':34s} {_fmt(statistics.median(o_other))} "
          f"{_fmt(statistics.median(t_other))}")
    o_fwd, t_fwd = _median(o, "forward"), _median(t, "forward")
    o_bwd = [s["optimise"] - s.get("forward", 0) - s.get("adamw", 0) for s in o]
    t_bwd = [s["train_step"] - s["prepare"] - s.get("forward", 0) for s in t]
    t_opt = [s["step"] - s["train_step"] for s in t]
    print(f"  {'optimise phase':34s} {_fmt(_median(o, 'optimise'))} "
          f"{_fmt(statistics.median([s['step'] - s['prepare'] for s in t]))}")
    print(f"  {'  forward (log-probs)':34s} {_fmt(o_fwd)} {_fmt(t_fwd)}")
    print(f"  {'  loss + backward':34s} {_fmt(statistics.median(o_bwd))} "
          f"{_fmt(statistics.median(t_bwd))}")
    print(f"  {'  clip + AdamW (+ TRL bookkeeping)':34s} {_fmt(_median(o, 'adamw'))} "
          f"{_fmt(statistics.median(t_opt))}")
    trained = statistics.mean(x["rows_trained"] for x in o)
    print(f"  {'  rows trained (groups with signal)':34s} {100 * trained:9.0f} %  "
          f"{100:9.0f} %   (a group of equal rewards has A = 0: no gradient, skipped)")
    print(f"  {'completion tokens / row (mean)':34s} {_fmt(_median(o, 'len_mean'), 'tok')} "
          f"{_fmt(_median(t, 'len_mean'), 'tok')}")
    print(f"  {'RSS before the first step':34s} {_fmt(ours['rss_before_mib'], 'MiB')} "
          f"{_fmt(trl['rss_before_mib'], 'MiB')}")
    print(f"  {'peak RSS (ru_maxrss, whole process)':34s} {_fmt(ours['peak_rss_mib'], 'MiB')} "
          f"{_fmt(trl['peak_rss_mib'], 'MiB')}   ratio ours/TRL "
          f"{ours['peak_rss_mib'] / trl['peak_rss_mib']:.3f}x")
    print(f"  {'peak RSS growth during training':34s} "
          f"{_fmt(ours['peak_rss_mib'] - ours['peak_before_mib'], 'MiB')} "
          f"{_fmt(trl['peak_rss_mib'] - trl['peak_before_mib'], 'MiB')}")
    yes_no = {True: "yes", False: "no"}
    print(f"  {'subnormal floats flushed to 0':34s} {yes_no[ours['denormals_flushed']]:>11s} "
          f"{yes_no[trl['denormals_flushed']]:>11s}   (--ours-flush-denormal, "
          f"--trl-flush-denormal)")
    same = ours["row_ids"] == trl["row_ids"]
    print(f"  same prompts, same order on both sides: {'yes' if same else 'NO'}")
    print("  per-step times ours: " + ", ".join(f"{s['step']:.2f}" for s in ours["steps"])
          + "   TRL: " + ", ".join(f"{s['step']:.2f}" for s in trl["steps"])
          + "   (first = warm-up)")
    if not same:
        print(f"    ours {ours['row_ids']}\n    TRL  {trl['row_ids']}")
    return ratio


# --------------------------------------------------------------------------- CLI


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=4, help="timed steps per side (after 1 warm-up)")
    # The trainer's defaults (--prompts-per-step 16, --group-size 8, --max-new-tokens 32): the
    # step a default run takes.
    p.add_argument("--prompts", type=int, default=16, help="prompts per step, B")
    p.add_argument("--group-size", type=int, default=8, help="completions per prompt, G")
    p.add_argument("--max-new-tokens", type=int, default=32)
    p.add_argument("--temperature", type=float, default=1.0)
    p.add_argument("--threads", type=int, default=2, help="torch threads on both sides")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="where both sides train (cuda: one GPU)")
    p.add_argument("--model-shape", choices=("default", *SHAPES), default=None,
                   help="race on a random-weight Llama of this shape with the project "
                        "tokenizer (instead of --model)")
    p.add_argument("--dtype", choices=("float32", "bfloat16", "bf16-mixed"), default=None,
                   help="our --dtype (default: float32 on the CPU, bfloat16 on cuda); TRL has "
                        "fp32 parameters and bf16 autocast unless float32")
    p.add_argument("--reward", choices=("auto", "arithmetic", "parity"), default="auto",
                   help="the arithmetic rubric, or the parity of the completion's length "
                        "(auto: parity with --model-shape, whose random weights never answer "
                        "right)")
    p.add_argument("--gpu-bandwidth-tbs", type=float, default=4.8,
                   help="the GPU's memory bandwidth in TB/s, for the decode ceiling (H200: "
                        "4.8)")
    p.add_argument("--model", default="default",
                   help="'default' (the warm-started default model: mixed rewards, as in "
                        "training), 'random' (a random-init default-shape Llama: reward 0 "
                        "everywhere, so ours trains no row) or a saved causal LM + tokenizer")
    p.add_argument("--trl-gradient-checkpointing", choices=("true", "false"), default="true",
                   help="TRL's GRPOConfig.gradient_checkpointing (TRL's default: true; ours "
                        "has none, so 'false' compares equal compute)")
    p.add_argument("--ours-flush-denormal", choices=("true", "false"), default="true",
                   help="our trainer's --flush-denormal (its default: true)")
    p.add_argument("--trl-flush-denormal", choices=("true", "false"), default="false",
                   help="give TRL's process the flush-to-zero mode our trainer sets "
                        "(--flush-denormal); TRL itself does not set it")
    p.add_argument("--only", choices=("ours", "trl"), default=None,
                   help="time one side only (prints its raw JSON)")
    # internal: one side in a child process
    p.add_argument("--side", choices=("ours", "trl"), help=argparse.SUPPRESS)
    p.add_argument("--model-dir", help=argparse.SUPPRESS)
    p.add_argument("--result", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    for name in ("steps", "prompts", "group_size", "max_new_tokens", "threads"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1")
    if args.group_size < 2:
        p.error("--group-size must be >= 2 (a group of one has no relative advantage)")
    if not args.temperature > 0:
        p.error("--temperature must be > 0 (TRL samples; greedy is not a training rollout)")
    if args.dtype is None:
        args.dtype = "bfloat16" if args.device == "cuda" else "float32"
    if args.model_shape is not None:
        args.model = "random"
    if args.reward == "auto":
        args.reward = "parity" if args.model_shape else "arithmetic"
    if args.device == "cuda" and not args.side:
        import torch

        if not torch.cuda.is_available():
            p.error("--device cuda: CUDA is not available on this machine")
    return args


def _child(side: str, args: argparse.Namespace, model_dir: str, result: Path) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--side", side,
           "--model-dir", model_dir, "--result", str(result),
           "--steps", str(args.steps), "--prompts", str(args.prompts),
           "--group-size", str(args.group_size), "--max-new-tokens", str(args.max_new_tokens),
           "--temperature", str(args.temperature), "--threads", str(args.threads),
           "--seed", str(args.seed), "--device", args.device, "--dtype", args.dtype,
           "--reward", args.reward, "--gpu-bandwidth-tbs", str(args.gpu_bandwidth_tbs),
           "--trl-gradient-checkpointing", args.trl_gradient_checkpointing,
           "--trl-flush-denormal", args.trl_flush_denormal,
           "--ours-flush-denormal", args.ours_flush_denormal]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
        TOKENIZERS_PARALLELISM="false", OMP_NUM_THREADS=str(args.threads))
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-8000:])
        raise SystemExit(f"the {side} side failed (exit {proc.returncode})")
    print(f"{side:4s}: done in {time.perf_counter() - t0:.0f} s (process, incl. imports)",
          flush=True)
    return json.loads(result.read_text())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.side:
        data = run_ours(args) if args.side == "ours" else run_trl(args)
        Path(args.result).write_text(json.dumps(data))
        return 0
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory(prefix="bench-train-step-") as tmp:
        if args.model == "random":
            model_dir = str(Path(tmp) / "model")
            shape = args.model_shape or "default"
            n_params = build_model(Path(model_dir), args.seed, shape)
            what = (f"random-init Llama, {shape} shape ({SHAPES.get(shape, 'default_config()')})"
                    " + the project tokenizer")
        else:
            if args.model == "default":
                from policy_opt.models import default_model_path

                args.model = str(default_model_path())
            model_dir = str(Path(args.model).expanduser().resolve())
            if not (Path(model_dir) / "config.json").is_file():
                raise SystemExit(f"--model {args.model!r}: no config.json there")
            what = model_dir
            n_params = _count_params(model_dir)
        print(f"model: {what} ({n_params / 1e6:.2f}M params), "
              f"B={args.prompts} prompts x G={args.group_size}, "
              f"max {args.max_new_tokens} new tokens, T={args.temperature}, mu=1, beta=0, "
              f"{args.threads} threads, {args.device}, ours {args.dtype} / TRL "
              f"{'fp32' if args.dtype == 'float32' else 'fp32 + bf16 autocast'}, reward "
              f"{args.reward}; {args.steps} timed steps + 1 warm-up each", flush=True)
        print(f"TRL gradient checkpointing: {args.trl_gradient_checkpointing}, flush-to-zero: "
              f"{args.trl_flush_denormal}", flush=True)
        load = os.getloadavg()[0]
        print(f"load average before: {load:.1f} on {os.cpu_count()} CPUs (other processes slow "
              "both sides; compare the ratio, not the seconds)", flush=True)
        if load > 0.5 and args.threads >= (os.cpu_count() or 1):
            print(f"warning: {args.threads} threads on {os.cpu_count()} busy CPUs: every parallel "
                  "op waits for a descheduled thread, so step times swing widely; --threads 1 "
                  "gives steadier figures on a shared machine", flush=True)
        sides = [args.only] if args.only else ["ours", "trl"]
        results = {s: _child(s, args, model_dir, Path(tmp) / f"{s}.json") for s in sides}
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    if args.only:
        print(json.dumps(results[args.only], indent=1))
        return 0
    report(results["ours"], results["trl"], args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
