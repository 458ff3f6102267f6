"""The TRL adapter: ``to_trl`` makes a ``GRPOTrainer`` reward function (:class:`TRLReward`,
or :class:`AsyncTRLReward` for a rubric with async functions) from a reward function or a
rubric. The calling convention it follows and the metrics it logs are in the module doc of
:mod:`verifiers.adapters`, which re-exports everything public here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from verifiers.adapter_args import (
    as_rubric,
    check_gold_mode,
    check_required,
    default_name,
    params_of,
    warn_shadowed,
)
from verifiers.adapter_golds import GoldMode, abest_of, best_of, candidates
from verifiers.rubric import Rubric, RubricScore

__all__ = ["AsyncTRLReward", "TRLReward", "completion_text", "to_trl"]

# Keyword arguments TRL adds to every reward call that are not dataset columns.
_TRL_MACHINERY = ("completion_ids", "trainer_state", "log_extra", "log_metric", "environments")


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
        params = params_of(rubric).values()
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
        check_required(self.rubric, self.__name__, "dataset columns", columns, {})
        if not self._warned:
            self._warned = True
            warn_shadowed(self.rubric, self.__name__, list(columns),
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
    check_gold_mode(gold)
    rubric = as_rubric(fn_or_rubric)
    cls = AsyncTRLReward if rubric.has_async else TRLReward
    return cls(
        rubric,
        answer_key=answer_key,
        name=name or default_name(fn_or_rubric),
        workers=workers,
        gold=gold,
    )


