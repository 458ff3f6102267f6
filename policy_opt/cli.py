"""What every ``python -m policy_opt.<command>`` shares: the exit codes and the process-group
shutdown (:func:`run_command`: 0 done, 1 stopped by a TrainingError, 2 a bad flag, 130 Ctrl-C)
and the early ``--model`` check (:func:`check_model_flag`). The flags themselves are
generated from :class:`policy_opt.config.TrainConfig` (``policy_opt.config.build_parser``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from policy_opt.errors import ConfigError, TrainingError
from policy_opt.training.distributed import shutdown


def check_model_flag(model: str) -> None:
    """A --model that cannot load (a typo'd folder, a hub id offline) as a ConfigError at
    once, before the env and the model are built."""
    from policy_opt.models import DEFAULT_NAME, check_model_source

    if model != DEFAULT_NAME:
        try:
            check_model_source(model)
        except OSError as err:
            raise ConfigError(f"--model {model!r}: {err}") from err


def run_command(body: Callable[[list[Any]], int | None], stopped: str) -> int:
    """Run a CLI's ``body`` with the exit codes both CLIs share: 0 done (or ``body``'s own
    code), 2 a bad flag (ConfigError), 1 ``stopped`` by a TrainingError, 130 Ctrl-C. ``body``
    appends the Trainer or Session it builds to its argument, so its process group is shut
    down on every path."""
    made: list[Any] = []
    try:
        return body(made) or 0
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except TrainingError as err:
        print(f"{stopped}: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        groups = [shutdown(trainer.dist) for trainer in made]
        made.clear()  # the Trainer and its DDP model go first ...
        groups.clear()  # ... then the process group (``shutdown`` says why)
