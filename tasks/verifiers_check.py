"""Is the ``verifiers`` package that ``import verifiers`` finds this project's?

PrimeIntellect's ``verifiers`` (PyPI) uses the same top-level name. Which one ``import
verifiers`` returns depends on the install order and kind: installed after ours it
overwrites our ``verifiers/__init__.py`` (so our own check, ``verifiers.name_clash``, never
runs); installed next to our editable install, its site-packages folder comes first on
``sys.path``. ``tasks``, ``envs`` and ``policy_opt`` import ``verifiers``; each imports this
module first, which runs ``require_our_verifiers()``, so using any of them with the wrong package fails in one
line naming the package found and the fix, not later with ``cannot import name 'Verdict'``.

The check reads the found ``__init__.py`` for our marker (``__rlvr_toolkit__ = True``)
before importing it: the other package's ``__init__`` may need what is not installed. Ours
is then imported, which runs its own check (``verifiers.name_clash``: the other package's
files mixed into our folder when it was installed first).
"""

from __future__ import annotations

import importlib.util
import os
import sys

MARKER = "__rlvr_toolkit__ = True"


def _owner(origin: str) -> str:
    """``"name version"`` of the other distributions whose RECORD lists ``origin``."""
    import importlib.metadata

    site = os.path.dirname(os.path.dirname(origin))
    owners = sorted(
        f"{dist.metadata['Name']} {dist.version}"
        for dist in importlib.metadata.distributions(path=[site])
        if "verifiers/__init__.py," in (dist.read_text("RECORD") or "")
        and dist.metadata["Name"] != "rlvr-toolkit"
    )
    return ", ".join(owners) or "installed by no distribution found"


def require_our_verifiers() -> None:
    """Raise a one-line ``ImportError`` unless ``import verifiers`` gives this project's."""
    loaded = sys.modules.get("verifiers")
    if loaded is not None:
        if getattr(loaded, "__rlvr_toolkit__", False) is True:
            return
        origin = getattr(loaded, "__file__", None) or "?"
    else:
        spec = importlib.util.find_spec("verifiers")
        if spec is None:
            raise ImportError("no 'verifiers' package is importable: install this project "
                              "(`pip install -e .`)")
        origin = spec.origin or "?"
        try:
            with open(origin, encoding="utf-8", errors="replace") as f:
                ours = MARKER in f.read()
        except OSError:
            ours = False
        if ours:
            import verifiers  # noqa: F401 - ours: runs its own check for a mixed folder
            return
    raise ImportError(
        f"'import verifiers' finds {origin} ({_owner(origin) if origin != '?' else '?'}), "
        "not rlvr-toolkit's verifiers: another project (PrimeIntellect's verifiers) uses the "
        "same name. Use separate virtual environments, or `pip uninstall verifiers` and then "
        "`pip install --force-reinstall --no-deps -e .` in this project"
    )


require_our_verifiers()
