"""Training-state memory of LoRA (``--lora-r``) against full fine-tuning, measured.

For each model the script builds the policy, the trainer's AdamW (over the parameters that
require gradients, as ``policy_opt.train`` does), gives every trainable parameter a gradient
and takes one optimiser step, then sums the bytes of the parameters, of the gradients and of
the optimiser state that exist. Activations are not counted (they depend on the batch, not on
LoRA). Prints each part and the ratio LoRA / full fine-tuning.

    python benchmarks/lora_memory.py                  # the default model and a 66M Llama
    python benchmarks/lora_memory.py --lora-r 16
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent


def measure(build, lora_r: int, alpha: float, target: str) -> dict[str, int]:
    from policy_opt.models.lora import add_adapters, state_bytes

    model = build()
    if lora_r:
        add_adapters(model, lora_r, alpha, target)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=1e-4)
    for p in params:
        p.grad = torch.zeros_like(p)
    optimizer.step()
    return state_bytes(model, optimizer)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--lora-r", type=int, default=8)
    p.add_argument("--lora-target", default="all-linear")
    args = p.parse_args(argv)
    if args.lora_r < 1:
        print(f"error: --lora-r must be >= 1, got {args.lora_r}", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    from transformers import LlamaConfig, LlamaForCausalLM

    from policy_opt.models import load_policy

    torch.manual_seed(0)
    mid = LlamaConfig(vocab_size=32000, hidden_size=512, num_hidden_layers=8,
                      num_attention_heads=8, num_key_value_heads=8, intermediate_size=2048,
                      tie_word_embeddings=False)
    models = {"default (2.4M)": lambda: load_policy("default", verbose=False)[0],
              "llama 66M (random)": lambda: LlamaForCausalLM(mid)}
    mib = 2**20
    print(f"LoRA r={args.lora_r}, alpha={2 * args.lora_r}, target={args.lora_target}; fp32; "
          "MiB of parameters + gradients + AdamW state")
    print(f"{'model':20s} {'setting':8s} {'params':>9s} {'grads':>9s} {'optim':>9s} "
          f"{'total':>9s}")
    for name, build in models.items():
        full = measure(build, 0, 0.0, args.lora_target)
        lora = measure(build, args.lora_r, 2.0 * args.lora_r, args.lora_target)
        for label, b in (("full", full), ("lora", lora)):
            print(f"{name:20s} {label:8s} {b['params'] / mib:9.1f} {b['grads'] / mib:9.1f} "
                  f"{b['optimizer'] / mib:9.1f} {sum(b.values()) / mib:9.1f}")
        ratio = sum(lora.values()) / sum(full.values())
        trained = (lora["grads"] + lora["optimizer"]) / (full["grads"] + full["optimizer"])
        print(f"{name:20s} ratio    lora/full total {ratio:.3f}x; gradients + optimiser "
              f"state {trained:.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
