r"""How a value stands where an earlier paragraph commits to it (issue 30, rounds 17 and 18).

``verifiers.earlier_answers`` finds the commitments of the paragraphs before the final answer's;
these readers say what value each offers:

- ``_any_form``: what follows a label, as one value of any form: a number with a unit or
  currency code after it (``161 dollars``, ``USD 19``), a number in words, math with no word
  in it (``(a+5)(b+2)``, ``90^\circ``, ``\begin{pmatrix} 1 \\ 2 \end{pmatrix}``, ``y = 2x + 3``;
  a computation offers its result), a Roman numeral, or, after a label's colon or copula, one
  word (``Réponse : \text{even}``). Prose (``we need the sum first``) is none;
- ``_lone_math``: a paragraph that is one piece of math (a digit, no relation, no letter);
- ``_one_line_values``: a one-line paragraph that concludes: a bold or heading line that is a
  value (``## $(a+12)(b+2)$``), a line marked final (``- $7$ (final)``, ``print(47)  # final
  answer``, ```$\frac{1}{11}$` is the answer.``, ``_Caption: result 160_``);
- ``_listed_values``: a paragraph that only lists values (``1. 67\n2. 77``, ``(i) 66, (ii) 660``);
- ``_answer_column``: the cells under a table's answer column.

>>> _any_form("(a+5)(b+2)"), _any_form("\\frac{270}7 degrees"), _any_form("we need the sum first")
('(a+5)(b+2)', '\\frac{270}7', None)
"""

from __future__ import annotations

import re
from collections.abc import Callable

from verifiers.answer_values import _clean
from verifiers.labelled_forms import any_form_value
from verifiers.labelled_lines import _ANSWER_NOUN, _ANSWER_NOUN_RE
from verifiers.numeral_forms import ROMAN_RE, roman_value
from verifiers.paragraph_commitments import roman_token
from verifiers.spelled_numbers import spelled_value
from verifiers.unit_words import read_words

# A number as a commitment writes it: a sign, a dollar or a currency code, thousands commas, a
# decimal part, a percent (possessive: "$40 + 10" reads 40, never 4).
_VALUE = r"(?:(?:USD|EUR|GBP|INR|JPY|CNY|RMB|US\$)[ \t]?)?[-+\u2212]?\$?\d++(?:,\d{3})*+(?:\.\d+)?+%?"
_CURRENCY_CODE_RE = re.compile(r"\A(?:USD|EUR|GBP|INR|JPY|CNY|RMB|US(?=\$))[ \t]?")

# Math as a value: its delimiters, its environments' names, what makes it no value.
_ENVIRONMENT_RE = re.compile(r"\\(?:begin|end)[ \t]*\{[A-Za-z]+\*?\}")
_MATH_WRAP_RE = re.compile(r"\\\$|\$+|\\[\[\]()]|\\(?:displaystyle|left|right)(?![A-Za-z])")  # (and "\\$", a dollar sign)
_TOP_LEVEL_COMMAS_RE = re.compile(r"[^,()\[\]{}]*(?:,[^,()\[\]{}]*){2,}")
_RELATION_RE = re.compile(r"[=<>\u2264\u2265\u2260]|\\(?:le|ge|leq|geq|neq|ne|approx|sim|in|to)(?![A-Za-z])")
_LETTER_OUTSIDE_COMMAND_RE = re.compile(r"(?<![\\A-Za-z])[^\W\d_]|[|:]")  # (a letter of any script; a table, a label)

# A paragraph that is only an answer's heading or label ("## Answer", "**Final Answer:**").
_ANSWER_HEADING_ALONE_RE = re.compile(
    rf"\s*[#*_> \t]*(?:(?:final[ \t]+)?(?:{_ANSWER_NOUN}|result)|conclusion)[ \t*_:\uff1a]*\s*", re.IGNORECASE)

# A word that names a part of the working, not an answer ("Answer Step 1.", "Result for part 2").
_PART_WORD_RE = re.compile(r"\b(?:step|case|part|stage|phase|question|problem|section|method)\b", re.IGNORECASE)

_PLAIN_VALUE_RE = re.compile(r"[-+\u2212]?\d[\d,]*(?:\.\d+)?(?:/\d+)?")

