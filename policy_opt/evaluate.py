"""``python -m policy_opt.evaluate``: the trainer's held-out evaluation of any model.

The trainer's periodic evaluation and this command run the same code
(policy_opt.training.evaluation): the held-out prompts are the ``test`` split drawn with fixed
seeds, one greedy completion per prompt gives the accuracy and mean reward, ``k`` sampled
completions at the rollout temperature give pass@k and mean@k (``sampled_accuracy``). The
command builds the trainer's own engine and env for the model (a
``policy_opt.training.session.Session``: the trainer without its loop), so a checkpoint is
judged exactly as the run that wrote it judged it.

Example::

    python -m policy_opt.evaluate --model runs/arith --env arithmetic     # a run: its newest checkpoint
    python -m policy_opt.evaluate --model runs/arith/checkpoints/step-000060 --eval-k 8
    python -m policy_opt.evaluate --model Qwen/Qwen2.5-0.5B-Instruct --env gsm8k \\
        --max-new-tokens 512 --engine vllm
    python -m policy_opt.evaluate --model runs/mine --module my_tasks --env double --path data/

The task flags are the trainer's (``--env``, ``--module``, ``--path``; the data location is
``$RLVR_DATA_DIR`` as for training); a checkpoint of a run takes its run's task, data location
and generation settings unless a flag says otherwise.

writes ``<out>/summary.json`` (the metrics) and ``<out>/completions.jsonl`` (one line per
held-out prompt: the row id, the prompt, the greedy completion with its reward, verdict and
reasons, and the ``k`` samples with theirs).
"""

from __future__ import annotations

# First, before torch: a signal while the slow imports run exits quietly (130 / 143).
from policy_opt.training import startup  # noqa: F401  # isort: skip

import json
import sys
from pathlib import Path
from typing import Any

from policy_opt.config import EVAL_DEFAULT_OUT as DEFAULT_OUT
from policy_opt.config import EVAL_FIELDS


def resolve_model(name: str) -> tuple[str, str | None]:
    """``--model`` as a loadable model: a run folder (one with ``checkpoints/latest``) means
    its newest checkpoint. Returns (path or id, a note for the user or None)."""
    from policy_opt.models.loading import DEFAULT_NAME, _looks_local
    from policy_opt.training.checkpoints import latest_checkpoint

    if name == DEFAULT_NAME or not _looks_local(name):
        return name, None
    folder = Path(name).expanduser()
    if (folder / "checkpoints" / "latest").is_file():
        newest = latest_checkpoint(folder)
        if newest is not None:
            return str(newest), f"--model {name}: a run folder; evaluating its newest checkpoint {newest}"
    return name, None


# Settings of an evaluation that a run's config.json supplies when the command does not.
INHERITED = ("env", "module", "path", "max_new_tokens", "max_turns", "temperature", "top_p", "eval_prompts",
             "eval_k", "seed")


def run_settings(model: str) -> tuple[dict[str, Any], Path | None]:
    """The evaluation settings (``INHERITED``) of the run that wrote checkpoint ``model``
    (``<run>/checkpoints/step-N``), and that run's config.json; ({}, None) otherwise."""
    from policy_opt.config import load_run_config
    from policy_opt.models.loading import DEFAULT_NAME, _looks_local

    if model == DEFAULT_NAME or not _looks_local(model):
        return {}, None
    run = Path(model).expanduser().resolve().parent.parent
    if not (run / "config.json").is_file() or not (run / "checkpoints").is_dir():
        return {}, None
    saved = load_run_config(str(run))
    return {k: v for k, v in saved.items() if k in INHERITED}, run / "config.json"


def parse_eval_args(argv: list[str] | None = None) -> tuple[Any, Path]:
    """(a validated TrainConfig for the evaluation, the output folder).

    Precedence: defaults < the checkpoint's run settings (env, generation and evaluation
    settings, seed; so the checkpoint is judged as its run judged it) < --config < flags."""
    from policy_opt.config import TrainConfig, build_parser, load_yaml, parse_values

    parser = build_parser("python -m policy_opt.evaluate", fields=EVAL_FIELDS,
                          description="Evaluate a model (a checkpoint, a run folder, a hub id or "
                          "'default') on an environment's held-out split, with the trainer's "
                          "engines and metrics.")
    parser.add_argument("--out", default=DEFAULT_OUT,
                        help="folder for summary.json and completions.jsonl (one line per "
                        f"held-out prompt) (default: {DEFAULT_OUT})")
    ns = vars(parser.parse_args(argv))
    out = Path(ns.pop("out"))
    config_path = ns.pop("config", None)
    model, note = resolve_model(ns.get("model", TrainConfig.model))
    if note:
        print(note, file=sys.stderr)
    ns["model"] = model
    inherited, source = run_settings(model)
    given = set(ns) | (set(load_yaml(config_path)) if config_path else set())
    inherited = {k: v for k, v in inherited.items() if k not in given}
    shown = {k: v for k, v in inherited.items() if v != ""}  # no --path / --module given
    if shown:
        print(f"from {source}: " + ", ".join(f"--{k.replace('_', '-')} {v}"
                                             for k, v in shown.items()), file=sys.stderr)
    cfg: TrainConfig = parse_values({**inherited, **ns}, config_path=config_path)
    if source is not None:
        from policy_opt.training.run_inputs import restore_inputs

        # The run's data location and module folders, where the shell names none.
        restore_inputs(cfg, lambda msg: print(msg, file=sys.stderr), run=source.parent,
                       prefer_shell=True)
    # No training: no reference model, no checkpoint; the Trainer's out is never written.
    cfg.beta = 0.0
    cfg.out = str(out)
    return cfg, out


def main(argv: list[str] | None = None) -> int:
    from policy_opt.cli import check_model_flag, run_command
    from policy_opt.config import ConfigError, small_model_note
    from policy_opt.training.session import Session

    def body(made: list[Session]) -> None:
        cfg, out = parse_eval_args(argv)
        if out.exists() and not out.is_dir():
            raise ConfigError(f"--out {str(out)!r} is a file, not a folder")
        check_model_flag(cfg.model)
        trainer = Session(cfg)
        made.append(trainer)
        note = small_model_note(cfg, sum(p.numel() for p in trainer.model.parameters()),
                                ("max_new_tokens", "eval_prompts"))
        if note:
            print(note, file=sys.stderr)
        result = trainer.evaluate(0, keep_rows=True)
        rows = result.pop("rows")
        if trainer.dist.is_main:
            out.mkdir(parents=True, exist_ok=True)
            summary = {k: v for k, v in result.items() if k not in ("kind", "step")}
            summary.update(model=cfg.model, env=cfg.env, prompts=len(rows),
                           max_new_tokens=cfg.max_new_tokens, max_turns=trainer.max_turns,
                           temperature=cfg.temperature)
            (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
            with (out / "completions.jsonl").open("w") as fh:
                for rec in rows:
                    fh.write(json.dumps(rec) + "\n")
            k = result["k"]
            print(f"{cfg.env}, {len(rows)} held-out prompts: greedy accuracy "
                  f"{result['accuracy']:.3f}, mean reward {result['reward_mean']:.3f}, "
                  f"pass@{k} {result['pass_at_k']:.3f}, mean@{k} "
                  f"{result['sampled_accuracy']:.3f}")
            print(f"wrote {out / 'summary.json'}, {out / 'completions.jsonl'}")

    return run_command(body, "evaluation stopped")


if __name__ == "__main__":
    sys.exit(main())
