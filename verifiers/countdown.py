"""Countdown: reach a target number from given numbers with + - * /.

The completion's expression is parsed with ``ast`` and evaluated by walking the tree: only
non-negative integer literals and the four binary operations are accepted, arithmetic is exact
(``fractions.Fraction``, so ``7/2*2`` is 7 and never 6.999...), and each given number may be
used at most once (all of them, with ``use_all=True``). Raw text is never passed to ``eval``.

The expression is read from the last ``<answer>...</answer>`` tag if there is one, else from
the last ``#### ...`` line. An ``= N`` after the expression (``#### (3+5)*2 = 16``, or
``= 16.0``) is a claim that is checked: ``N`` must be a number equal to the expression's value, so no text can
hide behind it (``= 16 or 2*7+2``) and a false equation scores 0. A ``#`` in the expression is
refused: Python would read the rest as a comment, so ``8*2 # or 3*5`` would be scored on
``8*2`` alone. Typographic and LaTeX operators are read as the ASCII ones (the signs
U+00D7, U+00B7, U+22C5 and the commands times, cdot, div), and math delimiters are dropped.

>>> countdown_reward("#### (3+5)*2", "16", numbers=[2, 3, 5, 7])
1.0
>>> v = countdown_check("#### 3*3+7", "16", numbers=[3, 7, 9])
>>> v.reward, v.reason
(0.0, 'number 3 used 2 times but given 1 time')
>>> countdown_check("#### 3+5+8 = 17", "16", numbers=[3, 5, 8]).reason
'wrong: claims = 17 but the expression is 16'
>>> countdown_check("<answer>__import__('os')</answer>", "16", numbers=[3]).reason
'parse_error: only numbers and + - * / are allowed, found Call'
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from verifiers.answer_lead import lead_start, uncommitted_lead
from verifiers.answer_text import commented_commitment, markup_flood, read_visible
from verifiers.answer_values import _sentence_start
from verifiers.math_extract import commitments_before, hedge_after
from verifiers.reasoning_blocks import unclosed_reasoning
from verifiers.types import (
    CORRECT,
    FORMAT,
    HEDGED,
    MALFORMED,
    NO_ANSWER,
    PARSE_ERROR,
    WRONG,
    Verdict,
    not_a_string,
)

MAX_EXPRESSION_CHARS = 200  # a longer "expression" is not an answer; it also bounds parse work

# Tags are found token by token: a lazy ``<answer>(.*?)</answer>`` regex rescans to the end of
# the text from every unclosed ``<answer>``, which is quadratic (a 1 MB completion of them hangs).
_TAG_TOKEN = re.compile(r"</?answer>")
# Typographic forms of the allowed operators and of spaces, which ast.parse refuses: a correct
# expression written "20 \u2212 4" or with no-break spaces is still the same expression.
_UNICODE_OPS = str.maketrans(
    {"\u00d7": "*", "\u00f7": "/", "\u2212": "-", "\u00b7": "*", "\u22c5": "*", "\u2217": "*"}
)
# LaTeX spellings of the same: "\( (3+5) \times 2 \)", "$3 \cdot 5$". Math delimiters and
# \left / \right are dropped; a command followed by a letter ("\timesx") is left for the
# parser to refuse.
_LATEX_OPS = re.compile(r"\\(?:times|cdot|ast|div|left|right)(?![A-Za-z])|\\[()\[\]]|\$")
_LATEX_OP_TEXT = {"\\times": "*", "\\cdot": "*", "\\ast": "*", "\\div": "/"}
_UNICODE_SPACE = re.compile(r"[^\S\n\r\t\f\v ]")
# ASCII digits only: int() also reads "١٦" and "1_6", which the expression parser refuses.
_CLAIM = re.compile(r"-?[0-9]{1,50}(?:\.[0-9]{1,50})?")  # "= 16" or "= 16.0"
_IMPLICIT_PRODUCT_RE = re.compile(r"(?<=[0-9)])\s*(?=\()|(?<=\))\s*(?=[0-9])")
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


def _last_tag(text: str) -> tuple[str, int, int] | None:
    """(content, start of ``<answer>``, end of ``</answer>``) of the last pair, paired as a
    lazy regex would pair them (an open tag takes the first close tag after it), in one
    pass."""
    last, start = None, None
    for token in _TAG_TOKEN.finditer(text):
        if token.group() == "<answer>":
            if start is None:
                start = token
        elif start is not None:
            last, start = (text[start.end() : token.start()], start.start(), token.end()), None
    return last


def _last_hashes(text: str) -> tuple[str, int, int] | None:
    """(content, start, end) of the last ``####`` line: from the first ``####`` of that line
    ("#### 8*2 #### 3*5" is one line, refused by the caller) to its end."""
    pos = text.rfind("####")
    if pos < 0:
        return None
    pos = text.find("####", text.rfind("\n", 0, pos) + 1)
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    return text[pos + 4 : end], pos, end


def _extract(text: str) -> tuple[str, str | None, int, int] | None:
    """(expression, the claimed result after ``=`` or ``None``, where the answer starts and
    ends), or ``None`` if no answer. The commitment that starts last wins (the final-answer
    rule of ``verifiers.math_extract``): an early ``<answer>`` never beats a later ``####``
    line."""
    candidates = [c for c in (_last_tag(text), _last_hashes(text)) if c is not None]
    if not candidates:
        return None
    found, start, end = max(candidates, key=lambda c: c[1])
    read = _read_expression(found)
    return None if read is None else (*read, start, end)


_FINAL_STOP_RE = re.compile(r"(?<=[\d)])[ \t]*\.\Z")
_WHOLE_NUMBER_RE = re.compile(r"\d+")
_LETTER_RE = re.compile(r"[A-Za-z]")
_OPERATOR_RE = re.compile(r"[-+*/\u00d7\u00f7\u2212]|\\(?:times|cdot|div)")
_WHOLE_BOX_RE = re.compile(r"\$?\\boxed\{(.*)\}\$?", re.DOTALL)


def _balanced(text: str) -> bool:
    depth = 0
    for c in text:
        depth += (c == "{") - (c == "}")
        if depth < 0:
            return False
    return depth == 0


def _read_expression(found: str) -> tuple[str, str | None] | None:
    """(expression, the claimed result after ``=`` or ``None``) of a commitment's content."""
    # Refused as too long below; cut first so that no rewrite below reads a megabyte.
    if len(found) > 4 * MAX_EXPRESSION_CHARS:
        found = found[: 4 * MAX_EXPRESSION_CHARS] + "\u2026"  # marked cut: never parsed whole
    found = found.strip()
    for mark in ("`", "**", "__"):  # "<answer>`5+10`</answer>", "**5+10**": dressing
        if len(found) > 2 * len(mark) and found.startswith(mark) and found.endswith(mark):
            found = found[len(mark) : -len(mark)].strip()
    found = _FINAL_STOP_RE.sub("", found)  # "18+14.": the sentence's stop, no decimal point
    boxed = _WHOLE_BOX_RE.fullmatch(found)
    if boxed is not None and _balanced(boxed.group(1)):
        found = boxed.group(1)  # "<answer>\boxed{27 \cdot 20 + 26}</answer>": the box frames it
    found = _LATEX_OPS.sub(lambda m: _LATEX_OP_TEXT.get(m.group(0), " "), found)
    left, equals, right = found.partition("=")
    if (equals and _WHOLE_NUMBER_RE.fullmatch(left.strip()) and "=" not in right and _OPERATOR_RE.search(right)
            and not _LETTER_RE.search(right)):
        left, right = right, left  # "14 = 11+3": the target named first, then the expression
    expression = _UNICODE_SPACE.sub(" ", left.translate(_UNICODE_OPS)).strip()
    # "2(3+5)", "(1+2)(3+4)": a product written without its sign
    expression = _IMPLICIT_PRODUCT_RE.sub("*", expression)
    if not expression:
        return None
    # A bare trailing "=" claims nothing, so it is no claim to check.
    return expression, (right.strip() or None if equals else None)