# A number with up to two words after it ("161 dollars", "2402 units"), and a particle after a
# value in a script without Latin words (not the end of a word of its own script: "восемь").
_NUMBER_WORDS_AFTER_RE = re.compile(rf"(?P<v>{_VALUE})(?:[ \t]+[^\W\d_]+){{0,2}}")
_PARTICLE_RE = re.compile(r"(?<![^\W\d_A-Za-z\u00c0-\u024f])[ \t]*(?:[^\W\d_A-Za-z\u00c0-\u024f]{1,4}|\u0939\u0948)[ \t]*\Z")  # "です", "है"

# What a label's value may be beyond a number: math with no word in it ("\\text{east}" holds
# one, "90^\\circ" a command's name), or one word alone; a word that points elsewhere is none.
_COMMAND_NAME_RE = re.compile(_ENVIRONMENT_RE.pattern + r"|\\[A-Za-z]+")
_TRAILING_WORD_RE = re.compile(r"(?<=[\d}$)])[ \t]+([^\W\d_]+)[ \t]*(?:\^[ \t]*\{?[23]\}?)?[ \t]*\Z")  # ("25 cm^2")
_LOGIC_RE = re.compile(r"[<>\u2264\u2265\u21d2\u21d4\u2192]|\\(?:iff|implies|[lL]ongrightarrow|[rR]ightarrow|to|le|ge|leq|geq|lt|gt|neq|ne)(?![A-Za-z])")
_DELIMITERS_RE = re.compile(r"\A[ \t]*(?:\\[(\[]|\$+)|(?:\\[)\]]|\$+)[ \t]*\Z")
# A unit in text after a value: "\\frac{270}7\\text{ degrees}"
_TEXT_UNIT_RE = re.compile(r"(?<=[\d}])[ \t]*\\(?:text|mbox|mathrm)[ \t]*\{[ \t]*[^\W\d_]+\.?[ \t]*\}[ \t]*\Z")
# (a letter's combining signs are part of its word: "\u0939\u0948")
_WORD_RE = re.compile(r"[^\W\d_](?:[^\W\d_]|[\u0300-\u036f\u0590-\u06ff\u0900-\u0dff\u0e00-\u0eff])+")
_LETTER_RE = re.compile(r"[^\W\d_]")
_WORD_WRAP_RE = re.compile(r"[\s{}*_$]+")
_MATH_SIGN_RE = re.compile(r"[\d\\^_+*/=()\[\]{}<>|-]")
_CHOICE_RE = re.compile(r"\(?[A-J]\)?")
_POINTING_WORDS = frozenset(("below", "above", "following", "next", "later", "pending", "unknown", "see",
                             "tbd", "same", "this", "that", "it", "as", "is"))


# Quotes and brackets that close what opened before the label ("\u00abR\u00e9ponse : IX\u00bb",
# "(Answer: eins)", "[Answer: 80]"), or open what closes after the value.
_OPENERS, _CLOSERS = "([{\u00ab\u27e8\u2039\u201c\u2018\"'", ")]}\u00bb\u27e9\u203a\u201d\u2019\"'"


def _unwrapped(rest: str) -> str:
    """``rest`` less a closing bracket or quote at its end that nothing in it opened (and an
    opening one at its start that nothing closes)."""
    for _ in range(3):
        if rest.endswith(("\\]", "\\)")) and "\\[" not in rest and "\\(" not in rest:
            rest = rest[:-2].rstrip(" \t*_.,;")  # "\\[\\text{Answer} = vier\\]"
            continue
        if rest[:1] in "([" and rest[-1:] in ")]":
            break  # a tuple or an interval: "[3, 4)"
        last = _CLOSERS.find(rest[-1:]) if rest else -1
        if last >= 0 and _OPENERS[last] not in rest[:-1]:
            rest = rest[:-1].rstrip(" \t*_.,;")
            continue
        first = _OPENERS.find(rest[:1]) if rest else -1
        if first >= 0 and _CLOSERS[first] not in rest[1:]:
            rest = rest[1:].lstrip(" \t*_")
            continue
        break
    return rest


