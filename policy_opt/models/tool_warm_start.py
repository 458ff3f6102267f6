"""The tool warm start: short supervised fine-tuning that shows a policy the tool exchange.

Real pipelines teach a model the tool's syntax by SFT before RL. This does that on
``envs.long_calculator:LongAdditionEnv`` (the sum of two 5-digit numbers, a calculator
tool), from the copy base (``policy_opt.models.copy_base``: the default architecture trained
only to copy digit strings, since the tool exchange is two copies and the default model
cannot learn them): ``rows`` demonstrations drawn from the env's *train* split, a share
``tool_share`` of them the full exchange in the env's own chat format, played through the
env itself so that the tool message is the one the env sends::

    assistant: <tool_call>{"name": "calculator", "arguments": {"expression": "71941+77468"}}</tool_call>
    tool:      149409
    assistant: #### 149409

and the rest the task's worked answer in one turn, without the tool
(``71941+77468=149409\\n#### 149409``), which a 2.4M-parameter model cannot reproduce on
numbers that long. The loss is on the assistant turns only (content and ``<|im_end|>``), the
prompt and tool messages are context. So the warm start *can* call the tool, on some of its
samples, and greedy decoding answers in its head: RL has the choice to learn.

The run is seeded and deterministic (``torch.use_deterministic_algorithms``, fixed thread
count); the result is cached in a directory named by the hash of the recipe and of the code
and base model that make it (``~/.cache/rlvr/tool-warm-start-<hash>``, or ``out``). The base
``"copy"`` is built first (and cached) when it is missing.

Example (shell)::

    python -m policy_opt.models.tool_warm_start --out runs/tool-warm-start

Example (Python):
    >>> from policy_opt.models.tool_warm_start import ToolRecipe, build
    >>> build(ToolRecipe(steps=2, rows=8))  # doctest: +SKIP
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
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from policy_opt.models.build_cache import build_once, deterministic

ENV = "envs.long_calculator:LongAdditionEnv"


@dataclass(frozen=True)
class ToolRecipe:
    """Everything that determines the tool warm start (its hash names the cache directory).

    ``base``: the model fine-tuned (``"copy"``: the copy base, ``"default"``: the default
    model, or a local path). ``rows``: demonstrations drawn from ``env``'s train split;
    ``tool_share`` of them show the tool exchange.
    """

    base: str = "copy"
    env: str = ENV
    rows: int = 2000
    tool_share: float = 0.15
    steps: int = 300
    batch_size: int = 32
    lr: float = 2e-3
    warmup_steps: int = 10
    seed: int = 0
    threads: int = 2

    def __post_init__(self) -> None:
        for name in ("rows", "steps", "batch_size", "threads"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if not 0.0 <= self.tool_share <= 1.0:
            raise ValueError(f"tool_share must be in [0, 1], got {self.tool_share!r}")
        if not (isinstance(self.lr, int | float) and math.isfinite(self.lr) and self.lr > 0):
            raise ValueError(f"lr must be a finite number > 0, got {self.lr!r}")
        if isinstance(self.warmup_steps, bool) or not isinstance(self.warmup_steps, int) or (
                self.warmup_steps < 0):
            raise ValueError(f"warmup_steps must be an int >= 0, got {self.warmup_steps!r}")


def recipe_hash(recipe: ToolRecipe) -> str:
    """A short hash of the recipe, this module, the env's module and the base model."""
    import importlib

    h = hashlib.sha256(json.dumps(asdict(recipe), sort_keys=True).encode())
    h.update(inspect.getsource(sys.modules[__name__]).encode())
    module = recipe.env.partition(":")[0]
    h.update(inspect.getsource(importlib.import_module(module)).encode())
    if recipe.base == "default":
        from policy_opt.models import warm_start

        h.update(warm_start.recipe_hash(warm_start.Recipe()).encode())
    elif recipe.base == "copy":
        from policy_opt.models import copy_base

        h.update(copy_base.recipe_hash(copy_base.CopyRecipe()).encode())
    else:
        h.update(os.path.abspath(recipe.base).encode())
    return h.hexdigest()[:12]


