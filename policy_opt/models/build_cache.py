"""Builds that are trained once and kept: a directory named by a recipe's hash, written whole.

The copy base and the tool warm start are each a short seeded training run whose result is
reused while its recipe (and the code that makes it) is unchanged. ``build_once`` keeps that
contract in one place: the directory holds a JSON summary with the recipe's hash, a build is
written to a temporary sibling and renamed (a crash never leaves half a model), and a
directory that holds something else is never replaced. ``deterministic`` fixes the thread
count and torch's deterministic algorithms for the run, and restores both after it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import torch


def built_hash(path: Path, marker: str) -> str | None:
    """The recipe hash of the build in ``path`` (from its ``marker`` JSON), or None."""
    try:
        return json.loads((path / marker).read_text())["recipe_hash"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def build_once(path: Path, digest: str, marker: str, train: Callable[[Path], dict], *,
               what: str, verbose: bool = True) -> Path:
    """``path``, trained first by ``train(tmp_dir) -> summary`` unless it already holds the
    build of ``digest``; the summary (with ``recipe_hash``) is written to ``marker``.

    Raises ``ValueError`` naming the path when it exists and holds something else."""
    if built_hash(path, marker) == digest:
        return path
    if path.exists() and (not path.is_dir() or (any(path.iterdir()) and built_hash(path, marker) is None)):
        raise ValueError(f"{os.fspath(path)!r} exists and holds no {what}; name a new or empty directory")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.tmp-", dir=path.parent))
    try:
        summary = train(tmp)
        summary["recipe_hash"] = digest
        (tmp / marker).write_text(json.dumps(summary, indent=2) + "\n")
        if path.exists():
            shutil.rmtree(path)
        os.replace(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if verbose:
        print(f"[{what.replace(' ', '-')}] saved to {path}", flush=True)
    return path


@contextlib.contextmanager
def deterministic(threads: int) -> Iterator[None]:
    """Run the block on ``threads`` threads with torch's deterministic algorithms on."""
    threads_before = torch.get_num_threads()
    det_before = torch.are_deterministic_algorithms_enabled()
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True)
    try:
        yield
    finally:
        torch.set_num_threads(threads_before)
        torch.use_deterministic_algorithms(det_before)
