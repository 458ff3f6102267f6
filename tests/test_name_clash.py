"""Importing ``verifiers`` refuses to load when another distribution (PyPI's ``verifiers``,
PrimeIntellect's, uses the same top-level name) has installed files into the package folder.

A temporary site folder holds a copy of the package and fake ``*.dist-info`` folders, as pip
would leave them; each case imports ``verifiers`` from it in a fresh interpreter."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from verifiers.name_clash import foreign_owners

ROOT = Path(__file__).resolve().parent.parent


def _dist(site: Path, name: str, version: str, files: list[str]) -> None:
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "RECORD").write_text("".join(f"{f},sha256=x,1\n" for f in files)
                                 + f"{info.name}/RECORD,,\n")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "site-packages"
    site.mkdir()
    shutil.copytree(ROOT / "verifiers", site / "verifiers",
                    ignore=shutil.ignore_patterns("__pycache__"))
    ours = [f"verifiers/{p.name}" for p in (site / "verifiers").glob("*.py")]
    _dist(site, "rlvr-toolkit", "0.1.0", ours)
    _dist(site, "numpy", "2.0.0", ["numpy/__init__.py", "numpy.libs/x.so"])
    return site


def _import(site: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-c", "import verifiers, verifiers.rubric; "
                           "print(verifiers.__file__)"],
                          env=env, cwd=site.parent, capture_output=True, text=True,
                          timeout=120)


def test_our_own_and_unrelated_distributions_import_cleanly(site: Path):
    out = _import(site)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(site / "verifiers" / "__init__.py")


def test_a_foreign_distribution_in_the_package_folder_fails_naming_it(site: Path):
    _dist(site, "verifiers", "0.1.3",
          ["verifiers/__init__.py", "verifiers/envs/environment.py", "verifiers/types.py"])
    out = _import(site)
    assert out.returncode != 0
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: the verifiers package at")
    assert "verifiers 0.1.3" in last and "PrimeIntellect" in last
    assert "pip uninstall verifiers" in last
    assert foreign_owners(str(site / "verifiers")) == ["verifiers 0.1.3"]


def test_a_record_that_only_mentions_the_name_elsewhere_is_not_a_clash(site: Path):
    _dist(site, "other", "1.0", ["other/verifiers/__init__.py", "docs/verifiers/x.md"])
    assert foreign_owners(str(site / "verifiers")) == []
    assert _import(site).returncode == 0


def test_a_source_checkout_reads_no_distribution(tmp_path: Path):
    # The editable install and the test clones import from a folder without *.dist-info.
    assert foreign_owners(str(ROOT / "verifiers")) == []
    assert foreign_owners(str(tmp_path / "missing" / "verifiers")) == []
