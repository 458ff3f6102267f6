"""What a run read from outside its flags, recorded so ``--out DIR --resume`` needs nothing else.

``config.json`` keeps the flags. ``inputs.json`` keeps what the shell supplied: the data
location (``$RLVR_DATA_DIR``, ``--path`` made absolute), the model cache (``$RLVR_CACHE``), the
folders the ``--module`` files were imported from, and the working folder. On ``--resume``
:func:`restore_inputs` puts them back when the shell lacks them, and says so when the shell
now disagrees: a resumed run reads the data it started with, so a fresh shell that runs the
printed ``continue with:`` command continues the same run.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from policy_opt.config import TrainConfig

INPUTS_FILE = "inputs.json"
ENV_VARS = ("RLVR_DATA_DIR", "RLVR_CACHE")
"""The environment variables that decide which data and which cached model a run reads."""


def _absolute(path: str, base: str | None = None) -> str:
    """``path`` as an absolute path (relative ones from ``base``, default the working folder)."""
    if not path:
        return ""
    full = Path(path).expanduser()
    if base and not full.is_absolute():
        full = Path(base) / full
    return str(full.resolve())


def _shell_value(name: str) -> str | None:
    # Made absolute: the README sets RLVR_DATA_DIR=../shared/data, and the printed continue
    # command (whose --out is absolute) is run from any folder.
    value = os.environ.get(name)
    return _absolute(value) if value else value


def _module_dirs(module: str) -> list[str]:
    """The folders the (already imported) ``--module`` files came from."""
    dirs: list[str] = []
    for name in filter(None, (m.strip() for m in module.split(","))):
        mod = sys.modules.get(name.split(".")[0])
        origin = getattr(mod, "__file__", None)
        if origin:
            folder = Path(origin).resolve().parent
            if Path(origin).name == "__init__.py":
                folder = folder.parent
            if str(folder) not in dirs:
                dirs.append(str(folder))
    return dirs


def record_inputs(out: Path, cfg: TrainConfig) -> None:
    """Write ``out/inputs.json`` (after the ``--module`` files were imported)."""
    data = {
        "env_vars": {name: _shell_value(name) for name in ENV_VARS},
        "path": _absolute(cfg.path),
        "module": cfg.module,
        "module_dirs": _module_dirs(cfg.module),
        "env": cfg.env,
        "model": cfg.model,
        "cwd": os.getcwd(),
    }
    tmp = out / (INPUTS_FILE + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, out / INPUTS_FILE)


def read_inputs(out: str | Path) -> dict[str, Any] | None:
    """``out/inputs.json`` as a dict, or None (a run from before it was recorded, or torn)."""
    try:
        data = json.loads((Path(out).expanduser() / INPUTS_FILE).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def restore_inputs(cfg: TrainConfig, log: Any = print, *, run: str | Path | None = None,
                   prefer_shell: bool = False) -> None:
    """On ``--resume``: put back the recorded data location, model cache, ``--path`` and
    module folders; note each one restored and each one the shell now sets differently.

    ``run``: the run folder (default ``--out``). ``prefer_shell``: a variable the shell sets
    wins over the run's (``evaluate`` judges a checkpoint on whatever data it is pointed at).
    """
    data = read_inputs(run if run is not None else cfg.out)
    if data is None:
        return
    recorded = data.get("env_vars") if isinstance(data.get("env_vars"), dict) else {}
    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    for name in ENV_VARS:
        before, now = recorded.get(name), os.environ.get(name)
        if not isinstance(before, str) or not before:
            continue
        # runs recorded before the values were made absolute: relative to where they ran
        before = _absolute(before, cwd)
        if now and _absolute(now) == before:
            continue
        if now is None:
            os.environ[name] = before
            log(f"note: ${name} is not set; using the run's own ({before})")
        elif Path(before).exists() and not prefer_shell:
            # The same run reads the same data; a different folder would be another experiment.
            os.environ[name] = before
            log(f"warning: ${name} is now {now!r}, but this run started with "
                f"{before!r}; keeping the run's (start a new --out to use the new one)")
        else:
            log(f"note: the run started with ${name}={before!r}; using the shell's {now!r}")
    path = data.get("path")
    if isinstance(path, str) and path and cfg.path and _absolute(cfg.path) != path:
        if Path(cfg.path).expanduser().exists():
            log(f"warning: --resume: --path {cfg.path!r} is not the run's own ({path})")
        elif Path(path).exists():
            # A relative --path from config.json, resumed from another folder.
            cfg.path = path
    for folder in data.get("module_dirs") or []:
        if isinstance(folder, str) and Path(folder).is_dir() and folder not in sys.path:
            # After the working folder, so the shell's own modules still come first.
            sys.path.append(folder)
