"""The verl adapter: ``to_verl`` makes a ``compute_score`` (:class:`VerlComputeScore`, whose
dict results are :class:`VerlScore`) from a reward function or a rubric, for one sample at a
time, a batch (``reward_manager=batch``) or, with ``asynchronous=True``, verl's reward loop.
The managers it was checked against and what each reads are in the module doc of
:mod:`verifiers.adapters`, which re-exports everything public here (and ``compute_score``,
the data-source router built on ``to_verl``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from verifiers.adapter_args import (
    OPTIONS,
    as_rubric,
    check_gold_mode,
    check_options,
    check_required,
    default_name,
    warn_shadowed,
)
from verifiers.adapter_golds import GoldMode, abest_of, best_of, candidates
from verifiers.rubric import Rubric, RubricScore

__all__ = ["VerlComputeScore", "VerlScore", "to_verl"]

# Keys of to_verl's result besides the per-function rewards.
_VERL_KEYS = ("score", "no_signal", "errors")

# Keyword arguments verl's reward loop adds when a reward model is configured (a tokenizer
# among them): not options of our functions, and costly to pickle into a worker.
_VERL_MACHINERY = ("reward_router_address", "reward_model_tokenizer")

# Keys verl's managers add to every ``extra_info`` that only its own machinery reads.
_VERL_EXTRA_INFO_MACHINERY = ("rollout_reward_scores",)

class VerlScore(dict):
    """``to_verl``'s dict result. verl's ``prime`` manager takes ``float(result[0])`` of any
    result that is not a number (and scores the whole batch 0.0 when that raises), so
    ``[0]`` and ``float()`` give the score; every other manager reads the dict.

    >>> s = VerlScore(score=0.5, no_signal=0.0)
    >>> s[0], float(s), s["score"]
    (0.5, 0.5, 0.5)
    """

    def __getitem__(self, key: Any) -> Any:
        if type(key) is int and key == 0 and not dict.__contains__(self, 0):
            key = "score"
        return dict.__getitem__(self, key)

    def __float__(self) -> float:
        return float(dict.__getitem__(self, "score"))


class VerlComputeScore:
    """A verl ``compute_score``; built by ``to_verl``. Called one sample at a time (naive,
    dapo, prime and the reward-loop managers) or, with ``data_sources=``, ``solution_strs=``,
    ``ground_truths=``, ``extra_infos=``, a batch at a time (``reward_manager=batch``)."""

    def __init__(self, rubric: Rubric, name: str, result: str, workers: int | None,
                 gold: GoldMode = "any") -> None:
        self.rubric = rubric
        self.__name__ = name
        self.result = result
        self.gold = gold
        self.workers = workers
        self._checked: set[tuple[str, ...]] = set()
        self._warned = False

    def __repr__(self) -> str:
        return f"<VerlComputeScore {self.__name__} result={self.result!r}>"

    def __call__(
        self,
        data_source: Any = None,
        solution_str: Any = None,
        ground_truth: Any = None,
        extra_info: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> dict[str, float] | float | list[dict[str, float]] | list[float]:
        if "solution_strs" in kwargs:
            return self.batch(**kwargs)
        if solution_str is None and "solution_str" not in kwargs:
            raise TypeError(f"{self.__name__}: verl passes solution_str= (one sample) or "
                            "solution_strs= (reward_manager=batch); got neither")
        options = self._options(kwargs)
        info = self._info(extra_info)
        self._first_call_checks(info, options)
        score = None
        for gold in candidates(ground_truth, "ground_truth", self.gold):
            candidate = self.rubric.score(solution_str, gold, **info, **{OPTIONS: options})
            if score is None or (candidate.total is not None
                                 and (score.total is None or candidate.total > score.total)):
                score = candidate
            if score.total == 1.0:
                break
        return self._result(score)

    async def acall(
        self,
        data_source: Any = None,
        solution_str: Any = None,
        ground_truth: Any = None,
        extra_info: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> dict[str, float] | float:
        """The per-sample call for verl's reward-loop managers, awaited on their loop."""
        options = self._options(kwargs)
        info = {**self._info(extra_info), OPTIONS: options}
        self._first_call_checks({k: v for k, v in info.items() if k != OPTIONS}, options)
        golds = candidates(ground_truth, "ground_truth", self.gold)
        (score,) = await abest_of(self.rubric, [solution_str], [golds], [info], self.workers)
        return self._result(score)

    def batch(
        self,
        *,
        data_sources: Sequence[Any] | None = None,
        solution_strs: Sequence[Any],
        ground_truths: Sequence[Any],
        extra_infos: Sequence[Mapping[str, Any] | None] | None = None,
        **kwargs: Any,
    ) -> list[dict[str, float]] | list[float]:
        """verl's ``BatchRewardManager`` call: one result per sample, scored in parallel
        (``Rubric.score_batch`` with ``workers``)."""
        n = len(solution_strs)
        extra_infos = [None] * n if extra_infos is None else list(extra_infos)
        if len(ground_truths) != n or len(extra_infos) != n:
            raise ValueError(f"{self.__name__}: {n} solution_strs but {len(ground_truths)} "
                             f"ground_truths and {len(extra_infos)} extra_infos")
        options = self._options(kwargs)
        infos = [{**self._info(e), OPTIONS: options} for e in extra_infos]
        if infos:
            self._first_call_checks({k: v for k, v in infos[0].items() if k != OPTIONS},
                                    options)
        golds = [candidates(g, f"ground_truths[{i}]", self.gold)
                 for i, g in enumerate(ground_truths)]
        scores = best_of(self.rubric, list(solution_strs), golds, infos, self.workers)
        return [self._result(s) for s in scores]

    @staticmethod
    def _options(kwargs: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in kwargs.items() if k not in _VERL_MACHINERY}

    def _info(self, extra_info: Any) -> dict[str, Any]:
        if extra_info is None:
            return {}
        if not isinstance(extra_info, Mapping):
            raise TypeError(f"extra_info must be a dict or None, got {type(extra_info).__name__}")
        return {k: v for k, v in extra_info.items() if k not in _VERL_EXTRA_INFO_MACHINERY}

    def _first_call_checks(self, info: Mapping[str, Any], options: Mapping[str, Any]) -> None:
        # Once per set of keys: the keys are the same for every sample of a run.
        key = (*sorted(info), "|", *sorted(options))
        if key in self._checked:
            return
        check_options(self.rubric, self.__name__, options)
        check_required(self.rubric, self.__name__, "extra_info keys", info, options)
        if not self._warned:
            self._warned = True
            warn_shadowed(self.rubric, self.__name__, list(info),
                           "the reference comes from ground_truth")
        self._checked.add(key)

    def _result(self, score: RubricScore) -> dict[str, float] | float:
        total = 0.0 if score.total is None else float(score.total)
        if self.result == "float":
            return total
        result = VerlScore(score=total)
        for fn_name, value in score.breakdown.items():
            result[fn_name] = 0.0 if value is None else float(value)
        result["no_signal"] = float(score.total is None)
        result["errors"] = float(len(score.errors))
        return result


