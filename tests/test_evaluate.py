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


# --------------------------------------------------------------------------- the task flags

USER_MODULE = '''
import tasks
from tasks import Problem, Task
from verifiers.gsm8k import gsm8k_check
from verifiers.rubric import Rubric


@tasks.register("{name}")
def doubling(n: int = 4) -> Task:
    def problems(split, seed, path):
        return (Problem(f"{name}/{{i}}", f"2*{{i}}?", str(2 * i)) for i in range(n))
    return Task("{name}", problems, Rubric([gsm8k_check]))
'''


def _gsm8k(root: Path) -> Path:
    rows = [{"question": f"What is {a} plus {a}?", "answer": f"{a} + {a} = {2 * a}\n#### {2 * a}"}
            for a in range(1, 5)]
    (root / "gsm8k").mkdir(parents=True)
    for split in ("train", "test"):
        (root / "gsm8k" / f"{split}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


def _flags_named(text: str) -> set[str]:
    import re

    return set(re.findall(r"--[a-z][a-z-]+", text))


def test_evaluate_takes_module_and_path_and_suggests_only_its_own_flags(
        tiny_model, tmp_path, monkeypatch, capsys):
    import sys

    from policy_opt.evaluate import EVAL_FIELDS

    accepted = {"--" + f.replace("_", "-") for f in EVAL_FIELDS} | {"--out", "--config"}
    shape = ["--max-new-tokens", "4", "--eval-prompts", "2", "--eval-k", "1", "--threads", "1"]
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)
    name = "ev_doubling"
    (tmp_path / "my_tasks_ev.py").write_text(USER_MODULE.replace("{name}", name))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "my_tasks_ev", raising=False)
    # Without --module the task is unknown; every flag the error suggests is one evaluate takes.
    assert evaluate_main(["--model", str(tiny_model), "--env", name,
                          "--out", str(tmp_path / "e0"), *shape]) == 2
    err = capsys.readouterr().err
    assert "--module" in err
    assert _flags_named(err) <= accepted, _flags_named(err) - accepted
    out = tmp_path / "e1"
    assert evaluate_main(["--model", str(tiny_model), "--module", "my_tasks_ev", "--env", name,
                          "--out", str(out), *shape]) == 0
    assert json.loads((out / "summary.json").read_text())["env"] == name
    # --path: data from a folder, with no $RLVR_DATA_DIR.
    data = _gsm8k(tmp_path / "data")
    out = tmp_path / "e2"
    assert evaluate_main(["--model", str(tiny_model), "--env", "gsm8k", "--path",
                          str(data / "gsm8k"), "--out", str(out), *shape]) == 0
    rows = [json.loads(x) for x in (out / "completions.jsonl").read_text().splitlines()]
    assert all(r["row_id"].startswith("gsm8k/") for r in rows)
    sys.modules.pop("my_tasks_ev", None)


def test_a_checkpoint_is_evaluated_on_its_runs_data_location(tiny_model, tmp_path, monkeypatch,
                                                              capsys):
    data = _gsm8k(tmp_path / "data")
    monkeypatch.setenv("RLVR_DATA_DIR", str(data))
    run = tmp_path / "run"
    assert train_main(["--model", str(tiny_model), "--out", str(run), "--env", "gsm8k",
                       "--prompts-per-step", "2", "--group-size", "2", "--max-steps", "1",
                       "--max-new-tokens", "4", "--eval-prompts", "2", "--eval-k", "1",
                       "--threads", "1", "--mu", "1"]) == 0
    final = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()][-1]
    # A fresh shell: no data location, only the run folder.
    monkeypatch.delenv("RLVR_DATA_DIR")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    capsys.readouterr()
    out = tmp_path / "eval"
    assert evaluate_main(["--model", str(run), "--out", str(out), "--threads", "1"]) == 0
    assert "RLVR_DATA_DIR" in capsys.readouterr().err
    assert json.loads((out / "summary.json").read_text())["accuracy"] == final["accuracy"]


def test_the_inherited_settings_line_names_only_settings_the_run_gave(tmp_path, capsys):
    from dataclasses import asdict

    from policy_opt.config import TrainConfig
    from policy_opt.evaluate import parse_eval_args

    run = tmp_path / "run"
    ckpt = run / "checkpoints" / "step-000001"
    ckpt.mkdir(parents=True)
    (run / "config.json").write_text(json.dumps(asdict(TrainConfig(env="arithmetic", seed=7))))
    parse_eval_args(["--model", str(ckpt), "--out", str(tmp_path / "e")])
    line = next(x for x in capsys.readouterr().err.splitlines() if x.startswith("from "))
    assert "--env arithmetic" in line and "--seed 7" in line
    # a run without --path or --module: "--path , --module ," reads as a broken flag
    assert "--path" not in line and "--module" not in line, line
