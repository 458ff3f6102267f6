"""Training configuration: one dataclass, a CLI generated from it, YAML files, validation.

Every field is a command-line flag (``max_steps`` -> ``--max-steps``) whose help text is the
field's ``help`` metadata. Precedence: built-in default < ``--config FILE.yaml`` < flags;
with ``--resume``, the run's own settings (``<out>/config.json``) come between the defaults and
the file, so ``--out DIR --resume`` continues the run in ``DIR`` with the settings it had.
A bad value raises ``ConfigError`` naming the flag, never a traceback from deep in the loop.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from policy_opt.errors import ConfigError  # noqa: F401  (importable from here, as before)
from tasks.mixture import parse_mixture

ALGOS = ("grpo", "dr_grpo", "gspo", "gspo_token")




def _f(default: Any, help: str, **kw: Any) -> Any:
    return field(default=default, metadata={"help": help, **kw})


@dataclass
class TrainConfig:
    # what to train
    env: str = _f("arithmetic", "environment: a short alias (gsm8k, arithmetic, ...), a gymnasium id "
                  "(rlvr/gsm8k-v0), module:EnvClass, or module:task for a task registered in "
                  "your own module (my_tasks:double)")
    module: str = _f("", "modules to import before making --env, comma-separated: the file "
                     "that registers your task (--module my_tasks --env double)")
    path: str = _f("", "data for --env's task: a file, a folder of split files, or a "
                   "save_to_disk folder (default: $RLVR_DATA_DIR, then the hub)")
    algo: str = _f("gspo", "algorithm preset: " + ", ".join(ALGOS), choices=ALGOS)
    model: str = _f("default", "hub id or local path of a transformers causal LM; 'default' is the "
                    "project's own small model, built and cached on first use")
    # batch shape
    max_steps: int = _f(20, "number of training steps (one batch of rollouts each)")
    max_minutes: float = _f(0.0, "wall-clock budget for the training steps; 0 = no limit "
                            "(the run stops early, then evaluates and checkpoints)")
    prompts_per_step: int = _f(16, "prompts (groups) per step, B")
    group_size: int = _f(8, "completions per prompt, G")
    max_new_tokens: int = _f(32, "generation budget per turn; also Dr.GRPO's constant normaliser")
    max_turns: int = _f(0, "model turns per episode; 0 = the env's own limit (1 for a "
                        "single-turn task, 10 guess-number, 4 calculator, 3 code-feedback); "
                        "a limit above the env's own does not lengthen its episodes")
    temperature: float = _f(1.0, "sampling temperature for rollouts")
    top_p: float = _f(1.0, "nucleus sampling threshold for rollouts")
    # optimisation
    lr: float = _f(1e-4, "AdamW learning rate (1e-4 suits the 2.4M default model; 3e-4 made its "
                   "held-out accuracy collapse; real 0.5-7B models want ~1e-6)")
    weight_decay: float = _f(0.0, "AdamW weight decay")
    lr_schedule: str = _f("constant", "learning-rate schedule; linear and cosine decay to 0 over "
                          "--max-steps or --max-minutes, whichever ends first",
                          choices=("constant", "linear", "cosine"))
    warmup_steps: int = _f(0, "linear warm-up steps of the schedule")
    mu: int = _f(2, "optimisation passes over each batch of rollouts; with 1 pass and 1 minibatch "
                 "every ratio is 1, so GSPO and GRPO make the same update")
    minibatches: int = _f(1, "optimiser steps per pass: the batch is split into this many minibatches")
    micro_batch_size: int = _f(16, "rows per forward/backward (gradient accumulation), rounded "
                               "down to whole groups; 0 = whole minibatch")
    grad_clip: float = _f(1.0, "max global gradient norm; 0 disables clipping")
    beta: float | None = _f(None, "k3 KL coefficient to the reference model (loaded only when > 0); "
                            "default: the algo preset's")
    eps_low: float | None = _f(None, "lower clip range; default: the algo preset's")
    eps_high: float | None = _f(None, "upper clip range; default: the algo preset's")
    loss_norm: str = _f("preset", "how token losses are averaged: sequence_mean (each sequence's "
                        "mean, then over sequences: GRPO, GSPO), token_mean (over every token of "
                        "the minibatch: TRL's dapo), constant (token sum / max completion "
                        "length: Dr.GRPO); preset = the algo's",
                        choices=("preset", "sequence_mean", "token_mean", "constant"))
    adv_scale: str = _f("preset", "advantage scale: group (divide by the group's reward std), "
                        "batch (the batch's std), none (Dr.GRPO); preset = the algo's",
                        choices=("preset", "group", "batch", "none"))
    lora_r: int = _f(0, "LoRA rank: train rank-r adapters (peft; pip install peft) instead of every "
                     "weight; checkpoints hold the adapters; 0 = full fine-tuning")
    lora_alpha: float = _f(0.0, "LoRA scale numerator (updates are scaled by alpha / r); "
                           "0 = 2 x --lora-r")
    lora_target: str = _f("all-linear", "modules that get adapters: all-linear, or comma-separated "
                          "module names (q_proj,v_proj)")
    # length shaping (policy_opt.training.length_shaping; docs/length_shaping.md)
    overlong_buffer: int = _f(0, "DAPO's soft overlong penalty: the reward falls linearly over the "
                              "last N tokens of the completion limit (--max-new-tokens x turns) "
                              "and is fully penalised at it; 0 = off")
    overlong_penalty: float = _f(1.0, "weight of the overlong term next to the env's reward "
                                 "(verl's penalty_factor)")
    truncation_penalty: str = _f("0", "a completion cut at its token limit: W = a rubric term of "
                                 "weight W that it scores 0; gate = its reward is 0; 0 = off")
    # evaluation and output
    eval_every: int = _f(10, "evaluate on the held-out split every N steps (0 = only at the end)")
    eval_prompts: int = _f(32, "held-out prompts per evaluation")
    eval_k: int = _f(4, "samples per held-out prompt for pass@k")
    save_every: int = _f(10, "write a checkpoint every N steps (and at the end)")
    out: str = _f("runs/latest", "output folder: metrics.jsonl, curves.png, checkpoints")
    overwrite: bool = _f(False, "start a new run in an --out that holds another run, removing that "
                         "run's files (only those the trainer writes); without it (or --resume) "
                         "such an --out is refused")
    keep_checkpoints: int = _f(3, "checkpoints kept on disk: the newest N, plus the one with the "
                               "best held-out accuracy; 0 = keep all")
    report_to: str = _f("none", "also send the metrics to tensorboard (<out>/tensorboard; pip "
                        "install tensorboard) or wandb (offline unless WANDB_MODE or "
                        "WANDB_API_KEY says otherwise; pip install wandb)",
                        choices=("none", "tensorboard", "wandb"))
    resume: bool = _f(False, "continue from the newest checkpoint in --out: its weights, optimiser, "
                      "RNG state, and the minutes it already spent of --max-minutes; settings "
                      "not given again (flags or --config) are the run's own (--out/config.json)")
    # machine
    seed: int = _f(0, "seed for prompts, sampling and initialisation")
    dtype: str = _f("auto", "parameter dtype; auto = bfloat16 on a GPU that supports it, else "
                    "float32; bf16-mixed = float32 parameters and optimiser state with bfloat16 "
                    "autocast compute (TRL's bf16=True); under --strategy fsdp, FSDP2's "
                    "MixedPrecisionPolicy instead (bfloat16 gathers and compute, float32 "
                    "gradient reduction)",
                    choices=("auto", "float32", "bfloat16", "bf16-mixed"))
    device: str = _f("auto", "auto, cpu or cuda[:N]")
    engine: str = _f("transformers", "rollout engine: in-process transformers, a colocated vLLM "
                     "(vllm), or a separate `vllm serve` at --vllm-url (vllm-server)",
                     choices=("transformers", "vllm", "vllm-server"))
    vllm_tp: int = _f(1, "vLLM tensor-parallel size (--engine vllm)")
    vllm_url: str = _f("http://127.0.0.1:8000", "base URL of the running `vllm serve` "
                       "(--engine vllm-server; see README 'Scaling' for its launch command)")
    vllm_gpu_memory: float = _f(0.3, "share of GPU memory the colocated vLLM engine may take")
    vllm_sleep: bool = _f(False, "free vLLM's GPU memory during optimisation (sleep/wake between "
                          "phases; needs a vLLM version with sleep mode)")
    threads: int = _f(0, "torch CPU threads; 0 = the free cores: those this process may use "
                      "less the busy ones (load average), at least 1")
    flush_denormal: bool = _f(True, "CPU arithmetic treats subnormal floats (below 1.2e-38 in "
                              "float32) as 0 (x86 FTZ/DAZ): a trained model's softmaxes are full "
                              "of them and the CPU computes each one many times slower; the "
                              "default model's steps took 0.6x the time. Process-wide")
    strategy: str = _f("ddp", "data parallelism under torchrun: ddp (a replica per rank) or fsdp "
                       "(FSDP2 fully_shard, for models that do not fit one device)",
                       choices=("ddp", "fsdp"))
    env_workers: int = _f(0, "threads that run env steps (verifiers) concurrently; 0 = auto: "
                          "4 for tasks that run code in a sandbox, else 1 (inline: pure-Python "
                          "verifiers only lose time to thread hand-offs)")

    def validate(self) -> TrainConfig:
        """Check every field; raise ConfigError naming the flag of the first bad one."""
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if v is None and f.default is not None:
                raise ConfigError(f"{_flag(f.name)} must be set, got null")
            # nan passes every `< 0` check below, and inf budgets or clip ranges mean nothing.
            if isinstance(v, float) and not math.isfinite(v):
                raise ConfigError(f"{_flag(f.name)} must be a finite number, got {v}")
        if not 0 <= self.seed < 2**63:
            raise ConfigError(f"--seed must be in [0, 2**63), got {self.seed}")
        if not self.out.strip():
            raise ConfigError("--out is empty; name the run's output folder")
        if Path(self.out).expanduser().exists() and not Path(self.out).expanduser().is_dir():
            raise ConfigError(f"--out {self.out!r} is a file, not a folder")
        positive = ("max_steps", "prompts_per_step", "group_size", "max_new_tokens", "mu", "minibatches", "eval_prompts", "eval_k")
        for name in positive:
            if getattr(self, name) < 1:
                raise ConfigError(f"{_flag(name)} must be >= 1, got {getattr(self, name)}")
        non_negative = ("max_turns", "max_minutes", "warmup_steps", "micro_batch_size", "grad_clip", "eval_every",
                        "save_every", "threads", "weight_decay", "env_workers", "keep_checkpoints",
                        "lora_r", "lora_alpha")
        for name in non_negative:
            if getattr(self, name) < 0:
                raise ConfigError(f"{_flag(name)} must be >= 0, got {getattr(self, name)}")
        self._validate_env_and_shaping()
        if not self.lr > 0:
            raise ConfigError(f"--lr must be > 0, got {self.lr}")
        if not self.temperature >= 0:
            raise ConfigError(f"--temperature must be >= 0, got {self.temperature}")
        if self.vllm_tp < 1:
            raise ConfigError(f"--vllm-tp must be >= 1, got {self.vllm_tp}")
        if self.lora_r and not self.lora_target.strip(" ,"):
            raise ConfigError("--lora-target is empty; name the modules (or all-linear)")
        if not self.vllm_url.startswith(("http://", "https://")):
            raise ConfigError(f"--vllm-url must start with http:// or https://, got "
                              f"{self.vllm_url!r}")
        if not 0 < self.vllm_gpu_memory <= 1:
            raise ConfigError(f"--vllm-gpu-memory must be in (0, 1], got {self.vllm_gpu_memory}")
        if not 0 < self.top_p <= 1:
            raise ConfigError(f"--top-p must be in (0, 1], got {self.top_p}")
        if self.beta is not None and self.beta < 0:
            raise ConfigError(f"--beta must be >= 0, got {self.beta}")
        for name in ("eps_low", "eps_high"):
            v = getattr(self, name)
            if v is not None and not v > 0:
                raise ConfigError(f"{_flag(name)} must be > 0, got {v}")
        if self.group_size < 2:
            raise ConfigError("--group-size must be >= 2: a group of one has no relative advantage")
        if self.prompts_per_step % self.minibatches:
            # Minibatches hold whole groups (a group's prompt is run once for its G rows).
            raise ConfigError(f"--minibatches ({self.minibatches}) must divide --prompts-per-step "
                              f"({self.prompts_per_step})")
        for f in dataclasses.fields(self):
            choices = f.metadata.get("choices")
            if choices and getattr(self, f.name) not in choices:
                raise ConfigError(f"{_flag(f.name)} must be one of {', '.join(choices)}; "
                                  f"got {getattr(self, f.name)!r}")
        if not (self.device in ("auto", "cpu") or self.device.startswith("cuda")):
            raise ConfigError(f"--device must be auto, cpu or cuda[:N]; got {self.device!r}")
        return self


    def _validate_env_and_shaping(self) -> None:
        """--env as a mixture (tasks.mixture) and the length-shaping flags."""
        try:
            mixture = parse_mixture(self.env)
        except ValueError as err:
            raise ConfigError(str(err)) from None
        if mixture is not None and self.path:
            raise ConfigError("--path names the data of one task; a mixture (--env "
                              f"{self.env!r}) reads each task's own data ($RLVR_DATA_DIR)")
        for name in ("overlong_buffer", "overlong_penalty"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{_flag(name)} must be >= 0, got {getattr(self, name)}")
        if self.overlong_buffer > self.max_new_tokens:
            raise ConfigError(f"--overlong-buffer ({self.overlong_buffer}) must not exceed "
                              f"--max-new-tokens ({self.max_new_tokens})")
        if self.truncation_penalty != "gate":
            try:
                weight = float(self.truncation_penalty)
            except ValueError:
                weight = math.nan
            if not (math.isfinite(weight) and weight >= 0):
                raise ConfigError(f"--truncation-penalty must be a weight >= 0 or 'gate', got "
                                  f"{self.truncation_penalty!r}")


def _yaml_shorthands(data: dict[str, Any], where: str) -> dict[str, Any]:
    """The YAML forms a flag's string stands for: ``env`` as a list or mapping of task
    weights (a mixture), ``truncation_penalty`` as a number."""
    data = dict(data)
    if isinstance(data.get("env"), (list, dict)):
        try:
            data["env"] = parse_mixture(data["env"], field=f"{where}: field 'env'").spec()
        except ValueError as err:
            raise ConfigError(str(err)) from None
    penalty = data.get("truncation_penalty")
    if isinstance(penalty, (int, float)) and not isinstance(penalty, bool):
        data["truncation_penalty"] = str(penalty)
    return data


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _parse_bool(text: str) -> bool:
    low = text.lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true/false, got {text!r}")


def _field_type(f: dataclasses.Field) -> type:
    # Annotations are strings under `from __future__ import annotations`; the default's type is
    # the reliable source, with None-defaulted fields declared as `float | None`.
    if f.default is None:
        return float
    return type(f.default)


class _OneLineParser(argparse.ArgumentParser):
    """A bad flag or value is one line (argparse's usage block would bury it among 40 flags)."""

    def error(self, message: str) -> Any:
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


# TrainConfig fields that shape an evaluation (python -m policy_opt.evaluate); its flags are these, with the
# trainer's help texts and defaults.
EVAL_FIELDS = ("env", "module", "path", "model", "eval_prompts", "eval_k", "max_new_tokens", "max_turns",
               "temperature", "top_p", "seed", "dtype", "device", "engine", "vllm_tp",
               "vllm_url", "vllm_gpu_memory", "threads", "flush_denormal", "env_workers")
EVAL_DEFAULT_OUT = "runs/eval"


def build_parser(prog: str = "python -m policy_opt.train", *,
                 fields: tuple[str, ...] | None = None,
                 description: str = "Train a policy with GRPO, Dr.GRPO or GSPO on a "
                 "verifier-backed environment.") -> argparse.ArgumentParser:
    """The CLI of TrainConfig's fields (only ``fields`` when given: the evaluation command
    shares the trainer's flags, help texts and defaults)."""
    parser = _OneLineParser(prog=prog, description=description)
    parser.add_argument("--config", type=Path, default=None,
                        help="YAML file of field: value pairs (flags given on the command line win)")
    for f in dataclasses.fields(TrainConfig):
        if fields is not None and f.name not in fields:
            continue
        kind = _field_type(f)
        # The default stays SUPPRESS so a YAML value is not overridden by an unset flag; help
        # states the built-in default itself.
        text = f.metadata["help"]
        if f.default is not None:  # None-defaulted fields say what they fall back to
            text += f" (default: {f.default})"
        kwargs: dict[str, Any] = {"default": argparse.SUPPRESS, "help": text}
        if kind is bool:
            kwargs.update(nargs="?", const=True, type=_parse_bool)
        else:
            kwargs["type"] = kind
        if f.metadata.get("choices"):
            kwargs["choices"] = f.metadata["choices"]
        parser.add_argument(_flag(f.name), dest=f.name, **kwargs)
    return parser


def load_yaml(path: Path) -> dict[str, Any]:
    import yaml

    if not path.is_file():
        raise ConfigError(f"--config: no such file {str(path)!r}")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except UnicodeDecodeError as err:
        raise ConfigError(f"--config {path}: not UTF-8 text ({err})") from err
    except yaml.YAMLError as err:
        raise ConfigError(f"--config {path}: not valid YAML ({err})") from err
    if not isinstance(data, dict):
        raise ConfigError(f"--config {path}: expected a mapping of field: value")
    from policy_opt.trl_config import from_trl_names, trl_field_names

    where = f"--config {path}"
    data = from_trl_names({str(k).replace("-", "_"): v for k, v in data.items()}, where=where)
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    for key in data:
        if key not in known:
            if key in trl_field_names():
                raise ConfigError(f"{where}: TRL's {key!r} has no equivalent here (README: "
                                  "'TRL names in --config')")
            raise ConfigError(f"{where}: unknown field {key!r}")
    return _typed_fields(_yaml_shorthands(data, where), where=where)


def _typed_fields(data: dict[str, Any], where: str) -> dict[str, Any]:
    """``data``'s values for known fields, each as its field's type; ``where`` names the
    source in the error for a value of the wrong type."""
    fields = {f.name: f for f in dataclasses.fields(TrainConfig)}
    out: dict[str, Any] = {}
    for name, raw in data.items():
        if name not in fields:
            continue
        kind = _field_type(fields[name])
        value = _yaml_value(raw, kind, nullable=fields[name].default is None)
        if value is _BAD:
            raise ConfigError(f"{where}: field {name!r} must be {kind.__name__}, got {raw!r}")
        out[name] = value
    return out


_BAD = object()


def _yaml_value(value: Any, kind: type, *, nullable: bool) -> Any:
    """``value`` as a ``kind``, or ``_BAD``. YAML 1.1 reads ``1e-4`` (no dot) as a string and
    ``true`` as a bool, which Python would otherwise take as the int 1."""
    if value is None:
        return None if nullable else _BAD
    if isinstance(value, bool) != (kind is bool):
        return _BAD
    if kind is float and isinstance(value, (int, str)):
        try:
            return float(value)
        except ValueError:
            return _BAD
    return value if isinstance(value, kind) else _BAD


def load_run_config(out: str) -> dict[str, Any]:
    """The settings a run in ``out`` was started with (its ``config.json``), minus ``resume``;
    ``{}`` when there is none. Fields this version does not know are dropped."""
    import json

    path = Path(out).expanduser() / "config.json"
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ConfigError(f"--resume: {path} is not a JSON object ({err})") from err
    if not isinstance(data, dict):
        raise ConfigError(f"--resume: {path} is not a JSON object")
    settings = {k: v for k, v in data.items() if k not in ("resume", "out", "overwrite")}
    return _typed_fields(settings, where=f"--resume: {path}")


def parse_config(argv: list[str] | None = None) -> TrainConfig:
    """Build a validated TrainConfig from defaults, an optional YAML file and flags.

    With ``--resume`` the run's saved settings (``<out>/config.json``) fill in every field that
    neither the YAML file nor a flag sets, so a resumed run is the same run.
    """
    ns = vars(build_parser().parse_args(argv))
    return parse_values(ns, config_path=ns.pop("config", None))


def parse_values(flags: dict[str, Any], *, config_path: Path | None = None) -> TrainConfig:
    """A validated TrainConfig from parsed ``flags`` over an optional YAML file (and, with
    ``resume``, the run's saved settings under both)."""
    values: dict[str, Any] = load_yaml(config_path) if config_path else {}
    values.update(flags)
    if values.get("resume"):
        out = values.get("out", TrainConfig.out)
        if isinstance(out, str):  # a bad --out is reported by validate()
            values = {**load_run_config(out), **values}
    return TrainConfig(**values).validate()


# Settings tuned for the 2.4M-parameter default model, and what real (0.5-7B) models usually
# take instead (TRL's GRPOConfig defaults and common recipes).
SMALL_MODEL_DEFAULTS = {
    "lr": "1e-6",
    "max_new_tokens": "512-1024 for reasoning",
    "eval_prompts": "256+, as 32 prompts move accuracy in 3-point steps",
}
REAL_MODEL_PARAMS = 50_000_000
"""Above this many parameters the small-model defaults are called out."""


def small_model_note(cfg: TrainConfig, n_params: int,
                     fields: tuple[str, ...] = tuple(SMALL_MODEL_DEFAULTS)) -> str | None:
    """A note naming the small-model defaults a run on a real model is using (the ``fields``
    still at their defaults) and the usual values, or None when there is nothing to say.

    Example:
        >>> print(small_model_note(TrainConfig(model="Qwen/Qwen2.5-0.5B"), 494_000_000))
        note: --model 'Qwen/Qwen2.5-0.5B' (494M parameters) runs with defaults tuned for the 2.4M default model: --lr 0.0001 (usual: 1e-6), --max-new-tokens 32 (usual: 512-1024 for reasoning), --eval-prompts 32 (usual: 256+, as 32 prompts move accuracy in 3-point steps)
    """
    if cfg.model == "default" or n_params < REAL_MODEL_PARAMS:
        return None
    defaults = {f.name: f.default for f in dataclasses.fields(TrainConfig)}
    kept = [f"{_flag(k)} {getattr(cfg, k)} (usual: {SMALL_MODEL_DEFAULTS[k]})"
            for k in fields if getattr(cfg, k) == defaults[k]]
    if not kept:
        return None
    return (f"note: --model {cfg.model!r} ({n_params / 1e6:.0f}M parameters) runs with defaults "
            f"tuned for the 2.4M default model: " + ", ".join(kept))