def cached_path(recipe: ToolRecipe) -> Path:
    from policy_opt.models.default import cache_root

    return cache_root() / f"tool-warm-start-{recipe_hash(recipe)}"


def build(recipe: ToolRecipe, out: str | os.PathLike | None = None, *,
          verbose: bool = True) -> Path:
    """The warm start's directory (``out`` or the cache), trained first unless it already
    holds this recipe's build. Written to a temporary sibling and renamed, so a crash never
    leaves half a model behind."""
    digest = recipe_hash(recipe)
    path = Path(out).expanduser() if out is not None else cached_path(recipe)
    return build_once(path, digest, "tool_warm_start.json",
                      lambda tmp: _train_and_save(recipe, tmp, verbose=verbose),
                      what="tool warm start", verbose=verbose)


def demonstrations(recipe: ToolRecipe) -> list[list[dict[str, str]]]:
    """The ``rows`` demonstration conversations (prompt included), played through the env.

    Each is checked by the env's own reward: a demonstration the env does not score as
    correct is a bug here, and raises.
    """
    import envs

    env = envs.make(recipe.env, split="train")
    which = random.Random(f"tool-warm-start:{recipe.seed}")
    out = []
    try:
        for i in range(recipe.rows):
            messages, _ = env.reset(seed=recipe.seed * 1_000_003 + i)
            messages = [dict(m) for m in messages]
            row = env.unwrapped.row
            if which.random() < recipe.tool_share:
                replies = [tool_call_text(row.info["steps"][-1].rpartition("=")[0])]
            else:
                replies = [env.unwrapped.task.reference_completion(row)]
            for k in range(3):
                messages.append({"role": "assistant", "content": replies[k]})
                observation, reward, terminated, truncated, info = env.step(replies[k])
                if terminated or truncated:
                    break
                messages.extend(dict(m) for m in observation)
                replies.append(f"#### {observation[-1]['content'].strip()}")
            if not info.get("correct"):
                raise RuntimeError(f"demonstration {i} is not scored correct: {messages}")
            out.append(messages)
    finally:
        env.close()
    return out


def tool_call_text(expression: str) -> str:
    """The assistant's calculator call, in the env's ``<tool_call>{json}</tool_call>`` form.

    Example:
        >>> tool_call_text("2+3")
        '<tool_call>{"name": "calculator", "arguments": {"expression": "2+3"}}</tool_call>'
    """
    call = {"name": "calculator", "arguments": {"expression": expression}}
    return f"<tool_call>{json.dumps(call)}</tool_call>"


def encode_conversation(tok: Any, messages: Sequence[dict]) -> tuple[list[int], list[int]]:
    """(ids, labels) of a whole conversation rendered by the chat template: labels are the
    ids on assistant turns (content and what closes the turn), ``-100`` elsewhere, so the
    model learns to write its turns and only reads the prompt and the tool messages.

    The template renders turns by appending, so each assistant turn is the difference
    between the rendering up to it (with the generation prompt) and the rendering with it.
    """
    ids: list[int] = []
    labels: list[int] = []
    done = ""
    for i, message in enumerate(messages):
        if message["role"] != "assistant":
            continue
        before = tok.apply_chat_template(list(messages[:i]), tokenize=False,
                                         add_generation_prompt=True)
        upto = tok.apply_chat_template(list(messages[: i + 1]), tokenize=False)
        if not (before.startswith(done) and upto.startswith(before)):
            raise ValueError("the chat template does not render turns by appending")
        context = tok.encode(before[len(done):], add_special_tokens=False)
        turn = tok.encode(upto[len(before):], add_special_tokens=False)
        ids += context + turn
        labels += [-100] * len(context) + turn
        done = upto
    return ids, labels


