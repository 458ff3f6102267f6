"""LoRA through ``peft`` (``--lora-r``): train low-rank adapters, keep the base frozen.

``add_adapters`` injects LoRA layers into the policy in place: the model object the trainer
holds stays a plain transformers model (its forward, its signature, the engines' view of it
unchanged), whose LoRA layers compute ``W x + (alpha / r) B A x``; only ``A`` and ``B``
require gradients, so the optimiser holds state for them alone. Checkpoints hold the adapters
(``adapter_model.safetensors`` + ``adapter_config.json``, peft's format, loadable with
``PeftModel.from_pretrained``), and ``load_policy`` on such a folder loads the base and merges
them.

The in-process rollout engine runs the LoRA layers as they are (exact, nothing to sync); a
vLLM engine receives ``merged_state_dict``: the base names, each adapted weight replaced by
``W + (alpha / r) B A`` computed out of place, so the trainer's base weights never drift
through merge/unmerge rounding.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from policy_opt.errors import ConfigError

ADAPTER = "default"


def add_adapters(model: Any, r: int, alpha: float, target: str) -> Any:
    """Inject LoRA adapters into ``model`` (in place); returns the ``PeftModel`` that saves
    and loads them. ``target``: ``all-linear`` or comma-separated module names."""
    try:
        from peft import LoraConfig, get_peft_model
    except ImportError as err:
        raise ConfigError("--lora-r needs the peft package: pip install peft (or pip install "
                          "-e '.[lora]')") from err
    modules: str | list[str] = (target if target == "all-linear"
                                else [m.strip() for m in target.split(",") if m.strip()])
    config = LoraConfig(r=r, lora_alpha=alpha, target_modules=modules, lora_dropout=0.0,
                        bias="none", task_type="CAUSAL_LM")
    try:
        with warnings.catch_warnings():  # peft reads a deprecated transformers property
            warnings.simplefilter("ignore", FutureWarning)
            return get_peft_model(model, config)
    except ValueError as err:  # e.g. no module matches the target names
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise ConfigError(f"--lora-target {target!r}: {first}") from err


def lora_layers(model: Any) -> dict[str, Any]:
    """The LoRA-wrapped modules of ``model`` by name."""
    from peft.tuners.lora import LoraLayer

    return {name: m for name, m in model.named_modules()
            if isinstance(m, LoraLayer) and ADAPTER in getattr(m, "lora_A", {})}


@torch.no_grad()
def merged_state_dict(model: Any) -> dict[str, torch.Tensor]:
    """``model``'s weights under the base model's names with the adapters folded in
    (out of place): what a separate rollout engine loads."""
    layers = lora_layers(model)
    state: dict[str, torch.Tensor] = {}
    for name, t in model.state_dict().items():
        if ".lora_" in name:
            continue
        state[name.replace(".base_layer.", ".")] = t
    for name, layer in layers.items():
        base = layer.base_layer.weight
        state[f"{name}.weight"] = base + layer.get_delta_weight(ADAPTER).to(base.dtype)
    return state


class MergedView:
    """What a vLLM engine syncs from: ``state_dict()`` is ``merged_state_dict(model)``."""

    def __init__(self, model: Any):
        self.model = model

    def state_dict(self) -> dict[str, torch.Tensor]:
        return merged_state_dict(self.model)


class MergedSync:
    """A rollout engine whose ``sync_weights(model)`` sends ``MergedView(model)``; everything
    else is the engine's own."""

    def __init__(self, engine: Any):
        self.engine = engine

    def sync_weights(self, model: Any) -> None:
        self.engine.sync_weights(MergedView(model))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)


def load_adapters(peft_model: Any, folder: Path) -> None:
    """Load a checkpoint's adapter weights into ``peft_model``, strictly."""
    from peft import set_peft_model_state_dict
    from safetensors.torch import load_file

    path = folder / "adapter_model.safetensors"
    if not path.is_file():
        raise FileNotFoundError(f"no adapter_model.safetensors in checkpoint {folder} (a full "
                                "checkpoint: resume it without --lora-r)")
    result = set_peft_model_state_dict(peft_model, load_file(str(path)))
    unexpected = getattr(result, "unexpected_keys", []) or []
    missing = [k for k in getattr(result, "missing_keys", []) or [] if ".lora_" in k]
    if unexpected or missing:
        raise RuntimeError(f"checkpoint {folder} does not match the adapters: missing "
                           f"{missing[:5]}, unexpected {unexpected[:5]}")


def load_merged(folder: Path, load_base: Callable[[str], tuple[Any, Any]]) -> tuple[Any, Any]:
    """(model, tokenizer) from an adapter checkpoint: its base (``adapter_config.json``'s
    ``base_model_name_or_path``, loaded by ``load_base``) with the adapters merged in."""
    import json

    try:
        from peft import PeftModel
    except ImportError as err:
        raise OSError(f"{folder} holds LoRA adapters; loading them needs peft: pip install "
                      "peft") from err
    base_name = json.loads((folder / "adapter_config.json").read_text()).get(
        "base_model_name_or_path")
    if not base_name:
        raise OSError(f"{folder / 'adapter_config.json'} names no base model")
    model, _ = load_base(base_name)
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    with warnings.catch_warnings():  # peft reads a deprecated transformers property
        warnings.simplefilter("ignore", FutureWarning)
        merged = PeftModel.from_pretrained(model, str(folder)).merge_and_unload()
    # A plain model again, trainable like any load_policy model (peft froze the base).
    return merged.requires_grad_(True).eval(), tokenizer


def state_bytes(model: Any, optimizer: torch.optim.Optimizer) -> dict[str, int]:
    """Bytes of the parameters, of the gradients they can hold, and of the optimiser state:
    what LoRA saves."""
    params = sum(p.numel() * p.element_size() for p in model.parameters())
    grads = sum(p.numel() * p.element_size() for p in model.parameters() if p.requires_grad)
    optim = sum(t.numel() * t.element_size() for s in optimizer.state.values()
                for t in s.values() if isinstance(t, torch.Tensor))
    return {"params": params, "grads": grads, "optimizer": optim}
