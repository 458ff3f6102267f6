"""Held-out evaluation: the trainer's own evaluation, and ``python -m policy_opt.evaluate``.

The trainer's periodic evaluation and the evaluation-only command run the same code: the
held-out prompts are the ``test`` split drawn with fixed seeds (``held_out_seeds``), one greedy
completion per prompt gives the accuracy and mean reward, ``k`` sampled completions at the
rollout temperature give pass@k and mean@k (``sampled_accuracy``). The command builds the
trainer's own engine and env for the model (``Trainer`` with no training), so a checkpoint is
judged exactly as the run that wrote it judged it.

Example::

    python -m policy_opt.evaluate --model runs/arith --env arithmetic     # a run: its newest checkpoint
    python -m policy_opt.evaluate --model runs/arith/checkpoints/step-000060 --eval-k 8
    python -m policy_opt.evaluate --model Qwen/Qwen2.5-0.5B-Instruct --env gsm8k \\
        --max-new-tokens 512 --engine vllm

writes ``<out>/summary.json`` (the metrics) and ``<out>/completions.jsonl`` (one line per
held-out prompt: the row id, the prompt, the greedy completion with its reward, verdict and
reasons, and the ``k`` samples with theirs).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from policy_opt.rollout import Episode, collect_episodes

HELD_OUT_SEED = 1_000_000
"""The first held-out prompt's seed; far from the training draws' seeds by construction."""


def held_out_seeds(n: int) -> list[int]:
    """The seeds of the ``n`` held-out prompts: the same in every evaluation of every run, so
    evaluations are comparable."""
    return [HELD_OUT_SEED + i for i in range(n)]


@dataclass
class EvalRollouts:
    """One evaluation's episodes on this rank: ``greedy[i]`` and ``sampled[i*k:(i+1)*k]``
    answer the prompt of ``seeds[i]``."""

    seeds: list[int]
    greedy: list[Episode]
    sampled: list[Episode]
    k: int


def eval_rollouts(make_env: Callable[[], Any], engine: Any, tokenizer: Any, seeds: list[int], *,
                  k: int, max_new_tokens: int, max_turns: int, temperature: float,
                  top_p: float, seed: int, sample_seed: int, workers: int) -> EvalRollouts:
    """Greedy and sampled completions of the held-out prompts ``seeds``."""
    greedy = collect_episodes(make_env, engine, tokenizer, seeds, 1,
                              max_new_tokens=max_new_tokens, max_turns=max_turns,
                              temperature=0.0, seed=seed, workers=workers)
    sampled = collect_episodes(make_env, engine, tokenizer, seeds, k,
                               max_new_tokens=max_new_tokens, max_turns=max_turns,
                               temperature=temperature, top_p=top_p, seed=sample_seed,
                               workers=workers)
    return EvalRollouts(list(seeds), greedy, sampled, k)


def episode_correct(ep: Episode) -> bool:
    """Whether the env judged the final answer correct (falls back to reward >= 1)."""
    if "correct" in ep.info:
        return bool(ep.info["correct"])
    return ep.reward is not None and ep.reward >= 1.0


def verdicts(r: EvalRollouts) -> tuple[list[bool], list[float], list[bool]]:
    """(greedy correct, greedy reward, sampled correct): what ``summarise`` needs, small
    enough to gather from every rank."""
    return ([episode_correct(e) for e in r.greedy], [e.reward or 0.0 for e in r.greedy],
            [episode_correct(e) for e in r.sampled])


def summarise(parts: Sequence[tuple[list[bool], list[float], list[bool]]],
              k: int) -> dict[str, float]:
    """The held-out metrics of ``verdicts`` from every rank (in rank order).

    ``accuracy`` and ``reward_mean``: greedy; ``pass_at_k``: the share of prompts with at
    least one correct sample of ``k``; ``sampled_accuracy`` (mean@k): the share of correct
    samples, at the rollout temperature, i.e. the policy RL actually trains.

    Example:
        >>> summarise([([True, False], [1.0, 0.5], [True, False, False, False])], k=2)
        {'accuracy': 0.5, 'reward_mean': 0.75, 'pass_at_k': 0.5, 'sampled_accuracy': 0.25}
    """
    right = [c for p in parts for c in p[0]]
    rewards = [r for p in parts for r in p[1]]
    hits = [h for p in parts for h in p[2]]
    pass_k = [any(hits[i:i + k]) for i in range(0, len(hits), k)]
    return {
        "accuracy": sum(right) / len(right),
        "reward_mean": sum(rewards) / len(rewards),
        "pass_at_k": sum(pass_k) / len(pass_k),
        "sampled_accuracy": sum(hits) / len(hits),
    }


def _verdict(ep: Episode) -> dict[str, Any]:
    info = ep.info
    messages = info.get("messages") or []
    after = messages[len(_first_prompt(messages)):]
    said = [m.get("content", "") for m in after if m.get("role") == "assistant"]
    rec = {"completion": said[-1] if said else "", "reward": ep.reward,
           "correct": episode_correct(ep), "reasons": info.get("reasons", {}),
           "rubric": info.get("rubric", {}), "truncated": bool(info.get("truncated")),
           "length_cut": bool(info.get("length_cut")), "tokens": int(sum(ep.completion_mask))}
    if len(after) > 1:  # a multi-turn episode: the whole exchange after the prompt
        rec["conversation"] = after
    return rec


def row_records(r: EvalRollouts) -> list[dict[str, Any]]:
    """One JSON-ready record per held-out prompt: seed, row id, prompt messages, the greedy
    completion and the ``k`` samples, each with its reward, verdict and reasons. A ``None``
    reward is the env's "no signal" (never a 0 the model earned)."""
    out = []
    for i, seed in enumerate(r.seeds):
        g = r.greedy[i]
        out.append({
            "seed": seed, "row_id": g.info.get("row_id"),
            "prompt": _first_prompt(g.info.get("messages") or []),
            "greedy": _verdict(g),
            "samples": [_verdict(e) for e in r.sampled[i * r.k:(i + 1) * r.k]],
        })
    return out


