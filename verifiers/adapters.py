r"""Adapters: any reward function or rubric as a TRL ``GRPOTrainer`` reward or a verl
``compute_score``, so our verifiers work without our trainer.

>>> from verifiers.adapters import to_trl, to_verl
>>> from verifiers.gsm8k import gsm8k_check
>>> reward = to_trl(gsm8k_check)
>>> reward.__name__
'gsm8k_check'
>>> reward(prompts=["q1", "q2"], completions=["#### 4", "#### 5"], answer=["4", "4"])
[1.0, 0.0]
>>> compute_score = to_verl(gsm8k_check)
>>> compute_score(data_source="openai/gsm8k", solution_str="#### 4", ground_truth="4")["score"]
1.0

Both wrap a plain function in a one-function ``Rubric`` (its hard deadline, typed errors and
counters come along; ``.rubric`` on the adapter is that rubric, for logging its counters).

**Which argument gets what** (both adapters, the rule of ``_Routed``): a reward function is
called ``fn(completion, answer, **kwargs)``. The answer is the gold: TRL's ``answer_key``
column, verl's ``ground_truth``. The other row fields (dataset columns, ``extra_info`` keys)
and options (verl's ``reward_kwargs``, winning over a field of the same name) fill the
function's named parameters and its ``**kwargs``, as TRL passes columns: ``policy="strict"``
reaches ``gsm8k_check(..., *, policy=...)``. A field is never passed under the name of the
function's own completion or answer parameter: a column ``answer`` next to
``answer_key="solution"``, or the ``answer`` verl's GSM8K preprocessing puts in
``extra_info``, is not passed to ``fn(completion, answer, **info)`` (a ``RuntimeWarning``
says so once) instead of making every call fail with "got multiple values for argument
'answer'". Mistakes that would make every sample carry no signal raise a ``TypeError`` on
the first call instead: an option no function takes, an option named like a
completion/answer parameter, a required parameter nothing fills.

**TRL** (checked against TRL 1.16's ``GRPOTrainer._calculate_rewards``): TRL calls
``reward(prompts=..., completions=..., completion_ids=..., **columns, trainer_state=...,
log_extra=..., log_metric=...[, environments=...])`` where ``columns`` are the dataset's other
columns, one value per completion; it wants one ``float | None`` per completion (``None``
becomes NaN, which TRL excludes: no signal). The adapter takes the reference from
``columns[answer_key]`` and gives the remaining columns to the rubric as ``info``; a reward
that needs no gold (every function's answer parameter has a default, as ``format_reward``)
works without that column. Each row's info also gets ``completion_length``, the number of
TRL's ``completion_ids`` (the length terms of ``verifiers.length`` read it), unless a column
has that name. A conversational completion (a list of messages) is scored on the
text of its last assistant message. When TRL passes ``log_metric``, the adapter logs, per
batch, the mean of each function's reward (``<name>/<function>``), the fraction of samples
without signal (``<name>/no_signal``) and the number of reward errors (``<name>/errors``).

**verl** (checked against the reward managers of verl 0.9.1: ``naive``, ``dapo``, ``prime``,
``batch`` and the reward-loop ones, and ``custom_reward_function``): verl calls
``compute_score(data_source=..., solution_str=..., ground_truth=..., extra_info=...,
**reward_kwargs)`` (``prime``: the same four positionally, in a process pool, and it takes
only a number: use ``to_verl(..., result="float")``); ``batch`` calls
``compute_score(data_sources=..., solution_strs=..., ground_truths=..., extra_infos=...,
**reward_kwargs)`` and wants a list. verl accepts a float or a dict with ``"score"``, whose
other keys it collects per sample (so every dict has the same keys, all numbers).
``extra_info`` becomes the rubric's ``info`` (less ``rollout_reward_scores``, verl's own); the
reward-model plumbing verl's reward loop may add (``reward_router_address``,
``reward_model_tokenizer``) is left out. Numpy ground truths (``np.int64(7)``) are compared as
text, like Python numbers. verl cannot drop a sample, so a sample without signal scores 0.0
**and** (dict mode) is flagged ``no_signal=1.0`` with its error count in ``errors``: visible
in verl's reward metrics, and counted in ``.rubric.counters``. Per-function rewards are
included under their names (0.0 where the function gave none; ``no_signal`` says when that
happened).

**No silent zeros** (both adapters).

- verl's ``prime`` manager reads ``float(result[0])`` from anything that is not a number and
  turns any failure into 0.0 for the whole batch; the default dict result is a ``VerlScore``,
  a dict whose ``[0]`` (and ``float()``) is the score, so every manager reads it at its
  defaults.
- A gold given as a list, tuple or 1-d numpy array of strings/numbers (verl's
  ``ground_truth``, a dataset column of acceptable answers) means "any of these": each is
  scored and the best total wins (``RubricScore.reasons`` of the winner; the rubric's
  counters count every candidate). A gold that is an empty list, a nested list, or a list of
  other things raises a ``TypeError`` naming the field (``ground_truth``, or the TRL column)
  instead of scoring every sample as no signal; a function that takes a structured gold
  itself (a list of test cases) gets it unchanged with ``gold="as_is"``.

**Async reward functions** (see ``verifiers.rubric``): ``to_trl`` of a rubric with one
returns a reward whose ``__call__`` is ``async`` (TRL awaits such rewards on its own event
loop, concurrently with the others). ``to_verl`` returns a sync ``compute_score`` by default,
which every manager can call (the async functions run on the rubric's event loop, a batch
concurrently); ``to_verl(..., asynchronous=True)`` returns an ``async def`` one
(``inspect.iscoroutinefunction`` is true), which verl's reward-loop managers await on their
loop instead of a thread. Only those: ``naive``, ``dapo``, ``batch`` and ``prime`` call
``compute_score`` synchronously and would get a coroutine (``prime`` would score it 0.0),
which is why the sync form is the default.

``.rubric`` on an adapter is the rubric it scores with: the given one's functions, weights,
gate and deadline, each behind the rule above, with its own counters.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from verifiers.adapter_golds import GoldMode, abest_of, best_of, candidates
from verifiers.async_rewards import is_async_reward
from verifiers.routing import DEFAULT_SOURCES, SourceRouter
from verifiers.rubric import RewardFunc, Rubric, RubricScore

__all__ = ["AsyncTRLReward", "TRLReward", "VerlComputeScore", "VerlScore", "completion_text",
           "compute_score", "register_source",
           "to_trl", "to_verl"]


# Keys of to_verl's result besides the per-function rewards.
_VERL_KEYS = ("score", "no_signal", "errors")

# Keyword arguments verl's reward loop adds when a reward model is configured (a tokenizer
# among them): not options of our functions, and costly to pickle into a worker.
_VERL_MACHINERY = ("reward_router_address", "reward_model_tokenizer")

# Keys verl's managers add to every ``extra_info`` that only its own machinery reads.
_VERL_EXTRA_INFO_MACHINERY = ("rollout_reward_scores",)

# Keyword arguments TRL adds to every reward call that are not dataset columns.
_TRL_MACHINERY = ("completion_ids", "trainer_state", "log_extra", "log_metric", "environments")


# The info key under which an adapter hands its options (verl's ``reward_kwargs``) to
# ``_Routed``, kept apart from the row's own fields.
_OPTIONS = "__adapter_options__"


@dataclass(frozen=True)
class _Params:
    """What a reward function's signature accepts: ``own`` (the names its completion and
    answer arrive under, positionally), ``named`` (its other parameters a keyword can fill),
    ``any_kw`` (it takes ``**kwargs``), ``needs_gold`` (its answer parameter has no default),
    ``required`` (named parameters without a default)."""

    own: tuple[str, ...]
    named: frozenset[str]
    any_kw: bool
    needs_gold: bool
    required: frozenset[str]


def _params(fn: Callable[..., Any]) -> _Params:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature: assume (completion, answer)
        return _Params(("completion", "answer"), frozenset(), False, True, frozenset())
    P = inspect.Parameter
    positional = [p for p in params if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    own = positional[:2]
    named = [p for p in params if p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY)
             and p not in own]
    return _Params(
        own=tuple(p.name for p in own if p.kind is not P.POSITIONAL_ONLY),
        named=frozenset(p.name for p in named),
        any_kw=any(p.kind is P.VAR_KEYWORD for p in params),
        needs_gold=len(own) < 2 or own[1].default is P.empty,
        required=frozenset(p.name for p in named if p.default is P.empty),
    )


class _Routed:
    """A reward function behind the adapters' argument rule (module-level, so it pickles into
    a deadline worker whenever the function does).

    The rule: the function's completion and answer come from the adapter (the answer from
    ``answer_key`` / ``ground_truth``) and are never overwritten by a column or ``extra_info``
    key of the same name, which is left out for this function. Other row fields (dataset
    columns, ``extra_info`` keys) and options (verl's ``reward_kwargs``, which win over a
    field of the same name) fill the function's named parameters and its ``**kwargs``, as TRL
    passes columns (``policy="strict"`` reaches ``gsm8k_check(completion, answer, *,
    policy=...)``, a ``tests`` column reaches ``fn(completion, answer, *, tests)``).
    """

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.params = _params(fn)
        self.is_async = is_async_reward(fn)  # the rubric awaits what this returns

    def __call__(self, completion: Any, answer: Any, /, **info: Any) -> Any:
        options = info.pop(_OPTIONS, None) or {}
        p = self.params
        # options win over row fields of the same name, as verl's reward_kwargs do
        kwargs = {k: v for k, v in {**info, **options}.items()
                  if k not in p.own and (p.any_kw or k in p.named)}
        return self.fn(completion, answer, **kwargs)


def _as_rubric(fn_or_rubric: Any) -> Rubric:
    """The rubric an adapter scores with: ``fn_or_rubric``'s functions, names, weights, gate
    and deadline, each function behind ``_Routed``."""
    if isinstance(fn_or_rubric, Rubric):
        given = fn_or_rubric
        with warnings.catch_warnings():  # the rubric warned about unpicklable functions once
            warnings.simplefilter("ignore", RuntimeWarning)
            return Rubric([_routed(rf) for rf in given.funcs], gate=given.gate,
                          timeout=given.timeout)
    if callable(fn_or_rubric):
        rf = RewardFunc(_default_name(fn_or_rubric), fn_or_rubric)
        return Rubric([_routed(rf)])
    raise TypeError(f"expected a reward function or a Rubric, got {type(fn_or_rubric).__name__}")


def _routed(rf: RewardFunc) -> RewardFunc:
    fn = rf.fn if isinstance(rf.fn, _Routed) else _Routed(rf.fn)
    return RewardFunc(rf.name, fn, weight=rf.weight, in_process=rf.in_process)


def _params_of(rubric: Rubric) -> dict[str, _Params]:
    return {rf.name: rf.fn.params for rf in rubric.funcs}


def _shadowed(rubric: Rubric, keys: Sequence[str]) -> dict[str, list[str]]:
    """Per function, the ``keys`` it would have received that are its own completion/answer
    parameters (left out by the rule of ``_Routed``)."""
    out = {}
    for name, p in _params_of(rubric).items():
        hit = [k for k in keys if k in p.own and p.any_kw]
        if hit:
            out[name] = hit
    return out


def _default_name(fn_or_rubric: Any) -> str:
    if isinstance(fn_or_rubric, Rubric):
        return "rubric"
    while isinstance(fn_or_rubric, functools.partial):
        fn_or_rubric = fn_or_rubric.func
    return getattr(fn_or_rubric, "__name__", None) or type(fn_or_rubric).__name__


def completion_text(completion: Any) -> Any:
    """The text to score: a str as is; for a conversational completion (a list of message
    dicts) the content of the last assistant message ("" when there is none). Content given
    as a list of parts keeps its text parts. Anything else is returned unchanged (the reward
    function then decides; a non-str usually scores 0 with a reason).

    >>> completion_text([{"role": "assistant", "content": "#### 4"}])
    '#### 4'
    >>> completion_text([{"role": "assistant", "content": [{"type": "text", "text": "4"}]}])
    '4'
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and all(isinstance(m, Mapping) for m in completion):
        for message in reversed(completion):
            if message.get("role", "assistant") != "assistant":
                continue
            content = message.get("content")
            if content is None:
                continue
            if isinstance(content, str):
                return content
            if isinstance(content, Sequence):
                return "".join(
                    str(part.get("text", ""))
                    for part in content
                    if isinstance(part, Mapping) and part.get("type", "text") == "text"
                )
        return ""
    return completion


