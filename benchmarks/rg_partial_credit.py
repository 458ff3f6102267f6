"""Which of reasoning-gym's scorers pay partial credit for wrong answers, and what strict mode
(the ``rg:`` tasks' default) pays for the same answers.

For every dataset (``reasoning_gym.factory.DATASETS``, the composite left out) it takes ``-n``
rows of ``rg:NAME``'s test split (seed 0) and scores near misses of each gold answer, each
written as ``<answer>...</answer>`` and scored by the task's own accuracy function, raw
(``partial=True``) and strict:

- ``+digit``: the gold with a digit appended (``-41`` for ``-4``);
- ``digit+``: a digit prepended;
- ``+text``: the gold followed by a word (`` units``);
- ``twice``: the gold written twice;
- ``-last``: the gold without its last character;
- ``~last``: the gold with its last character changed.

The gold answer itself is scored too: strict mode is right only where it scores exactly 1.0.
A raw score strictly between 0 and 1 is partial credit: the scorer itself says the answer is
not right, and still pays. Datasets whose rows have no gold answer (reasoning-gym checks a
proposed solution instead) are listed apart. Each dataset gets ``--budget`` seconds.

    python benchmarks/rg_partial_credit.py [-n 5] [--datasets leg_counting,gcd] [--markdown]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def near_misses(gold: str) -> dict[str, str]:
    """Wrong answers derived from ``gold``: each differs from it."""
    last = gold[-1:]
    changed = "0" if last != "0" else "1"
    misses = {"+digit": gold + "1", "digit+": "1" + gold, "+text": gold + " units",
              "twice": f"{gold} {gold}", "-last": gold[:-1], "~last": gold[:-1] + changed}
    return {k: v for k, v in misses.items() if v.strip() and v.strip() != gold.strip()}


@dataclass
class Finding:
    dataset: str
    rows: int = 0
    paid_rows: set[str] = field(default_factory=set)
    best: tuple[float, str, str, str] | None = None  # (raw, kind, gold, wrong)
    strict_max: float = 0.0
    no_gold: int = 0
    gold_short: list[float] = field(default_factory=list)  # raw scores < 1 of the gold itself
    error: str = ""
    seconds: float = 0.0


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def probe_dataset(name: str, n: int) -> Finding:
    import tasks

    found = Finding(name)
    with contextlib.redirect_stdout(io.StringIO()):  # some generators print as they go
        raw_task = tasks.get(f"rg:{name}", size=n, test_size=n, partial=True)
        strict_task = tasks.get(f"rg:{name}", size=n, test_size=n)
        rows = raw_task.rows("test", limit=n)
    # the accuracy functions themselves, in this process (the rubric would send each call
    # to a worker process, which only adds time here)
    raw_fn = raw_task.rubric.funcs[0].fn
    strict_fn = strict_task.rubric.funcs[0].fn
    for row in rows:
        found.rows += 1
        if not row.answer.strip():
            found.no_gold += 1
            continue
        with contextlib.redirect_stdout(io.StringIO()):
            gold_raw = raw_fn(f"<answer>{row.answer}</answer>", row.answer, **row.info).reward
        if gold_raw != 1.0:  # strict mode would refuse the right answer
            found.gold_short.append(gold_raw)
        for kind, wrong in near_misses(row.answer).items():
            completion = f"<answer>{wrong}</answer>"
            with contextlib.redirect_stdout(io.StringIO()):
                raw = raw_fn(completion, row.answer, **row.info).reward
                strict = strict_fn(completion, row.answer, **row.info).reward
            if 0.0 < raw < 1.0:
                found.paid_rows.add(row.id)
                found.strict_max = max(found.strict_max, strict)
                if found.best is None or raw > found.best[0]:
                    found.best = (raw, kind, row.answer, wrong)
    return found


def run(names: list[str], n: int, budget: int) -> list[Finding]:
    signal.signal(signal.SIGALRM, _alarm)
    findings = []
    for name in names:
        start = time.perf_counter()
        signal.alarm(budget)
        try:
            found = probe_dataset(name, n)
        except _Timeout:
            found = Finding(name, error=f"over the {budget} s budget")
        except Exception as e:  # a dataset that cannot be built here is reported, not fatal
            found = Finding(name, error=f"{type(e).__name__}: {str(e)[:80]}")
        finally:
            signal.alarm(0)
        found.seconds = time.perf_counter() - start
        findings.append(found)
        print(f"  {name}: {len(found.paid_rows)}/{found.rows} rows paid partial credit"
              f"{' (' + found.error + ')' if found.error else ''}", file=sys.stderr)
    return findings


def _score(raw: float) -> str:
    # rounded down: 0.9996 shown as "1" would read as full credit
    return f"{math.floor(raw * 1000) / 1000:.3f}"


def _short(text: str, width: int = 18) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 3] + "..."


def report(findings: list[Finding], n: int, markdown: bool) -> str:
    paid = [f for f in findings if f.paid_rows]
    clean = [f for f in findings if not f.paid_rows and not f.error and f.no_gold < f.rows]
    no_gold = [f for f in findings if f.rows and f.no_gold == f.rows]
    failed = [f for f in findings if f.error]
    lines = [f"{len(findings)} datasets, {n} test rows each (seed 0): {len(paid)} pay partial "
             f"credit for a wrong answer; strict mode paid at most "
             f"{max((f.strict_max for f in paid), default=0.0):g} on those answers"]
    ranked = sorted(paid, key=lambda f: (-f.best[0], f.dataset))
    if markdown:  # the README's list: grouped by how much a near miss is paid
        for title, keep in (("over half", lambda r: r > 0.5),
                            ("a quarter to half", lambda r: 0.25 < r <= 0.5),
                            ("a token amount (at most a quarter)", lambda r: r <= 0.25)):
            group = [f for f in ranked if keep(f.best[0])]
            if group:
                lines.append(f"- **{title}** ({len(group)}): " + ", ".join(
                    f"`{f.dataset}` {_score(f.best[0])}" for f in group))
        examples = [f for f in ranked if len(f.best[2]) <= 18][:5]
        lines.append("- for example: " + "; ".join(
            f"`{f.dataset}` `{f.best[2]}` -> `{f.best[3]}` {_score(f.best[0])}"
            for f in examples))
    else:
        for f in ranked:
            raw, kind, gold, wrong = f.best
            lines.append(f"  PARTIAL {f.dataset:28s} {len(f.paid_rows)}/{f.rows} rows, up to "
                         f"{_score(raw)}: {gold!r:.30} -> {wrong!r:.30} ({kind})")
    short = [f for f in findings if f.gold_short]
    lines.append("gold answers scored below 1.0 (strict refuses them): " + (", ".join(
        f"{f.dataset} ({len(f.gold_short)} rows, {min(f.gold_short):g})" for f in short)
        or "none"))
    lines.append(f"no partial credit found: {', '.join(f.dataset for f in clean) or 'none'}")
    lines.append(f"no gold answer to mutate: {', '.join(f.dataset for f in no_gold) or 'none'}")
    lines.append("not run: " + ("; ".join(f"{f.dataset} ({f.error})" for f in failed)
                                 or "none"))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=5, help="test rows per dataset")
    parser.add_argument("--datasets", help="comma-separated names (default: all)")
    parser.add_argument("--budget", type=int, default=60, help="seconds per dataset")
    parser.add_argument("--markdown", action="store_true", help="the README's table")
    args = parser.parse_args()
    try:
        from reasoning_gym.factory import DATASETS
    except ImportError:
        sys.exit("reasoning-gym is not installed: pip install -e '.[reasoning-gym]'")
    names = args.datasets.split(",") if args.datasets else sorted(set(DATASETS) - {"composite"})
    start = time.perf_counter()
    findings = run(names, args.n, args.budget)
    print(report(findings, args.n, args.markdown))
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
