"""The docs stay well-formed: every module's docstring parses as doctests (skipped examples
included, so ``pytest --doctest-modules`` can collect every package), and every file of the
repository that the docs or docstrings name exists."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("verifiers", "tasks", "envs", "policy_opt")
# Modules that run on import (CLI entry points) or need what CPU machines lack, and the
# sandbox side's modules, which import their siblings by name from the path the harness sets.
NOT_IMPORTED = {"verifiers.__main__", "tasks.__main__", "verifiers.code.harness",
                "verifiers.code.judge", "verifiers.code.candidate"}


def _modules() -> list[str]:
    names = []
    for pkg in PACKAGES:
        names.append(pkg)
        path = [str(ROOT / pkg)]
        for info in pkgutil.walk_packages(path, prefix=pkg + "."):
            if info.name not in NOT_IMPORTED:
                names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstrings_parse_as_doctests(name):
    module = importlib.import_module(name)
    doctest.DocTestFinder().find(module)  # raises ValueError on a malformed example


def _documented_paths() -> set[str]:
    texts = [p.read_text(encoding="utf-8") for p in ROOT.glob("*.md")]
    texts += [p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md")]
    for pkg in (*PACKAGES, "benchmarks"):
        texts += [p.read_text(encoding="utf-8") for p in (ROOT / pkg).rglob("*.py")]
    pattern = re.compile(r"\b((?:docs|tests|benchmarks|policy_opt|verifiers|tasks|envs)/"
                         r"[A-Za-z0-9_./-]+\.(?:md|py|png))\b")
    return {m for text in texts for m in pattern.findall(text)}


def test_every_named_repository_file_exists():
    missing = sorted(p for p in _documented_paths() if not (ROOT / p).exists())
    assert missing == []
