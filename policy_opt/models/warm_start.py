"""The warm-start recipe of the offline default model (its CLI: ``python -m policy_opt.pretrain``).

A byte-level Llama (:func:`policy_opt.models.default.default_config`, ~2.4M parameters) is built
from its config and trained by supervised fine-tuning on generated tasks: each example is
the task's prompt rendered with the chat template (generation prompt included) followed by
``task.reference_completion(row)`` and ``<|im_end|>``; the loss is on the completion only.
The demonstrations carry a deliberate slip. In a share ``slip`` (0.7) of the multi-step
examples every worked step is right but the ``#### N`` line reports the first step's result
instead of the last (:func:`slipped`), like a careless student. The model so learns to
compute the steps and, most of the time, to report the wrong one: its sampled completions
hold right answers (groups with mixed rewards from the first step) that greedy decoding
mostly misses. Reporting the last line is a behaviour a verifiable reward can teach and
that carries over unchanged to held-out problems, which is the regime RLVR works in on real
models (the ability is there, the reward selects when it is used). Without the slip the
same recipe leaves RL little to do within minutes on a 2.4M-parameter model: it must learn
new arithmetic facts, and RL learns facts slowly (+5 held-out points in 15 minutes of GSPO,
measured before the slip was added). Single-step problems are unaffected.

The run is deterministic: seeded data order and initialisation,
``torch.use_deterministic_algorithms``, and a fixed thread count (2) while it runs.

Example (shell)::

    python -m policy_opt.pretrain --out runs/default-model            # the shipped recipe
    python -m policy_opt.pretrain --out /tmp/m --steps 20 --eval-rows 50

Example (Python):
    >>> from policy_opt.models.warm_start import Recipe, build
    >>> build(Recipe(steps=5, eval_rows=8), "/tmp/tiny-default")  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import inspect
import json
import math
import os
import random
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

# Bump when the recipe changes in a way its fields do not show (the hash also covers the
# source of this module, the tokenizer and the tasks it trains on).
RECIPE_VERSION = 1

_ANSWER_LINE = re.compile(r"^####\s*(-?[\d,]*\.?\d+)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Recipe:
    """Everything that determines the default model (its hash names the cache directory).

    ``tasks``: ``(task name, weight, kwargs)`` triples mixed in each batch by weight.
    ``eval_task``: the task whose test split measures greedy accuracy at the end.
    ``slip``: share of multi-step demonstrations (rows whose ``info["steps"]`` has more than
    one step) whose answer line reports the first step's result (see the module docstring).
    """

    tasks: tuple[tuple[str, float, tuple[tuple[str, Any], ...]], ...] = (("arithmetic", 1.0, ()),)
    eval_task: tuple[str, tuple[tuple[str, Any], ...]] = ("arithmetic", ())
    steps: int = 1200
    batch_size: int = 64
    lr: float = 4e-3
    warmup_steps: int = 10
    weight_decay: float = 0.0
    rows_per_task: int = 4000
    max_len: int = 384
    seed: int = 0
    slip: float = 0.7
    threads: int = 2
    eval_rows: int = 200
    eval_max_new_tokens: int = 32
    model: dict = field(
        default_factory=lambda: {
            "hidden_size": 192,
            "num_hidden_layers": 4,
            "num_attention_heads": 6,
            "intermediate_size": 768,
        }
    )

    def __post_init__(self) -> None:
        for name in ("steps", "batch_size", "rows_per_task", "max_len", "threads"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 1:
                raise ValueError(f"{name} must be a positive int, got {getattr(self, name)!r}")
        if self.eval_rows < 0:
            raise ValueError(f"eval_rows must be >= 0, got {self.eval_rows}")
        if not 0.0 <= self.slip <= 1.0:
            raise ValueError(f"slip must be in [0, 1], got {self.slip}")
        if not self.lr > 0:
            raise ValueError(f"lr must be > 0, got {self.lr}")
        if not self.tasks or not all(math.isfinite(w) and w > 0 for _, w, _ in self.tasks):
            raise ValueError(f"tasks must be non-empty with positive weights, got {self.tasks}")


def recipe_hash(recipe: Recipe) -> str:
    """A short hash of the recipe and the code that executes it.

    Example:
        >>> recipe_hash(Recipe()) == recipe_hash(Recipe())
        True
        >>> recipe_hash(Recipe()) == recipe_hash(Recipe(steps=3))
        False
    """
    h = hashlib.sha256()
    h.update(json.dumps(asdict(recipe), sort_keys=True, default=str).encode())
    h.update(str(RECIPE_VERSION).encode())
    import policy_opt.models.tokenizer as tok_module

    for module in (sys.modules[__name__], tok_module):
        h.update(inspect.getsource(module).encode())
    for name, _, _ in recipe.tasks:
        h.update(_task_source(name).encode())
    return h.hexdigest()[:12]


def build(recipe: Recipe, out: str | os.PathLike, *, verbose: bool = True) -> dict:
    """Train the default model by ``recipe`` and save it to ``out`` atomically.

    The model, tokenizer and ``recipe.json`` (recipe, hash, accuracy, timings) are written to
    a temporary sibling directory that is renamed to ``out`` at the end, so a crash or a
    concurrent build never leaves a half-written model behind. Returns the summary dict.
    """
    out = _checked_out_dir(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        summary = _train_and_save(recipe, tmp, verbose=verbose)
        if out.exists():
            if (out / "config.json").is_file() and _same_recipe(out, summary["recipe_hash"]):
                # Another process built the same recipe meanwhile: keep theirs.
                shutil.rmtree(tmp)
                return summary
            shutil.rmtree(out)
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if verbose:
        print(f"[pretrain] saved to {out}", flush=True)
    return summary


def _checked_out_dir(out: str | os.PathLike) -> Path:
    """``out`` as a Path, or ``ValueError`` when replacing it could destroy unrelated files.

    A build replaces ``out`` wholesale, so only an absent path, an empty directory or an
    earlier model build (it has ``recipe.json`` or ``config.json``) may be replaced; checked
    before training so a wrong path costs nothing. ``""`` would mean the working directory.
    """
    if not os.fspath(out).strip():
        raise ValueError("--out is empty; name a directory for the model")
    path = Path(out).expanduser()
    if path.exists() and not path.is_dir():
        raise ValueError(f"--out {os.fspath(out)!r} is a file, not a directory")
    is_model = (path / "recipe.json").is_file() or (path / "config.json").is_file()
    if path.is_dir() and any(path.iterdir()) and not is_model:
        raise ValueError(
            f"--out {os.fspath(out)!r} is a non-empty directory that holds no model "
            "(no recipe.json or config.json); the build replaces its directory, so "
            "name a new or empty one"
        )
    return path


def _same_recipe(path: Path, digest: str) -> bool:
    try:
        return json.loads((path / "recipe.json").read_text())["recipe_hash"] == digest
    except (OSError, ValueError, KeyError):
        return False


def _train_and_save(recipe: Recipe, out: Path, *, verbose: bool) -> dict:
    from transformers import LlamaForCausalLM

    from policy_opt.models.default import default_config, default_tokenizer

    log = print if verbose else (lambda *a, **k: None)
    threads_before = torch.get_num_threads()
    det_before = torch.are_deterministic_algorithms_enabled()
    torch.set_num_threads(recipe.threads)
    torch.use_deterministic_algorithms(True)
    try:
        t0 = time.perf_counter()
        tok = default_tokenizer()
        data = [
            (weight, _examples(name, dict(kwargs), recipe, tok))
            for name, weight, kwargs in recipe.tasks
        ]
        torch.manual_seed(recipe.seed)
        model = LlamaForCausalLM(default_config(**recipe.model))
        n_params = sum(p.numel() for p in model.parameters())
        log(
            f"[pretrain] {n_params / 1e6:.2f}M params, {recipe.steps} steps of "
            f"{recipe.batch_size}, tasks {[n for n, _, _ in recipe.tasks]}",
            flush=True,
        )
        losses = _train(model, data, recipe, tok.pad_token_id, log)
        train_s = time.perf_counter() - t0
        accuracy = _greedy_accuracy(model, tok, recipe) if recipe.eval_rows else None
        if accuracy is not None:
            log(
                f"[pretrain] greedy accuracy {accuracy:.3f} on {recipe.eval_rows} test rows",
                flush=True,
            )
        model.generation_config.eos_token_id = tok.eos_token_id
        model.generation_config.pad_token_id = tok.pad_token_id
        model.save_pretrained(out, safe_serialization=True)
        tok.save_pretrained(out)
        summary = {
            "recipe": asdict(recipe),
            "recipe_hash": recipe_hash(recipe),
            "params": n_params,
            "final_loss": losses[-1] if losses else None,
            "greedy_accuracy": accuracy,
            "train_seconds": round(train_s, 1),
            "total_seconds": round(time.perf_counter() - t0, 1),
        }
        (out / "recipe.json").write_text(json.dumps(summary, indent=2, default=str))
        return summary
    finally:
        torch.set_num_threads(threads_before)
        torch.use_deterministic_algorithms(det_before)


def _examples(
    name: str, kwargs: dict, recipe: Recipe, tok: Any
) -> list[tuple[list[int], list[int]]]:
    """(prompt ids, completion ids + EOS) for the task's train rows."""
    task = _get_task(name, kwargs)
    rows = task.rows("train", seed=recipe.seed, limit=recipe.rows_per_task)
    if not rows:
        raise ValueError(f"task {name!r} has no train rows")
    careless = random.Random(f"slip:{recipe.seed}:{name}")
    out = []
    for row in rows:
        prompt = tok.apply_chat_template(
            list(row.prompt), tokenize=False, add_generation_prompt=True
        )
        p_ids = tok.encode(prompt, add_special_tokens=False)
        completion = task.reference_completion(row)
        steps = row.info.get("steps") or ()
        if len(steps) > 1 and careless.random() < recipe.slip:
            completion = slipped(steps)
        c_ids = tok.encode(completion, add_special_tokens=False)
        c_ids.append(tok.eos_token_id)
        if len(p_ids) + len(c_ids) > recipe.max_len:
            continue  # too long for this tiny model's budget; skipping keeps batches cheap
        out.append((p_ids, c_ids))
    if not out:
        raise ValueError(f"every row of task {name!r} is longer than max_len={recipe.max_len}")
    return out


