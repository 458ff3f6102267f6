"""Forward + backward time of ``policy_loss`` vs TRL 1.16's ``GRPOTrainer`` loss, same tensors.

    python benchmarks/loss.py                      # N=256 rows x L=1024 tokens, fp32
    python benchmarks/loss.py --rows 64 --length 256 --dtype float64

TRL's loss code is ``GRPOTrainer._compute_loss``; it is called exactly as in
``tests/test_losses_vs_trl.py`` (a trainer made with ``object.__new__``, single-process
stand-ins, ``_get_per_token_logps_and_entropies`` patched to return our log-prob tensor), so
both sides compute the loss, its gradient and their clip/KL metrics from the same ``[N, L]``
tensors. TRL's metric bookkeeping (``.item()`` calls, list appends) is part of its loss call and
is timed with it; ours returns detached tensors and is timed converting them to floats, so
both pay for getting the numbers out. Each case alternates the two implementations and
reports the median of ``--repeats`` timings and the ratio ours / TRL measured in the same run.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time
import types

import torch
from trl.trainer.grpo_trainer import GRPOTrainer

from policy_opt.algorithm.losses import policy_loss

CASES = [  # (label, TRL loss_type, TRL level, our norm, our ratio level, beta, eps_low, eps_high)
    ("grpo token", "grpo", "token", "sequence_mean", "token", 0.0, 0.2, 0.2),
    ("grpo token +KL", "grpo", "token", "sequence_mean", "token", 0.04, 0.2, 0.2),
    ("gspo sequence", "grpo", "sequence", "sequence_mean", "sequence", 0.0, 3e-4, 4e-4),
    ("dr_grpo token", "dr_grpo", "token", "constant", "token", 0.0, 0.2, 0.2),
    ("dapo token", "dapo", "token", "token_mean", "token", 0.0, 0.2, 0.28),
    ("bnpo sequence", "bnpo", "sequence", "token_mean", "sequence", 0.0, 0.2, 0.2),
]


class _OneProcess:
    num_processes = 1
    sync_gradients = True

    def gather(self, x):
        return x

    gather_for_metrics = gather

    def reduce(self, x, reduction="sum"):
        return x


def make_trl(
    loss_type: str, level: str, beta: float, eps_low: float, eps_high: float, max_len: int
) -> GRPOTrainer:
    t = object.__new__(GRPOTrainer)
    t.loss_type, t.importance_sampling_level = loss_type, level
    t.epsilon_low, t.epsilon_high, t.beta = eps_low, eps_high, beta
    t.max_completion_length = max_len
    t.top_entropy_quantile, t.off_policy_mask_threshold = 1.0, None
    t.use_vllm, t.vllm_importance_sampling_correction = False, False
    t._entropy_bonus_enabled, t.aux_loss_enabled = False, False
    t.current_gradient_accumulation_steps = 1
    t.accelerator = _OneProcess()
    t.model = types.SimpleNamespace(training=True)
    t.args = types.SimpleNamespace(use_bias_correction_kl=False, delta=None, steps_per_generation=1)
    t._metrics = {"train": collections.defaultdict(list), "eval": collections.defaultdict(list)}
    return t


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=256, help="N = B*G completions")
    p.add_argument("--length", type=int, default=1024, help="L, padded completion length")
    p.add_argument("--dtype", default="float32", choices=("float32", "float64"))
    p.add_argument("--repeats", type=int, default=11)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    dtype = getattr(torch, args.dtype)
    n, length = args.rows, args.length

    g = torch.Generator().manual_seed(args.seed)
    base = -torch.rand(n, length, generator=g, dtype=dtype) * 3
    old = base + torch.randn(n, length, generator=g, dtype=dtype) * 0.2
    ref = base + torch.randn(n, length, generator=g, dtype=dtype) * 0.2
    adv = torch.randn(n, generator=g, dtype=dtype)
    lengths = torch.randint(1, length + 1, (n,), generator=g)
    mask = (torch.arange(length) < lengths[:, None]).long()
    inputs_base = {
        "prompt_ids": torch.zeros(n, 1, dtype=torch.long),
        "prompt_mask": torch.ones(n, 1, dtype=torch.long),
        "completion_ids": torch.zeros(n, length, dtype=torch.long),
        "completion_mask": mask,
        "advantages": adv,
        "old_per_token_logps": old,
        "ref_per_token_logps": ref,
        "num_items_in_batch": mask.sum().to(dtype),
    }

    print(
        f"policy_loss vs TRL {__import__('trl').__version__} GRPOTrainer._compute_loss, "
        f"fwd+bwd: N={n} x L={length}, {args.dtype}, {torch.get_num_threads()} threads, "
        f"median of {args.repeats}"
    )
    for label, loss_type, level, norm, ratio_level, beta, eps_low, eps_high in CASES:
        trainer = make_trl(loss_type, level, beta, eps_low, eps_high, length)

        def run_trl(trainer=trainer) -> float:
            logp = base.clone().requires_grad_()
            trainer._get_per_token_logps_and_entropies = lambda *a, _lp=logp, **k: (
                _lp,
                torch.zeros_like(_lp),
                None,
            )
            t0 = time.perf_counter()
            loss = trainer._compute_loss(None, inputs_base)
            loss.backward()
            dt = time.perf_counter() - t0
            trainer._metrics["train"].clear()
            return dt

        def run_ours(
            norm=norm, ratio_level=ratio_level, beta=beta, eps_low=eps_low, eps_high=eps_high
        ) -> float:
            logp = base.clone().requires_grad_()
            t0 = time.perf_counter()
            loss, metrics = policy_loss(
                logp,
                old,
                adv,
                mask,
                algo="grpo",
                ref_logp=ref if beta else None,
                beta=beta,
                ratio_level=ratio_level,
                norm=norm,
                eps_low=eps_low,
                eps_high=eps_high,
                max_completion_length=length,
            )
            loss.backward()
            _ = {k: float(v) for k, v in metrics.items()}
            return time.perf_counter() - t0

        run_trl(), run_ours()  # warm-up
        t_trl, t_ours = [], []
        for _ in range(args.repeats):
            t_trl.append(run_trl())
            t_ours.append(run_ours())
        mt, mo = statistics.median(t_trl), statistics.median(t_ours)
        print(
            f"  {label:16s} TRL {mt * 1e3:8.2f} ms   ours {mo * 1e3:8.2f} ms   "
            f"ratio ours/TRL {mo / mt:.2f}x"
        )


if __name__ == "__main__":
    main()
