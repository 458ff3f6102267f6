"""A run's checkpoints and resuming from them (:class:`Resumable`, a base of
:class:`policy_opt.training.session.Session`): writing a checkpoint (gathered first under
FSDP), marking the best and pruning the rest, and ``--resume``: the newest checkpoint that
loads, its weights, optimiser state and training clock, a refusal when its env, algorithm or
model is not the run's, and the metrics written after it dropped.

The files themselves are policy_opt.training.checkpoints; this module is what a run does with
them. It reads the Session's ``cfg``, ``dist``, ``log``, ``out``, ``model``, ``peft``,
``tokenizer``, ``optimizer``, ``engine`` and clock attributes.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from policy_opt.errors import ConfigError
from policy_opt.training.checkpoints import (
    best_checkpoint,
    full_state_dicts,
    load_full_state_dicts,
    load_model_weights,
    load_trainer_state,
    mark_best,
    optimizer_state_for,
    prune_checkpoints,
    resume_candidates,
    save_checkpoint,
)
from policy_opt.training.distributed import barrier


class Resumable:
    """Checkpoints and ``--resume`` for a :class:`policy_opt.training.session.Session`."""

    def checkpoint(self, step: int) -> None:
        """Rank 0 writes; under FSDP every rank first joins in gathering the full state."""
        model_state, optim_state = full_state_dicts(self.model, self.optimizer, self.dist,
                                                     self.cfg.strategy)
        if self.dist.is_main:
            state = {"step": step, "optimizer": optim_state,
                     "config": asdict(self.cfg), "train_seconds": self.train_seconds()}
            # With LoRA, peft's save_pretrained writes the adapters only.
            self.last_checkpoint = save_checkpoint(self.out, step, self.peft or self.model,
                                                   self.tokenizer, state, model_state=model_state)
            self.keep_checkpoints(step)
        else:
            self.last_checkpoint = self.out / "checkpoints" / f"step-{step:06d}"
        barrier(self.dist)

    def keep_checkpoints(self, step: int) -> None:
        """Mark the checkpoint just written best when its step's held-out accuracy beats both
        the first evaluation's (the untrained model's) and the marked one's, then delete all
        but the newest --keep-checkpoints and the best.

        Without an improvement on the first evaluation nothing is marked: a "best" among
        accuracies that never moved would be an arbitrary checkpoint.
        """
        baseline = self.first_eval
        if self.last_eval is not None and self.last_eval[0] == step and step > 0 \
                and baseline is not None and self.last_eval[1] > baseline:
            best = best_checkpoint(self.out)
            if best is None or self.last_eval[1] > best[1]:
                mark_best(self.out, self.last_checkpoint, self.last_eval[1])
        prune_checkpoints(self.out, self.cfg.keep_checkpoints)

    def maybe_resume(self, metrics_path: Path) -> None:
        """Load the newest checkpoint that loads: one that does not (a torn write, a full
        disk) is skipped with the reason, and kept on disk as ``step-N.damaged``."""
        candidates = resume_candidates(self.out)
        if not candidates:
            raise ConfigError(f"--resume: no checkpoint in {self.out / 'checkpoints'}")
        skipped: list[Path] = []
        for folder in candidates:
            try:
                state = self.load_checkpoint(folder)
                break
            except ConfigError:
                raise
            except Exception as err:  # a truncated or foreign file: say which, then go on
                skipped.append(folder)
                self.log(f"--resume: skipped checkpoint {folder}: it cannot be loaded "
                         f"({type(err).__name__}: {str(err)[:200]})")
        else:
            raise ConfigError(f"--resume: no checkpoint in {self.out / 'checkpoints'} loads "
                              f"(tried {', '.join(p.name for p in skipped)}); start again "
                              "in another --out")
        if int(state["step"]) > self.cfg.max_steps:
            # Going on would overwrite the newer checkpoint with an older step's number.
            raise ConfigError(f"--max-steps ({self.cfg.max_steps}) is below the step of the "
                              f"checkpoint to resume ({state['step']}, {folder})")
        if self.dist.is_main:
            for bad in skipped:
                # Out of the way of the step the run will write again, never deleted.
                aside = bad.with_name(bad.name + ".damaged")
                n = 1
                while aside.exists():
                    n += 1
                    aside = bad.with_name(f"{bad.name}.damaged-{n}")
                bad.rename(aside)
                self.log(f"--resume: kept the damaged checkpoint as {aside}")
        self.start_step = int(state["step"])
        self.seconds_before = float(state.get("train_seconds", 0.0))
        self.last_checkpoint = folder
        self.engine.sync_weights(self.model)
        # Drop records written after the checkpoint so the resumed run appends cleanly.
        if metrics_path.exists() and self.dist.is_main:
            kept = [line for line in metrics_path.read_text(errors="replace").splitlines()
                    if (rec := _json_record(line)) is not None
                    and rec.get("step", 0) <= self.start_step]
            metrics_path.write_text("".join(line + "\n" for line in kept))
        if metrics_path.exists():
            evals = [rec for line in metrics_path.read_text(errors="replace").splitlines()
                     if (rec := _json_record(line)) is not None and rec.get("kind") == "eval"]
            first = min(evals, key=lambda r: r.get("step", 0), default=None)
            if first is not None and isinstance(first.get("accuracy"), (int, float)):
                self.first_eval = float(first["accuracy"])
        self.log(f"resumed from {folder} at step {self.start_step} "
                 f"({self.seconds_before / 60:.1f} training minutes spent)")

    def load_checkpoint(self, folder: Path) -> dict[str, Any]:
        """Load ``folder``'s weights and optimiser state; returns its trainer state."""
        if not (folder / "trainer_state.pt").is_file():
            raise FileNotFoundError(f"no trainer_state.pt in {folder}")
        state = load_trainer_state(folder)
        self.check_resumed_config(state.get("config"), folder)
        if self.cfg.strategy == "fsdp" and self.dist.enabled:
            load_full_state_dicts(self.model, self.optimizer, folder, state["optimizer"],
                                  self.dist)
        else:
            if self.peft is not None:
                from policy_opt.models.lora import load_adapters

                load_adapters(self.peft, folder)
            else:
                load_model_weights(self.model, folder)
            self.optimizer.load_state_dict(
                optimizer_state_for(self.model, state["optimizer"], by_name=False))
        int(state["step"])  # a state without a step number is as damaged as a torn file
        return state

    def check_resumed_config(self, saved: dict[str, Any] | None, folder: Path) -> None:
        """Refuse to resume a checkpoint of another env, algorithm or model; note any other
        setting that differs from the checkpoint's.

        The checkpoint's weights replace the --model's, so a different --model would be
        ignored (or fail on a shape mismatch), and another --env or --algo would append a
        different experiment to the same metrics and curves.
        """
        if not isinstance(saved, dict):
            return
        now = asdict(self.cfg)
        for name in ("env", "algo", "model"):
            before, after = saved.get(name), now[name]
            if name == "model":
                before, after = _model_key(before), _model_key(after)
            if before is not None and before != after:
                flag = "--" + name
                raise ConfigError(
                    f"--resume: the checkpoint {folder} was trained with {flag} "
                    f"{saved[name]!r}, not {now[name]!r}; resume with {flag} {saved[name]!r}, "
                    "or start the new run in another --out")
        # Longer runs and other bookkeeping are what resuming is for; anything else changes
        # the experiment part-way and is worth a line in the log. (The model, checked above,
        # may be spelled as another path to the same folder.)
        routine = {"resume", "max_steps", "max_minutes", "eval_every", "save_every", "threads",
                   "device", "env_workers", "out", "model", "overwrite", "keep_checkpoints",
                   "report_to"}
        changed = [f"{_flag_name(k)} {saved[k]!r} -> {now[k]!r}" for k in now
                   if k in saved and k not in routine and saved[k] != now[k]]
        if changed:
            self.log("note: resuming with settings that differ from the checkpoint's: "
                     + ", ".join(changed))

    def train_seconds(self) -> float:
        """Seconds of training so far, earlier runs of a resumed run included."""
        if self.clock_started is None:
            return self.seconds_before
        return self.clock() - self.clock_started


def _flag_name(field: str) -> str:
    return "--" + field.replace("_", "-")


def _model_key(model: Any) -> Any:
    """--model as compared between runs: a local path resolved, so ./m and /abs/m agree."""
    from policy_opt.models.loading import DEFAULT_NAME, _looks_local

    if not isinstance(model, str) or model == DEFAULT_NAME or not _looks_local(model):
        return model
    return str(Path(model).expanduser().resolve())


def _json_record(line: str) -> dict | None:
    """A metrics.jsonl line as a dict, or None for a blank or torn line (a crash mid-write)."""
    try:
        rec = json.loads(line)
    except ValueError:
        return None
    return rec if isinstance(rec, dict) else None
