"""``arithmetic``: generated multi-digit + - * problems with a ``#### N`` answer line.

Difficulty comes in levels (``tasks.get("arithmetic", level=4)``) and every knob can be
overridden on its own. Level 2, the default, is one-digit addition and subtraction with two
or three operands and non-negative results: a 2-10M-parameter byte-level model learns it
partly from a short supervised warm start, so RL starts with groups of mixed rewards, and
its held-out problems are new combinations of steps seen in training, so what RL teaches
can carry over. Higher levels are for larger models.

| level | digits | operands | ops   | word problems | negatives |
|-------|--------|----------|-------|---------------|-----------|
| 1     | 1      | 2        | + -   | 0%            | no        |
| 2     | 1      | 2-3      | + -   | 0%            | no        |
| 3     | 1-2    | 2        | + -   | 0%            | no        |
| 4     | 1-2    | 2-3      | + - * | 0%            | no        |
| 5     | 1-3    | 2-3      | + - * | 30%           | no        |
| 6     | 2-4    | 3-4      | + - * | 50%           | yes       |

Train and test never share a computation: each possible problem belongs to one split, by a
hash of its worked steps (a fifth go to test). Level 1 has only 155 distinct problems, so
its test split is ~40 of them, repeated, each a one-digit fact never seen in training.

Pure expressions follow operator precedence; word problems are stories read left to right.
The reference completion shows one line per operation and ends with ``#### N``:

>>> task = arithmetic(level=4)
>>> row = task.rows("test", limit=2)[1]
>>> row.prompt[-1]["content"]
"What is 0*13+24?\\nEnd with the answer line '#### N'."
>>> print(task.reference_completion(row))
0*13=0
0+24=24
#### 24

Rubric: accuracy (the ``#### N`` answer, else the last number; weight 1) + format (the last
line is ``#### N``; weight 0.1), not gated: an answer in the wrong format still earns most of
the reward, which keeps rewards mixed for a small model learning the format.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from tasks.base import Problem, Task
from tasks.prompts import Prompt
from tasks.registry import register
from tasks.rubrics import answer_line_rubric
from tasks.seeds import row_rng

INSTRUCTION = "End with the answer line '#### N'."


@dataclass(frozen=True)
class Difficulty:
    """The knobs of one difficulty level.

    Arguments:
        digits: (min, max) digits of each operand (1 digit includes 0).
        operands: (min, max) operands per problem.
        ops: the operations drawn from, any of ``"+-*"``.
        word_frac: fraction of problems phrased as a short story.
        allow_negative: if False every intermediate result is >= 0.
    """

    digits: tuple[int, int] = (1, 1)
    operands: tuple[int, int] = (2, 2)
    ops: str = "+-"
    word_frac: float = 0.0
    allow_negative: bool = False

    def __post_init__(self) -> None:
        lo, hi = self.digits
        if not 1 <= lo <= hi <= 18:
            raise ValueError(f"digits must satisfy 1 <= min <= max <= 18, got {self.digits}")
        lo, hi = self.operands
        if not 2 <= lo <= hi <= 8:
            raise ValueError(f"operands must satisfy 2 <= min <= max <= 8, got {self.operands}")
        if not self.ops or set(self.ops) - set("+-*"):
            raise ValueError(f"ops must be a non-empty string of '+', '-', '*', got {self.ops!r}")
        if not 0.0 <= self.word_frac <= 1.0:
            raise ValueError(f"word_frac must be in [0, 1], got {self.word_frac}")


LEVELS: dict[int, Difficulty] = {
    1: Difficulty(),
    2: Difficulty(operands=(2, 3)),
    3: Difficulty(digits=(1, 2)),
    4: Difficulty(digits=(1, 2), operands=(2, 3), ops="+-*"),
    5: Difficulty(digits=(1, 3), operands=(2, 3), ops="+-*", word_frac=0.3),
    6: Difficulty(digits=(2, 4), operands=(3, 4), ops="+-*", word_frac=0.5, allow_negative=True),
}

_NAMES = ("Sam", "Ada", "Noor", "Li", "Maya", "Omar", "Eva", "Ravi", "Kim", "Tom")
_ITEMS = ("apples", "coins", "stamps", "marbles", "books", "pens", "cards", "shells")
_PLUS = ("{n} buys {b} more.", "{n} finds {b} more.", "A friend gives {n} {b} more.")
_MINUS = ("{n} gives away {b}.", "{n} loses {b}.", "{n} sells {b}.")
_TIMES = ("Then the number of {items} is multiplied by {b}.",)


@dataclass(frozen=True)
class Generated:
    question: str
    steps: tuple[str, ...]  # "a+b=c", one per operation, in the order they are computed
    value: int


def _operand(rng: random.Random, digits: tuple[int, int]) -> int:
    d = rng.randint(*digits)
    return rng.randint(0 if d == 1 else 10 ** (d - 1), 10**d - 1)


def _apply(a: int, op: str, b: int) -> int:
    return a + b if op == "+" else a - b if op == "-" else a * b


def _precedence_steps(nums: list[int], ops: list[str]) -> tuple[list[str], list[int]]:
    """Evaluate with * before + and -, recording each step; returns (steps, all results)."""
    nums, ops = list(nums), list(ops)
    steps, results = [], []
    for passing in ("*", "+-"):
        i = 0
        while i < len(ops):
            if ops[i] in passing:
                value = _apply(nums[i], ops[i], nums[i + 1])
                steps.append(f"{nums[i]}{ops[i]}{nums[i + 1]}={value}")
                results.append(value)
                nums[i : i + 2] = [value]
                del ops[i]
            else:
                i += 1
    return steps, results


def _chain_steps(nums: list[int], ops: list[str]) -> tuple[list[str], list[int]]:
    """Evaluate left to right (the order a story happens in)."""
    total, steps, results = nums[0], [], []
    for op, b in zip(ops, nums[1:]):
        value = _apply(total, op, b)
        steps.append(f"{total}{op}{b}={value}")
        results.append(value)
        total = value
    return steps, results


def generate(rng: random.Random, difficulty: Difficulty) -> Generated:
    """One problem drawn from ``rng``. Deterministic given the rng state."""
    word = rng.random() < difficulty.word_frac
    n = rng.randint(*difficulty.operands)
    evaluate = _chain_steps if word else _precedence_steps
    # Rejection keeps intermediate results non-negative; the bounded loop always ends because
    # an all-'+' problem is always accepted.
    for attempt in range(64):
        nums = [_operand(rng, difficulty.digits) for _ in range(n)]
        ops = [rng.choice(difficulty.ops) for _ in range(n - 1)]
        if attempt == 63:
            ops = ["+" if op == "-" else op for op in ops]
        steps, results = evaluate(nums, ops)
        if difficulty.allow_negative or min(results) >= 0:
            break
    value = results[-1]
    if word:
        question = _story(rng, nums, ops)
    else:
        question = "What is " + "".join(f"{a}{op}" for a, op in zip(nums, ops)) + f"{nums[-1]}?"
    return Generated(question, tuple(steps), value)


def in_test_split(g: Generated) -> bool:
    """Whether ``g``'s computation belongs to the test split: a fixed fifth of all possible
    computations, chosen by hashing the worked steps (so a story and a bare expression with
    the same numbers and operations fall on the same side)."""
    digest = hashlib.sha256("|".join(g.steps).encode()).digest()
    return digest[0] % 5 == 0


def generate_in_split(rng: random.Random, difficulty: Difficulty, split: str) -> Generated:
    """Draw from ``rng`` until the problem belongs to ``split`` (train and test never share a
    computation, so test accuracy measures generalisation at every level)."""
    want_test = split == "test"
    for _ in range(_SPLIT_TRIES):
        g = generate(rng, difficulty)
        if in_test_split(g) == want_test:
            return g
    raise ValueError(f"no {split} problem in {_SPLIT_TRIES} draws: difficulty {difficulty} has "
                     "too few distinct problems to split into train and test")


_SPLIT_TRIES = 2000


def _story(rng: random.Random, nums: list[int], ops: list[str]) -> str:
    name, items = rng.choice(_NAMES), rng.choice(_ITEMS)
    sentences = [f"{name} has {nums[0]} {items}."]
    for op, b in zip(ops, nums[1:]):
        phrases = _PLUS if op == "+" else _MINUS if op == "-" else _TIMES
        sentences.append(rng.choice(phrases).format(n=name, b=b, items=items))
    sentences.append(f"How many {items} does {name} have now?")
    return " ".join(sentences)


def reference(row) -> str:  # type: ignore[no-untyped-def]
    """The worked steps, then ``#### N``."""
    return "\n".join([*row.info["steps"], f"#### {row.answer}"])


