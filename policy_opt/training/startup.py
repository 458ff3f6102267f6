"""Imported first by ``python -m policy_opt.train`` and ``policy_opt.evaluate``: a signal during
their slow imports (torch, transformers) exits with 130 or 143 and one line, not a traceback
from deep inside an import (see policy_opt.training.signals)."""

from __future__ import annotations

import sys

from policy_opt.training.signals import exit_on_signal, signal_point

CLI_MODULES = ("policy_opt.train", "policy_opt.evaluate")

_main_spec = getattr(sys.modules.get("__main__"), "__spec__", None)
if getattr(_main_spec, "name", None) in CLI_MODULES:
    # Only when run as a command: a library import keeps the host program's handlers.
    exit_on_signal()
    signal_point("import")
    # Missing data is said before torch loads (seconds), when that is certain.
    from policy_opt.training.early_checks import check_data_early

    check_data_early(_main_spec.name)
