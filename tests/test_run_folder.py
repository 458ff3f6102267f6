"""--out: a new run never mixes with another run's files, and --overwrite deletes only a
run's own files."""

from __future__ import annotations

import json

import pytest

from policy_opt.config import ConfigError
from policy_opt.train import main
from policy_opt.training.run_folder import check_out, clear_run


def _argv(model, out, *extra):
    return ["--model", str(model), "--env", "arithmetic", "--out", str(out),
            "--prompts-per-step", "2", "--group-size", "3", "--max-new-tokens", "6",
            "--eval-prompts", "3", "--eval-k", "2", "--threads", "1", "--env-workers", "1",
            "--max-steps", "1", *extra]


def test_a_second_run_in_the_same_out_is_refused_until_overwrite(tiny_model, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out)) == 0
    first = (out / "metrics.jsonl").read_text()
    capsys.readouterr()
    assert main(_argv(tiny_model, out)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "holds another run" in err[0] and "--overwrite" in err[0]
    assert (out / "metrics.jsonl").read_text() == first  # nothing touched
    assert main(_argv(tiny_model, out, "--overwrite", "--seed", "1")) == 0
    assert (out / "metrics.jsonl").read_text() != first
    # Only the new run's checkpoint; `best` only if its accuracy beat its first evaluation's.
    evals = [r["accuracy"] for r in map(json.loads, (out / "metrics.jsonl").read_text().splitlines())
             if r["kind"] == "eval"]
    best = ["best"] if evals[-1] > evals[0] else []
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == [*best, "latest",
                                                                      "step-000001"]
    # --resume continues it; --resume with --overwrite is contradictory.
    assert main(_argv(tiny_model, out, "--resume", "--max-steps", "2")) == 0
    assert main(_argv(tiny_model, out, "--resume", "--overwrite")) == 2
    assert "give one of them" in capsys.readouterr().err


def test_a_folder_with_other_files_is_never_cleared(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("precious")
    (out / "metrics.jsonl").write_text("{}\n")
    for overwrite in (False, True):
        with pytest.raises(ConfigError, match="no run wrote"):
            check_out(out, resume=False, overwrite=overwrite)
    assert (out / "notes.txt").read_text() == "precious"


def test_clear_run_unlinks_a_symlinked_checkpoints_folder_without_following_it(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.bin").write_text("x")
    out = tmp_path / "run"
    out.mkdir()
    (out / "checkpoints").symlink_to(elsewhere, target_is_directory=True)
    (out / "config.json").write_text("{}")
    check_out(out, resume=False, overwrite=True)
    assert sorted(clear_run(out)) == ["checkpoints", "config.json"]
    assert (elsewhere / "keep.bin").exists() and list(out.iterdir()) == []


def test_an_empty_or_missing_out_needs_no_flag(tmp_path):
    check_out(tmp_path / "new", resume=False, overwrite=False)
    (tmp_path / "empty").mkdir()
    check_out(tmp_path / "empty", resume=False, overwrite=False)
