"""The installed size of what the project pulls in: rlvr-toolkit's dependency closure (with
the given extras), summed from each distribution's file list, so the README's venv size is
measured, not guessed.

    python benchmarks/install_size.py          # the core dependencies
    python benchmarks/install_size.py dev      # with the [dev] extra
"""

from __future__ import annotations

import contextlib
import importlib.metadata as md
import os
import sys

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def closure(name: str, extras: tuple[str, ...] = ()) -> dict[str, md.Distribution]:
    """Every installed distribution ``name[extras]`` requires, directly or not."""
    seen: dict[str, md.Distribution] = {}
    todo = [(name, extras)]
    while todo:
        dist_name, dist_extras = todo.pop()
        key = canonicalize_name(dist_name)
        if key in seen:
            continue
        try:
            dist = md.distribution(dist_name)
        except md.PackageNotFoundError:  # an optional dependency not installed here
            continue
        seen[key] = dist
        for text in dist.requires or []:
            req = Requirement(text)
            envs = [{"extra": e} for e in dist_extras] or [{"extra": ""}]
            if req.marker is None or any(req.marker.evaluate(env) for env in envs):
                todo.append((req.name, tuple(req.extras)))
    return seen


def size(dist: md.Distribution) -> int:
    total = 0
    for file in dist.files or []:
        with contextlib.suppress(OSError):  # listed but not present (a .pyc never written)
            total += os.path.getsize(str(dist.locate_file(file)))
    return total


def main() -> None:
    extras = tuple(a for arg in sys.argv[1:] for a in arg.split(",") if a)
    dists = closure("rlvr-toolkit", extras)
    sizes = sorted(((size(d), k) for k, d in dists.items()), reverse=True)
    for n, key in sizes[:8]:
        print(f"{n / 2**20:8.0f} MiB  {key}")
    total = sum(n for n, _ in sizes)
    print(f"rlvr-toolkit[{','.join(extras)}]: {len(dists)} distributions, {total / 2**30:.2f} GiB")


if __name__ == "__main__":
    main()