def extract_expression(text: str) -> str | None:
    """The expression a completion commits to, or ``None``.

    >>> extract_expression("I try 3+5.\\n#### (3+5)*2 = 16")
    '(3+5)*2'
    """
    found = _extract(text)
    return None if found is None else found[0]


def _other_commitment(text: str, start: int, expression: str) -> tuple[str, str] | None:
    """Why the commitment at ``start`` is not the only answer (the shared grammar: every
    commitment of its paragraph, and a value offered just before it on its line, must agree),
    or None. Another commitment agrees when it writes the same expression."""
    found = commitments_before(text, start)
    if len(found) == 2 and found[0] == HEDGED and found[1][:1].isalpha():
        return found[0], found[1]
    mine = _same_form(expression)
    for value in found:
        if not any(ch.isdigit() for ch in value):
            continue  # a word alone ("<think>try</think><answer>..."): no expression on offer
        other = _read_expression(value)
        if other is None or _same_form(other[0]) != mine:
            return HEDGED, f"another answer offered in the final paragraph: {value[:40]!r}"
    return None


# An expression offered on its own before the commitment, in the final answer's paragraph: on
# a line alone, after a label's colon, or opening a sentence ("6+8-5", "Expression: 3+7+1",
# "1+9+3 also works."). One followed by a relation ("6*8 = 48", "6*8 is 48") is a step.
_OFFERED_EXPRESSION_RE = re.compile(
    # (possessive runs: a 1 MB run of spaces costs one pass)
    r"(?:^(?:[ \t]*(?:[-+>\u2022|]|\d{1,2}[.)])[ \t])?|[:\uff1a]|(?<=[.!?])[ \t]|\b(?:is|are|be|was|maybe)[ \t])[*_$` \t]*+"
    r"(?P<expr>\(?[ \t]*+\d++(?:[ \t]*+\)?[ \t]*+[-+*/\u00d7\u00f7\u2212][ \t]*+\(?[ \t]*+\d++)++[ \t]*+\)?)"
    r"(?!\d|\.\d)[*_$` \t]*+(?![ \t]*(?:[=<>\u2192]|\\to\b|->|(?:is|equals|gives|makes|yields|results|"
    r"evaluates|becomes|leaves|gets)\b))(?=[ \t]*(?:$|[.!?,;]|[A-Za-z]))",
    re.MULTILINE | re.IGNORECASE,
)
_MAX_OFFERED = 64  # expressions read in one paragraph; more is a wall of them, not an answer


