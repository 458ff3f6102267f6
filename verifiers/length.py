r"""Length shaping as rubric terms: DAPO's soft overlong penalty and a hard truncation penalty.

A rubric term is a reward in [0, 1] (``verifiers.rubric``: weights are >= 0, a penalty is
expressed as ``1 - penalty``), so both come as rewards next to the accuracy term:

- ``SoftOverlong(max_length, buffer)``: ``1 + overlong_penalty(length)``, where
  ``overlong_penalty`` is DAPO's overlong reward shaping (eq. 13 of arXiv:2503.14476, the
  form of TRL's ``get_soft_overlong_punishment`` and of verl's ``overlong_buffer``): 0 up to
  ``max_length - buffer`` tokens, falling linearly to -1 at ``max_length``, -1 beyond.
- ``Truncation(max_length)``: 0 for a completion cut at the length limit (``truncated=True``
  in the row's info, or ``completion_length >= max_length``), 1 otherwise. As a weighted
  term it costs a truncated sample ``w / sum(w)``; as the rubric's ``gate`` it is hard: a
  truncated completion totals 0 whatever its answer.

Both read the length, in tokens, from the info the trainer passes with each sample
(``completion_length``; ``to_trl`` fills it from TRL's ``completion_ids``); without it they
raise, which the rubric reports as a typed error (no signal), never a silent full reward.
``docs/length_shaping.md`` has the formulas and how the weighted mean relates to DAPO's sum.

>>> from verifiers.gsm8k import gsm8k_check
>>> from verifiers.rubric import RewardFunc, Rubric
>>> rubric = Rubric([RewardFunc("accuracy", gsm8k_check),
...                  RewardFunc("overlong", SoftOverlong(100, 20), in_process=True)])
>>> rubric.score("#### 4", "4", completion_length=90).breakdown
{'accuracy': 1.0, 'overlong': 0.5}
"""

from __future__ import annotations

import numbers
from typing import Any

from verifiers.types import Verdict

__all__ = ["SoftOverlong", "Truncation", "overlong_penalty"]


def _count(value: Any, name: str, *, positive: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int number of tokens, got {value!r}")
    if value < 0 or (positive and value == 0):
        raise ValueError(f"{name} must be {'> 0' if positive else '>= 0'}, got {value!r}")
    return int(value)


def overlong_penalty(length: int, max_length: int, buffer: int) -> float:
    """DAPO's soft overlong penalty, in [-1, 0], for a completion of ``length`` tokens.

    ``0`` for ``length <= max_length - buffer``; ``((max_length - buffer) - length) / buffer``
    up to ``max_length``; ``-1`` beyond. ``buffer=0`` is a step at ``max_length``.

    >>> [overlong_penalty(n, 100, 20) for n in (80, 90, 100, 101)]
    [0.0, -0.5, -1.0, -1.0]
    """
    length = _count(length, "length")
    max_length = _count(max_length, "max_length", positive=True)
    buffer = _count(buffer, "buffer")
    if buffer > max_length:
        raise ValueError(f"buffer ({buffer}) must not exceed max_length ({max_length})")
    expected = max_length - buffer
    if length <= expected:
        return 0.0
    if length <= max_length:
        return (expected - length) / buffer
    return -1.0


def _length(info: dict[str, Any], who: str) -> int:
    length = info.get("completion_length")
    if length is None:
        raise ValueError(
            f"{who} needs the completion's length in tokens as info['completion_length'] (our "
            "trainer and to_trl pass it; with verl, use its reward_model.overlong_buffer)")
    return _count(length, "completion_length")


class SoftOverlong:
    """The reward ``1 + overlong_penalty(completion_length, max_length, buffer)``, in [0, 1].

    Module-level and picklable (it runs in a deadline worker like any reward function; it is
    trivially fast, so ``RewardFunc(..., in_process=True)`` saves the round trip).
    """

    __name__ = "soft_overlong"

    def __init__(self, max_length: int, buffer: int) -> None:
        overlong_penalty(0, max_length, buffer)  # validates the settings now, not per sample
        self.max_length, self.buffer = int(max_length), int(buffer)

    def __repr__(self) -> str:
        return f"SoftOverlong(max_length={self.max_length}, buffer={self.buffer})"

    def __call__(self, completion: Any, answer: Any = None, **info: Any) -> Verdict:
        length = _length(info, "SoftOverlong")
        penalty = overlong_penalty(length, self.max_length, self.buffer)
        return Verdict(1.0 + penalty, f"{length} tokens, overlong penalty {penalty:g}",
                       details={"length": length, "penalty": penalty})


class Truncation:
    """The reward 0 for a completion cut at the length limit, 1 otherwise.

    Truncated: ``info["truncated"]`` when the trainer says (a finish reason of ``"length"``),
    else ``completion_length >= max_length``.
    """

    __name__ = "not_truncated"

    def __init__(self, max_length: int) -> None:
        self.max_length = _count(max_length, "max_length", positive=True)

    def __repr__(self) -> str:
        return f"Truncation(max_length={self.max_length})"

    def __call__(self, completion: Any, answer: Any = None, **info: Any) -> Verdict:
        truncated = info.get("truncated")
        if truncated is None:
            truncated = _length(info, "Truncation") >= self.max_length
        elif not isinstance(truncated, bool):
            raise TypeError(f"info['truncated'] must be a bool, got {truncated!r}")
        if truncated:
            return Verdict(0.0, f"truncated at the {self.max_length}-token limit")
        return Verdict(1.0, "finished within the length limit")
