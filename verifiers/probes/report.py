"""The probe report: per family, what the reward paid for that it should not, which controls
it refused, its slowest call and its errors; as a table or JSON.

A probe labelled 0 is a **false positive** when its reward is at least ``threshold`` (default
0.5: more than half the reward for an attack; a right-format wrong answer earns only a small
format weight); a control labelled 1 is a **false negative** when its reward is below 1. An
**overrun** is a call killed at the deadline; an **error** is a reward that raised, returned
NaN, ``None`` or a non-number, or gave no signal.

>>> pasteable("#### 18" + " " * 2100 + "or 19")
"'#### 18' + ' ' * 2100 + 'or 19'"
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from verifiers.probes.registry import FamilyError
from verifiers.probes.runner import ProbeResult

PERFECT = 1.0 - 1e-9  # rubric totals are sums of floats
_RUN = re.compile(r"(.{1,16}?)\1{7,}", re.S)
_MIN_RUN_CHARS = 24


def _parts(text: str) -> list[tuple[str, int]]:
    parts: list[tuple[str, int]] = []
    pos = 0
    for m in _RUN.finditer(text):
        unit = m.group(1)
        if len(m.group()) < _MIN_RUN_CHARS:
            continue
        if m.start() > pos:
            parts.append((text[pos : m.start()], 1))
        parts.append((unit, len(m.group()) // len(unit)))
        pos = m.end()
    if pos < len(text):
        parts.append((text[pos:], 1))
    return parts


def _expr(parts: list[tuple[str, int]]) -> str:
    # ascii(): invisible and look-alike characters must show as escapes, not vanish
    return " + ".join(ascii(u) if n == 1 else f"{ascii(u)} * {n}" for u, n in parts) or "''"


def pasteable(text: str, limit: int | None = None) -> str:
    """``text`` as an ASCII Python expression (repeated runs written ``'x' * n``); past ``limit``
    characters the middle is cut and marked ``<N chars cut>`` (the JSON keeps it whole)."""
    expr = _expr(_parts(text))
    if limit is None or len(expr) <= limit:
        return expr
    head, tail = text[: limit // 4], text[-(limit // 2) :]
    cut = len(text) - len(head) - len(tail)
    short = f"{_expr(_parts(head))} + <{cut} chars cut> + {_expr(_parts(tail))}"
    return short if len(short) < len(expr) else expr


@dataclass
class FamilyStats:
    probes: int = 0
    false_positives: int = 0
    false_negatives: int = 0
    errors: int = 0
    overruns: int = 0
    slowest: float = 0.0
    slowest_variant: str = ""
    max_attack_reward: float | None = None


@dataclass
class Finding:
    """One failing attack (family + variant) and every row it failed on."""

    what: str  # "false_positive" | "false_negative" | "overrun" | "error"
    family: str
    variant: str
    expected: int
    rows: list[str] = field(default_factory=list)
    rewards: list[float | None] = field(default_factory=list)
    example: str = ""  # the first failing completion
    detail: str = ""  # the reward's reason (or the error) for it


def _what(result: ProbeResult, threshold: float) -> str | None:
    out, expected = result.outcome, result.probe.expected
    if out.overrun:
        return "overrun"
    if out.error is not None:
        return "error"
    if out.reward is None:
        return "error"
    if expected == 0 and out.reward >= threshold:
        return "false_positive"
    if expected == 1 and out.reward < PERFECT:
        return "false_negative"
    return None


@dataclass
class ProbeReport:
    """Everything a probe run found; ``exit_code`` is 1 when anything was."""

    target: str
    rows: int
    timeout: float
    threshold: float
    families: dict[str, FamilyStats]
    findings: list[Finding]
    family_errors: list[FamilyError]

    @classmethod
    def build(
        cls,
        target: str,
        rows: int,
        results: Sequence[ProbeResult],
        family_errors: Sequence[FamilyError] = (),
        *,
        timeout: float,
        threshold: float = 0.5,
    ) -> ProbeReport:
        stats: dict[str, FamilyStats] = {}
        findings: dict[tuple[str, str, str], Finding] = {}
        for r in results:
            p, out = r.probe, r.outcome
            s = stats.setdefault(p.family, FamilyStats())
            s.probes += 1
            if out.seconds > s.slowest:
                s.slowest, s.slowest_variant = out.seconds, p.variant
            if p.expected == 0 and out.reward is not None:
                s.max_attack_reward = max(s.max_attack_reward or 0.0, out.reward)
            what = _what(r, threshold)
            if what is None:
                continue
            counter = {
                "overrun": "overruns",
                "error": "errors",
                "false_positive": "false_positives",
                "false_negative": "false_negatives",
            }[what]
            setattr(s, counter, getattr(s, counter) + 1)
            key = (what, p.family, p.variant)
            if key not in findings:
                findings[key] = Finding(
                    what,
                    p.family,
                    p.variant,
                    p.expected,
                    example=p.completion,
                    detail=out.error or out.reason,
                )
            findings[key].rows.append(r.row_id)
            findings[key].rewards.append(out.reward)
        return cls(target, rows, timeout, threshold, stats, list(findings.values()),
                   list(family_errors))  # fmt: skip

    def total(self, counter: str) -> int:
        return sum(getattr(s, counter) for s in self.families.values())

    @property
    def exit_code(self) -> int:
        found = any(
            self.total(c) for c in ("false_positives", "false_negatives", "errors", "overruns")
        )
        return 1 if found or self.family_errors else 0

    def summary(self) -> str:
        counts = ", ".join(
            f"{self.total(c)} {label}"
            for c, label in (
                ("false_positives", "false positives"),
                ("false_negatives", "refused controls"),
                ("overruns", "overruns"),
                ("errors", "errors"),
            )
        )
        probes = self.total("probes")
        verdict = "FAIL" if self.exit_code else "PASS"
        return f"probe {self.target}: {verdict}: {probes} probes on {self.rows} rows; {counts}"

    def table(self, width: int = 160) -> str:
        head = (
            f"{'family':22s} {'probes':>6s} {'paid(FP)':>8s} {'refused(FN)':>11s} "
            f"{'errors':>6s} {'overrun':>7s} {'max 0-reward':>12s} {'slowest':>9s}  variant"
        )
        lines = [
            f"probe {self.target}: {self.rows} rows, deadline {self.timeout:g} s per call, "
            f"paid = reward >= {self.threshold:g}",
            head,
        ]
        for name, s in self.families.items():
            top = "-" if s.max_attack_reward is None else f"{s.max_attack_reward:.3g}"
            lines.append(
                f"{name:22s} {s.probes:6d} {s.false_positives:8d} {s.false_negatives:11d} "
                f"{s.errors:6d} {s.overruns:7d} {top:>12s} {s.slowest:8.3f}s  {s.slowest_variant}"
            )
        for f in self.findings:
            label = {
                "false_positive": "FALSE POSITIVE",
                "false_negative": "REFUSED CONTROL",
                "overrun": "OVERRUN",
                "error": "ERROR",
            }[f.what]
            rewards = ",".join("None" if v is None else f"{v:.3g}" for v in f.rewards[:5])
            lines.append(
                f"{label} {f.family}/{f.variant} (expected {f.expected}; {len(f.rows)} row(s): "
                f"{', '.join(f.rows[:3])}{', ...' if len(f.rows) > 3 else ''}; reward {rewards})"
            )
            lines.append(f"    completion: {pasteable(f.example, width)}")
            if f.detail:
                lines.append(f"    why: {f.detail[:width]}")
        for e in self.family_errors:
            lines.append(f"FAMILY ERROR {e.family} on {e.row_id}: {e.message[:width]}")
        if self.exit_code:
            # the findings above can run to hundreds of lines; what failed fits one screen
            lines.extend(self.digest())
        lines.append(self.summary())
        return "\n".join(lines)

    def digest(self, families: int = 10, examples: int = 5, width: int = 100) -> list[str]:
        """At most ``families + examples + 4`` lines: the failing families with their counts
        (most findings first) and the worst findings (most rows, a paid attack first, the
        highest reward first; one per family before a second), each with its completion."""
        counters = ("false_positives", "false_negatives", "errors", "overruns")
        failing = sorted(
            ((sum(getattr(s, c) for c in counters), name, s)
             for name, s in self.families.items() if any(getattr(s, c) for c in counters)),
            key=lambda t: (-t[0], t[1]),
        )
        lines = [
            f"--- summary: {len(failing)} of {len(self.families)} families failed"
            + (f", {len(self.family_errors)} family error(s)" if self.family_errors else ""),
            f"    {'family':22s} {'paid(FP)':>8s} {'refused(FN)':>11s} {'errors':>6s} "
            f"{'overrun':>7s}",
        ]
        for _, name, s in failing[:families]:
            lines.append(f"    {name:22s} {s.false_positives:8d} {s.false_negatives:11d} "
                         f"{s.errors:6d} {s.overruns:7d}")
        if len(failing) > families:
            lines.append(f"    ... and {len(failing) - families} more failing families above")
        rank = {"false_positive": 0, "error": 1, "overrun": 2, "false_negative": 3}
        worst = sorted(self.findings, key=lambda f: (
            -len(f.rows), rank[f.what], -max((v for v in f.rewards if v is not None),
                                             default=0.0)))
        # one per family first: five variants of the same hedge say less than five families
        firsts = {id(next(f for f in worst if f.family == fam)) for fam in {f.family for f in worst}}
        shown = ([f for f in worst if id(f) in firsts] + [f for f in worst if id(f) not in firsts])
        shown = sorted(shown[:examples], key=worst.index)
        if shown:
            lines.append(f"--- worst {len(shown)} of {len(worst)} findings (one per family first):")
        for f in shown:
            rewards = [v for v in f.rewards if v is not None]
            top = f"reward up to {max(rewards):.3g}" if rewards else "no reward"
            head = f"    {f.what.replace('_', ' ')} {f.family}/{f.variant}: {len(f.rows)} row(s), {top}: "
            lines.append(head + pasteable(f.example, max(20, width - len(head))))
        return lines

    def as_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "rows": self.rows,
            "timeout_s": self.timeout,
            "threshold": self.threshold,
            "passed": self.exit_code == 0,
            "totals": {
                c: self.total(c)
                for c in ("probes", "false_positives", "false_negatives", "errors", "overruns")
            },
            "families": {
                name: {
                    "probes": s.probes,
                    "false_positives": s.false_positives,
                    "false_negatives": s.false_negatives,
                    "errors": s.errors,
                    "overruns": s.overruns,
                    "max_attack_reward": s.max_attack_reward,
                    "slowest_s": round(s.slowest, 4),
                    "slowest_variant": s.slowest_variant,
                }
                for name, s in self.families.items()
            },
            "findings": [
                {
                    "kind": f.what,
                    "family": f.family,
                    "variant": f.variant,
                    "expected": f.expected,
                    "rows": f.rows,
                    "rewards": f.rewards,
                    "completion": pasteable(f.example),
                    "detail": f.detail,
                }
                for f in self.findings
            ],
            "family_errors": [
                {"family": e.family, "row": e.row_id, "message": e.message}
                for e in self.family_errors
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.as_json(), ensure_ascii=True)
