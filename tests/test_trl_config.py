"""A --config YAML written with TRL's GRPOConfig names runs with the same meaning."""

from __future__ import annotations

import pytest

from policy_opt.algorithm.losses import resolve_config
from policy_opt.config import ConfigError, parse_config


def _cfg(tmp_path, text: str, *flags: str):
    path = tmp_path / "run.yaml"
    path.write_text(text)
    return parse_config(["--config", str(path), *flags])


def _loss(cfg):
    # What the Trainer builds from the config (policy_opt.train.Trainer.__init__).
    return resolve_config(cfg.algo, beta=cfg.beta, eps_low=cfg.eps_low, eps_high=cfg.eps_high,
                          norm=None if cfg.loss_norm == "preset" else cfg.loss_norm,
                          adv_scale=None if cfg.adv_scale == "preset" else cfg.adv_scale)


def test_every_listed_trl_name_maps_to_ours(tmp_path):
    cfg = _cfg(tmp_path, """
num_generations: 4
num_iterations: 2
epsilon: 3.0e-4
epsilon_high: 4.0e-4
beta: 0.01
max_completion_length: 48
learning_rate: 1e-6
loss_type: grpo
importance_sampling_level: sequence
scale_rewards: batch
per_device_train_batch_size: 8
max_grad_norm: 0.5
lr_scheduler_type: cosine
save_total_limit: 2
report_to: [none]
""")
    assert (cfg.group_size, cfg.mu, cfg.eps_low, cfg.eps_high, cfg.beta) == (4, 2, 3e-4, 4e-4, 0.01)
    assert (cfg.max_new_tokens, cfg.lr, cfg.micro_batch_size) == (48, 1e-6, 8)
    assert (cfg.grad_clip, cfg.lr_schedule, cfg.keep_checkpoints, cfg.report_to) == (
        0.5, "cosine", 2, "none")
    loss = _loss(cfg)
    assert (loss.ratio_level, loss.norm, loss.adv_scale) == ("sequence", "sequence_mean", "batch")


@pytest.mark.parametrize("text, ratio, norm, scale", [
    # TRL's loss_type picks only the normaliser; its scale_rewards default is "group".
    ("loss_type: dr_grpo\n", "token", "constant", "group"),
    ("loss_type: dr_grpo\nscale_rewards: false\n", "token", "constant", "none"),
    ("loss_type: dapo\n", "token", "token_mean", "group"),
    ("importance_sampling_level: sequence_token\n", "sequence_token", "sequence_mean", "group"),
    ("scale_rewards: none\n", "sequence", "sequence_mean", "none"),  # our default algo, gspo
])
def test_loss_names_combine_as_in_trl(tmp_path, text, ratio, norm, scale):
    loss = _loss(_cfg(tmp_path, text))
    assert (loss.ratio_level, loss.norm, loss.adv_scale) == (ratio, norm, scale)


def test_flags_still_win_over_the_file(tmp_path):
    cfg = _cfg(tmp_path, "num_generations: 4\nlearning_rate: 1e-6\n", "--group-size", "6")
    assert (cfg.group_size, cfg.lr) == (6, 1e-6)


def test_generation_batch_size_becomes_prompts_per_step(tmp_path):
    assert _cfg(tmp_path, "num_generations: 4\ngeneration_batch_size: 32\n").prompts_per_step == 8
    with pytest.raises(ConfigError, match="multiple of num_generations"):
        _cfg(tmp_path, "num_generations: 5\ngeneration_batch_size: 32\n")


@pytest.mark.parametrize("text, message", [
    ("gradient_accumulation_steps: 4\n", "TRL's 'gradient_accumulation_steps' has no equivalent"),
    ("loss_type: bnpo\n", "TRL's loss_type 'bnpo' has no equivalent"),
    ("importance_sampling_level: tokens\n", "importance_sampling_level must be one of"),
    ("scale_rewards: 2\n", "scale_rewards must be"),
    ("num_generations: 4\ngroup_size: 8\n", "'num_generations' (TRL's name) and 'group_size'"),
    ("loss_type: grpo\nalgo: gspo\n", "'importance_sampling_level' (TRL's name) and 'algo'"),
    ("report_to: [wandb, tensorboard]\n", "one reporter at a time"),
    ("num_generation: 4\n", "unknown field 'num_generation'"),
])
def test_trl_names_without_an_equivalent_are_one_line_errors(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
        _cfg(tmp_path, text)
    assert "\n" not in str(err.value)


def test_a_grpo_config_field_we_lack_is_named_as_trl_s(tmp_path):
    pytest.importorskip("trl")
    with pytest.raises(ConfigError, match="TRL's 'vllm_mode' has no equivalent"):
        _cfg(tmp_path, "vllm_mode: colocate\n")


def test_loss_norm_and_adv_scale_flags_reject_bad_values(capsys):
    for flag in ("--loss-norm", "--adv-scale"):
        with pytest.raises(SystemExit):
            parse_config([flag, "median"])
        assert f"argument {flag}: invalid choice: 'median'" in capsys.readouterr().err


def test_the_trainer_builds_the_mapped_loss(tiny_model, tmp_path):
    from policy_opt.train import Trainer

    cfg = _cfg(tmp_path, "loss_type: dapo\nscale_rewards: batch\nepsilon_high: 0.28\n",
               "--model", str(tiny_model), "--out", str(tmp_path / "run"), "--threads", "1")
    loss = Trainer(cfg, log=lambda *a: None).loss_cfg
    assert (loss.ratio_level, loss.norm, loss.adv_scale, loss.eps_high) == (
        "token", "token_mean", "batch", 0.28)
