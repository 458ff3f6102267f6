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


def _commands() -> list[list[str]]:
    """Each bash line (continuations joined, comments and VAR=value prefixes dropped)."""
    out = []
    for block in _blocks("bash"):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):
                words = words[1:]
            if words:
                out.append(words)
    return out


def _module_args(words: list[str]) -> tuple[str, list[str]] | None:
    """(module, its arguments) of a `python -m X ...` or `torchrun ... -m X ...` line."""
    if words[0] not in ("python", "torchrun") or "-m" not in words:
        return None
    i = words.index("-m")
    return words[i + 1], words[i + 2:]


def test_the_readme_has_snippets_to_check():
    assert len(_blocks("python")) >= 3 and len(_commands()) >= 20


@pytest.mark.parametrize("code", _blocks("python"), ids=lambda c: c.splitlines()[0][:40])
def test_python_snippets_run(code, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # a snippet that writes files writes them here
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


@pytest.mark.parametrize("words", [w for w in _commands()
                                   if (m := _module_args(w)) and m[0] == "verifiers"],
                         ids=lambda w: " ".join(w)[:60])
def test_verifier_command_lines_run_and_accept(words, capsys):
    from verifiers.cli import main

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
