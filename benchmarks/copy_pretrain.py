"""Can the default architecture learn to copy? Train it on copies of random digit strings.

Issue 34's blocker: tool use needs two copies (the operands into the call, the result into
the answer), and the default model, pretrained on one-digit arithmetic, never learns them in
the tool exchange (``benchmarks/tool_copy_sft.py``). This trains the same architecture
(``policy_opt.models.default.default_config``) on a copy task alone, from a fresh
initialisation or from a given model, and prints every ``--every`` steps the loss of each
copied digit as a ratio to a uniform guess (``ln 10``): the copy's first digit apart from
the rest, on 128 held-out strings. Each example is ``D x > gap D x >``: a random digit string
``x`` after an opening delimiter ``D`` drawn from ``--delims``, random filler between, and the
loss on the second ``x`` only. The saved model (``--out``) is a base for
``policy_opt.models.tool_warm_start --base``.

    python benchmarks/copy_pretrain.py --steps 800 --gap 60 --delims '<"( :=' --out runs/copy-base
    python benchmarks/copy_pretrain.py --init default --steps 500     # from the default model
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILLER = "abcdefghijklmnopqrstuvwxyz ,."


def copy_example(rng: random.Random, args: argparse.Namespace, tok) -> tuple[list[int], int]:
    """Token ids of one example and the index of the second copy's first digit."""
    digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(args.min_len, args.max_len)))
    gap = "".join(rng.choice(FILLER) for _ in range(rng.randint(0, args.gap)))
    delim = rng.choice(args.delims)
    text = f"{delim}{digits}>{gap}{delim}{digits}>"
    return tok.encode(text, add_special_tokens=False), len(text) - len(digits) - 1


def batch(rng: random.Random, n: int, args: argparse.Namespace, tok):
    """``(input_ids, labels, attention_mask)``: labels on the second copy's digits only."""
    import torch

    rows = [copy_example(rng, args, tok) for _ in range(n)]
    width = max(len(ids) for ids, _ in rows)
    ids = torch.full((n, width), tok.pad_token_id)
    labels = torch.full((n, width), -100)
    mask = torch.zeros((n, width), dtype=torch.long)
    for r, (row, start) in enumerate(rows):
        ids[r, : len(row)] = torch.tensor(row)
        mask[r, : len(row)] = 1
        labels[r, start : len(row) - 1] = torch.tensor(row[start : len(row) - 1])
    return ids, labels, mask


def copy_ratios(model, held_out) -> tuple[float, float]:
    """Mean loss / ln 10 of the copy's first digit and of its other digits."""
    import torch

    ids, labels, mask = held_out
    with torch.no_grad():
        logits = model(input_ids=ids, attention_mask=mask).logits
    first, rest = [], []
    for r in range(ids.shape[0]):
        positions = (labels[r] != -100).nonzero().flatten().tolist()
        for k, q in enumerate(positions):
            loss = torch.nn.functional.cross_entropy(logits[r, q - 1 : q], labels[r, q : q + 1]).item()
            (first if k == 0 else rest).append(loss)
    return sum(first) / len(first) / math.log(10), sum(rest) / len(rest) / math.log(10)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--init", default=None, help="start from this model (default, or a folder); fresh when absent")
    p.add_argument("--steps", type=int, default=800)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--min-len", type=int, default=4, help="shortest digit string")
    p.add_argument("--max-len", type=int, default=10, help="longest digit string")
    p.add_argument("--gap", type=int, default=60, help="most filler characters between the copies")
    p.add_argument("--delims", default='<"( :=', help="the copies' opening delimiter is drawn from these")
    p.add_argument("--every", type=int, default=100)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="save the trained model here")
    args = p.parse_args(argv)
    for name in ("steps", "batch_size", "min_len", "max_len", "every", "threads"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.min_len > args.max_len or args.gap < 0 or not args.delims:
        p.error("--min-len must not exceed --max-len, --gap must be >= 0, --delims must not be empty")
    sys.path.insert(0, str(ROOT))
    import torch
    from transformers import LlamaForCausalLM

    from policy_opt.models.default import default_config, default_tokenizer

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    tok = default_tokenizer()
    if args.init:
        from policy_opt.models.policy import load_policy

        model, _ = load_policy(args.init, verbose=False)
    else:
        model = LlamaForCausalLM(default_config())
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.0)
    rng = random.Random(args.seed)
    held_out = batch(random.Random(args.seed + 99), 128, args, tok)
    print(f"copy pretraining from {args.init or 'a fresh default-architecture model'}: {args.steps} steps of "
          f"{args.batch_size}, lr {args.lr}; copy loss per digit / ln 10 on 128 held-out strings", flush=True)
    start = time.perf_counter()
    for step in range(args.steps + 1):
        if step % args.every == 0 or step == args.steps:
            model.eval()
            first, rest = copy_ratios(model, held_out)
            model.train()
            print(f"step {step:5d}  first digit {first:.2f}  other digits {rest:.2f}  ({time.perf_counter() - start:.0f} s)",
                  flush=True)
        if step == args.steps:
            break
        ids, labels, mask = batch(rng, args.batch_size, args, tok)
        for group in opt.param_groups:
            group["lr"] = args.lr * min(1.0, (step + 1) / 50)
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    if args.out:
        model.save_pretrained(args.out)
        tok.save_pretrained(args.out)
        print(f"saved to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
