"""The two records every task is made of: a ``Problem`` (what a source yields) and a ``Row``
(a problem rendered into chat messages), plus the ``Task`` that joins source, prompt and rubric.

A task answers three questions: where do the problems come from (``problems``), how does a
problem become a prompt (``prompt``), and how is a completion scored (``rubric``). Everything
else (few-shot examples, limits, ids) is done here once for every task.

>>> from verifiers.gsm8k import gsm8k_check
>>> from verifiers.rubric import RewardFunc, Rubric
>>> def problems(split, seed, path):
...     return (Problem(f"double/{split}/{i}", f"What is 2 times {i}?", str(2 * i)) for i in range(5))
>>> task = Task("double", problems, Rubric([RewardFunc("accuracy", gsm8k_check)]),
...             reference=lambda row: f"#### {row.answer}")
>>> row = task.rows("test", limit=1)[0]
>>> row.prompt[-1]["content"]
'What is 2 times 0?'
>>> task.score(row, task.reference_completion(row)).total
1.0
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tasks.prompts import Message, Prompt

if TYPE_CHECKING:  # the rubric type is only needed for annotations; keep `import tasks` light
    from verifiers.rubric import Rubric, RubricScore


class FrozenMap(Mapping[str, Any]):
    """A read-only mapping that, unlike ``types.MappingProxyType``, pickles (rows travel to
    worker processes when a rubric scores a batch)."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        object.__setattr__(self, "_data", dict(data or {}))

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("FrozenMap is read-only")

    def __getstate__(self) -> dict[str, Any]:
        return self._data

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "_data", state)

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


def _frozen(info: Mapping[str, Any] | None) -> FrozenMap:
    return info if isinstance(info, FrozenMap) else FrozenMap(info)


@dataclass(frozen=True)
class Problem:
    """One problem as a source yields it, before it is rendered into a prompt.

    ``answer`` is the reference the rubric compares against; ``info`` holds whatever else the
    rubric or the reference completion needs (a worked solution, code tests, the numbers of a
    countdown puzzle). ``info`` is read-only.
    """

    id: str
    question: str
    answer: str
    info: Mapping[str, Any] = field(default_factory=FrozenMap)

    def __post_init__(self) -> None:
        object.__setattr__(self, "info", _frozen(self.info))


@dataclass(frozen=True)
class Row:
    """One prompt ready for a model: ``prompt`` is a tuple of chat messages
    ``{"role", "content"}``; ``answer`` and ``info`` go to the rubric unchanged."""

    id: str
    prompt: tuple[Message, ...]
    answer: str
    info: Mapping[str, Any] = field(default_factory=FrozenMap)

    def __post_init__(self) -> None:
        object.__setattr__(self, "prompt", tuple(dict(m) for m in self.prompt))
        object.__setattr__(self, "info", _frozen(self.info))

    def __hash__(self) -> int:  # dict-valued fields are not hashable; the id names the row
        return hash((self.id, self.answer))


# Rows a command takes from an endless task when it is given no limit.
ENDLESS_LIMIT = 1000

# (split, seed, path) -> problems. Generated tasks use ``seed``; file-backed ones use ``path``.
ProblemSource = Callable[[str, int, "str | None"], Iterable[Problem]]


def _gold_answer(row: Row) -> str:
    return row.answer


@dataclass
class Task:
    """A source of problems + a prompt + a rubric.

    Arguments:
        name: registry name, also the prefix of row ids.
        problems: ``problems(split, seed, path) -> Iterable[Problem]``; may be lazy (and
            endless for generators: ``rows(limit=...)`` only takes what it needs).
        rubric: scores ``(completion, row.answer, **row.info)``.
        prompt: how a question becomes chat messages (instruction, system prompt, few-shot).
        reference: ``reference(row) -> str``, the gold solution written as a completion in
            the format the prompt asks for. The audit checks it scores 1.0.
        splits: the split names ``rows`` accepts.
        description: one line for ``python -m tasks list``.
        runs_code: scoring runs the completion in a sandbox subprocess, so rollouts score
            several completions at once from threads (``--env-workers``'s automatic value).
        endless: ``problems`` never runs out (a procedural generator). ``rows`` then needs a
            ``limit``, and ``python -m tasks audit``/``show`` and the probe take
            :data:`ENDLESS_LIMIT` rows unless told otherwise, and say so.
    """

    name: str
    problems: ProblemSource
    rubric: Rubric
    prompt: Prompt = field(default_factory=Prompt)
    reference: Callable[[Row], str] = _gold_answer
    splits: tuple[str, ...] = ("train", "test")
    description: str = ""
    runs_code: bool = False
    endless: bool = False

    def rows(
        self,
        split: str = "train",
        *,
        seed: int = 0,
        limit: int | None = None,
        path: str | None = None,
    ) -> list[Row]:
        """The rows of ``split``, in source order (file order, or generator order for
        ``seed``). With ``prompt.few_shot = k`` the first ``k`` train problems become the
        examples and are left out of the train split (of the first split when there is no
        train split), so no row's answer is in its own prompt.

        >>> import tasks
        >>> [r.id for r in tasks.get("arithmetic").rows("test", limit=2)]
        ['arithmetic/test/0', 'arithmetic/test/1']
        """
        if split not in self.splits:
            raise ValueError(f"task {self.name!r} has no split {split!r} (splits: {self.splits})")
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0 or None, got {limit}")
        if limit is None and self.endless:
            # building the list of an endless generator never returns
            raise ValueError(f"task {self.name!r} is endless: give rows(..., limit=N)")
        shots = self._shots(seed, path) if self.prompt.few_shot else ()
        problems = iter(self.problems(split, seed, path))
        if shots and split == self._shot_split():
            problems = itertools.islice(problems, len(shots), None)
        if limit is not None:
            problems = itertools.islice(problems, limit)
        return [self._row(p, shots) for p in problems]

    def render(self, question: str, shots: tuple[tuple[str, str], ...] = ()) -> tuple[Message, ...]:
        """The chat messages for one question (see :class:`tasks.prompts.Prompt`)."""
        return self.prompt.render(question, shots)

    def score(self, row: Row, completion: str) -> RubricScore:
        """Score one completion of ``row`` under this task's rubric."""
        return self.rubric.score(completion, row.answer, **row.info)

    def reference_completion(self, row: Row) -> str:
        """The gold solution of ``row`` written as a completion (what the audit scores)."""
        return self.reference(row)

    def _row(self, problem: Problem, shots: tuple[tuple[str, str], ...]) -> Row:
        return Row(problem.id, self.render(problem.question, shots), problem.answer, problem.info)

    def _shots(self, seed: int, path: str | None) -> tuple[tuple[str, str], ...]:
        # Few-shot examples always come from the start of one split, whatever split is being
        # rendered, so every row of a run sees the same examples.
        firsts = itertools.islice(
            self.problems(self._shot_split(), seed, path), self.prompt.few_shot
        )
        return tuple((p.question, self.reference(Row(p.id, (), p.answer, p.info))) for p in firsts)

    def _shot_split(self) -> str:
        return "train" if "train" in self.splits else self.splits[0]