async def _verl_async_compute_score(adapter: VerlComputeScore, *args: Any, **kwargs: Any
                                    ) -> dict[str, float] | float:
    return await adapter.acall(*args, **kwargs)


def to_verl(
    fn_or_rubric: Callable[..., Any] | Rubric,
    *,
    result: Literal["dict", "float"] = "dict",
    workers: int | None = None,
    gold: GoldMode = "any",
    asynchronous: bool = False,
) -> Any:
    """A verl ``compute_score(data_source, solution_str, ground_truth, extra_info=None,
    **reward_kwargs)`` from a reward function or a ``Rubric``; the same object takes the
    batch manager's ``compute_score(data_sources=, solution_strs=, ground_truths=,
    extra_infos=, **reward_kwargs)``.

    ``result="dict"`` (default) returns a ``VerlScore`` ``{"score", <function>...,
    "no_signal", "errors"}`` that ``prime`` reads as a number too; ``result="float"``
    returns the score alone (a sample without signal is then 0.0, counted in
    ``.rubric.counters``). ``workers``: samples scored at once in a batch call. ``gold``:
    ``"any"`` (a list ``ground_truth`` means any of its items) or ``"as_is"`` (passed whole).
    ``asynchronous=True`` returns an ``async def`` compute_score (a ``functools.partial``
    of one, with ``.rubric``) for verl's reward-loop managers, which await it; the default
    sync ``VerlComputeScore`` works with every manager, async functions included.

    Point verl's ``custom_reward_function.path`` at a file that defines
    ``compute_score = to_verl(my_rubric)`` and set ``custom_reward_function.name=compute_score``.

    >>> from verifiers.gsm8k import gsm8k_check
    >>> to_verl(gsm8k_check)("openai/gsm8k", "so #### 3", "#### 3", {"index": 0})
    {'score': 1.0, 'gsm8k_check': 1.0, 'no_signal': 0.0, 'errors': 0.0}
    >>> to_verl(gsm8k_check, result="float")("openai/gsm8k", "3", "3", None, policy="strict")
    0.0
    """
    if result not in ("dict", "float"):
        raise ValueError(f"result must be 'dict' or 'float', got {result!r}")
    check_gold_mode(gold)
    rubric = as_rubric(fn_or_rubric)
    clash = sorted(set(rubric.names) & set(_VERL_KEYS))
    if clash:
        raise ValueError(f"reward function names {clash} clash with verl result keys {_VERL_KEYS}")
    adapter = VerlComputeScore(rubric, default_name(fn_or_rubric), result, workers, gold)
    if not asynchronous:
        return adapter
    compute_score = functools.partial(_verl_async_compute_score, adapter)
    compute_score.rubric = adapter.rubric  # type: ignore[attr-defined]
    return compute_score