def _any_form(rest: str, *, wide: bool = True, word: bool = True) -> str | None:
    """``rest`` as one value of any form, or None (prose): a number with up to two words after
    it, a number in words, or (``wide``) math with no word but one that is the whole value
    (``(a+5)(b+2)``, ``90^\\circ``, ``y = 2x + 3``, ``p - q``, ``\\text{ellipse}``; the word alone
    only with ``word``, after a label's colon or copula: "\u0627\u0644\u062c\u0648\u0627\u0628 voil\u00e0" is prose)."""
    rest = _unwrapped(rest.strip(" \t*_,;:\u0964\u3010\u3011\u300c\u300d\uff1a"))
    numerals = rest.rstrip(" \t*_$.\u3002")
    if numerals and not numerals.isascii() and all(c.isnumeric() or c in " \t,." for c in numerals):
        return numerals  # numerals of another form ("\u00b9\u2070", "\u2787", "\u4e03", "\U0001d7d9\U0001d7da")
    rest = _PARTICLE_RE.sub("", rest).strip(" \t*_$.")
    if not rest or len(rest) > 80:
        return None
    number = _NUMBER_WORDS_AFTER_RE.fullmatch(rest)
    if number is not None:
        return number.group("v")
    math = rest.startswith("\\") or "$" in rest
    if math and (value := _lone_math(rest)) is not None:
        return value
    bracketed = rest[:1] in "([" and rest[-1:] in ")]"  # (a tuple or an interval: its brackets stay)
    side = None if math or bracketed else spelled_value(rest) or any_form_value(rest)  # "eight", "4 / 2" (as 2)
    if side is not None and _PLAIN_VALUE_RE.fullmatch(side):
        return side
    if not wide or not rest[:1].isalnum() and rest[:1] not in "\\$([{-+\u2212" or "boxed" in rest or "fbox" in rest:
        return None  # (a box is read where it stands)
    if _LOGIC_RE.search(rest):
        return None  # a statement, no value: "x > 0 \\iff x^3 > 0"
    rest = _TEXT_UNIT_RE.sub("", _DELIMITERS_RE.sub("", rest))
    left = rest.split("=", 1)[0]
    if left != rest and not _LETTER_RE.search(_COMMAND_NAME_RE.sub(" ", left)):
        rest = rest.rsplit("=", 1)[1].strip(" \t$")  # "$96 - $24 = $72": a computation offers its result
    unit = _TRAILING_WORD_RE.search(rest)
    if unit is not None and unit.start() > 0 and read_words(unit.group(1).lower()) is not None:
        rest = rest[: unit.start()]  # "\\frac{270}7 degrees": a unit after the value
    bare = _COMMAND_NAME_RE.sub(" ", rest)
    words = _WORD_RE.findall(bare)
    if len(words) > 1 or any(w.lower() in _POINTING_WORDS or read_words(w.lower()) is not None for w in words):
        return None
    alone = bool(words) and _WORD_WRAP_RE.sub("", bare) == words[0]
    if alone and ROMAN_RE.fullmatch(words[0].upper()) and (words[0].isupper() or words[0].islower()):
        return str(roman_value(words[0].upper()))  # "Final result: II", "Final: xi"
    if words and (not word or not alone):
        return None  # a word beside a value or in quotes: prose ("it's 5"), JSON ('units"}')
    if not words and word and (_CHOICE_RE.fullmatch(rest) or rest in ("V", "X", "L", "v", "x")):
        return rest if _CHOICE_RE.fullmatch(rest) else str(roman_value(rest.upper()))  # "answer: B", "【答案】V"
    return rest if words or _MATH_SIGN_RE.search(rest) else None


def _roman_alone(text: str) -> str | None:
    """The value of a paragraph that is one upper-case Roman numeral (``XX``, ``**XIV**``, ``V``);
    not ``I`` (a word) nor ``C``, ``D`` or ``M`` alone (choice letters)."""
    token = text.strip(" \t*_>.!\u2713\u2714")  # ("XVIII \u2714\ufe0f")
    return roman_token(token) if token.isupper() else None


# A paragraph that only lists values, each on its line: bare or after a list's marker ("1. 67",
# "- 5", "(b) 21", "Q2: -1430"), or after labels of which one names the answer ("answer: 7" /
# "result: 17"), and no arithmetic: a list of answers, each offered.
_LISTED_RE = re.compile(
    r"[ \t>*_]*(?:(?:\d{1,2}[.)]|\(?[a-z]\)|[a-h]\.|\(?(?:i{1,3}|iv|vi{0,3}|ix|x)[.)]|[-*\u2022]|q\d{1,2}[:.)]?|"
    r"(?:part|question|problem)[ \t]*\(?\w\)?[:.)]?)[ \t]+)?"
    rf"[*_$ \t]*(?P<v>{_VALUE})[*_$ \t.]*", re.IGNORECASE)
