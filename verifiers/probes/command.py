"""The probe command: rows in, probes run, a report out. ``python -m verifiers probe`` gives it
the rows of a reward function's data file (:func:`reward_rows`); ``python -m tasks probe``
gives it a task's rows and rubric (``tasks.probe``), through the same :func:`probe_command`
and the same flags (:func:`add_probe_arguments`).

    python -m verifiers probe --reward my_rewards:exact --gold-key answer --data rows.jsonl
    python -m tasks probe gsm8k -n 50 [--split test] [--seed 0] [--json]

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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from verifiers.command_line import _positive_float, _positive_int, _unit_float, write
from verifiers.probes.registry import ProbeRow, families
from verifiers.probes.report import ProbeReport
from verifiers.probes.runner import FunctionScorer, load_function, run
from verifiers.records import DataError, read_records

EXIT_USAGE = 2
DEFAULT_REWARD_TIMEOUT = 10.0

Prepared = tuple[list[ProbeRow], str, Any, float, str]
"""(rows, kind "text" | "code", a picklable scorer, the deadline per call, the target's name)."""


class UsageError(Exception):
    """Bad arguments or data: the message is the one line printed."""


def sample_rows(items: list[Any], n: int, seed: int) -> list[Any]:
    """``n`` of ``items`` drawn with ``seed``, in their order (all of them when fewer)."""
    if n >= len(items):
        return items
    picked = sorted(random.Random(seed).sample(range(len(items)), n))
    return [items[i] for i in picked]


def _data_rows(args: argparse.Namespace) -> list[ProbeRow]:
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
        # the file's name, not the path as typed: a row's probes are drawn from its id, and
        # the same file read from another folder (or as ./rows.jsonl) must give the same ones
        rows.append(ProbeRow(f"{Path(args.data).name}:{i + 1}", str(gold), reference, "", info))
    if not rows:
        raise UsageError(f"--data {args.data}: no rows")
    return rows


def reward_rows(args: argparse.Namespace) -> Prepared:
    """What ``python -m verifiers probe --reward module:fn --data FILE`` probes."""
    if args.task:
        raise UsageError(f"a task's rubric is probed by `python -m tasks probe {args.task}` "
                         "(this command probes --reward module:fn with --data FILE)")
    if not args.reward:
        raise UsageError("give --reward module:fn with --data FILE (a task: python -m tasks "
                         "probe TASK)")
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
    rows = sample_rows(_data_rows(args), args.n, args.seed)
    timeout = args.timeout or DEFAULT_REWARD_TIMEOUT
    return rows, args.kind, FunctionScorer(args.reward), timeout, args.reward


def add_probe_arguments(p: argparse.ArgumentParser) -> None:
    """The flags every probe command takes, whatever it probes."""
    p.add_argument(
        "--module", action="append", default=[], help="import first (registers tasks, families)"
    )
    p.add_argument("-n", type=_positive_int, default=50, help="rows to sample (default 50)")
    p.add_argument("--seed", type=int, default=0, help="row sample (and generator) seed")
    p.add_argument(
        "--family", action="append", help="run only this family (repeat; see --list-families)"
    )
    p.add_argument("--list-families", action="store_true", help="list the families and exit")
    p.add_argument(
        "--timeout",
        type=_positive_float,
        help="deadline per call in seconds (default: the task rubric's, 10 for --reward)",
    )
    p.add_argument(
        "--threshold",
        type=_unit_float,
        default=0.5,
        help="an attack is paid for at this reward or more (default 0.5)",
    )
    p.add_argument("--workers", type=_positive_int, default=1, help="calls in flight at once")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def probe_command(args: argparse.Namespace, prepare: Callable[[argparse.Namespace], Prepared]
                  ) -> int:
    """Probe what ``prepare(args)`` gives (raising :class:`UsageError` on bad arguments or
    data); returns the exit status."""
    try:
        if args.list_families:
            for name, fam in families().items():
                doc = (fam.fn.__doc__ or "").strip().splitlines()
                once = " (first row only)" if fam.once else ""
                print(f"{name:22s} {fam.kind:5s} {doc[0] if doc else ''}{once}")
            return 0
        rows, kind, scorer, timeout, target = prepare(args)
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
    try:
        write(report.to_json() if args.json else report.table())
        sys.stdout.flush()  # a closed pipe must surface here, not in the exit-time flush
    except BrokenPipeError:
        # the reader (``| head``) has what it wanted; point stdout at /dev/null so the
        # interpreter's own flush at exit does not raise again
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # what a shell reports for a process ended by SIGPIPE
    return report.exit_code
