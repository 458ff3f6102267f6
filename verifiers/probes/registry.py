"""The probe registry: families of adversarial completions, each a pure function of one row.

A family is ``fn(row: ProbeRow) -> list[(completion, expected, family)]``: completions a
cheating policy would write for this row, each labelled with the reward it must get (0 for an
attack, 1 for a control that restates the right answer correctly). A tuple may carry a fourth
item, a short variant name, so the report can say which attack of a family failed on how many
rows; without it the variant is the tuple's position in the list.

>>> @family("shout", kind="text")
... def shout(row):
...     return [(row.with_answer(row.answer.upper() + "!!!"), 0, "shout")]
>>> probes, errors = generate(ProbeRow("r1", gold="5", reference="#### 5"), "text",
...                           only=["shout"])
>>> probes
[Probe(completion='#### 5!!!', expected=0, family='shout', variant='#0')]
>>> _ = FAMILIES.pop("shout")
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, NamedTuple

from verifiers.probes.answer import Slot, find_slot, wrong_answer

Kind = Literal["text", "code", "any"]
KINDS: tuple[str, ...] = ("text", "code", "any")


class Probe(NamedTuple):
    """One adversarial (or control) completion and the reward it must get."""

    completion: str
    expected: int  # 0: an attack the reward must refuse; 1: a control it must pay for
    family: str
    variant: str = ""


@dataclass(frozen=True)
class ProbeRow:
    """What a family sees of one row.

    ``gold``: the reference answer the reward compares against (``row.answer``);
    ``reference``: the gold solution written as a completion (the task's reference
    completion; the gold itself when there is none); ``question``: the prompt's last message;
    ``info``: the row's extra fields (code tests, a HumanEval prefix...).

    The answer slot is where the final answer sits in ``reference``: the content of its last
    ``\\boxed{}``, ``#### ...`` line or ``<answer>`` tag, else the last occurrence of the gold,
    else (neither found) a line ``The answer is <gold>.`` appended.

    >>> row = ProbeRow("r", gold="1000", reference="so 1,000.\\n#### 1,000")
    >>> row.answer, row.wrong, row.with_answer("7")
    ('1,000', '1,001', 'so 1,000.\\n#### 7')
    """

    id: str
    gold: str
    reference: str
    question: str = ""
    info: Mapping[str, Any] = field(default_factory=dict)

    @cached_property
    def slot(self) -> Slot:
        return find_slot(self.reference, self.gold)

    @property
    def answer(self) -> str:
        """The final answer as the reference writes it (``1,000``, ``\\frac{1}{2}``, ``8-5``)."""
        return self.slot.text

    @property
    def marker(self) -> tuple[str, str]:
        """What opens and closes the answer: ``("\\\\boxed{", "}")``, ``("#### ", "")``, ..."""
        return self.slot.open, self.slot.close

    @cached_property
    def wrong(self) -> str:
        """A plausible wrong answer in the same notation (the last integer bumped)."""
        return wrong_answer(self.answer)

    def with_answer(self, text: str) -> str:
        """The reference with its final answer replaced by ``text``."""
        return self.slot.before + text + self.slot.after

    def marked(self, text: str) -> str:
        """``text`` inside the reference's answer marker (``\\boxed{text}``, ``#### text``)."""
        return self.slot.open + text + self.slot.close


FamilyFn = Callable[[ProbeRow], Iterable[Sequence[Any]]]


@dataclass(frozen=True)
class Family:
    """A registered family. ``kind``: which rewards it probes (``text`` answers, ``code``
    run in a sandbox, or ``any``). ``once``: generated for the first row of a run only (big
    or slow completions whose point is the time they take, not the row)."""

    name: str
    fn: FamilyFn
    kind: str = "text"
    once: bool = False


FAMILIES: dict[str, Family] = {}


def family(name: str, *, kind: Kind = "text", once: bool = False) -> Callable[[FamilyFn], FamilyFn]:
    """Decorator: register ``fn(row) -> [(completion, expected, family[, variant])]``.

    Registering a name again replaces the family (a re-run notebook cell).
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"family name must be a non-empty str, got {name!r}")
    if kind not in KINDS:
        raise ValueError(f"family {name!r}: kind must be one of {KINDS}, got {kind!r}")

    def register(fn: FamilyFn) -> FamilyFn:
        if not callable(fn):
            raise TypeError(f"family {name!r}: expected a function, got {fn!r}")
        FAMILIES[name] = Family(name, fn, kind, once)
        return fn

    return register


def families() -> dict[str, Family]:
    """Every registered family. The built-in ones register when ``verifiers.probes`` is
    imported (its ``__init__`` imports ``code`` and ``text``, which import this module:
    the registry never imports its families back)."""
    return dict(FAMILIES)


def selected(kind: str, only: Sequence[str] | None = None) -> list[Family]:
    """The families that probe a ``kind`` reward (all of ``only`` when given, whatever kind).

    Raises ``KeyError`` naming an unknown family.
    """
    known = families()
    if only:
        missing = [n for n in only if n not in known]
        if missing:
            raise KeyError(f"unknown probe family {', '.join(missing)}; known: {', '.join(known)}")
        return [known[n] for n in only]
    return [f for f in known.values() if f.kind in (kind, "any")]


def _as_probe(item: Any, fam: Family, index: int) -> Probe:
    if isinstance(item, Probe):
        return item if item.variant else item._replace(variant=f"#{index}")
    if not isinstance(item, (tuple, list)) or len(item) not in (3, 4):
        raise TypeError(
            f"family {fam.name!r} yielded {item!r}; expected (completion, expected, family)"
        )
    completion, expected, name = item[:3]
    variant = str(item[3]) if len(item) == 4 else f"#{index}"
    if not isinstance(completion, str) or expected not in (0, 1) or not isinstance(name, str):
        raise TypeError(
            f"family {fam.name!r} yielded ({type(completion).__name__}, {expected!r}, "
            f"{name!r}); expected (str, 0 or 1, str)"
        )
    return Probe(completion, int(expected), name, variant)


@dataclass(frozen=True)
class FamilyError:
    """A family that raised (or yielded something that is not a probe) for one row."""

    family: str
    row_id: str
    message: str


def generate(
    row: ProbeRow, kind: str, *, only: Sequence[str] | None = None, first: bool = True
) -> tuple[list[Probe], list[FamilyError]]:
    """Every probe of ``row`` from the families for ``kind`` (``once`` families only when
    ``first``), and an error for each family that failed on it (the others still run)."""
    probes: list[Probe] = []
    errors: list[FamilyError] = []
    for fam in selected(kind, only):
        if fam.once and not first:
            continue
        try:
            items = list(fam.fn(row))
            probes.extend(_as_probe(item, fam, i) for i, item in enumerate(items))
        except Exception as exc:  # noqa: BLE001 - a user's family: report it, keep going
            errors.append(FamilyError(fam.name, row.id, f"{type(exc).__name__}: {exc}"))
    return probes, errors
