"""The training CLI's configuration: defaults, YAML, flags, and errors that name the flag."""

import dataclasses
import json

import pytest

from policy_opt.config import ConfigError, TrainConfig, build_parser, parse_config


def test_defaults_validate():
    cfg = parse_config([])
    assert cfg == TrainConfig().validate()


def test_flags_override_yaml_and_yaml_overrides_defaults(tmp_path):
    path = tmp_path / "run.yaml"
    path.write_text("lr: 0.001\ngroup_size: 4\nmax-steps: 7\n")
    cfg = parse_config(["--config", str(path), "--group-size", "6"])
    assert (cfg.lr, cfg.group_size, cfg.max_steps) == (0.001, 6, 7)


@pytest.mark.parametrize(
    "argv, flag",
    [
        (["--group-size", "1"], "--group-size"),
        (["--lr", "0"], "--lr"),
        (["--top-p", "1.5"], "--top-p"),
        (["--beta", "-1"], "--beta"),
        (["--minibatches", "3"], "--minibatches"),  # 3 does not divide 16 prompts
        (["--max-steps", "0"], "--max-steps"),
        (["--device", "tpu"], "--device"),
        (["--seed", "-1"], "--seed"),
        (["--seed", str(2**64)], "--seed"),
        (["--weight-decay", "nan"], "--weight-decay"),
        (["--beta", "nan"], "--beta"),
        (["--max-minutes", "nan"], "--max-minutes"),
        (["--max-minutes", "inf"], "--max-minutes"),
        (["--grad-clip", "nan"], "--grad-clip"),
        (["--temperature", "inf"], "--temperature"),
        (["--eps-high", "nan"], "--eps-high"),
        (["--out", ""], "--out"),
        (["--out", "  "], "--out"),
    ],
)
def test_bad_values_name_the_flag(argv, flag):
    with pytest.raises(ConfigError, match=flag):
        parse_config(argv)


def test_unknown_algo_is_rejected_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exc:
        parse_config(["--algo", "ppo"])
    assert exc.value.code == 2
    assert "--algo" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text, match",
    [("lr: fast\n", "'lr' must be float"), ("bogus: 1\n", "unknown field 'bogus'"),
     ("- 1\n- 2\n", "mapping"), ("lr: [\n", "not valid YAML"),
     ("max_steps: true\n", "'max_steps' must be int"), ("resume: 1\n", "'resume' must be bool"),
     ("max_steps: null\n", "'max_steps' must be int"), ("lr: 1e400\n", "--lr must be a finite")],
)
def test_bad_yaml_names_the_field(tmp_path, text, match):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=match):
        parse_config(["--config", str(path)])


