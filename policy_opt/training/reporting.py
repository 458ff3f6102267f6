"""``--report-to``: the metrics.jsonl records, also sent to TensorBoard or Weights & Biases.

metrics.jsonl stays the run's record (``--resume`` trims and appends it); a reporter is a
view of the same records. Training records go under ``train/``, evaluations under ``eval/``,
keyed by step. The clip fractions are also logged under the names TRL's dashboards use
(``train/clip_ratio/low_mean``, ``high_mean``, ``region_mean``), so a TRL user's charts and
ours read alike.

- ``tensorboard``: event files in ``<out>/tensorboard`` (``tensorboard --logdir <out>``),
  through ``torch.utils.tensorboard`` (needs ``pip install tensorboard``).
- ``wandb``: a W&B run whose files go under ``<out>/wandb``; offline (synced later with
  ``wandb sync``) unless ``WANDB_MODE`` says otherwise or an API key is configured, so a run
  never stops on a login prompt. ``WANDB_PROJECT`` names the project (default ``rlvr``).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, Protocol

from policy_opt.errors import ConfigError

REPORTERS = ("none", "tensorboard", "wandb")

# Our metric names -> the names TRL's GRPOTrainer logs (verl: actor/pg_clipfrac_lower for the
# low one, actor/pg_clipfrac for the region).
TRL_NAMES = {"clip_frac_low": "clip_ratio/low_mean", "clip_frac_high": "clip_ratio/high_mean",
             "clip_frac": "clip_ratio/region_mean"}


class Reporter(Protocol):
    def log(self, record: dict[str, Any]) -> None: ...
    def close(self) -> None: ...


def scalars(record: dict[str, Any]) -> dict[str, float]:
    """The finite numbers of a metrics record, named ``train/<key>`` or ``eval/<key>`` (TRL's
    names added for the clip fractions).

    Example:
        >>> scalars({"kind": "train", "step": 3, "loss": 0.5, "clip_frac": 0.1, "x": None})
        {'train/loss': 0.5, 'train/clip_frac': 0.1, 'train/clip_ratio/region_mean': 0.1}
    """
    prefix = record.get("kind", "train")
    out: dict[str, float] = {}
    for key, value in record.items():
        if key in ("kind", "step") or isinstance(value, bool):
            continue
        if isinstance(value, (int, float)) and math.isfinite(value):
            out[f"{prefix}/{key}"] = float(value)
            if key in TRL_NAMES:
                out[f"{prefix}/{TRL_NAMES[key]}"] = float(value)
    return out


class NoReporter:
    def log(self, record: dict[str, Any]) -> None:
        pass

    def close(self) -> None:
        pass


class TensorBoardReporter:
    def __init__(self, out: Path, config: dict[str, Any]):
        try:
            from torch.utils.tensorboard import SummaryWriter
        except ImportError as err:
            raise ConfigError("--report-to tensorboard needs the tensorboard package: "
                              "pip install tensorboard (or pip install -e '.[tensorboard]')"
                              ) from err
        self.writer = SummaryWriter(log_dir=str(out / "tensorboard"))
        self.writer.add_text("config", "\n".join(f"    {k}: {v}" for k, v in config.items()))

    def log(self, record: dict[str, Any]) -> None:
        step = int(record.get("step", 0))
        for name, value in scalars(record).items():
            self.writer.add_scalar(name, value, step)
        self.writer.flush()  # a killed run keeps what it logged

    def close(self) -> None:
        self.writer.close()


class WandbReporter:
    def __init__(self, out: Path, config: dict[str, Any]):
        try:
            import wandb
        except ImportError as err:
            raise ConfigError("--report-to wandb needs the wandb package: pip install wandb "
                              "(or pip install -e '.[wandb]')") from err
        mode = os.environ.get("WANDB_MODE") or ("online" if os.environ.get("WANDB_API_KEY")
                                                else "offline")
        (out / "wandb").mkdir(parents=True, exist_ok=True)
        try:
            self.run = wandb.init(project=os.environ.get("WANDB_PROJECT", "rlvr"),
                                  name=out.name, dir=str(out), config=config, mode=mode)
        except Exception as err:  # a bad key or an unreachable server: say so, do not train blind
            raise ConfigError(f"--report-to wandb: wandb.init failed ({type(err).__name__}: "
                              f"{err}); WANDB_MODE=offline logs without the network") from err

    def log(self, record: dict[str, Any]) -> None:
        self.run.log(scalars(record), step=int(record.get("step", 0)))

    def close(self) -> None:
        self.run.finish()


def check_available(kind: str) -> None:
    """Raise ConfigError now when ``--report-to kind`` needs a package that is not installed
    (before the run writes anything into --out)."""
    import importlib
    import importlib.util

    # TensorBoard is reached through torch's writer, which needs the package at import.
    module = {"tensorboard": "torch.utils.tensorboard", "wandb": "wandb"}.get(kind)
    if module is None:
        return
    package = module.rsplit(".", 1)[-1]
    try:
        if kind == "tensorboard":
            importlib.import_module(module)
            found = True
        else:  # wandb's import is slow: only look for it
            found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # missing, blocked (None in sys.modules), or broken
        found = False
    if not found:
        raise ConfigError(f"--report-to {kind} needs the {package} package: pip install "
                          f"{package} (or pip install -e '.[{package}]')")


def make_reporter(kind: str, out: str | Path, config: dict[str, Any]) -> Reporter:
    """The reporter ``--report-to kind`` asks for; ConfigError for a missing package."""
    out = Path(out)
    if kind == "none":
        return NoReporter()
    if kind == "tensorboard":
        return TensorBoardReporter(out, config)
    if kind == "wandb":
        return WandbReporter(out, config)
    raise ConfigError(f"--report-to must be one of {', '.join(REPORTERS)}; got {kind!r}")
