"""Missing data is reported before torch loads (policy_opt.training.early_checks), and the early
check never refuses a run the trainer would accept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import tasks.sources
from policy_opt.training.early_checks import data_error

ROOT = Path(__file__).resolve().parent.parent
DATA = os.environ.get("RLVR_DATA_DIR", "/work/shared/data")
MISSING = "error: --env 'gsm8k' (train split): no data for task 'gsm8k' split 'train'"


@pytest.fixture
def offline(tmp_path, monkeypatch) -> Path:
    """An empty data folder, offline, and a hub cache with nothing in it."""
    empty = tmp_path / "data"
    empty.mkdir()
    monkeypatch.setenv("RLVR_DATA_DIR", str(empty))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    return tmp_path


def _env(tmp: Path) -> dict[str, str]:
    empty = tmp / "data"
    empty.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "WORLD_SIZE"}
    env.update(RLVR_DATA_DIR=str(empty), HF_HUB_OFFLINE="1", HF_HOME=str(tmp / "hf"))
    return env


@pytest.mark.parametrize("command", ["policy_opt.train", "policy_opt.evaluate"])
def test_missing_data_reported_before_torch_is_imported(tmp_path, command):
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", command, "--env", "gsm8k", "--out", str(out)],
        cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    lines = proc.stderr.splitlines()
    imported = [ln.rsplit("|", 1)[-1].strip() for ln in lines if ln.startswith("import time:")]
    said = [ln for ln in lines if not ln.startswith("import time:")]
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert said[0].startswith(MISSING)
    assert "torch" not in imported and "transformers" not in imported
    assert not out.exists()


@pytest.mark.slow
def test_early_error_is_the_trainers_own(tmp_path):
    """The same text as the normal path (main() called directly skips the early check)."""
    env = _env(tmp_path)
    args = ["--env", "gsm8k", "--out", str(tmp_path / "run")]
    early = subprocess.run([sys.executable, "-m", "policy_opt.train", *args], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=120)
    normal = subprocess.run(
        [sys.executable, "-c", "import sys; from policy_opt.train import main; "
         f"sys.exit(main({args!r}))"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert (early.returncode, early.stderr) == (normal.returncode, normal.stderr)
    assert early.stderr.startswith(MISSING)


def test_data_error_in_process(offline):
    message = data_error("policy_opt.train", ["--env", "gsm8k", "--out", str(offline / "r")])
    assert message is not None and message.startswith(MISSING)
    assert "HF_HUB_OFFLINE is set" in message
    assert tasks.sources._load_hub.__name__ == "_load_hub"  # the guard is taken off again


def test_test_split_missing_names_the_test_split(offline):
    (offline / "data" / "gsm8k").mkdir()
    (offline / "data" / "gsm8k" / "train.jsonl").write_text(
        '{"question": "1+1?", "answer": "2\\n#### 2"}\n')
    message = data_error("policy_opt.train", ["--env", "gsm8k", "--out", str(offline / "r")])
    assert message is not None
    assert message.startswith("error: --env 'gsm8k' (test split): no data for task 'gsm8k'")


@pytest.mark.parametrize("argv", [
    ["--env", "arithmetic"],  # generated: no data to miss
    ["--env", "guess-number"],
])
def test_valid_runs_pass(offline, argv):
    assert data_error("policy_opt.train", [*argv, "--out", str(offline / "r")]) is None


def test_present_data_passes(offline, monkeypatch):
    if not os.path.isdir(os.path.join(DATA, "gsm8k")):
        pytest.skip(f"no GSM8K under {DATA}")
    monkeypatch.setenv("RLVR_DATA_DIR", DATA)
    assert data_error("policy_opt.train", ["--env", "gsm8k", "--out", str(offline / "r")]) is None


def test_hub_that_would_be_asked_is_left_to_the_trainer(offline, monkeypatch):
    """Online (or a cached copy): the trainer may get the data from the hub, so no verdict,
    and the early check never asks the hub itself."""
    import tasks.hub

    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setattr(tasks.hub, "hub_blocked", lambda hub_id, environ=None: None)
    asked = []
    monkeypatch.setattr(tasks.sources, "_load_hub", lambda *a: asked.append(a) or [])
    assert data_error("policy_opt.train", ["--env", "gsm8k", "--out", str(offline / "r")]) is None
    assert asked == []
    assert tasks.sources._load_hub.__name__ == "<lambda>"  # put back as it was


@pytest.mark.parametrize("extra", [
    ["--resume"],
    ["--module", "json"],
    ["--path", "nowhere/gsm8k.jsonl"],
    ["--model", "Qwen/Qwen2.5-0.5B"],
    ["--device", "cuda"],
    ["--max-steps", "0"],          # a bad flag: the normal path says so
    ["--no-such-flag"],
    ["--help"],
])
def test_uncertain_runs_are_left_to_the_trainer(offline, capsys, extra):
    argv = ["--env", "gsm8k", "--out", str(offline / "r"), *extra]
    assert data_error("policy_opt.train", argv) is None
    assert capsys.readouterr() == ("", "")  # nothing printed twice


@pytest.mark.parametrize("env", ["gsm8k=0.5,arithmetic=0.5", "tasks.gsm8k:gsm8k", "rg:leg_counting"])
def test_mixtures_and_module_envs_are_left_to_the_trainer(offline, env):
    assert data_error("policy_opt.train", ["--env", env, "--out", str(offline / "r")]) is None


def test_yaml_config_is_left_to_the_trainer(offline):
    config = offline / "c.yaml"
    config.write_text("env: gsm8k\n")
    argv = ["--config", str(config), "--out", str(offline / "r")]
    assert data_error("policy_opt.train", argv) is None


def test_refused_out_is_left_to_the_trainer(offline):
    out = offline / "r"
    out.mkdir()
    (out / "metrics.jsonl").write_text("")  # another run: the trainer refuses --out first
    assert data_error("policy_opt.train", ["--env", "gsm8k", "--out", str(out)]) is None


def test_evaluate_with_a_model_is_left_to_it(offline):
    assert data_error("policy_opt.evaluate", ["--env", "gsm8k"]) is not None
    assert data_error("policy_opt.evaluate", ["--env", "gsm8k", "--model", "runs/x"]) is None