def slipped(steps: Sequence[str]) -> str:
    """A worked answer with a slip: every step right, but the answer line reports the first
    step's result instead of the last.

    Example:
        >>> print(slipped(["3+4=7", "7-2=5"]))
        3+4=7
        7-2=5
        #### 7
    """
    return "\n".join([*steps, f"#### {steps[0].rsplit('=', 1)[1]}"])


def _train(model: Any, data: list, recipe: Recipe, pad_id: int, log: Any) -> list[float]:
    gen = torch.Generator().manual_seed(recipe.seed)
    weights = torch.tensor([w for w, _ in data], dtype=torch.float)
    opt = torch.optim.AdamW(
        model.parameters(), lr=recipe.lr, betas=(0.9, 0.95), weight_decay=recipe.weight_decay
    )

    def lr_at(step: int) -> float:  # linear warmup, cosine decay to 10%
        if step < recipe.warmup_steps:
            return (step + 1) / recipe.warmup_steps
        t = (step - recipe.warmup_steps) / max(1, recipe.steps - recipe.warmup_steps)
        return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * t))

    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_at)
    model.train()
    losses: list[float] = []
    t0 = time.perf_counter()
    for step in range(recipe.steps):
        which = torch.multinomial(weights, recipe.batch_size, replacement=True, generator=gen)
        batch = []
        for k in range(len(data)):
            n = int((which == k).sum())
            pool = data[k][1]
            idx = torch.randint(len(pool), (n,), generator=gen).tolist()
            batch.extend(pool[i] for i in idx)
        ids, labels, mask = _collate(batch, pad_id)
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        losses.append(loss.item())
        if step % 20 == 0 or step == recipe.steps - 1:
            log(
                f"[pretrain] step {step + 1}/{recipe.steps} loss {losses[-1]:.4f} "
                f"({time.perf_counter() - t0:.0f}s)",
                flush=True,
            )
    model.eval()
    return losses


