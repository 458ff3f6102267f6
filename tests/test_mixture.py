"""Task mixtures (--env gsm8k=0.7,math500=0.3): the spec, the seeded draws, the config
errors, and a mixed run with per-task metrics (issue #35, item 4)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from policy_opt.config import ConfigError, parse_config
from policy_opt.train import Trainer
from tasks.mixture import parse_mixture


def test_a_spec_is_parsed_into_normalised_weights_in_order():
    m = parse_mixture(" gsm8k = 7 , math500=3")
    assert m.names == ("gsm8k", "math500")
    assert m.weights == pytest.approx((0.7, 0.3))
    assert parse_mixture("gsm8k") is None  # one env, as before
    assert parse_mixture("my_tasks:double=1").names == ("my_tasks:double",)


def test_the_yaml_forms_mean_the_same_mixture():
    want = parse_mixture("gsm8k=0.7,math500=0.3")
    assert parse_mixture([{"gsm8k": 0.7}, {"math500": 0.3}]) == want
    assert parse_mixture({"gsm8k": 7, "math500": 3}) == want
    assert parse_mixture(["gsm8k=0.7", "math500=0.3"]) == want


def test_draws_follow_the_weights_and_the_seed():
    m = parse_mixture("a=0.8,b=0.2")
    first = m.draw(2000, random.Random(5))
    assert first == m.draw(2000, random.Random(5))
    assert first != m.draw(2000, random.Random(6))
    share = Counter(first)["a"] / 2000
    assert 0.76 < share < 0.84


@pytest.mark.parametrize("spec, message", [
    ("gsm8k=0.7,math500", r"'math500' has no weight"),
    ("gsm8k=0,math500=1", r"weight of 'gsm8k' must be a finite number > 0, got '0'"),
    ("gsm8k=-1,math500=1", r"weight of 'gsm8k' must be a finite number > 0"),
    ("gsm8k=nan", r"weight of 'gsm8k' must be a finite number > 0"),
    ("gsm8k=lots", r"weight of 'gsm8k' must be a number, got 'lots'"),
    ("=1", r"no task name"),
    ("gsm8k=1,gsm8k=2", r"'gsm8k' is given twice"),
])
def test_a_bad_spec_is_a_config_error_naming_the_flag(spec, message):
    with pytest.raises(ConfigError, match=r"--env.*" + message):
        parse_config(["--env", spec])


def test_a_bad_yaml_mixture_names_the_field(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("env:\n  - gsm8k: 0.7\n  - math500: -0.3\n")
    with pytest.raises(ConfigError, match=r"field 'env'.*weight of 'math500'"):
        parse_config(["--config", str(path)])
    path.write_text("env:\n  - gsm8k: 0.7\n  - math500: 0.3\n")
    assert parse_config(["--config", str(path)]).env == "gsm8k=0.7,math500=0.3"


def test_path_with_a_mixture_is_refused():
    with pytest.raises(ConfigError, match="--path"):
        parse_config(["--env", "gsm8k=1,math500=1", "--path", "x.jsonl"])


def _argv(model, out, env, *extra):
    return ["--model", str(model), "--env", env, "--out", str(out),
            "--prompts-per-step", "4", "--group-size", "2", "--max-new-tokens", "4",
            "--eval-prompts", "2", "--eval-k", "2", "--threads", "1", "--env-workers", "1",
            "--max-steps", "2", "--eval-every", "0", "--save-every", "0", *extra]


def test_unknown_and_multi_turn_tasks_in_a_mixture_are_config_errors(tiny_model, tmp_path):
    with pytest.raises(ConfigError, match=r"--env 'arithmetic=1,nope=1', task 'nope' \(train split\): unknown env"):
        Trainer(parse_config(_argv(tiny_model, tmp_path / "a", "arithmetic=1,nope=1")),
                log=lambda *a, **k: None)
    with pytest.raises(ConfigError, match=r"'guess-number' is a multi-turn env"):
        Trainer(parse_config(_argv(tiny_model, tmp_path / "b", "arithmetic=1,guess-number=1")),
                log=lambda *a, **k: None)


def test_a_mixed_run_logs_per_task_metrics_and_is_seeded(tiny_model, tmp_path):
    env = "arithmetic=0.5,countdown=0.5"
    trainer = Trainer(parse_config(_argv(tiny_model, tmp_path / "run", env)),
                      log=lambda *a, **k: None)
    tasks_seen = [[e.info["task"] for e in trainer.rollout(step)] for step in range(3)]
    again = Trainer(parse_config(_argv(tiny_model, tmp_path / "run2", env)),
                    log=lambda *a, **k: None)
    assert tasks_seen == [[e.info["task"] for e in again.rollout(step)] for step in range(3)]
    assert {t for step in tasks_seen for t in step} == {"arithmetic", "countdown"}

    trainer.train()
    records = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").open()]
    train = [r for r in records if r["kind"] == "train"]
    evals = [r for r in records if r["kind"] == "eval"]
    assert len(train) == 2
    for rec in train:
        prompts = {k: v for k, v in rec.items() if k.startswith("prompts/")}
        assert sum(prompts.values()) == 4
        for name in (k.split("/")[1] for k in prompts):
            assert 0.0 <= rec[f"accuracy/{name}"] <= 1.0
            assert f"reward/{name}" in rec
    for rec in evals:
        for name in ("arithmetic", "countdown"):
            assert 0.0 <= rec[f"accuracy/{name}"] <= 1.0
            assert f"pass_at_k/{name}" in rec
        assert rec["accuracy"] == pytest.approx(
            (rec["accuracy/arithmetic"] + rec["accuracy/countdown"]) / 2)
