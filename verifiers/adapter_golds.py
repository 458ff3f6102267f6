"""What a gold means to the adapters: one reference, or (a list, tuple or 1-d numpy array of
strings/numbers, as verl's ``ground_truth`` and several datasets give) any of several, each
scored and the best total kept. A list gold that cannot mean "any of these" (empty, nested,
of dicts) raises a ``TypeError`` naming the field, instead of every sample scoring as no
signal; ``gold="as_is"`` hands a structured gold to a function that takes it whole.

>>> candidates(["7", 7.5], "ground_truth", "any")
['7', '7.5']
>>> candidates([], "ground_truth", "any")
Traceback (most recent call last):
...
TypeError: ground_truth is an empty list: no reference to score against (every sample would carry no signal)
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from verifiers.rubric import Rubric, RubricScore

__all__ = ["GoldMode", "abest_of", "as_reference", "best_of", "candidates"]

GoldMode = Literal["any", "as_is"]


def as_reference(value: Any) -> Any:
    # Datasets often store numeric answers as numbers (numpy ones in verl's parquet rows);
    # the verifiers compare strings.
    if hasattr(value, "item") and getattr(value, "shape", None) == ():  # a numpy scalar
        value = value.item()
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return str(value)
    return value


def _is_listlike(value: Any) -> bool:
    if isinstance(value, (list, tuple)):
        return True
    return hasattr(value, "tolist") and getattr(value, "shape", ()) != ()  # a numpy array


def candidates(gold: Any, field: str, mode: GoldMode) -> list[Any]:
    """The references one sample's gold stands for: itself, or (mode ``"any"``) each element
    of a list/tuple/array of strings or numbers. Raises ``TypeError`` naming ``field`` for a
    list gold that cannot mean "any of these"."""
    if mode == "as_is" or not _is_listlike(gold):
        return [as_reference(gold)]
    if getattr(gold, "ndim", 1) != 1:
        raise TypeError(f"{field} is a {gold.ndim}-d array {gold!r:.80}: a gold array must be "
                        "1-d (any of its items counts as correct); pass gold='as_is' if the "
                        "reward function takes it whole")
    items = [as_reference(g) for g in (gold.tolist() if hasattr(gold, "tolist") else gold)]
    if not items:
        raise TypeError(f"{field} is an empty {type(gold).__name__}: no reference to score "
                        "against (every sample would carry no signal)")
    for k, item in enumerate(items):
        if not isinstance(item, str):
            raise TypeError(
                f"{field} is a list whose item [{k}] is a {type(item).__name__} ({item!r:.60}): "
                "a list gold means 'any of these answers' and must hold str or numbers; pass "
                "gold='as_is' if the reward function takes the structure itself")
    return items


def best_of(rubric: Rubric, completions: Sequence[Any], golds: Sequence[list[Any]],
             infos: Sequence[Mapping[str, Any]], workers: int | None) -> list[RubricScore]:
    """Each sample scored against each of its candidate golds; the best total wins (a
    number beats ``None``; ties go to the first candidate)."""
    if all(len(g) == 1 for g in golds):
        return rubric.score_batch(list(completions), [g[0] for g in golds], list(infos),
                                  workers=workers)
    owner = [i for i, g in enumerate(golds) for _ in g]
    flat = rubric.score_batch([completions[i] for i in owner], [a for g in golds for a in g],
                              [infos[i] for i in owner], workers=workers)
    return _pick_best(owner, flat, len(golds))


def _pick_best(owner: Sequence[int], flat: Sequence[RubricScore], n: int) -> list[RubricScore]:
    best: list[RubricScore | None] = [None] * n
    for i, score in zip(owner, flat):
        held = best[i]
        if held is None or (score.total is not None
                            and (held.total is None or score.total > held.total)):
            best[i] = score
    return best  # type: ignore[return-value]


async def abest_of(rubric: Rubric, completions: Sequence[Any], golds: Sequence[list[Any]],
                    infos: Sequence[Mapping[str, Any]], workers: int | None
                    ) -> list[RubricScore]:
    owner = [i for i, g in enumerate(golds) for _ in g]
    flat = await rubric.ascore_batch([completions[i] for i in owner],
                                     [a for g in golds for a in g],
                                     [infos[i] for i in owner], workers=workers)
    return _pick_best(owner, flat, len(golds))
