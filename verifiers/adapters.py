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

**TRL** (checked against TRL 1.16's ``GRPOTrainer._calculate_rewards``): TRL calls
``reward(prompts=..., completions=..., completion_ids=..., **columns, trainer_state=...,
log_extra=..., log_metric=...[, environments=...])`` where ``columns`` are the dataset's other
columns, one value per completion; it wants one ``float | None`` per completion (``None``
becomes NaN, which TRL excludes: no signal). The adapter takes the reference from
``columns[answer_key]`` and gives the remaining columns to the rubric as ``info``. A
conversational completion (a list of messages) is scored on the text of its last assistant
message. When TRL passes ``log_metric``, the adapter logs, per batch, the mean of each
function's reward (``<name>/<function>``), the fraction of samples without signal
(``<name>/no_signal``) and the number of reward errors (``<name>/errors``).

**verl** (checked against ``verl.workers.reward_manager.naive.NaiveRewardManager`` and
``custom_reward_function``): verl calls ``compute_score(data_source=..., solution_str=...,
ground_truth=..., extra_info=..., **reward_kwargs)`` and accepts a float or a dict with
``"score"``, whose other keys it collects per sample (so every dict has the same keys, all
numbers). ``extra_info`` and ``reward_kwargs`` become the rubric's ``info`` (the
reward-model plumbing verl's reward loop may add, ``reward_router_address`` and
``reward_model_tokenizer``, is left out). verl cannot drop a
sample, so a sample without signal scores 0.0 **and** is flagged ``no_signal=1.0`` with its
error count in ``errors``: visible in verl's reward metrics, and counted in
``.rubric.counters``. Per-function rewards are included under their names (0.0 where the
function gave none; ``no_signal`` says when that happened).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from verifiers.rubric import Rubric, RubricScore

__all__ = ["TRLReward", "VerlComputeScore", "completion_text", "to_trl", "to_verl"]

# Keys of to_verl's result besides the per-function rewards.
_VERL_KEYS = ("score", "no_signal", "errors")

# Keyword arguments verl's reward loop adds when a reward model is configured (a tokenizer
# among them): not options of our functions, and costly to pickle into a worker.
_VERL_MACHINERY = ("reward_router_address", "reward_model_tokenizer")

# Keyword arguments TRL adds to every reward call that are not dataset columns.
_TRL_MACHINERY = ("completion_ids", "trainer_state", "log_extra", "log_metric", "environments")


def _as_rubric(fn_or_rubric: Any) -> Rubric:
    if isinstance(fn_or_rubric, Rubric):
        return fn_or_rubric
    if callable(fn_or_rubric):
        return Rubric([fn_or_rubric])
    raise TypeError(f"expected a reward function or a Rubric, got {type(fn_or_rubric).__name__}")


def _default_name(fn_or_rubric: Any) -> str:
    if isinstance(fn_or_rubric, Rubric):
        return "rubric"
    while isinstance(fn_or_rubric, functools.partial):
        fn_or_rubric = fn_or_rubric.func
    return getattr(fn_or_rubric, "__name__", None) or type(fn_or_rubric).__name__


def _as_reference(value: Any) -> Any:
    # Datasets often store numeric answers as numbers; the verifiers compare strings.
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return value


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

    def __init__(self, rubric: Rubric, *, answer_key: str, name: str, workers: int | None) -> None:
        self.rubric = rubric
        self.answer_key = answer_key
        self.__name__ = name
        self.workers = workers

    def __repr__(self) -> str:
        return f"<TRLReward {self.__name__} answer_key={self.answer_key!r}>"

    def __call__(
        self, prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any
    ) -> list[float | None]:
        n = len(completions)
        if self.answer_key not in kwargs:
            columns = sorted(k for k in kwargs if k not in _TRL_MACHINERY)
            raise KeyError(
                f"reward {self.__name__!r} needs the dataset column {self.answer_key!r} (the "
                f"reference answer); the batch has columns {columns}. Pass "
                "to_trl(..., answer_key=<your column>)."
            )
        columns = {k: v for k, v in kwargs.items() if k not in _TRL_MACHINERY}
        for key, values in columns.items():
            if not isinstance(values, Sequence) or isinstance(values, str) or len(values) != n:
                raise ValueError(
                    f"column {key!r} must hold one value per completion ({n}), got {values!r:.80}"
                )
        answers = [_as_reference(a) for a in columns.pop(self.answer_key)]
        infos = [{k: v[i] for k, v in columns.items()} for i in range(n)]
        texts = [completion_text(c) for c in completions]
        scores = self.rubric.score_batch(texts, answers, infos, workers=self.workers)
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