def _other_expression(text: str, start: int, target: Fraction) -> tuple[str, str] | None:
    """Why an expression offered before the commitment at ``start`` in its paragraph, whose
    value is not the target, is a second answer (``6+8-5\n<answer>6+8*5</answer>``), or None."""
    para_start = text.rfind("\n\n", 0, start) + 1
    for count, m in enumerate(_OFFERED_EXPRESSION_RE.finditer(text, para_start, start)):
        if count >= _MAX_OFFERED:
            return HEDGED, "more expressions offered in the final paragraph than one answer can be"
        expr = m.group("expr").translate(_UNICODE_OPS).replace("\u00d7", "*")
        try:
            value = _evaluate(ast.parse(expr, mode="eval"), [], expr)
        except (_Rejected, ZeroDivisionError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if value != target:
            return HEDGED, f"another expression offered in the final paragraph: {m.group('expr').strip()[:40]!r}"
    return None


def _uncommitted_lead(text: str, start: int) -> tuple[str, str] | None:
    """Why the words before the commitment at ``start``, in its sentence, do not commit to
    it, or None: the lead rule as math reads it (``verifiers.answer_lead``)."""
    return uncommitted_lead(text[lead_start(text, _sentence_start(text, start)) : start])


def _same_form(expression: str) -> str:
    return "".join(expression.split()).strip("*")


class _Rejected(Exception):
    pass


def _evaluate(node: ast.AST, used: list[int], source: str) -> Fraction:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, used, source)
    if isinstance(node, ast.Constant):
        if type(node.value) is not int or node.value < 0:
            raise _Rejected(f"only non-negative whole numbers are allowed, found {node.value!r}")
        written = ast.get_source_segment(source, node) or ""
        if not (written.isascii() and written.isdigit()):
            # Python reads "0o62", "0x32", "5_0" as 50: a reader of the answer does not
            raise _Rejected(f"numbers are written in decimal digits, found {written!r}")
        used.append(node.value)
        return Fraction(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _evaluate(node.left, used, source), _evaluate(node.right, used, source)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if right == 0:
            raise ZeroDivisionError
        return left / right
    found = type(node.op if isinstance(node, ast.BinOp) else node).__name__
    raise _Rejected(f"only numbers and + - * / are allowed, found {found}")


def countdown_check(
    completion: str, answer: str, *, numbers: Sequence[int], use_all: bool = False
) -> Verdict:
    """Whether the completion's expression uses ``numbers`` (each at most once, or exactly
    once with ``use_all``) and equals the target ``answer``.

    Raises ``ValueError`` for a bad ``answer`` or ``numbers`` (the task's data is wrong, not
    the completion).
    """
    try:
        target = Fraction(int(str(answer).strip()))
    except ValueError:
        raise ValueError(f"answer must be the integer target, got {answer!r}") from None
    if isinstance(numbers, (str, bytes)) or not all(type(n) is int and n >= 0 for n in numbers):
        raise ValueError(f"numbers must be a sequence of non-negative ints, got {numbers!r}")
    gold = str(target)
    if not isinstance(completion, str):
        return not_a_string(completion, gold)
    flood = markup_flood(completion)
    if flood is not None:
        return Verdict(0.0, MALFORMED, None, gold, {"problem": flood})
    if unclosed_reasoning(completion):
        return Verdict(0.0, NO_ANSWER, None, gold, {"problem": "the reasoning block never closes: no final answer"})
    text, hidden = read_visible(completion, emoji_as_space=True, numerals=True, tag_labels=True)  # the reading shared with math and GSM8K
    hidden = hidden or commented_commitment(text)
    if hidden is not None:
        why = f"a value in content that does not render: {hidden!r}"
        return Verdict(0.0, MALFORMED, None, gold, {"problem": why})
    extracted = _extract(text)
    if extracted is None:
        return Verdict(0.0, NO_ANSWER, None, gold)
    expression, claim, start, end = extracted
    hedge = hedge_after(text, end, (expression, gold, *([claim] if claim else [])))
    if hedge is None:  # "**3+12** & <answer>3+11</answer>", "#### 3+12\n<answer>3+11</answer>"
        hedge = _other_commitment(text, start, expression)
    if hedge is None:  # "**34*71**, but also <answer>7</answer>": the lead rule, as in math
        hedge = _uncommitted_lead(text, start)
    if hedge is None:  # "Expression: 3+7+1\n<answer>3*7+1</answer>"
        hedge = _other_expression(text, start, target)
    if hedge is not None:  # "#### 3+11\nNo wait, it is 3+12."
        return Verdict(0.0, hedge[0], expression, gold, {"problem": hedge[1]})
    if len(expression) > MAX_EXPRESSION_CHARS:
        return Verdict(
            0.0,
            FORMAT,
            expression[:50] + "...",
            gold,
            {"error": f"expression longer than {MAX_EXPRESSION_CHARS} characters"},
        )
    if "#" in expression:
        return Verdict(
            0.0, f"{MALFORMED}: '#' in the expression would hide what follows it", expression, gold
        )
    used: list[int] = []
    try:
        value = _evaluate(ast.parse(expression, mode="eval"), used, expression)
    except _Rejected as e:
        return Verdict(0.0, f"{PARSE_ERROR}: {e}", expression, gold)
    except ZeroDivisionError:
        return Verdict(0.0, f"{WRONG}: division by zero", expression, gold)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        return Verdict(
            0.0, f"{PARSE_ERROR}: not an expression ({type(e).__name__})", expression, gold
        )
    given, counts = Counter(numbers), Counter(used)
    for number, count in sorted(counts.items()):
        if count > given[number]:
            times = (
                "not given"
                if not given[number]
                else f"given {given[number]} time" + ("s" if given[number] > 1 else "")
            )
            return Verdict(
                0.0,
                f"number {number} used {count} time{'s' if count > 1 else ''} but {times}",
                expression,
                gold,
            )
    if use_all and counts != given:
        missing = sorted((given - counts).elements())
        return Verdict(0.0, f"{WRONG}: numbers not used: {missing}", expression, gold)
    details = {"value": str(value), "used": used}
    if claim is not None and not _CLAIM.fullmatch(claim):
        shown = claim if len(claim) <= 50 else claim[:50] + "..."
        return Verdict(
            0.0, f"{MALFORMED}: only the result may follow '=', found {shown!r}", expression, gold
        )
    if value != target:
        return Verdict(0.0, WRONG, expression, gold, details)
    if claim is not None and Fraction(claim) != value:
        return Verdict(
            0.0, f"{WRONG}: claims = {claim} but the expression is {value}", expression, gold
        )
    return Verdict(1.0, CORRECT, expression, gold, details)


def countdown_reward(
    completion: str, answer: str, *, numbers: Sequence[int], use_all: bool = False
) -> float:
    """``countdown_check(...).reward`` as a float."""
    return float(
        countdown_check(completion, answer, numbers=numbers, use_all=use_all).reward or 0.0
    )
