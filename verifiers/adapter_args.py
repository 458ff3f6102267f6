"""The argument rule both adapters of :mod:`verifiers.adapters` share (its module doc states
it, under "Which argument gets what"): a reward function behind :class:`Routed` gets the
adapter's completion and gold, and the row's other fields and the options it can take; the
rubric an adapter scores with (:func:`as_rubric`); and the first-call checks that turn a
mistake every sample would carry (an option no function takes, a required parameter nothing
fills) into a ``TypeError`` instead of silent no-signal scores.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from verifiers.async_rewards import is_async_reward
from verifiers.rubric import RewardFunc, Rubric

__all__ = ["OPTIONS", "Params", "Routed", "as_rubric", "check_gold_mode", "check_options",
           "check_required", "default_name", "params_of", "routed", "shadowed_keys",
           "signature_params", "warn_shadowed"]

# The info key under which an adapter hands its options (verl's ``reward_kwargs``) to
# ``Routed``, kept apart from the row's own fields.
OPTIONS = "__adapter_options__"


@dataclass(frozen=True)
class Params:
    """What a reward function's signature accepts: ``own`` (the names its completion and
    answer arrive under, positionally), ``named`` (its other parameters a keyword can fill),
    ``any_kw`` (it takes ``**kwargs``), ``needs_gold`` (its answer parameter has no default),
    ``required`` (named parameters without a default)."""

    own: tuple[str, ...]
    named: frozenset[str]
    any_kw: bool
    needs_gold: bool
    required: frozenset[str]


def signature_params(fn: Callable[..., Any]) -> Params:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature: assume (completion, answer)
        return Params(("completion", "answer"), frozenset(), False, True, frozenset())
    P = inspect.Parameter
    positional = [p for p in params if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    own = positional[:2]
    named = [p for p in params if p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY)
             and p not in own]
    return Params(
        own=tuple(p.name for p in own if p.kind is not P.POSITIONAL_ONLY),
        named=frozenset(p.name for p in named),
        any_kw=any(p.kind is P.VAR_KEYWORD for p in params),
        needs_gold=len(own) < 2 or own[1].default is P.empty,
        required=frozenset(p.name for p in named if p.default is P.empty),
    )


class Routed:
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
        self.params = signature_params(fn)
        self.is_async = is_async_reward(fn)  # the rubric awaits what this returns

    def __call__(self, completion: Any, answer: Any, /, **info: Any) -> Any:
        options = info.pop(OPTIONS, None) or {}
        p = self.params
        # options win over row fields of the same name, as verl's reward_kwargs do
        kwargs = {k: v for k, v in {**info, **options}.items()
                  if k not in p.own and (p.any_kw or k in p.named)}
        return self.fn(completion, answer, **kwargs)


def as_rubric(fn_or_rubric: Any) -> Rubric:
    """The rubric an adapter scores with: ``fn_or_rubric``'s functions, names, weights, gate
    and deadline, each function behind ``Routed``."""
    if isinstance(fn_or_rubric, Rubric):
        given = fn_or_rubric
        with warnings.catch_warnings():  # the rubric warned about unpicklable functions once
            warnings.simplefilter("ignore", RuntimeWarning)
            return Rubric([routed(rf) for rf in given.funcs], gate=given.gate,
                          timeout=given.timeout)
    if callable(fn_or_rubric):
        rf = RewardFunc(default_name(fn_or_rubric), fn_or_rubric)
        return Rubric([routed(rf)])
    raise TypeError(f"expected a reward function or a Rubric, got {type(fn_or_rubric).__name__}")


def routed(rf: RewardFunc) -> RewardFunc:
    fn = rf.fn if isinstance(rf.fn, Routed) else Routed(rf.fn)
    return RewardFunc(rf.name, fn, weight=rf.weight, in_process=rf.in_process)


def params_of(rubric: Rubric) -> dict[str, Params]:
    return {rf.name: rf.fn.params for rf in rubric.funcs}


def shadowed_keys(rubric: Rubric, keys: Sequence[str]) -> dict[str, list[str]]:
    """Per function, the ``keys`` it would have received that are its own completion/answer
    parameters (left out by the rule of ``Routed``)."""
    out = {}
    for name, p in params_of(rubric).items():
        hit = [k for k in keys if k in p.own and p.any_kw]
        if hit:
            out[name] = hit
    return out


def default_name(fn_or_rubric: Any) -> str:
    if isinstance(fn_or_rubric, Rubric):
        return "rubric"
    while isinstance(fn_or_rubric, functools.partial):
        fn_or_rubric = fn_or_rubric.func
    return getattr(fn_or_rubric, "__name__", None) or type(fn_or_rubric).__name__


def check_gold_mode(gold: Any) -> None:
    if gold not in ("any", "as_is"):
        raise ValueError(f"gold must be 'any' or 'as_is', got {gold!r}")


def warn_shadowed(rubric: Rubric, adapter: str, keys: Sequence[str], source: str) -> None:
    shadowed = shadowed_keys(rubric, keys)
    if shadowed:
        detail = "; ".join(f"{k} to {name}" for name, ks in shadowed.items() for k in ks)
        warnings.warn(
            f"{adapter}: not passing {detail}: each is the function's own completion/answer "
            f"parameter ({source}); rename the column to pass it",
            RuntimeWarning,
            stacklevel=3,
        )


def check_required(rubric: Rubric, adapter: str, what: str, row_keys: Mapping[str, Any],
                    options: Mapping[str, Any]) -> None:
    """Raise ``TypeError`` when a function has a required parameter nothing fills (every
    call would raise and every sample would silently carry no signal)."""
    for name, p in params_of(rubric).items():
        missing = sorted(p.required - set(options) - set(row_keys))
        if missing:
            raise TypeError(
                f"{adapter}: reward function {name!r} requires {missing}, which none of the "
                f"{what} {sorted(row_keys)} or options {sorted(options)} provide"
            )


def check_options(rubric: Rubric, adapter: str, options: Mapping[str, Any]) -> None:
    """Raise ``TypeError`` for an option no function takes (a typo such as ``polcy`` would
    otherwise be dropped and the run would use the default without a word)."""
    params = params_of(rubric)
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

