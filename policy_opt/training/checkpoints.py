"""Atomic checkpoints: model (safetensors) + tokenizer + config + optimiser + RNG state.

Layout under ``<out>/checkpoints/``::

    step-000010/   model.safetensors, config.json, tokenizer files, trainer_state.pt
    latest         the name of the newest complete checkpoint folder

A checkpoint is written into ``step-N.tmp`` and renamed when complete, and ``latest`` is
replaced with ``os.replace``; a crash mid-write therefore never leaves ``latest`` pointing
at a half-written folder.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from typing import Any

import torch

from policy_opt.training.signals import signal_point


def checkpoint_dir(out: str | Path) -> Path:
    return Path(out) / "checkpoints"


def save_checkpoint(out: str | Path, step: int, model: Any, tokenizer: Any,
                    trainer_state: dict[str, Any],
                    model_state: dict[str, torch.Tensor] | None = None) -> Path:
    """Write checkpoint ``step`` atomically and point ``latest`` at it; returns its folder.

    ``model_state``: a full state dict to save instead of the model's own (FSDP gathers it).
    """
    root = checkpoint_dir(out)
    root.mkdir(parents=True, exist_ok=True)
    final = root / f"step-{step:06d}"
    tmp = root / f"step-{step:06d}.tmp"
    if tmp.exists():
        shutil.rmtree(tmp)
    from policy_opt.models.loading import quiet_weight_bars

    with quiet_weight_bars():  # a bar per checkpoint would scroll the step bar away
        model.save_pretrained(tmp, safe_serialization=True, state_dict=model_state)
    signal_point("checkpoint-write")
    tokenizer.save_pretrained(tmp)
    state = dict(trainer_state)
    state["rng"] = {
        "python": random.getstate(),
        "torch": torch.get_rng_state(),
        "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None,
    }
    torch.save(state, tmp / "trainer_state.pt")
    if final.exists():
        shutil.rmtree(final)
    os.replace(tmp, final)
    pointer = root / "latest.tmp"
    pointer.write_text(final.name + "\n")
    os.replace(pointer, root / "latest")
    return final


def latest_checkpoint(out: str | Path) -> Path | None:
    """The complete checkpoint folder ``latest`` names under ``out``, or None (no pointer, or
    one that is unreadable or names no complete checkpoint)."""
    folder = _pointed(out)
    return folder if folder is not None and (folder / "trainer_state.pt").is_file() else None


def _pointed(out: str | Path) -> Path | None:
    """The folder the ``latest`` pointer names (complete or not), or None for a garbage one."""
    try:
        name = (checkpoint_dir(out) / "latest").read_text(encoding="utf-8").strip()
    except (OSError, ValueError):
        return None
    if not name or name != Path(name).name:  # a pointer names a folder beside it, nothing else
        return None
    return checkpoint_dir(out) / name


def step_folders(out: str | Path) -> list[Path]:
    """The ``step-<digits>`` folders under ``out``, oldest first (complete or not)."""
    root = checkpoint_dir(out)
    if not root.is_dir():
        return []
    return sorted((p for p in root.glob("step-*") if p.is_dir() and not p.is_symlink()
                   and p.name[5:].isdigit()), key=lambda p: int(p.name[5:]))


def resume_candidates(out: str | Path) -> list[Path]:
    """The checkpoints ``--resume`` tries, in order: the one ``latest`` names, then every
    step folder, newest first; a pointer that is garbage only drops its own entry."""
    pointed = _pointed(out)
    folders = [pointed] if pointed is not None and pointed.is_dir() else []
    return folders + [p for p in reversed(step_folders(out)) if p not in folders]


def load_trainer_state(folder: Path) -> dict[str, Any]:
    """Read trainer_state.pt and restore the global RNGs it saved.

    Memory-mapped: every rank reads the file, but under FSDP2 only rank 0 uses the
    optimiser state in it (the others receive their shards), so theirs is never paged in.
    """
    state = torch.load(folder / "trainer_state.pt", weights_only=False, mmap=True)
    rng = state.get("rng") or {}
    if rng.get("python") is not None:
        random.setstate(rng["python"])
    if rng.get("torch") is not None:
        torch.set_rng_state(rng["torch"])
    if rng.get("cuda") is not None and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(rng["cuda"])
    return state


def load_model_weights(model: Any, folder: Path) -> None:
    """Load the checkpoint's safetensors weights into an already-built model, strictly."""
    from safetensors.torch import load_file

    files = sorted(folder.glob("*.safetensors"))
    if not files:
        raise FileNotFoundError(f"no .safetensors file in checkpoint {folder}")
    state: dict[str, torch.Tensor] = {}
    for f in files:
        state.update(load_file(str(f)))
    missing, unexpected = model.load_state_dict(state, strict=False)
    # Tied embeddings are saved once; the tied copy legitimately shows up as missing.
    tied = {k for k in missing if k.endswith("lm_head.weight")}
    if set(missing) - tied or unexpected:
        raise RuntimeError(f"checkpoint {folder} does not match the model: missing "
                           f"{sorted(set(missing) - tied)[:5]}, unexpected {sorted(unexpected)[:5]}")