class TRLReward:
    """A TRL ``GRPOTrainer`` reward function: ``(prompts, completions, **kwargs)`` ->
    ``list[float | None]``. Built by ``to_trl``; ``__name__`` is the name TRL logs it under."""

    def __init__(self, rubric: Rubric, *, answer_key: str, name: str, workers: int | None,
                 gold: GoldMode = "any") -> None:
        self.rubric = rubric
        self.answer_key = answer_key
        self.gold = gold
        self.__name__ = name
        self.workers = workers
        params = _params_of(rubric).values()
        self.needs_gold = any(p.needs_gold for p in params)
        self._warned = False

    def __repr__(self) -> str:
        return f"<TRLReward {self.__name__} answer_key={self.answer_key!r}>"

    def __call__(
        self, prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any
    ) -> list[float | None]:
        texts, golds, infos = self._prepare(completions, kwargs)
        scores = best_of(self.rubric, texts, golds, infos, self.workers)
        return self._finish(scores, kwargs)

    def _prepare(self, completions: Sequence[Any], kwargs: Mapping[str, Any]
                 ) -> tuple[list[Any], list[list[Any]], list[dict[str, Any]]]:
        n = len(completions)
        columns = {k: v for k, v in kwargs.items() if k not in _TRL_MACHINERY}
        if self.answer_key not in columns and self.needs_gold:
            raise KeyError(
                f"reward {self.__name__!r} needs the dataset column {self.answer_key!r} (the "
                f"reference answer); the batch has columns {sorted(columns)}. Pass "
                "to_trl(..., answer_key=<your column>)."
            )
        for key, values in columns.items():
            if not isinstance(values, Sequence) or isinstance(values, str) or len(values) != n:
                raise ValueError(
                    f"column {key!r} must hold one value per completion ({n}), got {values!r:.80}"
                )
        gold = columns.pop(self.answer_key, None)
        golds = ([[None]] * n if gold is None else
                 [candidates(a, f"column {self.answer_key!r} (row {i})", self.gold)
                  for i, a in enumerate(gold)])
        _check_required(self.rubric, self.__name__, "dataset columns", columns, {})
        if not self._warned:
            self._warned = True
            _warn_shadowed(self.rubric, self.__name__, list(columns),
                           f"the reference comes from answer_key={self.answer_key!r}")
        infos = [{k: v[i] for k, v in columns.items()} for i in range(n)]
        ids = kwargs.get("completion_ids")
        if "completion_length" not in columns and isinstance(ids, Sequence) and len(ids) == n:
            # the length terms of verifiers.length read it (TRL passes token ids, not lengths)
            for info, token_ids in zip(infos, ids):
                info["completion_length"] = len(token_ids)
        return [completion_text(c) for c in completions], golds, infos

    def _finish(self, scores: list[RubricScore], kwargs: Mapping[str, Any]
                ) -> list[float | None]:
        log_metric = kwargs.get("log_metric")
        if callable(log_metric) and scores:
            self._log(log_metric, scores)
        return [s.total for s in scores]

    def _log(self, log_metric: Callable[[str, float], Any], scores: list[RubricScore]) -> None:
        for name in self.rubric.names:
            values = [s.breakdown[name] for s in scores if s.breakdown[name] is not None]
            if values:
                log_metric(f"{self.__name__}/{name}", sum(values) / len(values))
        no_signal = sum(s.total is None for s in scores)
        log_metric(f"{self.__name__}/no_signal", no_signal / len(scores))
        log_metric(f"{self.__name__}/errors", float(sum(len(s.errors) for s in scores)))


