"""A --model that cannot load fails at once in one line, and a run's terminal holds the
step bar and the evaluation lines, not transformers' per-call bars and warnings."""

from __future__ import annotations

import socket
import time

import pytest

from policy_opt.models import loading as model_mod
from policy_opt.models.loading import _looks_local, check_model_source, hub_offline
from policy_opt.train import main


@pytest.mark.parametrize("name, local", [
    ("Qwen/Qwen2.5-0.5B-Instruct", False), ("gpt2", False), ("./x", True), ("/abs/m", True),
    ("~/m", True), ("a/b/c", True), ("has space", True), ("runs\\\\x", True),
])
def test_local_looking_names(name, local):
    assert _looks_local(name) is local


def test_a_typo_of_a_run_folder_is_a_path_with_a_suggestion(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "arith").mkdir(parents=True)
    assert _looks_local("runs/arth")  # runs/ exists here: not an org on the hub
    with pytest.raises(FileNotFoundError, match=r"'runs/arth' \(did you mean 'runs/arith'\?\)"):
        check_model_source("runs/arth")


def test_offline_a_hub_id_not_in_the_cache_fails_at_once(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    start = time.monotonic()
    with pytest.raises(OSError, match="HF_HUB_OFFLINE is set") as err:
        check_model_source("someorg/some-model")
    assert time.monotonic() - start < 2 and "\n" not in str(err.value)


def test_the_hub_probe_is_bounded_when_the_network_hangs(monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "https://hangs.invalid")
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: time.sleep(30))
    model_mod._probe.cache_clear()
    start = time.monotonic()
    why = hub_offline(timeout=0.2)
    model_mod._probe.cache_clear()
    assert time.monotonic() - start < 2
    assert why == "no answer from hangs.invalid within 0.2 s"


def test_a_bad_model_flag_is_one_line_before_the_env_is_built(tmp_path, capsys, monkeypatch):
    import policy_opt.train as train_mod

    def never(*a, **k):
        raise AssertionError("the trainer was built")

    monkeypatch.setattr(train_mod, "Trainer", never)
    assert main(["--model", str(tmp_path / "nope"), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "model path does not exist" in err[0]


def test_a_run_prints_no_weight_bars_and_no_cache_deprecation(tiny_model, tmp_path, capfd):
    from transformers.utils import logging as hf_logging

    hf_logging.get_logger("transformers").warning_once.cache_clear()  # warned once a process
    out = tmp_path / "run"
    assert main(["--model", str(tiny_model), "--env", "arithmetic", "--out", str(out),
                 "--prompts-per-step", "2", "--group-size", "3", "--max-new-tokens", "6",
                 "--eval-prompts", "3", "--eval-k", "2", "--threads", "1", "--max-steps", "2",
                 "--save-every", "1", "--mu", "2"]) == 0
    said = capfd.readouterr()
    text = said.out + said.err
    for noise in ("Writing model shards", "Loading weights", "past_key_values"):
        assert noise not in text, noise
    assert "step 2 held-out" in text