def full_state_dicts(model: Any, optimizer: torch.optim.Optimizer, info: Any, strategy: str
                     ) -> tuple[dict[str, torch.Tensor] | None, dict[str, Any]]:
    """(model state or None, optimiser state) as full, unsharded dicts.

    Under FSDP2 every rank must call this (it gathers shards, one parameter at a time, into
    rank 0's CPU memory; the other ranks get empty dicts and write nothing). The optimiser
    state is then keyed by parameter name, not by index as ``optimizer.state_dict()`` keys
    it; :func:`optimizer_state_for` converts either way, so a checkpoint resumes under
    either strategy. A tied parameter (the LM head sharing the embedding) is saved once, as
    ``save_pretrained`` does. Otherwise it is the optimiser's own state dict and None for
    the model (``save_pretrained`` reads the model itself).
    """
    if not (info.enabled and strategy == "fsdp"):
        return None, optimizer.state_dict()
    from torch.distributed.checkpoint.state_dict import (
        StateDictOptions,
        get_model_state_dict,
        get_optimizer_state_dict,
    )

    opts = StateDictOptions(full_state_dict=True, cpu_offload=True)
    state = get_model_state_dict(model, options=opts)
    for alias in _tied_aliases(model):
        state.pop(alias, None)
    return state, get_optimizer_state_dict(model, optimizer, options=opts)


def _tied_aliases(model: Any) -> set[str]:
    """Names under which a parameter is registered a second time (tied weights)."""
    first = {n for n, _ in model.named_parameters()}
    return {n for n, _ in model.named_parameters(remove_duplicate=False)} - first


def optimizer_state_for(model: Any, state: dict[str, Any], by_name: bool) -> dict[str, Any]:
    """``state`` (a checkpoint's optimiser state) keyed by parameter name (``by_name``, as
    FSDP2's full state dict) or by index (as ``optimizer.state_dict()``), whichever it was.

    Indices count the parameters in ``model.parameters()`` order, which is the order the
    trainer's optimiser was built with and which ``fully_shard`` keeps.
    """
    names = [n for n, _ in model.named_parameters()]
    index = {n: i for i, n in enumerate(names)}

    def convert(key: Any) -> Any:
        if by_name and isinstance(key, int):
            return names[key]
        if not by_name and isinstance(key, str):
            return index[key]
        return key

    return {
        "state": {convert(k): v for k, v in state["state"].items()},
        "param_groups": [{**g, "params": [convert(k) for k in g["params"]]}
                         for g in state["param_groups"]],
    }


