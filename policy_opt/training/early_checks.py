"""Missing data reported before torch loads: ``python -m policy_opt.train --env gsm8k`` with no
local data and the hub out of reach says so in about a second, not after the 5-20 s import of
torch and transformers.

:func:`data_error` makes the env as the trainer's probe (``Session.probe_env``) does, through the
``tasks`` layer alone, and returns the error the trainer would print for it. It is deliberately
narrow: it only speaks when it is certain the trainer would stop with that same error at that
same point, and returns None (the normal path runs and decides) whenever anything else could
come first or differ: ``--resume``, ``--module``, ``--config``, ``--path``, a mixture, a
``module:name`` or ``rg:`` env, a model other than the default, a device or torchrun setup that
can fail, an ``--out`` the trainer refuses, a hub that would be asked (online, or a cached
copy), a bad flag, or any exception of its own. Found data stays in the envs' row cache
(``envs.single_turn``), so a valid run does not read it twice.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Sequence
from typing import Any

SPLITS = ("train", "test")
"""The splits the trainer's probe makes, in its order."""


class _WouldAskHub(BaseException):
    """Raised by the guarded hub loader; a BaseException, so the data source's own
    ``except Exception`` around the hub call lets it through to :func:`data_error`."""


def _guarded_hub(hub_id: str, config: str | None, split: str) -> Any:
    """The hub loader during the early check: blocked -> the tasks layer's own
    ``HubUnavailable``; otherwise the hub would be asked, which only the trainer may do."""
    from tasks.hub import hub_blocked
    from tasks.sources import HubUnavailable

    why = hub_blocked(hub_id)
    if why:
        raise HubUnavailable(why)
    raise _WouldAskHub(hub_id)


def _train_config(argv: Sequence[str]) -> Any:
    from policy_opt.config import build_parser, parse_values

    ns = vars(build_parser().parse_args(list(argv)))
    if ns.pop("config", None) is not None:
        return None
    return parse_values(ns)


def _eval_config(argv: Sequence[str]) -> Any:
    from policy_opt.config import EVAL_DEFAULT_OUT as DEFAULT_OUT
    from policy_opt.config import EVAL_FIELDS, build_parser, parse_values

    parser = build_parser("python -m policy_opt.evaluate", fields=EVAL_FIELDS)
    parser.add_argument("--out", default=DEFAULT_OUT)
    ns = vars(parser.parse_args(list(argv)))
    out = ns.pop("out")
    # A --model (a checkpoint's run settings, a run folder) or --config changes the task.
    if ns.pop("config", None) is not None or "model" in ns:
        return None
    if os.path.exists(out) and not os.path.isdir(out):
        return None
    return parse_values(ns)


def _certain(cfg: Any, command: str) -> bool:
    """Whether the trainer reaches its data probe with nothing before it that could fail."""
    from policy_opt.training.run_folder import check_out
    from tasks.mixture import parse_mixture
    from tasks.registry import is_family

    if cfg is None or cfg.resume or cfg.module or cfg.path or cfg.model != "default":
        return False
    if int(os.environ.get("WORLD_SIZE", "1") or 1) > 1:
        return False
    if cfg.device not in ("auto", "cpu") or (cfg.dtype == "bf16-mixed" and cfg.device != "cpu"):
        return False
    if ":" in cfg.env or is_family(cfg.env) or parse_mixture(cfg.env) is not None:
        return False
    if command == "policy_opt.train":
        check_out(cfg.out, resume=cfg.resume, overwrite=cfg.overwrite)  # raises: not certain
    return True


def data_error(command: str, argv: Sequence[str]) -> str | None:
    """The trainer's (or evaluate's) error line for ``argv`` when its task's data cannot be
    found, as ``run_command`` prints it (exit code 2); None when the data is there or the
    check cannot be sure (see the module doc)."""
    import tasks.sources

    try:
        parse = _train_config if command == "policy_opt.train" else _eval_config
        # A bad flag or --help is the normal path's to print, once.
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            cfg = parse(argv)
        if not _certain(cfg, command):
            return None
        from envs import make

        real = tasks.sources._load_hub
        tasks.sources._load_hub = _guarded_hub
        try:
            for split in SPLITS:
                try:
                    make(cfg.env, split=split).reset(seed=0)
                except tasks.sources.DataNotFound as err:
                    # Session.probe_env's ConfigError, as run_command prints it.
                    return f"error: --env {cfg.env!r} ({split} split): {err}"
        finally:
            tasks.sources._load_hub = real
    except (Exception, SystemExit, _WouldAskHub):
        return None  # uncertain: the normal path decides
    return None


def check_data_early(command: str, argv: Sequence[str] | None = None) -> None:
    """Exit 2 with the data error when :func:`data_error` finds one; otherwise return."""
    message = data_error(command, sys.argv[1:] if argv is None else argv)
    if message is not None:
        print(message, file=sys.stderr)
        raise SystemExit(2)
