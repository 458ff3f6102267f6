"""--overlong-buffer, --overlong-penalty and --truncation-penalty: the trainer passes each
episode's completion_length and truncated to verifiers.length's terms (issue #35, item 6)."""

from __future__ import annotations

import json

import pytest

from policy_opt.config import ConfigError, parse_config
from policy_opt.errors import TrainingError
from policy_opt.rollout.episodes import Episode
from policy_opt.train import Trainer
from policy_opt.training.length_shaping import LengthShaping, shaping_metrics
from verifiers.length import overlong_penalty


def _episode(reward, tokens, cut=False):
    return Episode([1], [2] * tokens, [1] * tokens, reward, 0, {"length_cut": cut})


def test_the_overlong_term_is_dapos_penalty_in_the_rubric_mean():
    shaping = LengthShaping(100, overlong_buffer=20, overlong_penalty=0.5)
    eps = [_episode(1.0, n) for n in (80, 90, 100, 120)] + [_episode(None, 95)]
    shaping.apply(eps)
    for ep, n in zip(eps, (80, 90, 100, 120)):
        # (r + f (1 + R)) / (1 + f), docs/length_shaping.md
        assert ep.reward == pytest.approx((1.0 + 0.5 * (1 + overlong_penalty(n, 100, 20))) / 1.5)
        assert ep.info["env_reward"] == 1.0
    assert [e.reward for e in eps[:2]] == [1.0, pytest.approx(1.25 / 1.5)]
    assert eps[-1].reward is None  # no signal stays no signal
    assert shaping_metrics(eps) == pytest.approx(
        {"length_shaping": sum(e.reward - 1.0 for e in eps[:4]) / 4})


def test_the_truncation_penalty_as_a_weight_and_as_a_gate():
    weighted = LengthShaping(10, truncation_penalty="1")
    eps = [_episode(1.0, 10, cut=True), _episode(1.0, 10, cut=False)]
    weighted.apply(eps)
    assert [e.reward for e in eps] == [0.5, 1.0]
    gate = LengthShaping(10, truncation_penalty="gate")
    eps = [_episode(1.0, 10, cut=True), _episode(0.6, 10, cut=False)]
    gate.apply(eps)
    assert [e.reward for e in eps] == [0.0, pytest.approx(0.6)]


def test_no_flag_means_no_shaping_and_an_out_of_range_reward_is_loud():
    assert not LengthShaping(10)
    with pytest.raises(TrainingError, match="rewards in \\[0, 1\\]"):
        LengthShaping(10, overlong_buffer=2).apply([_episode(3.0, 4)])


@pytest.mark.parametrize("argv, message", [
    (["--overlong-buffer", "-1"], "--overlong-buffer must be >= 0"),
    (["--overlong-buffer", "64", "--max-new-tokens", "32"], "must not exceed --max-new-tokens"),
    (["--overlong-penalty", "-0.5"], "--overlong-penalty must be >= 0"),
    (["--truncation-penalty", "hard"], "--truncation-penalty must be a weight >= 0 or 'gate'"),
    (["--truncation-penalty", "-1"], "--truncation-penalty must be a weight"),
])
def test_bad_length_flags_name_the_flag(argv, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(argv)


def test_yaml_keys(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("overlong_buffer: 8\noverlong_penalty: 0.5\ntruncation_penalty: 2\n")
    cfg = parse_config(["--config", str(path)])
    assert (cfg.overlong_buffer, cfg.overlong_penalty, cfg.truncation_penalty) == (8, 0.5, "2")
    path.write_text("truncation_penalty: gate\n")
    assert parse_config(["--config", str(path)]).truncation_penalty == "gate"


def test_a_run_with_the_flags_applies_the_penalty(tiny_model, tmp_path):
    # An untrained model never stops within 4 tokens: every completion is cut at the limit,
    # so the gate zeroes every reward, and the overlong term is fully negative.
    argv = ["--model", str(tiny_model), "--env", "arithmetic", "--out", str(tmp_path / "run"),
            "--prompts-per-step", "2", "--group-size", "2", "--max-new-tokens", "4",
            "--eval-prompts", "2", "--eval-k", "2", "--threads", "1", "--env-workers", "1",
            "--max-steps", "1", "--eval-every", "0", "--save-every", "0",
            "--overlong-buffer", "2", "--truncation-penalty", "gate"]
    trainer = Trainer(parse_config(argv), log=lambda *a, **k: None)
    episodes = trainer.rollout(0)
    cut = [e.info["length_cut"] for e in episodes]
    assert any(cut)
    trainer.length_shaping.apply(episodes)
    for ep, was_cut in zip(episodes, cut):
        if was_cut:
            assert ep.reward == 0.0
            assert ep.info["length_shaping"]["not_truncated"] == 0.0
    trainer.train()
    rec = next(json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").open()
               if json.loads(line)["kind"] == "train")
    assert "length_shaping" in rec and rec["length_shaping"] <= 0.0
