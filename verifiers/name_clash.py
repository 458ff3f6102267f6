"""Detect another distribution's files inside this ``verifiers`` package.

PrimeIntellect's ``verifiers`` (on PyPI as ``verifiers``) installs the same top-level name.
Installed into the same site-packages as this project, the two write into one folder: the
later install overwrites files of the earlier (``__init__.py``, ``types.py``) and leaves the
rest, a mix that fails far from the cause (``cannot import name 'Verdict'``). Importing
``verifiers`` therefore checks which installed distributions list files under ``verifiers/``
in their ``RECORD`` and refuses to load next to a foreign one, naming it and the fix.

Cost: only distributions installed in the folder that holds this package are read, so an
editable install or a checkout on ``PYTHONPATH`` (a source folder without ``*.dist-info``)
pays one directory listing; a regular site-packages install reads its ``RECORD`` files once
(tens of ms).
"""

from __future__ import annotations

import os
import re

OUR_DISTRIBUTION = "rlvr-toolkit"
PACKAGE = "verifiers"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def foreign_owners(package_dir: str, *, ours: str = OUR_DISTRIBUTION) -> list[str]:
    """``"name version"`` of every distribution installed beside ``package_dir`` (in its
    parent folder) whose ``RECORD`` lists files under ``<package>/``, except ``ours``."""
    root = os.path.dirname(os.path.abspath(package_dir))
    package = os.path.basename(os.path.normpath(package_dir))
    try:
        with os.scandir(root) as entries:
            if not any(e.name.endswith(".dist-info") for e in entries):
                return []  # a source checkout or editable install: nothing installed here
    except OSError:
        return []
    import importlib.metadata  # lazy: ~10 ms, paid only beside installed distributions

    prefix = f"{package}/"
    owners = []
    for dist in importlib.metadata.distributions(path=[root]):
        record = dist.read_text("RECORD") or ""
        if not (record.startswith(prefix) or f"\n{prefix}" in record):
            continue
        name = dist.metadata["Name"] or "?"  # parsed only for owners: parsing costs ~1 ms
        if _canonical(name) != _canonical(ours):
            owners.append(f"{name} {dist.version}")
    return sorted(owners)


def check(package_dir: str) -> None:
    """Raise ``ImportError`` when another distribution owns files in ``package_dir``."""
    owners = foreign_owners(package_dir)
    if owners:
        raise ImportError(
            f"the {PACKAGE} package at {package_dir} also holds files of {', '.join(owners)}: "
            f"another project uses the top-level name '{PACKAGE}' (PrimeIntellect's "
            "verifiers does), and installing both into one environment mixes their files. "
            f"Use separate virtual environments, or `pip uninstall {owners[0].split()[0]}` "
            f"and then `pip install --force-reinstall {OUR_DISTRIBUTION}` (or `pip install -e .`)"
        )