_PART_MARK_RE = re.compile(r"[ \t*_]*\(?(?:[a-h]|i{1,3}|iv|vi{0,3})[.)]", re.IGNORECASE)
_LABELLED_RE = re.compile(rf"[ \t>*_-]*(?P<label>[^\W\d][^\n:=\d]{{0,40}}?)[ \t*_]*[:\uff1a=][ \t*_$]*(?P<v>{_VALUE})[ \t*_$.]*")


def _listed_values(paragraph: str) -> list[str]:
    """The values of a paragraph that only lists values (its module doc)."""
    lines = [line for line in paragraph.strip().split("\n") if line.strip()]
    if len(lines) == 1 and _PART_MARK_RE.match(lines[0]):
        # "(i) 66, (ii) 660", "a) 216; b) 218", "(a) 5 (b) 6"
        lines = re.split(r"(?:[,;][ \t]*|[ \t]+)(?=\(?[a-z0-9]{1,3}[.)])", lines[0], flags=re.IGNORECASE)
    if len(lines) < 2:
        return []
    listed = [_LISTED_RE.fullmatch(line) for line in lines]
    if all(listed):
        return [m.group("v") for m in listed]  # type: ignore[union-attr]
    marked = [_PART_MARK_RE.match(line) for line in lines]
    if all(marked):  # "(a) \\frac{1}{2} (b) \\frac{1}{3}": parts' values of any form
        parts = [_any_form(line[m.end() :]) for line, m in zip(lines, marked)]  # type: ignore[union-attr]
        if all(parts):
            return parts  # type: ignore[return-value]
    labelled = [_LABELLED_RE.fullmatch(line) for line in lines]
    if all(labelled) and any(_ANSWER_NOUN_RE.search(m.group("label")) for m in labelled):  # type: ignore[union-attr]
        return [m.group("v") for m in labelled]  # type: ignore[union-attr]
    return []


def _lone_math(text: str) -> str | None:
    """``text`` as one math value when it is one: a digit, no relation, no letter outside a
    command (``\\frac{11}{3}``, ``$(2, 3)$``, ``\\[ \\sqrt{2} \\]``; not ``x^2 + 1``)."""
    inner = _MATH_WRAP_RE.sub("", text).strip(" \t*_.")
    # ("\\begin{pmatrix} 1/5 \\\\ -18/5 \\end{pmatrix}": the environment's name is no letter)
    letters = _ENVIRONMENT_RE.sub(" ", inner) if "\\begin" in inner else inner
    if not inner or len(inner) > 80 or not any(c.isdigit() for c in inner) or _RELATION_RE.search(inner):
        return None
    if inner.count("{") != inner.count("}") or "\\boxed" in inner:
        return None  # a piece of math cut at a "!" or a sentence stop, or a box read on its own
    if _TOP_LEVEL_COMMAS_RE.fullmatch(inner):
        return None  # "17, 26, 35, 44": an enumeration of the working (a tuple is bracketed)
    return None if _LETTER_OUTSIDE_COMMAND_RE.search(letters) else inner


# What makes a one-line paragraph a conclusion: a marker after its value ("- $7$ (final)",
# "print(47)  # final answer", "`$$\\frac{1}{11}$$` is the answer.") or a result label before it
# ("_Caption: result 160_"); "As a result, 15 more." and "The result is 24." are working.
_CONCLUDING_RE = re.compile(
    r"(?P<marker>\((?:final|answer)\)|#[ \t]*(?:final[ \t]+)?answer|\b(?:is|was)[ \t]+(?:the|our|my)[ \t]+(?:final[ \t]+)?answer"
    r"|(?<![\w ])[ \t]*(?:final[ \t]+answer)|(?<=[\d$)\]}])[ \t]+(?:final[ \t]+answer))"
    r"[ \t.!*_`]*\Z|(?<!as a )\bresult[ \t]*[:=\uff1a]?[ \t*_]*(?=[$\\\d]|(?:USD|EUR|GBP|INR)\b)", re.IGNORECASE)
_EMPHASIS_LINE_RE = re.compile(
    r"[ \t>]*(?:#{1,6}[ \t]+(?P<h>[^\n]{1,100}?)|(?P<mark>\*\*|__)(?P<b>(?:(?!\*\*|__)[^\n]){1,100})(?P=mark))[ \t.]*")
_SPAN_RE = re.compile(r"\$\$?[^$\n]{1,80}?\$\$?|\\\([^\n]{1,80}?\\\)|\\\[[^\n]{1,80}?\\\]")
_NUMBER_RE = re.compile(rf"(?<![^\W_]|\.){_VALUE}(?![^\W_])")


