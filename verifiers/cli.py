r"""``python -m verifiers check math|gsm8k|format ...``: test one reward from the shell.

.. code-block:: console

    $ python -m verifiers check math --gold '\frac12' --pred 'so it is $0.5$'
    verdict: correct (reward 1)
    pred:    0.5
    gold:    \frac12
    reason:  correct
    details: source=last_number, path=exact
    $ python -m verifiers check gsm8k --gold '#### 18' --pred 'It costs 18.' --policy strict
    $ python -m verifiers check format --pred '<answer>4</answer>' --tags answer --json

``--pred -`` reads the completion from stdin as UTF-8, bytes that are not UTF-8 becoming
U+FFFD (a completion is scored, never refused for its encoding); what cannot be printed in
the terminal's encoding is written as a backslash escape. ``--json`` prints one JSON object (``family``,
``reward``, ``correct``, ``reason``, ``pred``, ``gold``, ``details``). Exit status: 0 when the
verdict is correct (reward 1), 1 when it is not (including no signal), 2 on a usage error
(bad arguments, or a gold the verifier cannot read).

``python -m verifiers probe --reward module:fn --data FILE`` throws the completions a
cheating policy would write at a reward and reports what it paid for (a task's rubric:
``python -m tasks probe TASK``); see ``verifiers.probes`` and docs/probe.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from verifiers.command_line import (
    _non_negative_int,
    _positive_float,
    printable,
    write,
)
from verifiers.types import Verdict

EXIT_CORRECT, EXIT_WRONG, EXIT_USAGE = 0, 1, 2


def _regex(text: str) -> str:
    try:
        re.compile(text)
    except re.error as e:
        raise argparse.ArgumentTypeError(f"not a valid regular expression: {e}") from None
    return text


def _text_arg(text: str) -> str:
    """An argument as the user's text: bytes that were not valid in the locale reach us as
    lone surrogates (surrogateescape), which no strict encoder can write back out."""
    try:
        raw = os.fsencode(text)
    except UnicodeEncodeError:  # a surrogate that did not come from surrogateescape
        raw = text.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "replace")


def _read_stdin() -> str:
    # the locale's decoder may be strict (PYTHONIOENCODING=utf-8:strict, a C locale without
    # coercion): decode the bytes ourselves
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # replaced by a text-only stream (tests, embedding)
        return _text_arg(sys.stdin.read())
    return buffer.read().decode("utf-8", "replace")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m verifiers",
        description="Check one completion with a verifier and print the verdict.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{check,probe}")
    check = commands.add_parser("check", help="verify one completion")
    families = check.add_subparsers(dest="family", required=True, metavar="{math,gsm8k,format}")

    def family(name: str, help_text: str, *, gold_required: bool) -> argparse.ArgumentParser:
        p = families.add_parser(name, help=help_text, description=help_text)
        p.add_argument(
            "--pred", required=True, type=_text_arg, help="the completion text ('-' reads stdin)"
        )
        p.add_argument(
            "--gold",
            type=_text_arg,
            required=gold_required,
            help="the reference answer" + ("" if gold_required else " (ignored by format)"),
        )
        p.add_argument("--json", action="store_true", help="print one JSON object")
        return p

    math_p = family("math", "math answer: extraction + equivalence", gold_required=True)
    math_p.add_argument(
        "--timeout", type=_positive_float, default=None, help="seconds for symbolic comparison"
    )
    gsm8k_p = family("gsm8k", "GSM8K: the '#### N' convention", gold_required=True)
    gsm8k_p.add_argument("--policy", choices=("flexible", "strict"), default="flexible")
    format_p = family("format", "format: tags, regex, length", gold_required=False)
    format_p.add_argument(
        "--tags",
        type=_text_arg,
        default="think,answer",
        help="comma-separated tag names in order (default: think,answer; '' for none)",
    )
    format_p.add_argument("--pattern", type=_regex, default=None, help="a regex that must be found")
    format_p.add_argument("--max-chars", type=_non_negative_int, default=None)
    format_p.add_argument("--min-chars", type=_non_negative_int, default=0)
    format_p.add_argument("--allow-text-outside", action="store_true")
    _probe_parser(commands)
    return parser


def _probe_parser(commands: Any) -> None:
    from verifiers.probes.command import add_probe_arguments

    p = commands.add_parser(
        "probe",
        help="throw adversarial completions at a reward (see docs/probe.md)",
        description="Probe a reward function with the completions a cheating policy would "
        "write; exit 1 if it pays for any (or refuses a control, overruns its deadline, or "
        "errs). A task's rubric is probed by `python -m tasks probe TASK`.",
    )
    # Probing a task by name belongs to the tasks layer; the name is still read, to point there.
    p.add_argument("task", nargs="?", help=argparse.SUPPRESS)
    p.add_argument("--reward", help="package.module:function(completion, answer, **info)")
    p.add_argument("--data", help="with --reward: rows (.jsonl, .json, .parquet, .csv)")
    p.add_argument("--gold-key", default="answer", help="with --reward: the gold's field")
    p.add_argument(
        "--reference-key", help="with --reward: a field holding a full reference completion"
    )
    p.add_argument("--kind", choices=("text", "code"), default="text", help="with --reward")
    add_probe_arguments(p)


def _verify(args: argparse.Namespace, completion: str) -> Verdict:
    # Imports are per family: `check format` must not pay for sympy.
    if args.family == "math":
        from verifiers.math import math_check

        kwargs = {} if args.timeout is None else {"timeout": args.timeout}
        return math_check(completion, args.gold, **kwargs)
    if args.family == "gsm8k":
        from verifiers.gsm8k import gsm8k_check

        return gsm8k_check(completion, args.gold, policy=args.policy)
    from verifiers.format import format_check

    tags = tuple(t.strip() for t in args.tags.split(",") if t.strip())
    return format_check(
        completion,
        args.gold,
        tags=tags,
        pattern=args.pattern,
        max_chars=args.max_chars,
        min_chars=args.min_chars,
        allow_text_outside=args.allow_text_outside,
    )


def _text(verdict: Verdict) -> str:
    shown = "none (no signal)" if verdict.reward is None else f"{verdict.reward:g}"
    label = "correct" if verdict.correct else "incorrect"
    lines = [
        f"verdict: {label} (reward {shown})",
        f"pred:    {verdict.pred if verdict.pred is not None else '(none)'}",
        f"gold:    {verdict.gold if verdict.gold is not None else '(none)'}",
        f"reason:  {verdict.reason}",
    ]
    if verdict.details:
        lines.append("details: " + ", ".join(f"{k}={v}" for k, v in verdict.details.items()))
    return "\n".join(lines)


def _json(family: str, verdict: Verdict, *, ensure_ascii: bool = False) -> str:
    record: dict[str, Any] = {
        "family": family,
        "reward": verdict.reward,
        "correct": verdict.correct,
        "reason": verdict.reason,
        "pred": verdict.pred,
        "gold": verdict.gold,
        "details": dict(verdict.details),
    }
    return json.dumps(record, default=str, ensure_ascii=ensure_ascii)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 correct, 1 not, 2 usage error).

    >>> main(["check", "gsm8k", "--gold", "#### 18", "--pred", "so 18"])
    verdict: correct (reward 1)
    pred:    18
    gold:    18
    reason:  correct
    details: policy=flexible, source=last_number
    0
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "probe":
        from verifiers.probes.command import probe_command, reward_rows

        return probe_command(args, reward_rows)
    completion = _read_stdin() if args.pred == "-" else args.pred
    try:
        verdict = _verify(args, completion)
    except (TypeError, ValueError, re.error) as exc:  # a gold or option the verifier cannot read
        parser.exit(EXIT_USAGE, f"{parser.prog} check {args.family}: error: {exc}\n")
    if args.json:
        out = _json(args.family, verdict)
        if not printable(out):  # "\xe9" would break the JSON; its own \u00e9 escapes do not
            out = _json(args.family, verdict, ensure_ascii=True)
    else:
        out = _text(verdict)
    write(out)
    return EXIT_CORRECT if verdict.correct else EXIT_WRONG