def to_trl(
    fn_or_rubric: Callable[..., Any] | Rubric,
    *,
    answer_key: str = "answer",
    name: str | None = None,
    workers: int | None = None,
) -> TRLReward:
    """A TRL ``GRPOTrainer`` reward function from a reward function or a ``Rubric``.

    ``answer_key``: the dataset column holding the reference. ``name``: what TRL logs it as
    (default: the function's name, or ``"rubric"``). ``workers``: samples scored at once
    (``Rubric.score_batch``).

    >>> from verifiers.gsm8k import gsm8k_check
    >>> r = to_trl(gsm8k_check, answer_key="solution")
    >>> r(["q"], [[{"role": "assistant", "content": "#### 7"}]], solution=["#### 7"])
    [1.0]
    """
    if not isinstance(answer_key, str) or not answer_key:
        raise ValueError(f"answer_key must be a non-empty str, got {answer_key!r}")
    rubric = _as_rubric(fn_or_rubric)
    return TRLReward(
        rubric,
        answer_key=answer_key,
        name=name or _default_name(fn_or_rubric),
        workers=workers,
    )


class VerlComputeScore:
    """A verl ``compute_score``; built by ``to_verl``."""

    def __init__(self, rubric: Rubric, name: str) -> None:
        self.rubric = rubric
        self.__name__ = name

    def __repr__(self) -> str:
        return f"<VerlComputeScore {self.__name__}>"

    def __call__(
        self,
        data_source: Any,
        solution_str: str,
        ground_truth: Any,
        extra_info: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> dict[str, float]:
        if extra_info is not None and not isinstance(extra_info, Mapping):
            raise TypeError(f"extra_info must be a dict or None, got {type(extra_info).__name__}")
        options = {k: v for k, v in kwargs.items() if k not in _VERL_MACHINERY}
        info = {**(extra_info or {}), **options}
        score = self.rubric.score(solution_str, _as_reference(ground_truth), **info)
        result = {"score": 0.0 if score.total is None else float(score.total)}
        for fn_name, value in score.breakdown.items():
            result[fn_name] = 0.0 if value is None else float(value)
        result["no_signal"] = float(score.total is None)
        result["errors"] = float(len(score.errors))
        return result


def to_verl(fn_or_rubric: Callable[..., Any] | Rubric) -> VerlComputeScore:
    """A verl ``compute_score(data_source, solution_str, ground_truth, extra_info=None,
    **kwargs) -> dict`` from a reward function or a ``Rubric``.

    Point verl's ``custom_reward_function.path`` at a file that defines
    ``compute_score = to_verl(my_rubric)`` and set ``custom_reward_function.name=compute_score``.

    >>> from verifiers.gsm8k import gsm8k_check
    >>> to_verl(gsm8k_check)("openai/gsm8k", "so #### 3", "#### 3", {"index": 0})
    {'score': 1.0, 'gsm8k_check': 1.0, 'no_signal': 0.0, 'errors': 0.0}
    """
    rubric = _as_rubric(fn_or_rubric)
    clash = sorted(set(rubric.names) & set(_VERL_KEYS))
    if clash:
        raise ValueError(f"reward function names {clash} clash with verl result keys {_VERL_KEYS}")
    return VerlComputeScore(rubric, _default_name(fn_or_rubric))
