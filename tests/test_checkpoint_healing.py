"""--resume heals past a damaged checkpoint (issue 36, item 8): it falls back to the newest
one that loads, says which it skipped and why, and never deletes the damaged one."""

from __future__ import annotations

import json
from pathlib import Path

from policy_opt.train import main
from policy_opt.training.checkpoints import latest_checkpoint, resume_candidates


def _argv(model: Path, out: Path, *extra: str) -> list[str]:
    return ["--model", str(model), "--env", "arithmetic", "--out", str(out),
            "--prompts-per-step", "2", "--group-size", "2", "--max-new-tokens", "4",
            "--eval-prompts", "2", "--eval-k", "1", "--threads", "1", "--env-workers", "1",
            "--mu", "1", "--eval-every", "0", "--save-every", "1", "--keep-checkpoints", "0",
            *extra]


def _train_steps(out: Path) -> list[int]:
    records = map(json.loads, (out / "metrics.jsonl").read_text().splitlines())
    return [r["step"] for r in records if r["kind"] == "train"]


def _folders(root: Path, *names: str) -> None:
    for name in names:
        (root / name).mkdir(parents=True)
        (root / name / "trainer_state.pt").write_bytes(b"x")


def test_a_garbage_latest_pointer_falls_back_to_the_step_folders(tmp_path):
    root = tmp_path / "checkpoints"
    _folders(root, "step-000001", "step-000002", "step-mine")
    (root / "latest").write_bytes(b"\xff\xfe\x00 not a name")
    assert latest_checkpoint(tmp_path) is None
    assert [p.name for p in resume_candidates(tmp_path)] == ["step-000002", "step-000001"]
    (root / "latest").write_text("../../etc\n")  # a pointer only ever names a folder beside it
    assert [p.name for p in resume_candidates(tmp_path)] == ["step-000002", "step-000001"]
    (root / "latest").write_text("step-000001\n")  # the pointer first, then newest first
    assert [p.name for p in resume_candidates(tmp_path)] == ["step-000001", "step-000002"]


def test_resume_skips_a_damaged_newest_checkpoint_and_keeps_it(tiny_model, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out, "--max-steps", "2")) == 0
    damaged = out / "checkpoints" / "step-000002"
    state = damaged / "trainer_state.pt"
    torn = state.read_bytes()[:100]  # a write cut short (a full disk, a killed copy)
    state.write_bytes(torn)
    capsys.readouterr()
    assert main(_argv(tiny_model, out, "--max-steps", "3", "--resume")) == 0
    said = capsys.readouterr().out
    assert f"skipped checkpoint {damaged}: it cannot be loaded" in said
    assert "resumed from" in said and "step-000001 at step 1" in said
    kept = out / "checkpoints" / "step-000002.damaged"
    assert (kept / "trainer_state.pt").read_bytes() == torn  # moved aside, never deleted
    assert f"kept the damaged checkpoint as {kept}" in said
    assert _train_steps(out) == [1, 2, 3]
    assert latest_checkpoint(out) == out / "checkpoints" / "step-000003"


def test_resume_with_a_garbage_latest_pointer_uses_the_newest_step(tiny_model, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(_argv(tiny_model, out, "--max-steps", "2")) == 0
    (out / "checkpoints" / "latest").write_bytes(b"\x00\x01garbage")
    capsys.readouterr()
    assert main(_argv(tiny_model, out, "--max-steps", "3", "--resume")) == 0
    assert "step-000002 at step 2" in capsys.readouterr().out
    assert _train_steps(out) == [1, 2, 3]


# --------------------------------------------------------------------------- best (item 10)


def _marking(tmp_path: Path, first: float | None, evals: list[float]) -> list[str | None]:
    """The ``best`` pointer after each of ``evals`` (steps 1, 2, ...), the first evaluation's
    accuracy being ``first``."""
    from types import SimpleNamespace

    from policy_opt.training.checkpoints import best_checkpoint
    from policy_opt.training.session import Session

    run = SimpleNamespace(out=tmp_path, first_eval=first, cfg=SimpleNamespace(keep_checkpoints=0))
    marked = []
    for step, accuracy in enumerate(evals, start=1):
        _folders(tmp_path / "checkpoints", f"step-{step:06d}")
        run.last_checkpoint = tmp_path / "checkpoints" / f"step-{step:06d}"
        run.last_eval = (step, accuracy)
        Session.keep_checkpoints(run, step)
        best = best_checkpoint(tmp_path)
        marked.append(None if best is None else best[0].name)
    return marked


def test_best_is_written_only_when_an_accuracy_beats_the_first_evaluation(tmp_path):
    # All held-out accuracies 0.0 (issue 36): no checkpoint is "best".
    assert _marking(tmp_path / "a", 0.0, [0.0, 0.0, 0.0]) == [None, None, None]
    assert _marking(tmp_path / "b", 0.5, [0.25, 0.5, 0.75, 0.5]) == [
        None, None, "step-000003", "step-000003"]
    assert _marking(tmp_path / "c", None, [0.5]) == [None]  # no first evaluation to beat
