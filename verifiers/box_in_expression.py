r"""A final box glued into a larger expression (``\frac{\boxed{5}}{2}``, ``\boxed{5}^2``,
``-\boxed{5}``): the box states one operand, not the value the completion states, so the
rule in ``verifiers.math_extract`` refuses it (``malformed``). Moved out of
``verifiers.math_extract`` unchanged."""

from __future__ import annotations

import re

from verifiers.answer_tail import _CLOSING_RE, _OPERATOR_AFTER_RE
from verifiers.commitment_reading import _BRACE_RE, MAX_BOX_CHARS
from verifiers.types import MALFORMED

# --- a box inside a larger expression (the rest of the tail: verifiers.answer_tail) -------


# Right after a box, glued to it: a digit, ".5", a power (not "^\circ"), a factorial (not an
# exclamation mark ending a sentence), a prime, a letter: "\boxed{5}0" states 50, "\boxed{5}^2" 25.
_GLUED_AFTER_RE = re.compile(
    r"\d|\.\d|!(?!\s|\Z)|'|_|[A-Za-z]|\{\s*\}\s*[\^_]|\^(?!\s*(?:\{\s*)?(?:\\circ|o\b|\\text\{\s*o\s*\}))"
)
# Before a box: glued to a digit, a decimal point, a power or fraction sign ("1\boxed{5}",
# "0.\boxed{5}", "2^\boxed{5}"), or after an operator ("-\boxed{5}", "6 - \boxed{5}").
_GLUED_BEFORE_RE = re.compile(r"[\d.^_/]\Z")
# (not "*": "**Answer:** \boxed{5}" is bold)
# (a function applied to the box states its value: "$\log \boxed{3}$")
# The Unicode operators too ("±\boxed{3}", "√\boxed{4}"), logical negation, and the words
# that scale or negate what follows ("$ twice \boxed{5} $", "half of \boxed{10}").
_OPERATOR_BEFORE_RE = re.compile(
    r"(?:[-+\u2212\u00b1\u2213\u221a\u221b\u221c\u00d7\u00f7\u22c5\u00ac\u2200-\u2203]|"
    r"\\(?:times|cdot|div|pm|mp|sqrt|frac|log|ln|lg|exp|sin|cos|tan|cot|sec|csc|"
    r"arcsin|arccos|arctan|sinh|cosh|tanh|det|gcd|lcm|max|min|deg|dim|ker|arg|Pr|neg|lnot|"
    r"surd)(?![A-Za-z])|"
    r"(?<![A-Za-z])(?:twice|thrice|half\s+of|double|triple|negative|minus|plus|"
    r"(?:square|cube)\s+root\s+of|root\s+of)(?![A-Za-z]))"
    r"(?:[ \t]|\\[,;:! ]|\\q?quad(?![A-Za-z]))*\Z",
    re.IGNORECASE,
)
# Commands whose braces may hold the final box: styling, never a value or a visibility.
_WRAPPER_RE = re.compile(
    r"\\(?:text|textbf|mathbf|bm|boldsymbol|mathrm|underline|displaystyle|large|Large|"
    r"(?:text)?color\s*\{(?!\s*white)[^{}]*\})\s*\Z"
)


def _box_in_expression(text: str, start: int, end: int) -> tuple[str, str] | None:
    """Why the box ``text[start:end]`` is one operand of a larger expression (its value is
    not what the completion states), or None."""
    why = MALFORMED, "the final box is part of a larger expression"
    if end < len(text) and _GLUED_AFTER_RE.match(text, end):
        return why
    closing = _CLOSING_RE.match(text, end)
    if _OPERATOR_AFTER_RE.match(text, closing.end() if closing else end):
        return why
    line_start = text.rfind("\n", 0, start) + 1
    head = text[max(line_start, start - 40) : start]
    if _GLUED_BEFORE_RE.search(head):
        return why
    op = _OPERATOR_BEFORE_RE.search(head)
    if op is not None:
        # a "- " or "+ " opening its line is a list bullet, not a sign ("-\boxed{5}" is one)
        bullet = op.group(0)[0] in "-+" and op.group(0)[1:2] in (" ", "\t")
        if not bullet or text[line_start : max(line_start, start - 40) + op.start()].strip():
            return why
    group = _enclosing_group(text, start)
    if group is None or _WRAPPER_RE.search(text, max(0, group - 60), group):
        return None
    only_box = not text[group + 1 : start].strip() and text[end : end + 64].lstrip().startswith("}")
    if not only_box or text[max(0, group - 1) : group] not in ("", " ", "$", "\n", "\t"):
        return why  # "{\boxed{5}}" alone is a plain group; "\frac{\boxed{5}}{2}" is not
    return None


def _enclosing_group(text: str, pos: int) -> int | None:
    """The index of the nearest unmatched ``{`` before ``pos`` (within ``MAX_BOX_CHARS``), or
    None: a box enclosed by braces that are no box's."""
    level = 0
    braces = [
        m for m in _BRACE_RE.finditer(text, max(0, pos - MAX_BOX_CHARS), pos) if len(m.group()) == 1
    ]
    for m in reversed(braces):
        if m.group() == "}":
            level += 1
        elif level:
            level -= 1
        else:
            return m.start()
    return None
