"""``countdown``: reach a target from given numbers with + - * /, each number at most once.

Each puzzle is built backwards from a solution: ``k`` of the given numbers (2 to all) are
combined pairwise at random with operations that keep every intermediate result a positive
whole number (the rules of the TV game), and the result is the target. So every puzzle has a
solution, which is the reference completion:

>>> task = countdown()
>>> row = task.rows("test", limit=1)[0]
>>> print(row.prompt[-1]["content"])
Using the numbers 9, 3, 12, 8, make 39. Use + - * / and each number at most once.
End with the answer line '#### <expression>'.
>>> print(task.reference_completion(row))
9+12=21
21-8=13
13*3=39
#### ((9+12)-8)*3

The completion's expression is checked by :mod:`verifiers.countdown`: parsed with ``ast``,
evaluated exactly over fractions, never with ``eval``.

Rubric: accuracy (the expression is valid and equals the target; weight 1) + format (a
``#### ...`` or ``<answer>`` line is present; weight 0.1), not gated.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from tasks.base import Problem, Row, Task
from tasks.prompts import Prompt
from tasks.registry import register
from tasks.rubrics import countdown_rubric
from tasks.seeds import row_rng

INSTRUCTION = "End with the answer line '#### <expression>'."


@dataclass(frozen=True)
class Puzzle:
    numbers: tuple[int, ...]
    target: int
    solution: str
    steps: tuple[str, ...]


def _combine(rng: random.Random, a: int, b: int) -> tuple[int, int, str]:
    """A random legal operation on ``a`` and ``b``: (left, right, op), or None."""
    choices = [(a, b, "+"), (a, b, "*")]
    if a != b:
        choices.append((max(a, b), min(a, b), "-"))
    big, small = max(a, b), min(a, b)
    if small > 1 and big % small == 0:
        choices.append((big, small, "/"))
    return rng.choice(choices)


def _value(left: int, right: int, op: str) -> int:
    return {
        "+": left + right,
        "-": left - right,
        "*": left * right,
        "/": left // right,
    }[op]


def generate(
    rng: random.Random,
    *,
    n_numbers: int = 4,
    max_number: int = 25,
    max_target: int = 1000,
    use_all: bool = False,
) -> Puzzle:
    """One solvable puzzle drawn from ``rng`` (deterministic given its state); the solution
    uses 2 to ``n_numbers`` of the numbers, all of them with ``use_all``."""
    numbers = tuple(rng.randint(1, max_number) for _ in range(n_numbers))
    for attempt in range(64):
        k = n_numbers if use_all else rng.randint(2, n_numbers)
        pool = [(n, str(n), False) for n in rng.sample(numbers, k)]  # (value, text, composite)
        steps = []
        while len(pool) > 1:
            (a, a_text, a_comp), (b, b_text, b_comp) = pool.pop(), pool.pop()
            left, right, op = _combine(rng, a, b)
            if attempt == 63:  # bounded retries: a sum of positives is always legal
                left, right, op = a, b, "+"
            l_text, l_comp, r_text, r_comp = (
                (a_text, a_comp, b_text, b_comp) if left == a else (b_text, b_comp, a_text, a_comp)
            )
            value = _value(left, right, op)
            steps.append(f"{left}{op}{right}={value}")
            text = f"{_wrap(l_text, l_comp)}{op}{_wrap(r_text, r_comp)}"
            pool.insert(rng.randrange(len(pool) + 1), (value, text, True))
        target, solution, _ = pool[0]
        if (1 <= target <= max_target and target not in numbers) or attempt == 63:
            return Puzzle(numbers, target, solution, tuple(steps))
    raise AssertionError("unreachable")


def _wrap(text: str, composite: bool) -> str:
    # Parentheses only where precedence needs them would need the child's operator; keeping
    # them on every composite child is always correct and still short.
    return f"({text})" if composite else text


def reference(row: Row) -> str:
    """The worked steps, then ``#### <expression>``."""
    return "\n".join([*row.info["steps"], f"#### {row.info['solution']}"])


@register("countdown")
def countdown(
    *,
    n_numbers: int = 4,
    max_number: int = 25,
    max_target: int = 1000,
    use_all: bool = False,
    n_train: int = 10_000,
    n_test: int = 1_000,
    instruction: str = INSTRUCTION,
    system: str | None = None,
    few_shot: int = 0,
) -> Task:
    """Generated countdown puzzles: ``n_numbers`` numbers in 1..``max_number``, a target in
    1..``max_target``. With ``use_all`` every number must be used exactly once (the
    generated solutions then use them all too)."""
    if not 2 <= n_numbers <= 8:
        raise ValueError(f"n_numbers must be in 2..8, got {n_numbers}")
    if max_number < 2 or max_target < 2:
        raise ValueError(f"max_number and max_target must be >= 2, got {max_number}, {max_target}")
    sizes = {"train": n_train, "test": n_test}

    def problems(split: str, seed: int, path: str | None) -> Iterator[Problem]:
        if path is not None:
            raise ValueError("countdown is generated; it takes no path")
        for i in range(sizes[split]):
            rng = row_rng("countdown", split, seed, i)
            p = generate(
                rng,
                n_numbers=n_numbers,
                max_number=max_number,
                max_target=max_target,
                use_all=use_all,
            )
            question = (
                f"Using the numbers {', '.join(map(str, p.numbers))}, make {p.target}. "
                f"Use + - * / and each number {'exactly' if use_all else 'at most'} once."
            )
            info = {"numbers": p.numbers, "solution": p.solution, "steps": p.steps}
            yield Problem(f"countdown/{split}/{i}", question, str(p.target), info)

    return Task(
        "countdown",
        problems,
        countdown_rubric(use_all=use_all),
        prompt=Prompt(
            instruction, system=system, few_shot=few_shot, template="{question}\n{instruction}"
        ),
        reference=reference,
        splits=("train", "test"),
        description="generated countdown puzzles: reach a target with + - * /",
    )
