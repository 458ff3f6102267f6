"""Probe a reward function with the completions a cheating policy would write.

``python -m verifiers probe --reward module:fn --data FILE`` (and, for a task's rubric,
``python -m tasks probe TASK``) generates, for each
sampled row, adversarial completions from the row's own reference and gold, scores each under
a hard deadline, and reports what the reward paid for that it should not. See docs/probe.md.

A family is a pure function ``row -> [(completion, expected, family)]`` registered with
:func:`family`; the built-in ones live in ``verifiers.probes.text`` and
``verifiers.probes.code``.
"""

from verifiers.probes import code, text  # noqa: F401  (the built-in families register)
from verifiers.probes.registry import FAMILIES, Family, Probe, ProbeRow, families, family, generate
from verifiers.probes.report import ProbeReport, pasteable
from verifiers.probes.runner import FunctionScorer, Outcome, ProbeResult, RubricScorer, run

__all__ = [
    "FAMILIES",
    "Family",
    "FunctionScorer",
    "Outcome",
    "Probe",
    "ProbeReport",
    "ProbeResult",
    "ProbeRow",
    "RubricScorer",
    "families",
    "family",
    "generate",
    "pasteable",
    "run",
]
