"""``python -m tasks``: list the tasks, show rendered rows, audit the reference solutions.

    python -m tasks list
    python -m tasks show gsm8k -n 3 [--split test] [--plain]
    python -m tasks audit gsm8k [--split train] [--limit 100] [--path FILE_OR_FOLDER]
    (an endless task is audited on its first 1000 rows per split unless --limit says otherwise)
    python -m tasks audit arithmetic -o level=3          # factory options
    python -m tasks audit double --module my_tasks       # a task registered in your module
    python -m tasks probe gsm8k -n 50 [--json]           # attack the task's rubric (docs/probe.md)

``audit`` prints one line per failing reference, then ``audit NAME: X/Y references score
1.0``; it exits 1 if any reference fails and 2 if the data cannot be loaded or a split has no
rows. Every command exits 2 with a one-line ``error:`` on bad arguments, options or data.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import sys
import time
from collections.abc import Sequence
from typing import Any

from tasks import audit as audit_mod
from tasks.audit import audit, explain
from tasks.base import ENDLESS_LIMIT, Task
from tasks.loading import LoadError, load_task
from tasks.prompts import render_plain
from tasks.registry import FAMILIES, get, names
from tasks.sources import DataError, DataNotFound
from verifiers.closed_pipe import run_main


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.isidentifier():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return key, value  # a bare word is a string


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tasks", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="the registered tasks")
    for name, help_text in (
        ("show", "print rendered prompts, reference answers and their rewards"),
        ("audit", "score every reference completion under the task's rubric"),
    ):
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument("task", help="a registered name, or package.module:factory")
        sub.add_argument("--split", help="one split (default: show the first, audit all)")
        sub.add_argument("--path", help="a data file or folder (overrides $RLVR_DATA_DIR)")
        sub.add_argument("--seed", type=int, default=0, help="row seed (generated tasks)")
        sub.add_argument(
            "-o",
            "--option",
            type=_option,
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="a keyword for the task's factory",
        )
        sub.add_argument(
            "--module",
            action="append",
            default=[],
            help="import this module first (it registers your tasks)",
        )
        if name == "show":
            sub.add_argument("-n", type=_positive_int, default=3, help="how many rows")
            sub.add_argument(
                "--plain",
                action="store_true",
                help="print the plain-text rendering instead of the messages",
            )
        else:
            sub.add_argument(
                "--limit",
                type=_positive_int,
                help=f"at most this many rows per split (an endless task: {ENDLESS_LIMIT})",
            )
            sub.add_argument(
                "--workers",
                type=_positive_int,
                default=1,
                help="score in parallel (rubric.score_batch)",
            )
            sub.add_argument("-q", "--quiet", action="store_true", help="print only the final line")
    from tasks.probe import add_task_probe_parser

    add_task_probe_parser(commands)
    return parser


def _show(task: Task, args: argparse.Namespace) -> int:
    split = args.split or task.splits[0]
    if task.endless:
        print(f"(task {task.name} is endless: its first {args.n} rows of split {split}; -n N "
              "for more)\n")
    for row in task.rows(split, seed=args.seed, limit=args.n, path=args.path):
        print(f"=== {row.id} ===")
        if args.plain:
            print(render_plain(row.prompt))
        else:
            for message in row.prompt:
                print(f"[{message['role']}]\n{message['content']}")
        completion = task.reference_completion(row)
        score = task.score(row, completion)
        print(f"--- reference answer: {row.answer}")
        print(f"--- reference completion:\n{completion}")
        breakdown = ", ".join(
            f"{k}={v:g}" if v is not None else f"{k}=None" for k, v in score.breakdown.items()
        )
        print(f"--- reward: {score.total} ({breakdown})")
        if score.total is None or score.total < 1.0:
            print(f"--- why: {explain(score)}")
        print()
    return 0


# Seconds between the progress lines of a long audit (a silent one looks hung).
PROGRESS_EVERY_S = 10.0
# Rows of one split past which an audit without --limit says how to bound it: more than any
# shipped split (GSM8K train: 7,473), so only a large or undeclared endless task hears it.
HINT_AFTER_ROWS = 10_000


class _Progress:
    """Prints ``audit NAME: N rows of split S scored so far`` to stderr every
    PROGRESS_EVERY_S; once a split passes HINT_AFTER_ROWS, one line says how to bound it."""

    def __init__(self, name: str, task: Task, limit: int | None):
        self.name, self.last = name, time.monotonic()
        # an undeclared endless task runs to the row cap: say how to stop sooner
        self.hint = limit is None and not task.endless

    def __call__(self, split: str, done: int) -> None:
        now = time.monotonic()
        if now - self.last < PROGRESS_EVERY_S:
            return
        self.last = now
        line = f"audit {self.name}: {done} rows of split {split} scored so far"
        if self.hint and done > HINT_AFTER_ROWS:
            self.hint = False  # once is enough
            line += (f" (no --limit: up to {audit_mod.MAX_ROWS} per split; --limit N bounds "
                     "it, and an endless task should declare Task(endless=True))")
        print(line, file=sys.stderr, flush=True)


def _audit(task: Task, name: str, args: argparse.Namespace) -> int:
    splits = [args.split] if args.split else None
    report = audit(
        task, splits=splits, seed=args.seed, limit=args.limit, path=args.path,
        workers=args.workers, progress=None if args.quiet else _Progress(name, task, args.limit),
    )
    if not args.quiet:
        for failure in report.failures:
            print(f"FAIL {failure.row_id}: total={failure.total} {failure.reason}")
    print(report.summary(name))
    if report.empty:
        print(
            f"error: nothing to audit in split {', '.join(report.empty)} (no rows)", file=sys.stderr
        )
        return 2
    return 1 if report.failures else 0


def _error(message: object) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (see the module doc; 141 when stdout was closed
    under it, as by ``| head``)."""
    return run_main(lambda: _main(argv)) or 0


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "probe":
        from tasks.probe import task_rows
        from verifiers.probes.command import probe_command

        return probe_command(args, task_rows)
    if args.command == "list":
        for name in names():
            try:
                task = get(name)
                print(f"{name:12s} splits={','.join(task.splits):24s} {task.description}")
            except Exception as e:  # one broken task must not hide the others from the list
                print(f"{name:12s} (cannot load: {type(e).__name__}: {e})")
        for prefix, target in FAMILIES.items():  # rg:NAME: too many members to list each
            module = importlib.import_module(target.partition(":")[0])
            print(f"{prefix + ':NAME':12s} {module.describe()}")
        return 0
    try:
        task = load_task(args.task, modules=args.module, options=dict(args.option))
    except LoadError as e:
        return _error(e)
    try:
        if args.command == "show":
            return _show(task, args)
        return _audit(task, args.task, args)
    except KeyError as e:
        return _error(e.args[0] if e.args else e)
    except (DataNotFound, DataError, ValueError, TypeError) as e:
        return _error(e)


if __name__ == "__main__":
    sys.exit(main())
