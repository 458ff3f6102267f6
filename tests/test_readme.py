"""Every README snippet runs and shows what it claims: Python blocks are executed (their
asserts are the claims), and every command line's module and flags exist (the quick ones,
the verifiers CLI, are run)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def _resolved(value: str) -> str:
    # a relative path in a README line is relative to the repository root, where it runs
    return str((ROOT / value).resolve()) if value.startswith(".") else value


def _lines() -> list[tuple[dict[str, str], list[str]]]:
    """Each bash line as (its VAR=value prefixes, the command's words); continuations
    joined, comments dropped."""
    out = []
    for block in _blocks("bash"):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            env = {}
            while words and (m := re.fullmatch(r"([A-Z_][A-Z0-9_]*)=(\S*)", words[0])):
                env[m.group(1)] = _resolved(m.group(2))
                words = words[1:]
            if words:
                out.append((env, words))
    return out


def _commands() -> list[list[str]]:
    """Each bash line's words, VAR=value prefixes dropped."""
    return [words for _, words in _lines()]


def _module_args(words: list[str]) -> tuple[str, list[str]] | None:
    """(module, its arguments) of a `python -m X ...` or `torchrun ... -m X ...` line."""
    if words[0] not in ("python", "torchrun") or "-m" not in words:
        return None
    i = words.index("-m")
    return words[i + 1], words[i + 2:]


def test_the_readme_has_snippets_to_check():
    assert len(_blocks("python")) >= 3 and len(_commands()) >= 20


def _readme_environment() -> dict[str, str]:
    """The variables the README's test command (`VAR=value ... python -m pytest`) sets."""
    for env, words in _lines():
        if words[:3] == ["python", "-m", "pytest"]:
            return env
    raise AssertionError("the README has no test command")


@pytest.mark.parametrize("code", _blocks("python"), ids=lambda c: c.splitlines()[0][:40])
def test_python_snippets_run(code, monkeypatch, tmp_path):
    # exactly the environment the README's test command sets, whatever this shell has
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)
    for key, value in _readme_environment().items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(tmp_path)  # a snippet that writes files writes them here
    if '"rg:' in code:  # the optional extra's snippet (CI installs it: .ci/run)
        pytest.importorskip("reasoning_gym")
    exec(compile(code, "README.md", "exec"), {"__name__": "readme"})


TRAINER_MODULES = ("policy_opt.train", "policy_opt.evaluate", "policy_opt.compare")


@pytest.mark.parametrize("words", [w for w in _commands()
                                   if (m := _module_args(w)) and m[0] in TRAINER_MODULES],
                         ids=lambda w: " ".join(w)[:60])
def test_trainer_command_lines_parse(words):
    from policy_opt.config import build_parser
    from policy_opt.evaluate import EVAL_FIELDS

    module, args = _module_args(words)
    if "--help" in args:
        return
    if module == "policy_opt.compare":  # its own flags, the rest go to the trainer
        import argparse

        p = argparse.ArgumentParser()
        for flag in ("--algos", "--steps", "--minutes", "--out"):
            p.add_argument(flag)
        _, args = p.parse_known_args(args)
    parser = (build_parser(fields=EVAL_FIELDS) if module == "policy_opt.evaluate"
              else build_parser())
    if module == "policy_opt.evaluate":
        parser.add_argument("--out")
    parser.parse_args(args)  # an unknown flag or a bad value exits: the test fails


def _verifier_command(words: list[str]):  # type: ignore[no-untyped-def]
    return pytest.param(words, id=" ".join(words)[:60])


@pytest.mark.parametrize("words", [_verifier_command(w) for w in _commands()
                                   if (m := _module_args(w)) and m[0] == "verifiers"])
def test_verifier_command_lines_run_and_accept(words, capsys, monkeypatch):
    from verifiers.cli import main

    # with exactly the variables the line sets, as a shell would run it
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)
    env = next(env for env, w in _lines() if w == words)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert main(_module_args(words)[1]) == 0, capsys.readouterr()


@pytest.mark.parametrize("words", [w for w in _commands()
                                   if len(w) > 1 and w[0] == "python"
                                   and w[1].startswith("benchmarks/")],
                         ids=lambda w: " ".join(w)[:60])
def test_benchmark_command_lines_name_existing_scripts_and_flags(words):
    script = ROOT / words[1]
    assert script.is_file()
    text = script.read_text(encoding="utf-8")
    for flag in (w for w in words[2:] if w.startswith("--")):
        assert f'"{flag}"' in text or f"'{flag}'" in text or f'"{flag}=' in text, flag


def test_every_module_a_command_names_exists():
    import importlib.util

    names = {m[0] for w in _commands() if (m := _module_args(w))}
    missing = sorted(n for n in names if importlib.util.find_spec(n) is None)
    assert missing == []


@pytest.mark.parametrize("text", _blocks("yaml"), ids=lambda t: t.splitlines()[0][:40])
def test_yaml_configs_load(text, tmp_path):
    from policy_opt.config import TrainConfig, load_yaml

    path = tmp_path / "run.yaml"
    path.write_text(text)
    TrainConfig(**load_yaml(path)).validate()


def test_install_lines_are_true_on_an_ordinary_machine_and_here():
    """The set-up gives PyTorch's CPU-only wheel index (a plain `pip install torch` on an
    ordinary Linux machine fetches the CUDA build), and the pinned version is the one
    installed here."""
    import torch

    installs = [w for w in _commands() if w[:3] == ["pip", "install", "torch"]
                or w[:2] == ["pip", "install"] and any(x.startswith("torch") for x in w[2:3])]
    assert any("--index-url" in w and "https://download.pytorch.org/whl/cpu" in w
               for w in installs), installs
    pinned = [x.split("==")[1] for w in installs for x in w if x.startswith("torch==")]
    assert pinned and all(v == torch.__version__.split("+")[0] for v in pinned), pinned
    assert re.search(r"take \d+(\.\d+)? GiB", README), "the README states the venv size"
    assert re.search(r"test\s+suite.*?takes about \d+ minutes", README, flags=re.S)
