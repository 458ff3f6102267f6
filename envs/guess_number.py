"""Guess-the-number: a multi-turn game whose optimal policy is known (binary search).

Example:
    >>> env = GuessNumberEnv(low=1, high=100)
    >>> prompt, info = env.reset(seed=0)
    >>> reply, reward, terminated, truncated, info = env.step("50")
    >>> reply[0]["content"] in ("Higher.", "Lower.", "Correct!")
    True
"""

from __future__ import annotations

import math
import numbers
import re
from typing import Any

from envs.base import TextEnv, check_discount, check_int, show

# The last integer in the text is the guess, so "I guess 37" and "<answer>37</answer>" work.
_INT = re.compile(r"-?\d+")

# The secret is drawn with numpy's int64 generator.
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
# More significant digits than any int64 has: the guess is out of range, and int() is not
# even tried (Python refuses to convert more than 4,300 digits, and a bigger limit would only
# make the env slower on a runaway completion).
_MAX_GUESS_DIGITS = 20

# Train and test draw their secrets from disjoint seed streams, so an evaluation on the test
# split never replays a training episode with the same seed.
_SPLIT_SALT = {"train": 0, "test": 1}


def optimal_turns(low: int, high: int) -> int:
    """Guesses binary search needs in the worst case: ``ceil(log2(high - low + 2))``.

    Example:
        >>> optimal_turns(1, 100), optimal_turns(1, 1)
        (7, 1)
    """
    return math.ceil(math.log2(high - low + 2))


class GuessNumberEnv(TextEnv):
    """Guess a secret integer; the env answers "Higher." or "Lower." until the guess is right.

    ## Description
    The secret is drawn uniformly from ``[low, high]``. Each turn the model writes a guess
    (the last integer in its text); the env replies ``Higher.``, ``Lower.`` or ends the
    episode. Binary search finds any secret within ``optimal_turns(low, high)`` guesses.

    ## Action Space
    ``UnicodeText``: the model's text; the last integer in it (an optional ``-`` and decimal
    digits) is the guess, so ``"3.7"`` guesses 7 and ``"1e400"`` guesses 400. A number
    with more than 20 significant digits is out of range.

    ## Observation Space
    ``ChatMessages``: after ``reset`` the system and user prompt; after a step one user
    message (``Higher.``, ``Lower.``, or a note that no integer or an out-of-range one was
    found), or ``[]`` when the episode ends.

    ## Rewards
    0 on every step but the last. Found: ``1.0`` (or ``discount ** (guesses - 1)`` when
    ``discount < 1``, which rewards searching fast). Not found: 0.

    ## Starting State
    A secret uniform in ``[low, high]`` from the env's seeded generator (``reset(seed=...)``);
    ``options={"secret": n}`` fixes it.

    ## Episode End
    Terminated when the guess equals the secret; truncated after ``max_turns`` guesses or
    ``max_chars`` characters of conversation.

    ## Arguments
    ``low``, ``high`` (ints, the range, default 1..100, within int64), ``max_turns``
    (default 10), ``discount``
    (default 1.0), ``split`` (``"train"`` or ``"test"``: disjoint secret streams),
    ``max_chars``, ``render_mode`` (``"ansi"``).
    """

    reset_options = frozenset({"secret"})

    def __init__(self, *, low: int = 1, high: int = 100, max_turns: int = 10,
                 discount: float = 1.0, split: str = "train", max_chars: int = 20_000,
                 render_mode: str | None = None):
        low = check_int("low", low, minimum=_INT64_MIN, maximum=_INT64_MAX)
        high = check_int("high", high, minimum=_INT64_MIN, maximum=_INT64_MAX)
        if low > high:
            raise ValueError(f"low must be <= high, got low={low}, high={high}")
        discount = check_discount("discount", discount)
        if not isinstance(split, str) or split not in _SPLIT_SALT:
            raise ValueError(f"split must be one of {sorted(_SPLIT_SALT)}, got {show(split)}")
        super().__init__(max_turns=max_turns, max_chars=max_chars, render_mode=render_mode)
        self.low, self.high, self.discount, self.split = low, high, discount, split
        self.secret = low

    def _start(self, options: dict[str, Any]) -> list[dict[str, str]]:
        if "secret" in options:
            secret = options["secret"]
            if (isinstance(secret, bool) or not isinstance(secret, numbers.Integral)
                    or not self.low <= secret <= self.high):
                raise ValueError(
                    f"options['secret'] must be an int in [{self.low}, {self.high}], "
                    f"got {show(secret)}")
            self.secret = int(secret)
        else:
            # Draw twice on test so the two splits' secrets differ for the same seed.
            for _ in range(_SPLIT_SALT[self.split] + 1):
                self.secret = int(self.np_random.integers(self.low, self.high + 1))
        return [
            {"role": "system", "content": "You are playing a guessing game. Reply with one "
                                          "integer per turn."},
            {"role": "user", "content": f"I am thinking of an integer between {self.low} and "
                                        f"{self.high}. Guess it. After each guess I will say "
                                        f"Higher. or Lower."},
        ]

    def _respond(self, text: str) -> tuple[list[dict[str, str]], float, bool, dict[str, Any]]:
        found = _INT.findall(text)
        if not found:
            return ([{"role": "user", "content": "I found no integer in your reply. "
                                                 "Reply with one integer."}],
                    0.0, False, {"guess": None})
        sign, digits = ("-", found[-1][1:]) if found[-1][0] == "-" else ("", found[-1])
        digits = digits.lstrip("0") or "0"
        if len(digits) > _MAX_GUESS_DIGITS:
            return ([{"role": "user", "content": f"Your number has {len(digits)} digits; it is "
                                                 f"outside {self.low}..{self.high}."}],
                    0.0, False, {"guess": None, "reason": "guess_too_long"})
        guess = int(sign + digits)
        info: dict[str, Any] = {"guess": guess}
        if guess == self.secret:
            info.update(correct=True, secret=self.secret)
            return [], float(self.discount ** (self.turn - 1)), True, info
        if not self.low <= guess <= self.high:
            return ([{"role": "user", "content": f"{guess} is outside {self.low}..{self.high}."}],
                    0.0, False, info)
        hint = "Higher." if self.secret > guess else "Lower."
        return [{"role": "user", "content": hint}], 0.0, False, info

    def _on_truncate(self) -> tuple[float, dict[str, Any]]:
        return 0.0, {"correct": False, "secret": self.secret, "reason": "truncated"}