def _train_and_save(recipe: ToolRecipe, out: Path, *, verbose: bool) -> dict:
    from policy_opt.models.policy import load_policy

    log = print if verbose else (lambda *a, **k: None)
    base = recipe.base
    if base == "copy":  # built (or found) first, with its own thread count
        from policy_opt.models import copy_base

        base = str(copy_base.build(verbose=verbose))
    with deterministic(recipe.threads):
        t0 = time.perf_counter()
        model, tok = load_policy(base, verbose=verbose)
        conversations = demonstrations(recipe)
        data = [encode_conversation(tok, c) for c in conversations]
        with_tool = sum(any(m["role"] == "tool" for m in c) for c in conversations)
        log(f"[tool-warm-start] {len(data)} demonstrations, {with_tool} with the tool; "
            f"{recipe.steps} steps of {recipe.batch_size}", flush=True)
        torch.manual_seed(recipe.seed)
        losses = _train(model, data, recipe, tok.pad_token_id, log)
        model.save_pretrained(out, safe_serialization=True)
        tok.save_pretrained(out)
        return {"recipe": asdict(recipe), "demonstrations": len(data),
                "with_tool": with_tool, "final_loss": losses[-1],
                "train_seconds": round(time.perf_counter() - t0, 1)}


def _train(model: Any, data: list[tuple[list[int], list[int]]], recipe: ToolRecipe,
           pad_id: int, log: Any) -> list[float]:
    gen = torch.Generator().manual_seed(recipe.seed)
    opt = torch.optim.AdamW(model.parameters(), lr=recipe.lr, betas=(0.9, 0.95),
                            weight_decay=0.0)

    def lr_at(step: int) -> float:  # linear warm-up, cosine decay to 10%
        if step < recipe.warmup_steps:
            return (step + 1) / recipe.warmup_steps
        t = (step - recipe.warmup_steps) / max(1, recipe.steps - recipe.warmup_steps)
        return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * t))

    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_at)
    model.train()
    losses: list[float] = []
    t0 = time.perf_counter()
    for step in range(recipe.steps):
        idx = torch.randint(len(data), (recipe.batch_size,), generator=gen).tolist()
        ids, labels, mask = _collate([data[i] for i in idx], pad_id)
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        losses.append(loss.item())
        if step % 10 == 0 or step == recipe.steps - 1:
            log(f"[tool-warm-start] step {step + 1}/{recipe.steps} loss {losses[-1]:.4f} "
                f"({time.perf_counter() - t0:.0f}s)", flush=True)
    model.eval()
    return losses


def _collate(batch: Sequence[tuple[list[int], list[int]]], pad_id: int):
    """Right-padded ids, labels (-100 on context and padding) and attention mask."""
    width = max(len(ids) for ids, _ in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    labels = torch.full((len(batch), width), -100, dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    for i, (seq, lab) in enumerate(batch):
        ids[i, : len(seq)] = torch.tensor(seq)
        labels[i, : len(lab)] = torch.tensor(lab)
        mask[i, : len(seq)] = 1
    return ids, labels, mask


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m policy_opt.models.tool_warm_start``: build (or find) the warm start."""
    default = ToolRecipe()
    p = argparse.ArgumentParser(prog="python -m policy_opt.models.tool_warm_start",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=None, help="directory (default: the cache)")
    p.add_argument("--base", default=default.base)
    p.add_argument("--env", default=default.env, help="the tool env the demonstrations come from")
    p.add_argument("--rows", type=int, default=default.rows)
    p.add_argument("--tool-share", type=float, default=default.tool_share)
    p.add_argument("--steps", type=int, default=default.steps)
    p.add_argument("--batch-size", type=int, default=default.batch_size)
    p.add_argument("--lr", type=float, default=default.lr)
    p.add_argument("--seed", type=int, default=default.seed)
    p.add_argument("--threads", type=int, default=default.threads)
    args = p.parse_args(argv)
    try:
        recipe = ToolRecipe(base=args.base, env=args.env, rows=args.rows, tool_share=args.tool_share,
                            steps=args.steps, batch_size=args.batch_size, lr=args.lr,
                            seed=args.seed, threads=args.threads)
        print(build(recipe, args.out))
    except (ValueError, OSError) as err:  # a bad recipe, a missing base model, an occupied --out
        p.error(str(err))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
