"""``python -m tasks probe TASK``: probe a task's rubric with the completions a cheating policy
would write (the probe families and the report are ``verifiers.probes``; this module supplies
the task's rows and rubric, which the verifiers layer never imports). See docs/probe.md.

    python -m tasks probe gsm8k -n 50 [--split test] [--seed 0] [--json]
    python -m tasks probe mytask --module my_tasks
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from tasks.base import ENDLESS_LIMIT
from tasks.loading import LoadError, load_task
from tasks.sources import DataError, DataNotFound
from verifiers.probes.command import Prepared, UsageError, add_probe_arguments, sample_rows
from verifiers.probes.registry import ProbeRow
from verifiers.probes.runner import LOADED, RubricScorer

# Rows read before sampling: all of every built-in split (gsm8k train has 7,473), and a
# bound for generated tasks whose splits never end.
MAX_POOL_ROWS = 10_000


def _task_scorer(name: str, modules: tuple[str, ...], options: tuple) -> RubricScorer:
    key = ("task", name, modules, options)
    if key not in LOADED:
        task = load_task(name, modules=modules, options=dict(options))
        LOADED[key] = RubricScorer(task.rubric)
    return LOADED[key]


class TaskScorer:
    """A task's rubric, built in the worker from ``(name, modules, options)``."""

    def __init__(
        self, name: str, modules: Sequence[str] = (), options: Mapping[str, Any] | None = None
    ) -> None:
        self.args = (name, tuple(modules), tuple(sorted((options or {}).items())))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_task_scorer, self.args)


def _question(prompt: Any) -> str:
    for message in reversed(tuple(prompt or ())):
        if isinstance(message, Mapping) and message.get("role") == "user":
            return str(message.get("content", ""))
    return ""


def task_rows(args: argparse.Namespace) -> Prepared:
    """What ``python -m tasks probe TASK`` probes: sampled rows of the task with their
    reference completions, and the task's rubric as the scorer."""
    if not args.task:
        raise UsageError("give a task name (python -m tasks list shows them)")
    try:
        task = load_task(args.task, modules=args.module)
    except LoadError as e:
        raise UsageError(str(e)) from None
    split = args.split or ("test" if "test" in task.splits else task.splits[0])
    pool = ENDLESS_LIMIT if task.endless else MAX_POOL_ROWS
    if task.endless:  # stderr: --json keeps stdout one object
        print(f"(task {args.task} is endless: rows drawn from its first {pool} of split "
              f"{split})", file=sys.stderr)
    try:
        rows = task.rows(split, seed=args.seed, limit=pool, path=args.path)
    except (DataNotFound, DataError, ValueError, TypeError) as e:
        raise UsageError(f"task {args.task}: {e}") from None
    if not rows:
        raise UsageError(f"task {args.task}: split {split} has no rows")
    if args.row:
        by_id = {r.id: r for r in rows}
        missing = [i for i in args.row if i not in by_id]
        if missing:
            raise UsageError(f"task {args.task}: no row {', '.join(missing)} in split {split}")
        picked = [by_id[i] for i in args.row]
    else:
        picked = sample_rows(rows, args.n, args.seed)
    probe_rows = [
        ProbeRow(r.id, r.answer, task.reference_completion(r), _question(r.prompt), r.info)
        for r in picked
    ]
    kind = "code" if task.runs_code else "text"
    timeout = args.timeout or task.rubric.timeout
    return probe_rows, kind, TaskScorer(args.task, args.module), timeout, f"{args.task}/{split}"


def add_task_probe_parser(commands: Any) -> None:
    """The ``probe`` subcommand of ``python -m tasks``."""
    p = commands.add_parser(
        "probe",
        help="throw adversarial completions at a task's rubric (see docs/probe.md)",
        description="Probe a task's rubric with the completions a cheating policy would "
        "write; exit 1 if it pays for any (or refuses a control, overruns its deadline, or "
        "errs).",
    )
    p.add_argument("task", nargs="?", help="a registered task name, or package.module:factory")
    p.add_argument("--split", help="default: test, else the task's first split")
    p.add_argument("--path", help="a data file or folder for the task (overrides $RLVR_DATA_DIR)")
    p.add_argument(
        "--row", action="append", metavar="ID", help="probe this row of the task (repeat; not -n)"
    )
    add_probe_arguments(p)
