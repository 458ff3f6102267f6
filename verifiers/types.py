"""Typed results shared by every verifier family.

A reward function may return a bare ``float``; the families in this package return a
``Verdict`` from their ``*_check`` functions so that a reward always travels with the reason
it was given (the answer extracted from the completion, the normalised gold, and why).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# Reasons a verifier may give. Free-form strings are allowed, these are the common ones.
CORRECT = "correct"
WRONG = "wrong"
NO_ANSWER = "no_answer"  # nothing answer-like could be extracted from the completion
TIMEOUT = "timeout"  # the deadline expired; reward is 0
PARSE_ERROR = "parse_error"  # the gold or the prediction could not be parsed
FORMAT = "format"  # the completion broke a format rule
HEDGED = "hedged"  # the answer offers alternatives ("5 or 6") or takes itself back; reward 0
MALFORMED = "malformed"  # the answer holds what no final answer holds ("\\neq 5", "5?"); reward 0
NO_SIGNAL = "no_signal"  # infrastructure failure: reward is None, not 0
NOT_A_STRING = "not_a_string"  # the completion is not text (None from a failed generation...)


@dataclass(frozen=True)
class Verdict:
    """The outcome of one verification.

    ``reward`` is in [0, 1], or ``None`` when the verifier could not decide for reasons that
    are not the completion's fault (a sandbox that failed to start). Trainers must drop
    ``None`` rewards from the loss instead of treating them as 0.
    """

    reward: float | None
    reason: str
    pred: str | None = None
    gold: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    def __float__(self) -> float:
        if self.reward is None:
            raise ValueError(f"verdict has no reward (reason={self.reason!r})")
        return float(self.reward)

    @property
    def correct(self) -> bool:
        return self.reward is not None and self.reward >= 1.0


def not_a_string(completion: object, gold: str | None = None) -> Verdict:
    """The verdict every ``*_check`` gives a completion that is not a ``str``: reward 0 with
    the reason, not an exception. A completion comes from the model or the trainer (None from
    a failed generation, a list of chat messages), so it is a wrong answer like any other;
    only a bad ``answer`` (the task's data) raises.

    >>> not_a_string(None).reason
    'not_a_string: completion is a NoneType, not a str'
    """
    return Verdict(
        0.0,
        f"{NOT_A_STRING}: completion is a {type(completion).__name__}, not a str",
        None,
        gold,
        {"rule": NOT_A_STRING},
    )


@dataclass(frozen=True)
class FinalAnswer:
    """The final answer of a completion.

    ``answer`` is the committed answer as written (delimiters and a final period removed), or
    None when there is none; ``source`` names where it was read (``boxed``, ``####``,
    ``answer_is``, ``math_span``, ``last_number``, or ``none``); ``problem`` is
    ``(reason, why)`` when the answer must score 0 whatever it is (``hedged``, ``malformed``);
    ``alternatives`` are values offered next to it ("1\frac{1}{4}, or \boxed{1.25}"): the
    answer counts only if each of them is right too (the same answer written twice);
    ``standing`` are answers committed in earlier paragraphs, which stand whatever follows them
    (``verifiers.earlier_answers``): each must be right on its own, never as part of a set.
    """

    answer: str | None
    source: str
    end: int = 0
    problem: tuple[str, str] | None = None
    alternatives: tuple[str, ...] = ()
    rejected: bool = False  # the caller's ``accept`` said the answer is wrong: not read further
    standing: tuple[str, ...] = ()
    unit: str | None = None  # a unit word that ends the last number's sentence ("36 kg.")


# Whether an answer, as soon as it is read (its text, where it was read), may be right
# (``final_answer``'s ``accept``): False only when it scores 0 whatever follows it.
Accept = Callable[[str, str], bool]