def load_full_state_dicts(model: Any, optimizer: torch.optim.Optimizer, folder: Path,
                          optim_state: dict[str, Any], info: Any) -> None:
    """Load a checkpoint's full state into an FSDP2-sharded model and its optimiser.

    Every rank calls this; only rank 0 reads the weights and holds the full optimiser
    state, and FSDP2 scatters each rank its shard (``broadcast_from_rank0``), so no rank
    but the first needs memory for a full copy. The weights must match the model's
    parameters by name (tied aliases may be absent), as in :func:`load_model_weights`.
    When rank 0 cannot read them, every rank raises its error (a rank stopping alone would
    leave the others waiting in the broadcast).
    """
    from safetensors.torch import load_file
    from torch.distributed.checkpoint.state_dict import (
        StateDictOptions,
        set_model_state_dict,
        set_optimizer_state_dict,
    )

    from policy_opt.training.distributed import gather_objects

    state: dict[str, torch.Tensor] = {}
    problem = None
    if info.is_main:
        try:
            files = sorted(folder.glob("*.safetensors"))
            if not files:
                raise FileNotFoundError(f"no .safetensors file in checkpoint {folder}")
            for f in files:
                state.update(load_file(str(f)))
            expected = set(model.state_dict()) - _tied_aliases(model)
            missing, unexpected = expected - set(state), set(state) - set(model.state_dict())
            if missing or unexpected:
                raise RuntimeError(f"checkpoint {folder} does not match the model: missing "
                                   f"{sorted(missing)[:5]}, unexpected {sorted(unexpected)[:5]}")
            optim_state = optimizer_state_for(model, optim_state, by_name=True)
        except Exception as err:  # any reason rank 0 cannot go on, told to every rank
            problem = f"{type(err).__name__}: {err}"
    if not info.is_main:
        optim_state = {}
    problem = gather_objects(problem, info)[0]
    if problem is not None:
        raise RuntimeError(problem)
    opts = StateDictOptions(full_state_dict=True, broadcast_from_rank0=True, strict=False)
    set_model_state_dict(model, state, options=opts)
    set_optimizer_state_dict(model, optimizer, optim_state, options=opts)


# --------------------------------------------------------------------------- retention


def mark_best(out: str | Path, folder: Path, accuracy: float) -> None:
    """Record ``folder`` as the checkpoint with the best held-out accuracy (``best``, a JSON
    pointer replaced atomically like ``latest``)."""
    import json

    root = checkpoint_dir(out)
    pointer = root / "best.tmp"
    pointer.write_text(json.dumps({"name": folder.name, "accuracy": accuracy}) + "\n")
    os.replace(pointer, root / "best")


def best_checkpoint(out: str | Path) -> tuple[Path, float] | None:
    """(folder, held-out accuracy) of the checkpoint marked best, or None (none marked, an
    unreadable pointer, or its folder gone)."""
    import json

    pointer = checkpoint_dir(out) / "best"
    try:
        data = json.loads(pointer.read_text())
        folder = checkpoint_dir(out) / str(data["name"])
        accuracy = float(data["accuracy"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return (folder, accuracy) if (folder / "trainer_state.pt").is_file() else None


def prune_checkpoints(out: str | Path, keep: int) -> list[Path]:
    """Delete complete ``step-N`` checkpoints beyond the newest ``keep``, sparing the one
    marked best and the one ``latest`` names; ``keep`` 0 keeps all. Returns what was removed.

    Only folders named ``step-<digits>`` are considered, so nothing else under
    ``checkpoints/`` (an in-progress ``.tmp``, a user's copy) is ever deleted.
    """
    if keep <= 0:
        return []
    steps = step_folders(out)
    spared = {p.name for p in steps[-keep:]}
    best = best_checkpoint(out)
    if best is not None:
        spared.add(best[0].name)
    latest = latest_checkpoint(out)
    if latest is not None:
        spared.add(latest.name)
    removed = [p for p in steps if p.name not in spared]
    for p in removed:
        shutil.rmtree(p)
    return removed
