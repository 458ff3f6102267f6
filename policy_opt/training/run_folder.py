"""What may be written into ``--out``: a new run never mixes with an old one.

A run folder holds what the trainer writes (``RUN_FILES``). Starting a run in a folder that
already holds one would truncate its metrics while its checkpoints stay beside the new ones,
so it is refused unless ``--resume`` (continue it) or ``--overwrite`` (replace it) is given.
``--overwrite`` removes only the trainer's own files and folders, never anything else: a
folder that holds other files is refused outright, as a likely typo of ``--out``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from policy_opt.errors import ConfigError

RUN_FILES = ("metrics.jsonl", "config.json", "inputs.json", "inputs.json.tmp", "curves.png", "curves.tmp.png", "checkpoints",
             "tensorboard", "wandb")
"""The entries of a run folder that the trainer writes (and ``--overwrite`` may remove)."""


def run_entries(out: Path) -> list[str]:
    """The trainer's entries present in ``out`` (empty for a missing folder)."""
    if not out.is_dir():
        return []
    return [name for name in RUN_FILES if (out / name).exists() or (out / name).is_symlink()]


def check_out(out: str | Path, *, resume: bool, overwrite: bool) -> None:
    """Raise ConfigError unless a run may start in ``out`` with these flags."""
    out = Path(out).expanduser()
    if resume and overwrite:
        raise ConfigError("--resume continues the run in --out and --overwrite replaces it; "
                          "give one of them")
    if resume or not out.is_dir():
        return
    ours = run_entries(out)
    others = sorted(p.name for p in out.iterdir() if p.name not in RUN_FILES)
    if others:
        shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
        raise ConfigError(f"--out {str(out)!r} holds files that no run wrote ({shown}); "
                          "choose an empty or new folder (--overwrite never deletes them)")
    if ours and not overwrite:
        raise ConfigError(f"--out {str(out)!r} holds another run ({', '.join(ours)}); continue "
                          "it with --resume, replace it with --overwrite, or choose another --out")


def clear_run(out: str | Path) -> list[str]:
    """Remove the trainer's entries from ``out`` (after ``check_out`` allowed it); returns
    what was removed. Symlinks are unlinked, never followed."""
    out = Path(out).expanduser()
    removed = []
    for name in run_entries(out):
        path = out / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
        removed.append(name)
    return removed