def _first_prompt(messages: list[dict]) -> list[dict]:
    """The messages before the model's first turn."""
    head = []
    for m in messages:
        if m.get("role") == "assistant":
            break
        head.append(m)
    return head


# --------------------------------------------------------------------------- the command

# TrainConfig fields that shape an evaluation; the command's flags are these, with the
# trainer's help texts and defaults.
EVAL_FIELDS = ("env", "model", "eval_prompts", "eval_k", "max_new_tokens", "max_turns",
               "temperature", "top_p", "seed", "dtype", "device", "engine", "vllm_tp",
               "vllm_url", "vllm_gpu_memory", "threads", "flush_denormal", "env_workers")
DEFAULT_OUT = "runs/eval"


def resolve_model(name: str) -> tuple[str, str | None]:
    """``--model`` as a loadable model: a run folder (one with ``checkpoints/latest``) means
    its newest checkpoint. Returns (path or id, a note for the user or None)."""
    from policy_opt.checkpoint import latest_checkpoint
    from policy_opt.model import DEFAULT_NAME, _looks_local

    if name == DEFAULT_NAME or not _looks_local(name):
        return name, None
    folder = Path(name).expanduser()
    if (folder / "checkpoints" / "latest").is_file():
        newest = latest_checkpoint(folder)
        if newest is not None:
            return str(newest), f"--model {name}: a run folder; evaluating its newest checkpoint {newest}"
    return name, None


# Settings of an evaluation that a run's config.json supplies when the command does not.
INHERITED = ("env", "max_new_tokens", "max_turns", "temperature", "top_p", "eval_prompts",
             "eval_k", "seed")


def run_settings(model: str) -> tuple[dict[str, Any], Path | None]:
    """The evaluation settings (``INHERITED``) of the run that wrote checkpoint ``model``
    (``<run>/checkpoints/step-N``), and that run's config.json; ({}, None) otherwise."""
    from policy_opt.config import load_run_config
    from policy_opt.model import DEFAULT_NAME, _looks_local

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
    if inherited:
        print(f"from {source}: " + ", ".join(f"--{k.replace('_', '-')} {v}"
                                             for k, v in inherited.items()), file=sys.stderr)
    cfg: TrainConfig = parse_values({**inherited, **ns}, config_path=config_path)
    # No training: no reference model, no checkpoint; the Trainer's out is never written.
    cfg.beta = 0.0
    cfg.out = str(out)
    return cfg, out


def main(argv: list[str] | None = None) -> int:
    from policy_opt.config import ConfigError, small_model_note
    from policy_opt.train import Trainer, check_model_flag, run_command

    def body(made: list[Trainer]) -> None:
        cfg, out = parse_eval_args(argv)
        if out.exists() and not out.is_dir():
            raise ConfigError(f"--out {str(out)!r} is a file, not a folder")
        check_model_flag(cfg.model)
        trainer = Trainer(cfg)
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
