r"""A constant in parentheses after a committed value, set off by a space (issue 30, round 21).

``\boxed{\frac{1}{4}\ (0.25)}`` states one value twice; ``\boxed{\frac14\ (\frac11)}`` states
two. Glued to the value a parenthesis multiplies it (``2(3)``, ``\frac{1}{4}(x+1)``), and one
that holds a variable is a factor (``(x-1) (x+2)``); a constant set off by a space, an explicit
LaTeX space or a ``\quad`` is an aside that offers its own value. The reader returns the value
and the aside, and the caller compares the aside with the gold as another answer offered:
equal, it restates the answer; different, the answer is hedged.

>>> box_aside(r"\frac{1}{4}\ (0.25)")
('\\frac{1}{4}', '0.25')
>>> box_aside(r"\frac{1}{4}(x+1)") is None
True
"""

from __future__ import annotations

import re

__all__ = ["box_aside"]

# The constant: digits, a decimal point, a fraction bar, fractions and roots of digits, pi.
_CONSTANT = (
    r"[-+\u2212]?[ \t]*(?:\d[\d.,]*|\\[dt]?frac\{[\d. \t]+\}\{[\d. \t]+\}|\\[dt]?frac\d\d|\\sqrt\{[\d. \t]+\}|"
    r"\\sqrt\d|\\pi(?![A-Za-z])|[ \t/^.]|\{\d+\})+"
)
_ASIDE_RE = re.compile(
    r"(?P<value>.*?[\w}])(?:[ \t]|\\[ ,;:!]|\\q?quad(?![A-Za-z])|~)+"
    rf"(?:\\left)?\((?P<aside>{_CONSTANT})(?:\\right)?\)[ \t.]*",
    re.DOTALL,
)

_LAST_COMMAND_RE = re.compile(r"\\([A-Za-z]+)\Z")
_CONSTANT_COMMANDS = frozenset({"pi", "infty", "circ", "degree", "%"})


def box_aside(answer: str) -> tuple[str, str] | None:
    """``(value, aside)`` when ``answer`` is a value and then a constant in parentheses set off by
    a space (module doc), else None."""
    if not answer.rstrip(" \t.").endswith(")"):
        return None
    m = _ASIDE_RE.fullmatch(answer)
    if m is None or not any(c.isdigit() for c in m.group("aside")):
        return None
    command = _LAST_COMMAND_RE.search(m.group("value"))
    if command is not None and command.group(1) not in _CONSTANT_COMMANDS:
        return None  # "(0,9) \cup (9,36)", "3 \times (2)": an operator joins them
    return m.group("value").strip(), m.group("aside").strip()
