"""``python -m envs probe NAME``: play scripted adversarial policies against an env.

Exit status: 0 when nothing was found, 1 on any exploit, 2 on a usage error (an unknown
env or family, a module that cannot be imported). See ``docs/env_probe.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an int >= 1, got {text}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text}")
    return value


def _unit_float(text: str) -> float:
    value = float(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1], got {text}")
    return value


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="python -m envs", description=__doc__.split("\n")[0])
    commands = root.add_subparsers(dest="command", required=True)
    p = commands.add_parser(
        "probe", help="play adversarial policies against an env (see docs/env_probe.md)",
        description="Play scripted adversarial policies (lookup tables from feedback, "
        "stalling, floods, several answers, answers after the end, malformed and huge "
        "actions) against an env; exit 1 if any finds an exploit.")
    p.add_argument("env", nargs="?", help="an env alias or id (guess-number, rlvr/gsm8k-v0), "
                   "'package.module:EnvClass' or 'module:task'")
    p.add_argument("--module", action="append", default=[],
                   help="import first (registers tasks, envs, families); repeat")
    p.add_argument("--rows", type=_positive_int, default=3,
                   help="episodes per family, seeds SEED.. (default 3: code envs run real code)")
    p.add_argument("--seed", type=int, default=0, help="the first episode's seed (default 0)")
    p.add_argument("--family", action="append", help="run only this family (repeat)")
    p.add_argument("--list-families", action="store_true", help="list the families and exit")
    p.add_argument("--threshold", type=_unit_float, default=0.5,
                   help="a family's mean reward at or above this is an exploit (default 0.5)")
    p.add_argument("--max-steps", type=_positive_int, default=100,
                   help="steps before an episode counts as endless (default 100)")
    p.add_argument("--step-timeout", type=_positive_float, default=30.0,
                   help="seconds a step may take (default 30)")
    p.add_argument("--env-kwargs", default="{}", help="JSON object for the env's constructor")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    from envs.probe import CHECKS, FAMILIES, format_report, probe, report_json

    try:
        from tasks.registry import import_user_module

        for module in args.module:
            import_user_module(module)
    except ImportError as err:
        print(f"error: --module {err}", file=sys.stderr)
        return 2
    if args.list_families:
        for fam in FAMILIES.values():
            print(f"{fam.name:<12} {fam.doc}")
        print(f"{'after_end':<12} Play to the end, then answer again: it must raise, never pay.")
        print(f"{'malformed':<12} None, bytes, numbers, a message list: a TypeError or "
              "ValueError, never a reward.")
        return 0
    if not args.env:
        print("error: give an env name (or --list-families)", file=sys.stderr)
        return 2
    try:
        kwargs = json.loads(args.env_kwargs)
        if not isinstance(kwargs, dict):
            raise ValueError("not a JSON object")
    except ValueError as err:
        print(f"error: --env-kwargs: {err}", file=sys.stderr)
        return 2
    families = args.family
    known = [*FAMILIES, *CHECKS]
    for fam in families or ():
        if fam not in known:
            print(f"error: unknown family {fam!r}; known: {', '.join(known)}", file=sys.stderr)
            return 2
    from envs.registry import make

    try:
        make(args.env, **kwargs).close()  # a usage error (unknown env) is not an exploit
    except Exception as err:
        print(f"error: env {args.env!r}: {type(err).__name__}: {err}", file=sys.stderr)
        return 2
    report = probe(args.env, rows=args.rows, seed=args.seed, families=families,
                   threshold=args.threshold, max_steps=args.max_steps,
                   step_timeout=args.step_timeout, env_kwargs=kwargs)
    if args.json:
        print(json.dumps(report_json(report)))
    else:
        print(format_report(report))
    return 0 if report.passed else 1


if __name__ == "__main__":
    from verifiers.closed_pipe import run_main

    sys.exit(run_main(main))  # `| head` ends the listing quietly