@register("arithmetic")
def arithmetic(
    level: int = 2,
    *,
    digits: tuple[int, int] | int | None = None,
    operands: tuple[int, int] | int | None = None,
    ops: str | None = None,
    word_frac: float | None = None,
    allow_negative: bool | None = None,
    n_train: int = 10_000,
    n_test: int = 1_000,
    instruction: str = INSTRUCTION,
    system: str | None = None,
    few_shot: int = 0,
) -> Task:
    """Generated arithmetic at difficulty ``level`` (1-6), any knob overridable.

    ``n_train`` / ``n_test`` are the split sizes when ``rows`` gets no ``limit``.

    >>> arithmetic(digits=3, operands=2, ops="*").rows("train", limit=1)[0].answer
    '443211'
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {sorted(LEVELS)}, got {level!r}")
    overrides = {
        "digits": (digits, digits) if isinstance(digits, int) else digits,
        "operands": (operands, operands) if isinstance(operands, int) else operands,
        "ops": ops,
        "word_frac": word_frac,
        "allow_negative": allow_negative,
    }
    difficulty = replace(LEVELS[level], **{k: v for k, v in overrides.items() if v is not None})
    sizes = {"train": n_train, "test": n_test}
    for split, size in sizes.items():
        if size < 0:
            raise ValueError(f"n_{split} must be >= 0, got {size}")

    def problems(split: str, seed: int, path: str | None) -> Iterator[Problem]:
        if path is not None:
            raise ValueError("arithmetic is generated; it takes no path")
        for i in range(sizes[split]):
            g = generate_in_split(row_rng("arithmetic", split, seed, i), difficulty, split)
            yield Problem(f"arithmetic/{split}/{i}", g.question, str(g.value), {"steps": g.steps})

    return Task(
        "arithmetic",
        problems,
        answer_line_rubric(),
        prompt=Prompt(
            instruction, system=system, few_shot=few_shot, template="{question}\n{instruction}"
        ),
        reference=reference,
        splits=("train", "test"),
        description=f"generated + - * arithmetic, level {level}, '#### N' answer line",
    )
