r"""A value said twice: an aside after the committed value, a restatement before it (issue 30,
round 21).

**An aside.** ``\boxed{\frac{1}{4}\ (0.25)}`` states one value twice; ``\boxed{\frac14\ (\frac11)}`` states
two. Glued to the value a parenthesis multiplies it (``2(3)``, ``\frac{1}{4}(x+1)``), and one
that holds a variable is a factor (``(x-1) (x+2)``); a constant set off by a space, an explicit
LaTeX space or a ``\quad`` is an aside that offers its own value. The reader returns the value
and the aside, and the caller compares the aside with the gold as another answer offered:
equal, it restates the answer; different, the answer is hedged.

>>> box_aside(r"\frac{1}{4}\ (0.25)")
('\\frac{1}{4}', '0.25')
>>> box_aside(r"\frac{1}{4}(x+1)") is None
True

**A restatement.** "X, i.e. Y" says that X is Y: a value in math right before "i.e.", "that
is", "namely", "in other words" or "equivalently" and the commitment is offered with it, and
must be the gold as well (``So $x = 6$, i.e. $\boxed{5}$`` offers 6; ``$-1<x<3$, i.e.
$\boxed{(-1,2)}$`` offers the interval (-1, 3)). Read when it is a plain value, a variable's
value (``x = 6``) or a condition on one variable; an equation (``2x = 10``) is a step.

>>> restated_before("So $x = 6$, i.e. $", 18)
'6'
"""

from __future__ import annotations

import re

__all__ = ["box_aside", "restated_before"]

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


_RESTATED_BEFORE_RE = re.compile(
    r"(?:\$(?P<span>[^$\n]{1,200})\$|\\\((?P<span2>[^\n]{1,200}?)\\\))[ \t]*,?[ \t]*"
    r"(?i:i\.?[ \t]?e\.?|that[ \t]+is|namely|in[ \t]+other[ \t]+words|equivalently)[ \t]*[,:]?[ \t]*"
    r"(?:\$|\\\(|\\\[)?[ \t]*\Z")
_ASSIGNED_RE = re.compile(r"[ \t]*[A-Za-z][ \t]*=[ \t]*(?P<value>[^=]+)")
_CONDITION_RE = re.compile(r"[<>\u2264\u2265]|\\(?:[lg]eq?(?:slant)?|[lg]t|vee|wedge|lor|land|cup|cap)(?![A-Za-z])")
_LETTER_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]")


def restated_before(text: str, before_at: int) -> str | None:
    """The value in math that "i.e." (or its kin) equates with the commitment opening at
    ``before_at`` (module doc), or None."""
    m = _RESTATED_BEFORE_RE.search(text, max(0, before_at - 260), before_at)
    if m is None:
        return None
    span = (m.group("span") or m.group("span2") or "").strip()
    assigned = _ASSIGNED_RE.fullmatch(span)
    if assigned is not None:
        value = assigned.group("value").strip()
        return value if _LETTER_RE.search(value) is None else None
    if _CONDITION_RE.search(span):
        return span  # a condition, or several joined ("x > 6 and x < 8 or x = 11")
    if "=" in span:
        return None  # an equation: a step of the working ("$2x = 10$, i.e. $x = 5$")
    return span or None if _LETTER_RE.search(span) is None else None