class AsyncTRLReward(TRLReward):
    """A ``TRLReward`` for a rubric with async functions: TRL awaits its ``__call__`` on the
    trainer's event loop (``trl.trainer.utils.is_async_callable``)."""

    async def __call__(  # type: ignore[override]
        self, prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any
    ) -> list[float | None]:
        texts, golds, infos = self._prepare(completions, kwargs)
        scores = await abest_of(self.rubric, texts, golds, infos, self.workers)
        return self._finish(scores, kwargs)


def to_trl(
    fn_or_rubric: Callable[..., Any] | Rubric,
    *,
    answer_key: str = "answer",
    name: str | None = None,
    workers: int | None = None,
    gold: GoldMode = "any",
) -> TRLReward:
    """A TRL ``GRPOTrainer`` reward function from a reward function or a ``Rubric``.

    ``answer_key``: the dataset column holding the reference. ``name``: what TRL logs it as
    (default: the function's name, or ``"rubric"``). ``workers``: samples scored at once
    (``Rubric.score_batch``). ``gold``: ``"any"`` (a list of answers in the column means any
    of them) or ``"as_is"`` (the function takes the value whole). A rubric with an async
    function gives an ``AsyncTRLReward``.

    >>> from verifiers.gsm8k import gsm8k_check
    >>> r = to_trl(gsm8k_check, answer_key="solution")
    >>> r(["q"], [[{"role": "assistant", "content": "#### 7"}]], solution=["#### 7"])
    [1.0]
    """
    if not isinstance(answer_key, str) or not answer_key:
        raise ValueError(f"answer_key must be a non-empty str, got {answer_key!r}")
    _check_gold_mode(gold)
    rubric = _as_rubric(fn_or_rubric)
    cls = AsyncTRLReward if rubric.has_async else TRLReward
    return cls(
        rubric,
        answer_key=answer_key,
        name=name or _default_name(fn_or_rubric),
        workers=workers,
        gold=gold,
    )


