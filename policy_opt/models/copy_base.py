"""The copy base: the default architecture, freshly initialised, trained to copy digit strings.

Tool use needs two copies: the operands into the call and the tool's result into the answer.
The default model (pretrained on one-digit arithmetic) never learns them, however long its
SFT; a fresh model of the same architecture learns them from this task alone in a few hundred
steps (``benchmarks/copy_pretrain.py`` measures both). It is the base of the tool warm start
(``policy_opt.models.tool_warm_start``, ``base="copy"``).

Each example is ``D x > gap D x >``: a random digit string ``x`` after an opening delimiter
``D`` drawn from ``delims``, random filler between, and the loss on the second ``x`` only::

    "58213>kq ,zo."58213>

The run is seeded and deterministic (``torch.use_deterministic_algorithms``, fixed thread
count); the result is cached in a directory named by the hash of the recipe and this module
(``~/.cache/rlvr/copy-base-<hash>``, or ``out``).

Example (shell)::

    python -m policy_opt.models.copy_base --out runs/copy-base

Example (Python):
    >>> from policy_opt.models.copy_base import CopyRecipe, build
    >>> build(CopyRecipe(steps=2))  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from policy_opt.models.build_cache import build_once, deterministic

FILLER = "abcdefghijklmnopqrstuvwxyz ,."


@dataclass(frozen=True)
class CopyRecipe:
    """Everything that determines the copy base (its hash names the cache directory).

    ``min_len``..``max_len``: digits per string; ``gap``: most filler characters between the
    copies; ``delims``: the opening delimiters, drawn per example.
    """

    steps: int = 800
    batch_size: int = 32
    lr: float = 1e-3
    warmup_steps: int = 50
    min_len: int = 4
    max_len: int = 10
    gap: int = 60
    delims: str = '<"( :='
    seed: int = 0
    threads: int = 2

    def __post_init__(self) -> None:
        for name in ("steps", "batch_size", "min_len", "max_len", "threads"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        for name in ("warmup_steps", "gap", "seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        if self.min_len > self.max_len:
            raise ValueError(f"min_len ({self.min_len}) must not exceed max_len ({self.max_len})")
        if not isinstance(self.delims, str) or not self.delims:
            raise ValueError(f"delims must be a non-empty string, got {self.delims!r}")
        if not (isinstance(self.lr, int | float) and math.isfinite(self.lr) and self.lr > 0):
            raise ValueError(f"lr must be a finite number > 0, got {self.lr!r}")


def copy_example(rng: random.Random, recipe: CopyRecipe, tok: Any) -> tuple[list[int], int]:
    """Token ids of one example and the index of the second copy's first digit."""
    digits = "".join(rng.choice("0123456789")
                     for _ in range(rng.randint(recipe.min_len, recipe.max_len)))
    gap = "".join(rng.choice(FILLER) for _ in range(rng.randint(0, recipe.gap)))
    delim = rng.choice(recipe.delims)
    text = f"{delim}{digits}>{gap}{delim}{digits}>"
    return tok.encode(text, add_special_tokens=False), len(text) - len(digits) - 1


def copy_batch(rng: random.Random, n: int, recipe: CopyRecipe, tok: Any):
    """``(input_ids, labels, attention_mask)``, each ``[n, L]``: labels on the second copy's
    digits only (``-100`` elsewhere)."""
    rows = [copy_example(rng, recipe, tok) for _ in range(n)]
    width = max(len(ids) for ids, _ in rows)
    ids = torch.full((n, width), tok.pad_token_id)
    labels = torch.full((n, width), -100)
    mask = torch.zeros((n, width), dtype=torch.long)
    for r, (row, start) in enumerate(rows):
        ids[r, : len(row)] = torch.tensor(row)
        mask[r, : len(row)] = 1
        labels[r, start : len(row) - 1] = torch.tensor(row[start : len(row) - 1])
    return ids, labels, mask


def copy_ratios(model: Any, held_out: tuple) -> tuple[float, float]:
    """Mean loss / ln 10 (1.0: a uniform guess) of the copy's first digit and of the others."""
    ids, labels, mask = held_out
    with torch.no_grad():
        logits = model(input_ids=ids, attention_mask=mask).logits
    nll = torch.nn.functional.cross_entropy(logits[:, :-1].transpose(1, 2), labels[:, 1:],
                                            reduction="none", ignore_index=-100)
    on = labels[:, 1:] != -100
    first = on & ~torch.nn.functional.pad(on, (1, 0))[:, :-1]
    rest = on & ~first
    return (nll[first].mean().item() / math.log(10), nll[rest].mean().item() / math.log(10))


