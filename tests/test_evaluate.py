"""``python -m policy_opt.evaluate``: the trainer's evaluation on any checkpoint."""

from __future__ import annotations

import json
from pathlib import Path

from policy_opt.evaluate import main as evaluate_main
from policy_opt.train import main as train_main
from policy_opt.training.evaluation import summarise

SHAPE = ["--env", "arithmetic", "--max-new-tokens", "6", "--eval-prompts", "3", "--eval-k", "2",
         "--threads", "1", "--env-workers", "1"]


def _train(model: Path, out: Path, steps: int = 1) -> None:
    assert train_main(["--model", str(model), "--out", str(out), "--prompts-per-step", "2",
                       "--group-size", "3", "--max-steps", str(steps), *SHAPE]) == 0


def test_evaluating_a_run_repeats_the_trainers_final_evaluation(tiny_model, tmp_path, capsys):
    run = tmp_path / "run"
    _train(tiny_model, run)
    final = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()][-1]
    assert final["kind"] == "eval" and final["step"] == 1
    out = tmp_path / "eval"
    # The run folder means its newest checkpoint.
    assert evaluate_main(["--model", str(run), "--out", str(out), *SHAPE]) == 0
    summary = json.loads((out / "summary.json").read_text())
    for key in ("accuracy", "reward_mean", "pass_at_k", "sampled_accuracy"):
        assert summary[key] == final[key], key
    assert "step-000001" in capsys.readouterr().err
    rows = [json.loads(x) for x in (out / "completions.jsonl").read_text().splitlines()]
    assert len(rows) == 3
    assert {r["seed"] for r in rows} == {1_000_000, 1_000_001, 1_000_002}
    for r in rows:
        assert r["row_id"].startswith("arithmetic/test/")
        assert r["prompt"][0]["role"] == "user"
        assert len(r["samples"]) == 2
        assert isinstance(r["greedy"]["completion"], str)
        assert "accuracy" in r["greedy"]["reasons"]
    # The per-row verdicts are the ones the summary counts.
    parts = [([r["greedy"]["correct"] for r in rows], [r["greedy"]["reward"] for r in rows],
              [s["correct"] for r in rows for s in r["samples"]])]
    assert summarise(parts, k=2) == {k: summary[k] for k in
                                     ("accuracy", "reward_mean", "pass_at_k", "sampled_accuracy")}


def test_a_checkpoint_folder_and_the_default_model_evaluate(tiny_model, tmp_path):
    out = tmp_path / "eval"
    assert evaluate_main(["--model", str(tiny_model), "--out", str(out), *SHAPE]) == 0
    assert len((out / "completions.jsonl").read_text().splitlines()) == 3


def test_pass_at_k_counts_a_prompt_once_and_mean_at_k_every_sample():
    m = summarise([([False], [0.0], [True, True, False, False]),
                   ([True], [1.0], [False, False, False, False])], k=4)
    assert m == {"accuracy": 0.5, "reward_mean": 0.5, "pass_at_k": 0.5,
                 "sampled_accuracy": 0.25}


def test_bad_evaluation_flags_are_one_line_errors(tmp_path, capsys):
    assert evaluate_main(["--eval-k", "0", "--out", str(tmp_path / "e")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "error: --eval-k must be >= 1, got 0"
    (tmp_path / "file").write_text("x")
    assert evaluate_main(["--out", str(tmp_path / "file")]) == 2
    assert "is a file" in capsys.readouterr().err


def test_a_checkpoint_is_evaluated_with_its_runs_settings_unless_told_otherwise(
        tiny_model, tmp_path, capsys):
    run = tmp_path / "run"
    assert train_main(["--model", str(tiny_model), "--out", str(run), "--prompts-per-step", "2",
                       "--group-size", "3", "--max-steps", "1", "--seed", "7",
                       *SHAPE[:-4], "--eval-k", "3", "--threads", "1"]) == 0
    final = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()][-1]
    capsys.readouterr()
    out = tmp_path / "eval"
    ckpt = run / "checkpoints" / "step-000001"
    # Only the model: env, generation budget, k and seed come from the run's config.json.
    assert evaluate_main(["--model", str(ckpt), "--out", str(out), "--threads", "1"]) == 0
    assert "--seed 7" in capsys.readouterr().err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["k"] == 3 and summary["max_new_tokens"] == 6
    assert summary["pass_at_k"] == final["pass_at_k"]
    assert summary["sampled_accuracy"] == final["sampled_accuracy"]
    # A flag still wins.
    assert evaluate_main(["--model", str(ckpt), "--out", str(out), "--threads", "1",
                          "--eval-k", "2"]) == 0
    assert json.loads((out / "summary.json").read_text())["k"] == 2
