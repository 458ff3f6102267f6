"""The router behind ``verifiers.adapters.compute_score``: one verl ``compute_score`` for a
run that mixes data sources, dispatching on ``data_source`` to the verifier of that source
as verl's own ``default_compute_score`` does.

Point verl at it with ``custom_reward_function.path=<site-packages>/verifiers/adapters.py``
and ``custom_reward_function.name=compute_score``.

>>> from verifiers.adapters import compute_score
>>> float(compute_score("openai/gsm8k", "so #### 7", "7"))
1.0
>>> float(compute_score("HuggingFaceH4/MATH-500", "\\\\boxed{\\\\frac{1}{2}}", "\\\\frac12"))
1.0

Each source is scored by ``to_verl`` of its verifier, so list golds, ``reward_kwargs``, the
deadline and the typed errors behave as they do there. The result is a ``VerlScore`` with
the same keys for every source (``score``, ``no_signal``, ``errors``): verl collects a dict's
keys per sample, and a batch that mixes sources with different keys would not line up.
``register_source("my/source", my_check)`` adds a source (or replaces one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from verifiers.countdown import countdown_check
from verifiers.gsm8k import gsm8k_check
from verifiers.math import math_check

__all__ = ["DEFAULT_SOURCES", "SourceRouter"]

_KEYS = ("score", "no_signal", "errors")


class SourceRouter:
    """A verl ``compute_score`` that picks the verifier by ``data_source``.

    Sources match exactly, then ignoring case. An unknown source raises ``KeyError`` naming
    it and the known ones: scoring it 0.0 would be a silent zero for every sample of it.
    """

    def __init__(self, sources: Mapping[str, Callable[..., Any] | Any] | None = None, *,
                 adapt: Callable[[Any], Any]) -> None:
        # adapt is verifiers.adapters.to_verl, passed in so this module does not import it
        # (adapters re-exports the router: importing back would make a circle).
        self._adapt = adapt
        self._verifiers: dict[str, Any] = {}
        self._adapters: dict[str, Any] = {}
        for name, fn in (sources or {}).items():
            self.register(name, fn)

    def register(self, data_source: str | Iterable[str], fn_or_rubric: Any) -> None:
        """Score ``data_source`` (a name or several) with ``fn_or_rubric`` (a reward function
        ``fn(completion, answer, **info)`` or a ``Rubric``)."""
        names = [data_source] if isinstance(data_source, str) else list(data_source)
        if not names or not all(isinstance(n, str) and n.strip() for n in names):
            raise ValueError(f"data_source must be a non-empty string or strings, got "
                             f"{data_source!r}")
        if not callable(fn_or_rubric) and not hasattr(fn_or_rubric, "score"):
            raise TypeError(f"register({names[0]!r}, ...) expects a reward function or a "
                            f"Rubric, got {type(fn_or_rubric).__name__}")
        for name in names:
            self._verifiers[name] = fn_or_rubric
            self._adapters.pop(name, None)

    def sources(self) -> list[str]:
        return sorted(self._verifiers)

    def _resolve(self, data_source: Any) -> str:
        if isinstance(data_source, str):
            if data_source in self._verifiers:
                return data_source
            folded = {k.casefold(): k for k in self._verifiers}
            if data_source.casefold() in folded:
                return folded[data_source.casefold()]
        raise KeyError(f"compute_score: unknown data_source {data_source!r}; known: "
                       f"{', '.join(self.sources())}. Add one with "
                       "verifiers.adapters.register_source(name, reward_fn)")

    def adapter(self, data_source: Any) -> Any:
        """The ``to_verl`` compute_score that scores ``data_source``."""
        name = self._resolve(data_source)
        if name not in self._adapters:
            self._adapters[name] = self._adapt(self._verifiers[name])
        return self._adapters[name]

    def __call__(self, data_source: Any = None, solution_str: Any = None,
                 ground_truth: Any = None, extra_info: Mapping[str, Any] | None = None,
                 **kwargs: Any) -> Any:
        if "solution_strs" in kwargs:
            return self.batch(**kwargs)
        score = self.adapter(data_source)(data_source, solution_str, ground_truth, extra_info,
                                          **kwargs)
        return _uniform(score)

    def batch(self, *, data_sources: Sequence[Any], solution_strs: Sequence[Any],
              ground_truths: Sequence[Any],
              extra_infos: Sequence[Mapping[str, Any] | None] | None = None,
              **kwargs: Any) -> list[Any]:
        """verl's ``BatchRewardManager`` call: each sample to its source's verifier."""
        n = len(solution_strs)
        extra_infos = [None] * n if extra_infos is None else list(extra_infos)
        if not len(data_sources) == len(ground_truths) == len(extra_infos) == n:
            raise ValueError(f"compute_score: {n} solution_strs but {len(data_sources)} "
                             f"data_sources, {len(ground_truths)} ground_truths and "
                             f"{len(extra_infos)} extra_infos")
        return [self(s, c, g, e, **kwargs)
                for s, c, g, e in zip(data_sources, solution_strs, ground_truths, extra_infos)]


def _uniform(score: Any) -> Any:
    return type(score)({k: float(score[k]) for k in _KEYS})  # to_verl's VerlScore


def _countdown(completion: str, answer: Any, *, numbers: Sequence[int], **_: Any) -> Any:
    return countdown_check(completion, answer, numbers=numbers)


# verl's default_compute_score names (its data preprocessing scripts) and our task names.
DEFAULT_SOURCES: dict[str, Callable[..., Any]] = {
    "openai/gsm8k": gsm8k_check,
    "gsm8k": gsm8k_check,
    "arithmetic": gsm8k_check,
    "HuggingFaceH4/MATH-500": math_check,
    "lighteval/MATH": math_check,
    "DigitalLearningGmbH/MATH-lighteval": math_check,
    "hendrycks/competition_math": math_check,
    "math500": math_check,
    "math": math_check,
    "countdown": _countdown,
}
