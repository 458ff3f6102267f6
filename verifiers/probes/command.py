"""``python -m verifiers probe``: the command behind the CLI (arguments in ``verifiers.cli``).

    python -m verifiers probe gsm8k -n 50 [--split test] [--seed 0] [--json]
    python -m verifiers probe mytask --module my_tasks
    python -m verifiers probe --reward my_rewards:exact --gold-key answer --data rows.jsonl

Exit status: 0 when nothing was found, 1 on any false positive, refused control, overrun or
error, 2 on a usage error (unknown task, unreadable data, a reward that cannot be imported).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import random
import sys
from collections.abc import Mapping
from typing import Any

from verifiers.probes.registry import ProbeRow, families
from verifiers.probes.report import ProbeReport
from verifiers.probes.runner import FunctionScorer, TaskScorer, load_function, run

EXIT_USAGE = 2
# Rows read before sampling: all of every built-in split (gsm8k train has 7,473), and a
# bound for generated tasks whose splits never end.
MAX_POOL_ROWS = 10_000
DEFAULT_REWARD_TIMEOUT = 10.0


class UsageError(Exception):
    """Bad arguments or data: the message is the one line printed."""


def _question(prompt: Any) -> str:
    for message in reversed(tuple(prompt or ())):
        if isinstance(message, Mapping) and message.get("role") == "user":
            return str(message.get("content", ""))
    return ""


def _sample(items: list[Any], n: int, seed: int) -> list[Any]:
    if n >= len(items):
        return items
    picked = sorted(random.Random(seed).sample(range(len(items)), n))
    return [items[i] for i in picked]


def _task_rows(args: argparse.Namespace) -> tuple[list[ProbeRow], str, TaskScorer, float, str]:
    from tasks.__main__ import LoadError, load_task
    from tasks.base import ENDLESS_LIMIT
    from tasks.sources import DataError, DataNotFound

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
        picked = _sample(rows, args.n, args.seed)
    probe_rows = [
        ProbeRow(r.id, r.answer, task.reference_completion(r), _question(r.prompt), r.info)
        for r in picked
    ]
    kind = "code" if task.runs_code else "text"
    timeout = args.timeout or task.rubric.timeout
    return probe_rows, kind, TaskScorer(args.task, args.module), timeout, f"{args.task}/{split}"


def _data_rows(args: argparse.Namespace) -> list[ProbeRow]:
    from tasks.sources import DataError, read_records

    try:
        records = read_records(args.data)
    except FileNotFoundError:
        raise UsageError(f"--data {args.data}: no such file") from None
    except (DataError, OSError, ValueError) as e:
        raise UsageError(f"--data {args.data}: {e}") from None
    rows = []
    for i, record in enumerate(records):
        try:
            gold = record.field(args.gold_key, (str, int, float))
            reference = record.field(args.reference_key, str) if args.reference_key else str(gold)
        except DataError as e:
            raise UsageError(str(e)) from None
        info = {k: v for k, v in record.data.items() if k not in (args.gold_key,)}
        rows.append(ProbeRow(f"{args.data}:{i + 1}", str(gold), reference, "", info))
    if not rows:
        raise UsageError(f"--data {args.data}: no rows")
    return rows


def _prepare(args: argparse.Namespace) -> tuple[list[ProbeRow], str, Any, float, str]:
    if args.task and args.reward:
        raise UsageError("give a task or --reward, not both")
    if not args.task and not args.reward:
        raise UsageError("give a task name, or --reward module:fn with --data FILE")
    if args.task:
        return _task_rows(args)
    if not args.data:
        raise UsageError("--reward needs --data FILE (rows with the gold under --gold-key)")
    for module in args.module:  # they may register probe families
        try:
            importlib.import_module(module)
        except Exception as e:  # the user's module: any failure while importing it is theirs
            raise UsageError(
                f"--module {module}: cannot import it: {type(e).__name__}: {e}"
            ) from None
    try:
        load_function(args.reward)
    except ValueError as e:
        raise UsageError(str(e)) from None
    rows = _sample(_data_rows(args), args.n, args.seed)
    timeout = args.timeout or DEFAULT_REWARD_TIMEOUT
    return rows, args.kind, FunctionScorer(args.reward), timeout, args.reward


def probe_command(args: argparse.Namespace) -> int:
    """Run ``python -m verifiers probe`` for parsed ``args``; returns the exit status."""
    try:
        if args.list_families:
            for name, fam in families().items():
                doc = (fam.fn.__doc__ or "").strip().splitlines()
                once = " (first row only)" if fam.once else ""
                print(f"{name:22s} {fam.kind:5s} {doc[0] if doc else ''}{once}")
            return 0
        rows, kind, scorer, timeout, target = _prepare(args)
        try:
            results, family_errors = run(
                scorer, rows, kind, timeout=timeout, only=args.family, workers=args.workers
            )
        except KeyError as e:  # an unknown --family
            raise UsageError(e.args[0]) from None
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    report = ProbeReport.build(
        target, len(rows), results, family_errors, timeout=timeout, threshold=args.threshold
    )
    from verifiers.cli import _write  # the check command's writer: escapes what cannot print

    try:
        _write(report.to_json() if args.json else report.table())
        sys.stdout.flush()  # a closed pipe must surface here, not in the exit-time flush
    except BrokenPipeError:
        # the reader (``| head``) has what it wanted; point stdout at /dev/null so the
        # interpreter's own flush at exit does not raise again
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # what a shell reports for a process ended by SIGPIPE
    return report.exit_code
