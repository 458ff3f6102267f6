"""TRL ``GRPOConfig`` names in a ``--config`` YAML file, mapped to this trainer's fields.

A TRL user's YAML (``num_generations: 8``, ``epsilon: 3e-4``, ``loss_type: grpo``, ...) runs
as written: each TRL name becomes the field with the same meaning here, and a TRL name
with no equivalent is a one-line error naming it, never silently ignored. Names TRL and we
share (``temperature``, ``top_p``, ``beta``, ``max_steps``, ``seed``, ``warmup_steps``,
``weight_decay``) need no mapping. TRL settings the file leaves out keep this trainer's
values, not TRL's defaults.

How the loss names combine (TRL's meanings, ``trl.GRPOConfig``):

- ``importance_sampling_level`` picks the ratio: ``token`` -> ``--algo grpo``, ``sequence`` ->
  ``gspo``, ``sequence_token`` -> ``gspo_token`` (``loss_type`` alone also means ``token``).
- ``loss_type`` picks only the normaliser: ``grpo`` -> ``--loss-norm sequence_mean``,
  ``dr_grpo`` -> ``constant`` (max completion length), ``dapo`` -> ``token_mean`` (the
  tokens of the whole accumulated batch).
- ``scale_rewards`` picks the advantage scale: ``group``/true, ``batch``, ``none``/false.

Example:
    >>> from_trl_names({"num_generations": 4, "epsilon": 3e-4,
    ...                 "importance_sampling_level": "sequence"}, where="run.yaml")
    {'group_size': 4, 'eps_low': 0.0003, 'algo': 'gspo'}
"""

from __future__ import annotations

from typing import Any

from policy_opt.errors import ConfigError

RENAMED = {
    "num_generations": "group_size",
    "num_iterations": "mu",
    "epsilon": "eps_low",
    "epsilon_high": "eps_high",
    "max_completion_length": "max_new_tokens",
    "learning_rate": "lr",
    "per_device_train_batch_size": "micro_batch_size",
    "max_grad_norm": "grad_clip",
    "lr_scheduler_type": "lr_schedule",
    "output_dir": "out",
    "save_steps": "save_every",
    "save_total_limit": "keep_checkpoints",
    "eval_steps": "eval_every",
}
"""TRL name -> ours, same meaning and value."""

LOSS_TYPES = {"grpo": "sequence_mean", "dr_grpo": "constant", "dapo": "token_mean"}
LEVELS = {"token": "grpo", "sequence": "gspo", "sequence_token": "gspo_token"}
SCALES = {True: "group", "group": "group", "batch": "batch", False: "none", "none": "none"}

# TRL settings with no equivalent, and what to use instead.
NO_EQUIVALENT = {
    "gradient_accumulation_steps": "micro-batches are planned per step; set "
                                   "prompts_per_step and micro_batch_size",
    "steps_per_generation": "use minibatches (optimiser steps per batch of rollouts)",
    "num_train_epochs": "use max_steps or max_minutes",
    "use_vllm": "use engine: vllm (or vllm-server)",
    "bf16": "use dtype: bfloat16",
    "delta": "two-sided clipping is in policy_opt.algorithm.losses.policy_loss(delta=...) only",
    "mask_truncated_completions": "not supported by this trainer",
}


def from_trl_names(data: dict[str, Any], *, where: str) -> dict[str, Any]:
    """``data`` (a YAML mapping) with TRL names replaced by ours; ConfigError for a TRL name
    with no equivalent, an unsupported value, or a TRL name and ours both set."""
    out = {k: v for k, v in data.items() if k not in RENAMED and k not in _SPECIAL}

    def put(ours: str, value: Any, trl: str) -> None:
        if ours in out and out[ours] != value:
            raise ConfigError(f"{where}: {trl!r} (TRL's name) and {ours!r} are both set, to "
                              f"{value!r} and {out[ours]!r}; keep one")
        out[ours] = value

    for key, value in data.items():
        if key in NO_EQUIVALENT:
            raise ConfigError(f"{where}: TRL's {key!r} has no equivalent here; "
                              f"{NO_EQUIVALENT[key]}")
        if key in RENAMED:
            if key == "lr_scheduler_type" and value == "constant_with_warmup":
                value = "constant"  # ours warms up over warmup_steps whatever the schedule
            put(RENAMED[key], value, key)
    if "generation_batch_size" in data:
        size, group = data["generation_batch_size"], out.get("group_size", 8)
        if not (isinstance(size, int) and isinstance(group, int) and group > 0
                and size > 0 and size % group == 0):
            raise ConfigError(f"{where}: TRL's 'generation_batch_size' ({size!r}) must be a "
                              f"multiple of num_generations ({group!r}); it maps to "
                              "prompts_per_step = generation_batch_size / num_generations")
        put("prompts_per_step", size // group, "generation_batch_size")
    if "report_to" in data:
        value = data["report_to"]
        if isinstance(value, list):
            if len(value) > 1:
                raise ConfigError(f"{where}: report_to lists {value!r}; one reporter at a time")
            value = value[0] if value else "none"
        out["report_to"] = value
    level, loss_type = data.get("importance_sampling_level"), data.get("loss_type")
    if level is not None or loss_type is not None:
        if (level or "token") not in LEVELS:
            raise ConfigError(f"{where}: importance_sampling_level must be one of "
                              f"{', '.join(LEVELS)}; got {level!r}")
        put("algo", LEVELS[level or "token"], "importance_sampling_level")
    if loss_type is not None:
        if loss_type not in LOSS_TYPES:
            raise ConfigError(f"{where}: TRL's loss_type {loss_type!r} has no equivalent here; "
                              f"supported: {', '.join(LOSS_TYPES)}")
        put("loss_norm", LOSS_TYPES[loss_type], "loss_type")
    if "scale_rewards" in data:
        value = data["scale_rewards"]
        if isinstance(value, bool) or (isinstance(value, str) and value in SCALES):
            put("adv_scale", SCALES[value], "scale_rewards")
        else:
            raise ConfigError(f"{where}: scale_rewards must be group, batch, none, true or "
                              f"false; got {value!r}")
    return out


_SPECIAL = {"generation_batch_size", "report_to", "importance_sampling_level", "loss_type",
            "scale_rewards"}


def trl_field_names() -> set[str]:
    """Every GRPOConfig field of the installed TRL (empty without TRL): an unknown key that is
    one of them is reported as a TRL setting with no equivalent, not as a typo."""
    try:
        import dataclasses

        from trl import GRPOConfig
    except Exception:  # TRL is optional; any import failure just loses the better message
        return set()
    return {f.name for f in dataclasses.fields(GRPOConfig)}