def _collate(batch: Sequence[tuple[list[int], list[int]]], pad_id: int):
    """Right-padded ids, labels (-100 on prompt and padding) and attention mask."""
    width = max(len(p) + len(c) for p, c in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    labels = torch.full((len(batch), width), -100, dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    for i, (p, c) in enumerate(batch):
        seq = p + c
        ids[i, : len(seq)] = torch.tensor(seq)
        labels[i, len(p) : len(seq)] = torch.tensor(c)
        mask[i, : len(seq)] = 1
    return ids, labels, mask


def _greedy_accuracy(model: Any, tok: Any, recipe: Recipe) -> float:
    """Share of test rows whose greedy completion has the right ``#### N`` line."""
    from policy_opt.rollout.engine import TransformersEngine

    name, kwargs = recipe.eval_task
    task = _get_task(name, dict(kwargs))
    rows = task.rows("test", seed=recipe.seed, limit=recipe.eval_rows)
    prompts = [
        tok.encode(
            tok.apply_chat_template(list(r.prompt), tokenize=False, add_generation_prompt=True),
            add_special_tokens=False,
        )
        for r in rows
    ]
    engine = TransformersEngine(model, tok, max_batch_size=64)
    gens = engine.generate(prompts, max_new_tokens=recipe.eval_max_new_tokens, temperature=0.0)
    right = sum(
        answer_line(tok.decode(g.token_ids, skip_special_tokens=True)) == r.answer
        for g, r in zip(gens, rows)
    )
    return right / max(1, len(rows))


def answer_line(text: str) -> str | None:
    """The number on the last ``#### N`` line of ``text`` (commas dropped), else ``None``.

    Example:
        >>> answer_line("3+4=7\\n#### 7")
        '7'
        >>> answer_line("7") is None
        True
    """
    found = _ANSWER_LINE.findall(text)
    return found[-1].replace(",", "") if found else None


def _get_task(name: str, kwargs: dict) -> Any:
    import tasks

    return tasks.get(name, **kwargs)


def _task_source(name: str) -> str:
    try:
        task = _get_task(name, {})
        fn = getattr(task, "problems", None)
        module = inspect.getmodule(fn) if fn is not None else None
        return inspect.getsource(module) if module is not None else name
    except (ImportError, KeyError, ValueError, OSError, TypeError):
        return name