def test_missing_yaml_file(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        parse_config(["--config", str(tmp_path / "nope.yaml")])


def test_help_documents_every_field():
    text = build_parser().format_help()
    for name in TrainConfig.__dataclass_fields__:
        assert "--" + name.replace("_", "-") in text


def test_bool_flag_forms():
    assert parse_config(["--resume"]).resume is True
    assert parse_config(["--resume", "false"]).resume is False


def test_yaml_reads_exponent_floats_and_nullable_fields(tmp_path):
    # YAML 1.1 reads `1e-4` (no dot) as a string; users write learning rates that way.
    path = tmp_path / "c.yaml"
    path.write_text("lr: 1e-4\nbeta: null\nmax_minutes: 2\n")
    cfg = parse_config(["--config", str(path)])
    assert (cfg.lr, cfg.beta, cfg.max_minutes) == (1e-4, None, 2.0)
    assert isinstance(cfg.max_minutes, float)


def test_non_utf8_yaml_is_a_config_error(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_bytes(b"env: \xff\xfe\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        parse_config(["--config", str(path)])


def test_out_that_is_a_file_is_rejected(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(ConfigError, match="--out .* is a file"):
        parse_config(["--out", str(tmp_path / "f")])


def test_help_states_each_built_in_default(capsys):
    from policy_opt.config import build_parser

    text = " ".join(build_parser().format_help().split("options:", 1)[1].split())
    for flag, default in (("--max-steps", 20), ("--lr", 0.0001), ("--out", "runs/latest"),
                          ("--flush-denormal", True)):
        assert f"(default: {default})" in text.split(f"{flag} ", 1)[1].split(" --", 1)[0], flag
    assert "(default: None)" not in text


def test_resume_takes_the_runs_own_settings_unless_given_again(tmp_path):
    # README: `--out runs/arith --max-steps 80 --resume` continues the run in runs/arith; the
    # settings it was started with must not fall back to the built-in defaults.
    out = tmp_path / "run"
    out.mkdir()
    started = dataclasses.replace(TrainConfig(), env="gsm8k", algo="grpo", group_size=4,
                                  beta=0.01, out=str(out))
    (out / "config.json").write_text(json.dumps(dataclasses.asdict(started)))
    yaml_file = tmp_path / "c.yaml"
    yaml_file.write_text("group_size: 6\n")
    cfg = parse_config(["--out", str(out), "--resume", "--max-steps", "80",
                        "--config", str(yaml_file), "--lr", "3e-5"])
    assert (cfg.env, cfg.algo, cfg.beta) == ("gsm8k", "grpo", 0.01)  # the run's own
    assert (cfg.group_size, cfg.lr, cfg.max_steps) == (6, 3e-5, 80)  # given again: they win
    assert cfg.resume is True and cfg.out == str(out)
    # Without --resume the saved settings play no part.
    assert parse_config(["--out", str(out)]).env == TrainConfig().env


def test_resume_with_a_damaged_run_config_names_the_file(tmp_path):
    (tmp_path / "config.json").write_text('{"group_size": "four"}')
    with pytest.raises(ConfigError, match="config.json: field 'group_size' must be int"):
        parse_config(["--out", str(tmp_path), "--resume"])


def test_a_real_model_is_told_which_small_model_defaults_it_runs_with():
    from policy_opt.config import TrainConfig, small_model_note

    cfg = TrainConfig(model="Qwen/Qwen2.5-0.5B-Instruct", lr=1e-6)
    note = small_model_note(cfg, 494_000_000)
    assert "--max-new-tokens 32 (usual: 512-1024" in note and "--eval-prompts 32" in note
    assert "--lr" not in note  # set by the user: not a default in use
    assert small_model_note(cfg, 9_000_000) is None              # a small model: defaults fit
    assert small_model_note(TrainConfig(), 494_000_000) is None  # the default model itself
    done = TrainConfig(model="m", lr=1e-6, max_new_tokens=512, eval_prompts=256)
    assert small_model_note(done, 494_000_000) is None


@pytest.mark.parametrize("argv, text", [
    (["--overwrite", "maybe"], "--overwrite: expected true/false"),
    (["--keep-checkpoints", "-1"], "--keep-checkpoints must be >= 0"),
    (["--keep-checkpoints", "x"], "--keep-checkpoints: invalid int value"),
    (["--report-to", "mlflow"], "--report-to: invalid choice"),
    (["--loss-norm", "sum"], "--loss-norm: invalid choice"),
    (["--adv-scale", "rank"], "--adv-scale: invalid choice"),
    (["--lora-r", "-1"], "--lora-r must be >= 0"),
    (["--lora-alpha", "-2"], "--lora-alpha must be >= 0"),
    (["--lora-r", "4", "--lora-target", " , "], "--lora-target is empty"),
    (["--resume", "--overwrite"], "give one of them"),
])
def test_new_flags_reject_bad_values_in_one_line(argv, text, tmp_path, capsys):
    from policy_opt.train import main

    try:
        code = main([*argv, "--out", str(tmp_path / "run")])
    except SystemExit as exit_:
        code = exit_.code
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and text in err[0], err