def _check_gold_mode(gold: Any) -> None:
    if gold not in ("any", "as_is"):
        raise ValueError(f"gold must be 'any' or 'as_is', got {gold!r}")


def _warn_shadowed(rubric: Rubric, adapter: str, keys: Sequence[str], source: str) -> None:
    shadowed = _shadowed(rubric, keys)
    if shadowed:
        detail = "; ".join(f"{k} to {name}" for name, ks in shadowed.items() for k in ks)
        warnings.warn(
            f"{adapter}: not passing {detail}: each is the function's own completion/answer "
            f"parameter ({source}); rename the column to pass it",
            RuntimeWarning,
            stacklevel=3,
        )


def _check_required(rubric: Rubric, adapter: str, what: str, row_keys: Mapping[str, Any],
                    options: Mapping[str, Any]) -> None:
    """Raise ``TypeError`` when a function has a required parameter nothing fills (every
    call would raise and every sample would silently carry no signal)."""
    for name, p in _params_of(rubric).items():
        missing = sorted(p.required - set(options) - set(row_keys))
        if missing:
            raise TypeError(
                f"{adapter}: reward function {name!r} requires {missing}, which none of the "
                f"{what} {sorted(row_keys)} or options {sorted(options)} provide"
            )


def _check_options(rubric: Rubric, adapter: str, options: Mapping[str, Any]) -> None:
    """Raise ``TypeError`` for an option no function takes (a typo such as ``polcy`` would
    otherwise be dropped and the run would use the default without a word)."""
    params = _params_of(rubric)
    if any(p.any_kw for p in params.values()):
        unused = []
    else:
        unused = sorted(k for k in options if not any(k in p.named for p in params.values()))
    own = sorted(k for k in options if any(k in p.own for p in params.values()))
    if unused or own:
        takes = {name: sorted(p.named) for name, p in params.items()}
        why = (f"{own} would overwrite a function's completion/answer argument" if own else
               f"{unused} are parameters of no reward function")
        raise TypeError(f"{adapter}: reward_kwargs {why} (the functions take: {takes})")


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
            candidate = self.rubric.score(solution_str, gold, **info, **{_OPTIONS: options})
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
        info = {**self._info(extra_info), _OPTIONS: options}
        self._first_call_checks({k: v for k, v in info.items() if k != _OPTIONS}, options)
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
        infos = [{**self._info(e), _OPTIONS: options} for e in extra_infos]
        if infos:
            self._first_call_checks({k: v for k, v in infos[0].items() if k != _OPTIONS},
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
        _check_options(self.rubric, self.__name__, options)
        _check_required(self.rubric, self.__name__, "extra_info keys", info, options)
        if not self._warned:
            self._warned = True
            _warn_shadowed(self.rubric, self.__name__, list(info),
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
    _check_gold_mode(gold)
    rubric = _as_rubric(fn_or_rubric)
    clash = sorted(set(rubric.names) & set(_VERL_KEYS))
    if clash:
        raise ValueError(f"reward function names {clash} clash with verl result keys {_VERL_KEYS}")
    adapter = VerlComputeScore(rubric, _default_name(fn_or_rubric), result, workers, gold)
    if not asynchronous:
        return adapter
    compute_score = functools.partial(_verl_async_compute_score, adapter)
    compute_score.rubric = adapter.rubric  # type: ignore[attr-defined]
    return compute_score


# One compute_score for every data source (verifiers.routing); verl's custom_reward_function
# points here with name=compute_score.
compute_score = SourceRouter(DEFAULT_SOURCES, adapt=to_verl)
register_source = compute_score.register