def _one_line_values(line: str) -> list[str]:
    """The value of a one-line paragraph that concludes: a heading or bold line that is one
    value of any form ("## $(a+12)(b+2)$"), or a line with a concluding marker and one value."""
    emphasis = _EMPHASIS_LINE_RE.fullmatch(line)
    shown = "" if emphasis is None else emphasis.group("h") or emphasis.group("b")
    if any(c in shown for c in "$\\0123456789") and not _PART_WORD_RE.search(shown):
        value = _any_form(shown)
        if value is not None:
            return [value]
    concluding = _CONCLUDING_RE.search(line)
    if concluding is None or _PART_WORD_RE.search(line) or "?" in line:
        return []
    line = line.replace("\\$", "")  # (an escaped dollar is a currency sign: "$\\$64$")
    # the value is what stands before the marker, or after the label ("Result: \\frac{4}{2}")
    part = line[: line.rfind(concluding.group("marker"))] if concluding.group("marker") else line[concluding.end() :]
    whole = _any_form(part.strip(" \t*_`>-\u2022"), word=False)
    if whole is not None:
        return [whole]
    spans = [v for m in _SPAN_RE.finditer(line) if (v := _any_form(m.group(0))) is not None]
    numbers = [_clean(m.group(0).lstrip("\\")) for m in _NUMBER_RE.finditer(_SPAN_RE.sub(" ", line))]
    offered = list(dict.fromkeys(spans + numbers))
    if len(offered) > 1 and "=" in line:
        last = any_form_value(line)  # "Result: 24/2 = 12" offers its result
        return [last] if last is not None else []
    return offered  # (a line marked final that offers several values offers each)


# A line of working that ends by marking its last sentence's value final ("... so x = 4. 8 \U0001f448
# final answer", "... = 160. \U0001d7f9\U0001d7f8\U0001d7f6 (final answer)").
_FINAL_MARK_END_RE = re.compile(r"[^\w\n]*\bfinal[ \t]+answer\b[^\w\n]*$", re.IGNORECASE | re.MULTILINE)
_SENTENCE_END_RE = re.compile(r"[.!?\u3002:=][ \t]+|\A")


def _marked_final_values(paragraph: str) -> list[str]:
    """The values that lines of ``paragraph`` mark final at their end, each read from the last
    sentence before the mark as one value of any form."""
    values = []
    for m in _FINAL_MARK_END_RE.finditer(paragraph):
        line = paragraph[paragraph.rfind("\n", 0, m.start()) + 1 : m.start()]
        last = line[max(s.end() for s in _SENTENCE_END_RE.finditer(line)) :]
        value = _any_form(last, word=False) if last.strip() else None
        token = line.rsplit(None, 1)[-1] if line.strip() else ""
        if value is None and token:  # "... = 18 inches 53 \U0001f448 final answer": the value the mark points at
            value = _any_form(token, word=False) or _roman_alone(token)  # ("V \U0001f448 final answer")
        if value is not None:
            values.append(value)
    return values


# A sentence that offers two values ("It's either \\frac{1}{3} or \\frac{1}{2}.").
_EITHER_RE = re.compile(r"\beither[ \t]+(?P<a>[^\n]{1,80}?)[ \t]+or[ \t]+(?P<b>[^\n]{1,80}?)[ \t*_]*[.!]?[ \t*_]*\Z", re.IGNORECASE)


def _either_values(sentence: str) -> list[str]:
    """The two values of an "either X or Y" sentence, each of any form, else ``[]``."""
    m = _EITHER_RE.search(sentence)
    if m is None:
        return []
    pair = [_any_form(m.group("a"), word=False), _any_form(m.group("b"), word=False)]
    return pair if all(pair) else []  # type: ignore[return-value]


def _answer_column(table: str, read: Callable[[str], str | None] = _any_form) -> list[str]:
    """The cells under a table's answer column ("| Answer |\n|---|\n| $10 |"), each as ``read``
    reads it."""
    rows = [row.strip().strip("|").split("|") for row in table.split("\n") if row.strip().startswith("|")]
    if len(rows) < 3 or not re.fullmatch(r"[\s:|-]+", "|".join(rows[1])):
        return []
    columns = [k for k, cell in enumerate(rows[0]) if _ANSWER_HEADING_ALONE_RE.fullmatch(cell)]
    return [v for row in rows[2:] for k in columns if k < len(row) and (v := read(row[k])) is not None]
