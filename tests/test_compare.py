"""``python -m policy_opt.compare``: one run per algorithm, a figure and a table of the same runs."""

from __future__ import annotations

import json

import pytest

from policy_opt.compare import main, markdown_table, summarise


def test_compare_runs_each_algorithm_and_tabulates_their_metrics(tiny_model, tmp_path, capsys):
    out = tmp_path / "cmp"
    assert main(["--algos", "grpo,gspo", "--steps", "2", "--out", str(out),
                 "--model", str(tiny_model), "--prompts-per-step", "2", "--group-size", "3",
                 "--max-new-tokens", "6", "--eval-prompts", "3", "--eval-k", "2",
                 "--eval-every", "1", "--threads", "1", "--env-workers", "1",
                 "--save-every", "0"]) == 0
    assert (out / "compare.png").stat().st_size > 1000
    table = (out / "compare.md").read_text().splitlines()
    assert [line.split("|")[1].strip() for line in table[2:]] == ["grpo", "gspo"]
    for algo in ("grpo", "gspo"):
        records = [json.loads(x) for x in (out / algo / "metrics.jsonl").read_text().splitlines()]
        assert [r["step"] for r in records if r["kind"] == "train"] == [1, 2]
        evals = [r for r in records if r["kind"] == "eval"]
        # The table's numbers are the run's own: first and last held-out evaluation.
        row = next(line for line in table if line.startswith(f"| {algo} "))
        cells = [c.strip() for c in row.split("|")[1:-1]]
        assert cells[1] == "2"
        assert cells[3] == f"{100 * evals[0]['accuracy']:.1f}"
        assert cells[4] == f"{100 * evals[-1]['accuracy']:.1f}"
    assert "compare.png" in capsys.readouterr().out


def test_unknown_algorithm_is_a_clear_error(tmp_path, capsys):
    assert main(["--algos", "grpo,ppo", "--out", str(tmp_path)]) == 2
    assert "ppo" in capsys.readouterr().err


def test_summary_splits_lengths_and_uses_the_last_fifth_of_steps():
    records = [{"kind": "eval", "step": 0, "accuracy": 0.25, "pass_at_k": 0.5,
                "sampled_accuracy": 0.125}]
    records += [{"kind": "train", "step": s, "reward_mean": float(s), "len_correct": 2.0,
                 "len_incorrect": None, "time_step": 6.0} for s in range(1, 11)]
    records.append({"kind": "eval", "step": 10, "accuracy": 0.75, "pass_at_k": 1.0,
                    "sampled_accuracy": 0.5})
    s = summarise("gspo", records)
    assert (s["steps"], s["acc_start"], s["acc_final"]) == (10, 0.25, 0.75)
    assert s["reward_final"] == 9.5  # mean of steps 9 and 10
    assert s["len_correct"] == 2.0 and s["len_incorrect"] is None
    assert s["minutes"] == 1.0
    assert (s["sampled_start"], s["sampled_final"]) == (0.125, 0.5)
    assert "| gspo | 10 | 1.00 | 25.0 | 75.0 | +50.0 | 12.5 | 50.0 | 100.0 | 9.50 | 2.00 | - |" \
        in markdown_table([s], k=4)


def test_runs_logged_before_sampled_accuracy_still_tabulate():
    records = [{"kind": "eval", "step": 0, "accuracy": 0.25, "pass_at_k": 0.5},
               {"kind": "train", "step": 1, "reward_mean": 1.0, "time_step": 6.0},
               {"kind": "eval", "step": 1, "accuracy": 0.5, "pass_at_k": 0.75}]
    s = summarise("grpo", records)
    assert s["sampled_start"] is None and s["sampled_final"] is None
    assert "| grpo | 1 | 0.10 | 25.0 | 50.0 | +25.0 | - | - | 75.0 |" in markdown_table([s], k=4)


@pytest.mark.parametrize("flag, value", [("--minutes", "0"), ("--minutes", "-2"),
                                         ("--minutes", "inf"), ("--minutes", "nan"),
                                         ("--steps", "0")])
def test_a_budget_that_is_not_positive_is_a_clear_error(tmp_path, capsys, flag, value):
    # --minutes 0 would otherwise become an unlimited run of a million steps.
    assert main(["--algos", "gspo", flag, value, "--out", str(tmp_path / "x")]) == 2
    assert f"{flag} must be a finite number > 0" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--algos", "gspo,grpo,gspo"], "--algos names gspo more than once"),
        (["--env", "nope", "--steps", "1"], "--env 'nope'"),
        (["--steps", "1", "--lr", "-1"], "--lr must be > 0"),
    ],
)
def test_bad_input_is_an_error_before_any_run(tmp_path, capsys, argv, needle):
    assert main([*argv, "--out", str(tmp_path / "x")]) == 2
    assert needle in capsys.readouterr().err
    assert not (tmp_path / "x" / "compare.md").exists()


@pytest.mark.parametrize("out", ["", "file"])
def test_out_must_name_a_folder(tmp_path, capsys, out):
    (tmp_path / "file").write_text("keep")
    target = str(tmp_path / out) if out else ""
    assert main(["--algos", "gspo", "--steps", "1", "--out", target]) == 2
    assert "--out must name a folder" in capsys.readouterr().err
    assert (tmp_path / "file").read_text() == "keep"