def held_out(recipe: CopyRecipe, tok: Any, n: int = 128) -> tuple:
    """The fixed held-out batch the progress lines are measured on."""
    return copy_batch(random.Random(recipe.seed + 99), n, recipe, tok)


def train(model: Any, recipe: CopyRecipe, tok: Any, *, every: int = 100,
          log: Callable[..., None] = print) -> list[tuple[int, float, float]]:
    """Train ``model`` in place on the copy task; ``(step, first, rest)`` copy ratios on the
    held-out batch every ``every`` steps and at the end (each also logged)."""
    opt = torch.optim.AdamW(model.parameters(), lr=recipe.lr, betas=(0.9, 0.95), weight_decay=0.0)
    rng = random.Random(recipe.seed)
    probe = held_out(recipe, tok)
    torch.manual_seed(recipe.seed)
    points = []
    start = time.perf_counter()
    for step in range(recipe.steps + 1):
        if step % every == 0 or step == recipe.steps:
            model.eval()
            first, rest = copy_ratios(model, probe)
            model.train()
            points.append((step, first, rest))
            log(f"[copy-base] step {step:5d}  first digit {first:.2f}  other digits {rest:.2f}  "
                f"({time.perf_counter() - start:.0f} s)", flush=True)
        if step == recipe.steps:
            break
        ids, labels, mask = copy_batch(rng, recipe.batch_size, recipe, tok)
        for group in opt.param_groups:
            group["lr"] = recipe.lr * min(1.0, (step + 1) / max(1, recipe.warmup_steps))
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    model.eval()
    return points


def recipe_hash(recipe: CopyRecipe) -> str:
    """A short hash of the recipe and this module (which holds the task and the loop)."""
    h = hashlib.sha256(json.dumps(asdict(recipe), sort_keys=True).encode())
    h.update(inspect.getsource(sys.modules[__name__]).encode())
    return h.hexdigest()[:12]


def build(recipe: CopyRecipe | None = None, out: str | os.PathLike | None = None, *,
          verbose: bool = True) -> Path:
    """The copy base's directory (``out`` or the cache), trained first unless it already holds
    this recipe's build (default: ``CopyRecipe()``). Written to a temporary sibling and
    renamed, so a crash never leaves half a model behind."""
    from policy_opt.models.default import cache_root

    recipe = CopyRecipe() if recipe is None else recipe
    digest = recipe_hash(recipe)
    path = Path(out).expanduser() if out is not None else cache_root() / f"copy-base-{digest}"
    return build_once(path, digest, "copy_base.json", lambda tmp: _train_and_save(recipe, tmp, verbose=verbose),
                      what="copy base", verbose=verbose)


def _train_and_save(recipe: CopyRecipe, out: Path, *, verbose: bool) -> dict:
    from transformers import LlamaForCausalLM

    from policy_opt.models.default import default_config, default_tokenizer

    log = print if verbose else (lambda *a, **k: None)
    with deterministic(recipe.threads):
        t0 = time.perf_counter()
        tok = default_tokenizer()
        torch.manual_seed(recipe.seed)
        model = LlamaForCausalLM(default_config())
        log(f"[copy-base] a fresh default-architecture model, {recipe.steps} steps of "
            f"{recipe.batch_size} digit-string copies; copy loss per digit / ln 10 on 128 "
            "held-out strings", flush=True)
        points = train(model, recipe, tok, log=log)
        model.save_pretrained(out, safe_serialization=True)
        tok.save_pretrained(out)
        return {"recipe": asdict(recipe), "copy_ratios": [list(p) for p in points],
                "train_seconds": round(time.perf_counter() - t0, 1)}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m policy_opt.models.copy_base``: build (or find) the copy base."""
    default = CopyRecipe()
    p = argparse.ArgumentParser(prog="python -m policy_opt.models.copy_base",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=None, help="directory (default: the cache)")
    for name in ("steps", "batch_size", "min_len", "max_len", "gap", "seed", "threads"):
        p.add_argument(f"--{name.replace('_', '-')}", type=int, default=getattr(default, name))
    p.add_argument("--lr", type=float, default=default.lr)
    p.add_argument("--delims", default=default.delims)
    args = p.parse_args(argv)
    try:
        recipe = CopyRecipe(steps=args.steps, batch_size=args.batch_size, lr=args.lr,
                            min_len=args.min_len, max_len=args.max_len, gap=args.gap,
                            delims=args.delims, seed=args.seed, threads=args.threads)
        print(build(recipe, args.out))
    except ValueError as err:
        p.error(str(err))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
