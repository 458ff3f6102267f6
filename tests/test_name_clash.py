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


# --- every install order, in real virtual environments ---------------------------------

THEIRS = {
    "pyproject.toml": '[build-system]\nrequires = ["setuptools"]\n'
                      'build-backend = "setuptools.build_meta"\n'
                      '[project]\nname = "verifiers"\nversion = "0.1.3"\n'
                      '[tool.setuptools]\npackages = ["verifiers"]\n',
    "verifiers/__init__.py": '"""A stand-in for PrimeIntellect\'s verifiers."""\n'
                             "from verifiers.types import State\n",
    "verifiers/types.py": "State = dict\n",
}


def _run(args, cwd, timeout=300):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def projects(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("clash")
    ours = root / "ours"
    ours.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, ours / name)
    for package in ("verifiers", "tasks", "envs", "policy_opt"):
        shutil.copytree(ROOT / package, ours / package,
                        ignore=shutil.ignore_patterns("__pycache__", "default_model"))
    theirs = root / "theirs"
    for rel, text in THEIRS.items():
        (theirs / rel).parent.mkdir(parents=True, exist_ok=True)
        (theirs / rel).write_text(text)
    return {"ours": ours, "theirs": theirs, "root": root}


def _venv(projects, name: str) -> Path:
    """A venv seeing the system's packages (our dependencies, pip and setuptools)."""
    venv = projects["root"] / name
    out = _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                str(venv)], venv.parent)
    assert out.returncode == 0, out.stderr
    return venv / "bin" / "python"


def _install(projects, python: Path, *installs: list[str]) -> None:
    """pip-install ``installs`` into the venv of ``python``, in order, offline, no deps."""
    for args in installs:
        out = _run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    "--no-build-isolation", *args], projects["root"])
        assert out.returncode == 0, out.stderr


def _fails_in_one_line(python: Path, cwd: Path, module: str) -> str:
    out = _run([str(python), "-c", f"import {module}"], cwd)
    assert out.returncode != 0, f"import {module} succeeded with the other verifiers first"
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: "), out.stderr
    return last


@pytest.mark.slow
@pytest.mark.parametrize("order", ["ours_then_theirs", "theirs_then_ours",
                                   "ours_editable_and_theirs"])
def test_every_install_order_says_so_in_one_line(projects, order):
    ours, theirs = str(projects["ours"]), str(projects["theirs"])
    installs = {"ours_then_theirs": [[ours], [theirs]],
                "theirs_then_ours": [[theirs], [ours]],
                "ours_editable_and_theirs": [["-e", ours], [theirs]]}[order]
    python = _venv(projects, order)
    _install(projects, python, installs[0])
    cwd = projects["root"]
    first_alone = ("import verifiers.types; verifiers.types.State" if order == "theirs_then_ours"
                   else "import tasks, envs, policy_opt, verifiers.rubric")
    alone = _run([str(python), "-c", first_alone], cwd)
    assert alone.returncode == 0, alone.stderr  # the first install alone works
    _install(projects, python, installs[1])
    for module in ("tasks", "envs", "policy_opt"):
        last = _fails_in_one_line(python, cwd, module)
        assert "verifiers 0.1.3" in last and "pip uninstall verifiers" in last, last
    if order == "theirs_then_ours":  # our __init__ won: its own check names theirs
        assert "verifiers 0.1.3" in _fails_in_one_line(python, cwd, "verifiers")
