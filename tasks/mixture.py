"""Task mixtures: several tasks in one run, each prompt drawn from one of them with weights.

A mixture is written ``gsm8k=0.7,math500=0.3`` (``--env``), or in YAML as a list of
one-key mappings (``- gsm8k: 0.7``), a mapping, or a list of ``name=weight`` strings.
Weights are relative (normalised to sum 1). A spec without ``=`` is a single env, not a
mixture (:func:`parse_mixture` returns None), so ``--env gsm8k`` means what it always did.

>>> m = parse_mixture("gsm8k=0.7,math500=0.3")
>>> m.names, m.weights
(('gsm8k', 'math500'), (0.7, 0.3))
>>> import random
>>> m.draw(5, random.Random(0)) == m.draw(5, random.Random(0))
True
>>> parse_mixture([{"gsm8k": 7}, {"math500": 3}]).spec()
'gsm8k=0.7,math500=0.3'
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Mixture", "is_mixture", "parse_mixture"]


@dataclass(frozen=True)
class Mixture:
    """Task names and their normalised weights, in the order given."""

    names: tuple[str, ...]
    weights: tuple[float, ...]

    def draw(self, n: int, rng: random.Random) -> list[str]:
        """``n`` task names drawn independently with the weights from ``rng`` (seeded by the
        caller, so the same seed gives the same sequence)."""
        return rng.choices(self.names, weights=self.weights, k=n)

    def spec(self) -> str:
        """The ``--env`` string of this mixture."""
        return ",".join(f"{n}={w:g}" for n, w in zip(self.names, self.weights))


def is_mixture(spec: Any) -> bool:
    """Whether ``spec`` (an ``--env`` value) is a mixture rather than one env."""
    return not isinstance(spec, str) or any(_split_weight(p)[1] for p in spec.split(","))


def _split_weight(part: str) -> tuple[str, str, str]:
    """``(name, "=", weight)`` of one mixture entry, ``(part, "", "")`` without a weight. A
    name may carry options as a query (``rg:gcd?level=2``): its ``=`` signs are the options',
    and a weight follows the last one (``rg:gcd?level=2=0.3``).

    >>> _split_weight("rg:gcd?level=2"), _split_weight("rg:gcd?level=2=0.3")
    (('rg:gcd?level=2', '', ''), ('rg:gcd?level=2', '=', '0.3'))
    """
    _, query_mark, query = part.partition("?")
    if not query_mark:
        return part.partition("=")  # type: ignore[return-value]
    if query.rpartition("&")[2].count("=") < 2:
        return part, "", ""
    return part.rpartition("=")  # type: ignore[return-value]


def parse_mixture(spec: Any, *, field: str = "--env") -> Mixture | None:
    """The mixture ``spec`` describes, or None for a single env name.

    Raises ValueError naming ``field`` for an empty name, a missing, non-numeric, zero,
    negative or non-finite weight, or a task given twice.
    """
    if isinstance(spec, str):
        if not is_mixture(spec):
            return None
        items: list[tuple[Any, Any]] = []
        for part in spec.split(","):
            name, eq, weight = _split_weight(part)
            if not eq:
                raise ValueError(f"{field} {spec!r}: {part.strip()!r} has no weight; a "
                                 "mixture gives every task one (gsm8k=0.7,math500=0.3)")
            items.append((name, weight))
    elif isinstance(spec, Mapping):
        items = list(spec.items())
    elif isinstance(spec, Sequence) and not isinstance(spec, bytes):
        items = []
        for entry in spec:
            if isinstance(entry, Mapping) and len(entry) == 1:
                items.extend(entry.items())
            elif isinstance(entry, str) and _split_weight(entry)[1]:
                name, _, weight = _split_weight(entry)
                items.append((name, weight))
            else:
                raise ValueError(f"{field}: a mixture entry must be 'name: weight' or "
                                 f"'name=weight', got {entry!r}")
    else:
        raise ValueError(f"{field} must be an env name or a mixture (gsm8k=0.7,math500=0.3), "
                         f"got {type(spec).__name__}")
    if not items:
        raise ValueError(f"{field}: the mixture is empty")
    names: list[str] = []
    weights: list[float] = []
    for name, raw in items:
        name = str(name).strip()
        if not name:
            raise ValueError(f"{field}: a mixture entry has no task name (weight {raw!r})")
        if name in names:
            raise ValueError(f"{field}: task {name!r} is given twice in the mixture")
        weight = _weight(raw)
        if weight is None:
            raise ValueError(f"{field}: the weight of {name!r} must be a number, got {raw!r}")
        if not math.isfinite(weight) or weight <= 0:
            raise ValueError(f"{field}: the weight of {name!r} must be a finite number > 0, "
                             f"got {raw!r}")
        names.append(name)
        weights.append(weight)
    total = sum(weights)
    return Mixture(tuple(names), tuple(w / total for w in weights))


def _weight(raw: Any) -> float | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, (int, float)):
        return float(raw)
    if isinstance(raw, str):
        try:
            return float(raw.strip())
        except ValueError:
            return None
    return None
