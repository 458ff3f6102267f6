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
import re
from typing import Any

from envs.base import TextEnv

# The last integer in the text is the guess, so "I guess 37" and "<answer>37</answer>" work.
_INT = re.compile(r"-?\d+")

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
    ``UnicodeText``: the model's text; the last integer in it is the guess.

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
    ``low``, ``high`` (the range, default 1..100), ``max_turns`` (default 10), ``discount``
    (default 1.0), ``split`` (``"train"`` or ``"test"``: disjoint secret streams),
    ``max_chars``, ``render_mode`` (``"ansi"``).
    """

    def __init__(self, *, low: int = 1, high: int = 100, max_turns: int = 10,
                 discount: float = 1.0, split: str = "train", max_chars: int = 20_000,
                 render_mode: str | None = None):
        if low > high:
            raise ValueError(f"low must be <= high, got low={low}, high={high}")
        if not 0.0 < discount <= 1.0:
            raise ValueError(f"discount must be in (0, 1], got {discount}")
        if split not in _SPLIT_SALT:
            raise ValueError(f"split must be one of {sorted(_SPLIT_SALT)}, got {split!r}")
        super().__init__(max_turns=max_turns, max_chars=max_chars, render_mode=render_mode)
        self.low, self.high, self.discount, self.split = low, high, discount, split
        self.secret = low

    def _start(self, options: dict[str, Any]) -> list[dict[str, str]]:
        if "secret" in options:
            secret = options["secret"]
            if not isinstance(secret, int) or not self.low <= secret <= self.high:
                raise ValueError(
                    f"options['secret'] must be an int in [{self.low}, {self.high}], "
                    f"got {secret!r}")
            self.secret = secret
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
        guess = int(found[-1])
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
