"""The training CLI's configuration: defaults, YAML, flags, and errors that name the flag."""

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
     ("- 1\n- 2\n", "mapping"), ("lr: [\n", "not valid YAML")],
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
