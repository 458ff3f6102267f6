"""What the ``python -m verifiers`` commands share: argument types (one-line errors through
argparse) and writing to the terminal, where text that the terminal's encoding cannot show
is written as backslash escapes, never an error."""

from __future__ import annotations

import argparse
import sys


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be positive and finite: {text!r}")
    return value


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0: {text!r}")
    return value


def _positive_int(text: str) -> int:
    value = _non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1: {text!r}")
    return value


def _unit_float(text: str) -> float:
    value = _positive_float(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1]: {text!r}")
    return value


def stdout_encoding() -> str:
    return getattr(sys.stdout, "encoding", None) or "utf-8"


def printable(text: str) -> bool:
    """Whether ``text`` encodes in stdout's encoding as it is."""
    try:
        text.encode(stdout_encoding())
    except UnicodeEncodeError:
        return False
    return True


def write(text: str) -> None:
    """``text`` and a newline on stdout, escaping what the encoding cannot show."""
    encoding = stdout_encoding()
    sys.stdout.write(text.encode(encoding, "backslashreplace").decode(encoding) + "\n")
