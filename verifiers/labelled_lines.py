r"""Lines that offer a value whatever their label's word (issue 30, round 3): the
``paragraph`` rule of the grammar in ``verifiers.math_extract`` reads, besides boxes, tags and
"answer" clauses in known languages, every ``<label>: <value>`` or ``<label> <value>`` line
of the final answer's paragraph (``Svar: 7``, ``답: 7``, ``He has 6 apples.``) as an answer,
unless later arithmetic of the paragraph uses its number: then it is a step of a worked
solution (``Monday: 6$`` ... ``Total: 6+12+36=54$``). No word list can name every language's
"answer"; the shape and the use of the value can be read in any. A short sentence that opens
with a value and says something of it (``6 is correct.``, ``72 верно.``) offers it the same
way (``value_first_values``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from verifiers.answer_values import _TAIL_VALUE_RE, _clean, _sentence_end, _sentence_start
from verifiers.spelled_numbers import (
    CJK_NUMERAL,
    RAISED_DIGITS,
    SPELLED_VALUE,
    TAIL_WORD,
    spelled_value,
)
from verifiers.word_hints import NOUN_CORES, folded, holds_any

__all__ = ["labelled_values", "value_first_values"]

_BOX_RE = re.compile(r"\\(?:boxed|fbox)(?![A-Za-z])")


# Words that commit the value after them: what comes before is its derivation, not another answer.
_COMMIT_WORD_RE = re.compile(
    r"\b(?:is|are|was|were|be|been|equals?|gives?|giving|get|gets|got|yields?|yielding|makes?|"
    r"becomes?|so|thus|hence|therefore|answer|final|result|total|obtain|find|have|has|we|which|"
    # (not "then": "**6** then \boxed{5}" is a sequence of two answers, "then y = 4" commits by "=")
    # (not "of": it is Dutch for "or"; "the sum of" commits by "sum")
    r"namely|means|remains?|leaves?|left|in|for|at|on|by|with|all|sum|product)\b",
    re.IGNORECASE,
)


# A word of any script, its combining marks included (Devanagari vowel signs, Thai marks).
_LETTER = r"(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u0e00-\u0e7f])"
# A letter of a script other than Latin and Greek (whose letters name variables: "5x").
_NON_LATIN_LETTER = r"(?:(?![A-Za-z\u00c0-\u024f\u0370-\u03ff])[^\W\d_]|[\u0900-\u0dff])"
# "<label>: <value>" or "<label> <value>" on its line, the label one to four words of any
# script without a digit ("Svar: 7", "답: 7", "Cevap: **7**", "Monday: 6$", "Svar 7"), the
# value one number (in math, bold or code, with a sign or currency); around the colon and
# after the value, anything without another value (markup, "${}$", "---", a unit).
_LABELLED_LINE_RE = re.compile(
    rf"^(?P<lead>[^\w\n=&]*+)(?<!\\)(?P<label>{_LETTER}++(?:,?[ \t'\u2019-]+{_LETTER}++){{0,3}})"
    # (possessive space runs: a run of spacing before no value must cost one pass, not a
    # pass per split of the run between them: "is" + 1,200 spaces took 0.34 s, h38)
    # (closing markup may stand before the space: "| **Final Answer** | **44** |", a table row)
    r"(?:(?P<colon>[^\w\n]{0,40}?[:\uff1a])[^\w\n]{0,40}?|[*_]{0,2}+[ \t]++[^\w\n]{0,40}?)"
    r"(?P<value>[-+]?(?:\\?\$|[\u20ac\u00a3\u00a5\u20b9])?[ \t]*+(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\\?\$|%)?)"
    # After a colon label a letter may follow the number at once: an invisible space removed
    # ("Svar: 1\u200bThe final answer ..."), a unit ("7cm"), text of a script written without
    # spaces. Without a colon, "He has 5x" is a term, not a value.
    rf"(?![\d.,]\d)(?(colon)|(?!(?!{_NON_LATIN_LETTER})[^\W\d_]))(?P<rest>[^\n]*)$",
    re.MULTILINE,
)
# A value alone on its line, with markup only ("2", "**404**", "$7$", "\\[ 9 \\]", "- 5",
# "> 5", "(3)"): the shape "X alone on its line" that closes an answer offers one wherever it
# stands (a line break inside math, "x =\n7", belongs to the line before: not alone).
# Words that number a part of the working ("Step 1", "Case 2", "Part 3"), never an answer
# (not "Answer", "Total", "Result": "Total 6" on its line offers 6).
_PART_WORD_RE = re.compile(
    r"step|case|subcase|part|chapter|section|page|problem|question|exercise|example|figure|"
    r"table|item|rule|method|approach|stage|phase|lemma|theorem|claim|equation|hint|scenario|"
    r"row|column|attempt|trial|move|turn|round|day|week|iteration|observation",
    re.IGNORECASE,
)
_LONE_VALUE_LINE_RE = re.compile(
    # possessive runs: a 1 MB line of markup must cost one pass, not a pass per character
    r"^(?P<lead>[^\w\n=&\\]*+(?:\\[\[(][^\w\n]*+)?)"
    r"(?P<value>(?:[\u20ac\u00a3\u00a5\u20b9][ \t]*+)?(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\\?\$|%)?)"
    r"(?![\d.,]\d)(?P<rest>[^\w\n=\\]*+(?:\\[\])][^\w\n]*+)?(?:</think>[^\w\n]*+)?)$",
    re.MULTILINE,
)
# The same in words or raised digits ("vier", "Six", "\u516b", "\u2084"), or one number
# among commands and their braces: "\\text{2}", "\\verb|8|", "\\not9", "\\vdots 3", "\\tag{1}".
_LONE_WORD_LINE_RE = re.compile(
    rf"^[^\w\n=&\\]*+(?P<value>(?i:{SPELLED_VALUE}))[^\w\n=\\]*+$"
    r"|^(?=[^\n]*\\[A-Za-z])(?:\\[A-Za-z]+|[^\w\n=&])*+(?P<number>\d+(?:\.\d+)?)(?:\\[A-Za-z]+|[^\w\n=&])*+$",
    re.MULTILINE,
)
# A value shown alone in display math at a line's start, whatever follows on the line
# ("\\[42\\] \\quad \\boxed{7}", "\\begin{equation}14\\end{equation}", "36 \\end{align*} is correct.").
_DISPLAY_ENV = r"(?:equation|align|gather|displaymath|math|multline)\*?"
_DISPLAY_VALUE_RE = re.compile(
    r"^[ \t>]*+(?:\\\[|\$\$|\\begin\{" + _DISPLAY_ENV + r"\})?[ \t]*+(?:\\(?:mathbf|boxed|text)\{)?"
    r"(?P<number>[-+\u2212]?\d++(?:\.\d+)?)\}?[ \t]*+(?:\\\]|\$\$|\\end\{" + _DISPLAY_ENV + r"\})",
    re.MULTILINE,
)
# A line that names the answer anywhere in it and ends with one value, whatever stands between
# ("One more possible final answer here: 6", "The other answer that also works 6.",
# "另一个 可能 的 最终 答案 493."): a label longer than the four words above offers it too,
# unless the words between bound or deny it ("The answer is less than 10.").
_ANSWER_NOUN = (r"(?:answer|antwort|antwoord|jawapan|yan\u0131t|atsakymas|atbilde|vastus|odpove\u010f|odgovor|"
                r"\u043e\u0442\u0433\u043e\u0432\u043e\u0440|\u0111\u00e1p\s+\u00e1n|jibu|sagot|v\u00e1lasz|odpov\u011b\u010f|r\u0103spuns|"
                r"\u05ea\u05e9\u05d5\u05d1\u05d4|\u067e\u0627\u0633\u062e|\u0989\u09a4\u09cd\u09a4\u09b0|respuesta|r[\u00e9e]ponse|resposta|risposta|jawaban|svar|cevap|"
                r"odpowied\w*|vastaus|\u043e\u0442\u0432\u0435\u0442|\u0432\u0456\u0434\u043f\u043e\u0432\u0456\u0434\u044c|"
                r"\u7b54\u6848|\u7b54\u3048|\u6b63\u89e3|\uc815?\ub2f5|(?:\u0627\u0644)?\u062c\u0648\u0627\u0628|"
                r"\u0627\u0644\u0625\u062c\u0627\u0628\u0629|\u0909\u0924\u094d\u0924\u0930|"
                r"\u0e04\u0e33\u0e15\u0e2d\u0e1a|\u03b1\u03c0\u03ac\u03bd\u03c4\u03b7\u03c3\u03b7)")
# The nouns' first letters, tested once per position before the alternation's branches are
# (a 1 MB paragraph of "**Final Answer**" lines tries the nouns at every character).
_NOUN_FIRST = "(?=[aAjJsSvVoOrRcCyY\u0131\u0130\u0433\u0413\u062c\u0111\u0110\u05ea\u067e\u0989\u043e\u041e\u0432\u0412\u7b54\u6b63\uc815\ub2f5\u0627\u0909\u0e04\u03b1\u0391])"
_ANSWER_NOUN_RE = re.compile(_ANSWER_NOUN, re.IGNORECASE)
_ANSWER_LINE_RE = re.compile(
    rf"^(?P<lead>[^\n\d]{{0,200}}?{_NOUN_FIRST}{_ANSWER_NOUN})(?P<gap>[^\n\d]{{0,80}}?)"
    r"(?P<value>[-+\u2212]?(?:\\?\$|[\u20ac\u00a3\u00a5\u20b9])?(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\\?\$|%)?)"
    # then a copula or particle of a script without Latin variables ("입니다", "है", "です")
    rf"(?![\d.,]\d)[*_$ \t]*(?:{_NON_LATIN_LETTER}{{1,6}})?[*_$ \t.!)\u3002\u0964]*$",
    re.MULTILINE | re.IGNORECASE,
)
# The same with the value in words: "答案：七", "Answer: тринадцать", "The answer is acht."
_WORD_ANSWER_LINE_RE = re.compile(
    rf"^[^\n\d]{{0,200}}?{_NOUN_FIRST}{_ANSWER_NOUN}[^\n\d]{{0,40}}?[ \t:\uff1a\u662f\u4e3a\u306f\uc740](?P<word>{SPELLED_VALUE})"
    r"[*_$ \t.!\u3002]*$",
    re.MULTILINE | re.IGNORECASE,
)
_BOUND_GAP_RE = re.compile(
    r"\b(?:than|least|most|between|under|over|below|above|from|to|within|exceed\w*|less|more|"
    r"greater|smaller|up|not|no|never|except|besides|of)\b|[<>\u2264\u2265\u2260]",
    re.IGNORECASE,
)
# (not "!" after a digit: "3! \times 5!" is a factorial)
_SENTENCE_STOP_RE = re.compile(r"(?:[.?\u3002\u0964]|(?<!\d)!)(?:\s|$)")
_COMMAND_RE = re.compile(r"\\[A-Za-z]+")
_REST_WORD_RE = re.compile(rf"{_LETTER}+")
_OPTION_WORD_RE = re.compile(
    r"option|choice|alternative|candidate|possibility|answer|opci\u00f3n|op\u00e7\u00e3o|opzione|"
    r"auswahl|variante|\u9009\u9879", re.IGNORECASE)
# A variable glued to a number makes it a term ("3x", "2n"), not a value with a unit ("7m").
_VARIABLE_AFTER_RE = re.compile(r"[xyzn](?![A-Za-z])")
_MAX_LABELLED_LINES = 64
# How far back in the final answer's paragraph its lines and sentences are read for other
# values: more than any worked solution's paragraph holds. Each pattern costs ~0.1 s over a
# 1 MB paragraph, and a dozen run, so an unbounded read back cost a second.
READ_BACK_CHARS = 20_000
_CONSUMED_WINDOW = 2_000  # how far after its line a labelled value is looked for as an operand


def labelled_values(text: str, para_start: int, start: int) -> list[str] | None:
    """The values of the ``<label>: <value>`` lines of the final answer's paragraph before
    ``start`` that no later arithmetic uses: whatever the label's word (no word list can name
    every language's "answer"), a value stated alone on its line is offered as an answer
    unless a later line of the paragraph (the final one included) computes with it, as a
    worked solution's steps do ("Monday: 6$" then "Total: 6+12+36=54$"). Lines are read back
    ``READ_BACK_CHARS`` at most. None when there are more such lines than any solution lists."""
    line_end = text.find("\n", start)
    hi = len(text) if line_end < 0 else line_end
    found: list[str] = []
    para_start = max(para_start, start - READ_BACK_CHARS)
    lines = _line_starts(text, para_start, start)  # each pattern below is anchored at "^"
    for count, m in enumerate(_anchored(_LABELLED_LINE_RE, text, para_start, start, lines)):
        if count >= _MAX_LABELLED_LINES:
            return None
        words = _REST_WORD_RE.findall(m.group("label"))
        if m.group("colon") is None and _PART_WORD_RE.fullmatch(words[-1]):
            continue  # "**Step 1.** Set up.", "Case 2: n is odd": a part's number, no answer
        if len(words[-1]) == 1 and words[-1].isascii() and not (
                len(words) > 1 and _OPTION_WORD_RE.fullmatch(words[-2])):
            # a variable ("N = 5", "x: 7"): a step of a derivation, no answer; an option
            # ("Option B: 6", "Choice C = 6") names an answer
            continue
        if m.group("colon") is not None and _VARIABLE_AFTER_RE.match(m.group("rest")) and not _ANSWER_NOUN_RE.search(
                m.group("label")):
            continue  # "Becca: 3x", "Nickels: 2n": a term of the working, no value ("Answer: 3x" offers 3)
        rest = _COMMAND_RE.sub(" ", m.group("rest"))
        # the rest of the value's own sentence ("3! \times": a "!" right after it is a factorial)
        stop = _SENTENCE_STOP_RE.search(rest, 1 if rest.startswith("!") else 0)
        own = rest if stop is None else rest[: stop.start()]
        # a label naming the answer commits whatever later sentences of the line say
        # ("Donc, la réponse est 366. Đáp án là 365.", "उत्तर 242 है। Re-reading: 33 boxes")
        goes_on = own if _ANSWER_NOUN_RE.search(m.group("label")) else rest
        if _TAIL_VALUE_RE.search(goes_on) or _BOX_RE.search(m.group("rest")):
            continue  # another value in it: a computation, no lone value
        if m.group("colon") is None and (
            "#" in m.group("lead") or len(_REST_WORD_RE.findall(goes_on)) > 2
            or _COMMIT_WORD_RE.search(own)
        ):
            continue  # a heading ("## Step 2") names a part; a sentence goes on or commits
        if m.group("colon") is None and m.end() == start and not _SENTENCE_STOP_RE.search(rest):
            continue  # the final answer's own sentence: "First 2, then \boxed{3}" is a sequence
        if not _used_later(text, m.group("number"), m.end(), min(hi, m.end() + _CONSUMED_WINDOW)):
            found.append(_clean(m.group("value")))
    for count, m in enumerate(_anchored(_LONE_VALUE_LINE_RE, text, para_start, start, lines)):
        if count >= _MAX_LABELLED_LINES:
            return None
        if m.end() >= start or text[m.start() - 1 : m.start()] not in ("", "\n"):
            continue  # the final answer's own line
        if m.group("rest").strip() in (".", ")") and not m.group("lead").strip():
            continue  # "1." or "2)" alone: a list item's marker
        if not _used_later(text, m.group("number"), m.end(), min(hi, m.end() + _CONSUMED_WINDOW)):
            found.append(_clean(m.group("value")))
    for count, m in enumerate(_anchored(_DISPLAY_VALUE_RE, text, para_start, start, lines)):
        if count >= _MAX_LABELLED_LINES:
            return None
        if not _used_later(text, m.group("number"), m.end(), min(hi, m.end() + _CONSUMED_WINDOW)):
            found.append(m.group("number"))
    for count, m in enumerate(_anchored(_LONE_WORD_LINE_RE, text, para_start, start, lines)):
        if count >= _MAX_LABELLED_LINES:
            return None
        if m.end() < start:
            value = m.group("value") or m.group("number")
            found.append(spelled_value(value) or value)
    own_line = text.rfind("\n", 0, start)
    if own_line > para_start and holds_any(folded(text, para_start, own_line), NOUN_CORES):
        for count, m in enumerate(_anchored(_WORD_ANSWER_LINE_RE, text, para_start, own_line, lines)):
            if count >= _MAX_LABELLED_LINES:
                return None
            if not _BOUND_GAP_RE.search(m.group(0)) and spelled_value(m.group("word")):
                found.append(spelled_value(m.group("word")))  # type: ignore[arg-type]
        for count, m in enumerate(_anchored(_ANSWER_LINE_RE, text, para_start, own_line, lines)):
            if count >= _MAX_LABELLED_LINES:
                return None
            if _BOUND_GAP_RE.search(m.group("gap")):
                continue
            if not _used_later(text, m.group("number"), m.end(), min(hi, m.end() + _CONSUMED_WINDOW)):
                found.append(_clean(m.group("value")))
    return list(dict.fromkeys(found))


_OPERATOR = (
    r"(?:[-+*/\u00d7\u00b7\u00f7(^{]|\\cdot|\\times|\\div|"
    r"\b(?:times|plus|minus|by|of|x|multiplied|divided|[Tt]imes|[Pp]lus|[Mm]inus)\b)"
)


def _used_later(text: str, number: str, lo: int, hi: int) -> bool:
    """Whether ``number`` stands as an operand of arithmetic in ``text[lo:hi]``: next to an
    operator, an opening parenthesis or brace, or an operator word ("13(2)=26", "40000-8000-800",
    "7 times 38")."""
    n = re.escape(number)
    operand = re.compile(
        rf"{_OPERATOR}[ \t$]*{n}(?!\d|[.,]\d)|(?<![\d.,]){n}[ \t$]*(?:{_OPERATOR}|\))"
    )
    return operand.search(text, lo, hi) is not None



# A short sentence of the final paragraph that opens with a value and says something about
# it ("6 is correct.", "6 maybe.", "72 верно.", "6也是正确答案。"): the value is what the sentence
# is about, an answer offered. At most eight words follow it and no other number, no "=" and
# no operator:
# "1 hour is 60 minutes", "2L + 11 = 35" and "48/2 = 24 clips" are the working.
_VALUE_FIRST_RE = re.compile(
    r"(?:^|(?<=[.!?\u3002])[ \t]++)(?:\\\(|\*\*|__|[ \t$>]|[*_](?=\d))*+(?P<number2>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    rf"(?![\d.,]\d)(?![A-Za-z(])(?:[*_$]|\\\))*+[ \t]*+,?[ \t]*+{_LETTER}+(?:[ \t]+{_LETTER}+){{0,7}}[ \t]*[.!?;\u3002\u0964](?=[ \t]|$)"
    r"|(?:^|(?<=[.!?\u3002])[ \t]++)(?:\\\(|\*\*|__|[ \t$>]|[*_](?=\d))*+(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    rf"(?![\d.,]\d)(?![A-Za-z(])(?:[*_$]|\\\))*+[ \t]*+,?[ \t]*+{_LETTER}+(?:[ \t]+{_LETTER}+){{0,7}}[ \t]*[.!?;\u3002\u0964]?[ \t]*$",
    re.MULTILINE,
)


# An earlier sentence of the final paragraph that commits to a value in a few words: an
# answer noun of any language, or "it is" ("It is 6.", "Cevap 8.", "Svaret är 5.",
# "उत्तर है 1.", "jibu ni 6."), then the next sentence goes on: two answers in one paragraph.
_NOUN_CLAUSE_LEAD = (  # (possessive letter runs: a 16 KB word of letters and marks must cost one pass)
    rf"(?:{_LETTER}++[ \t]+){{0,2}}{_LETTER}{{0,2}}{_ANSWER_NOUN}{_LETTER}*+(?:[ \t]+{_LETTER}++){{0,2}}|")
_CLAUSE_SENTENCE = (
    rf"(?:^|(?<=[.!?\u3002])[ \t]*+)[*_ \t>]*+(?:@NOUN_LEAD@"
    rf"(?:{_LETTER}++(?:['\u2019]{_LETTER}++)?[:,]?[ \t]+){{0,2}}(?:(?:it|that|this)(?:[ \t]+(?:is|was)|['\u2019]s)"
    r"|c['\u2019]est|(?:es|das)[ \t]+ist|es|det[ \t]+(?:\u00e4r|er)|(?:het|dit)[ \t]+is|jest|to[ \t]+jest|ini|itu|"
    r"\u044d\u0442\u043e)|\u662f)[ \t]*+[:\uff1a]?[ \t*$]*+"
    rf"(?:(?P<number>[-+\u2212]?\d+(?:[.,]\d+)?)(?![\d.,]\d)|(?P<word>{SPELLED_VALUE}))[^\W\d_A-Za-z]{{0,4}}[*$ \t]*"
    # a second value in the same clause ("The answer is 96 and 86."), a remark ("It's 47, I think.")
    r"(?:(?:,|\band\b|&|\bor\b)[ \t*$]*(?P<number2>[-+\u2212]?\d+(?:[.,]\d+)?)(?![\d.,]\d)[*$ \t]*)?"
    r"(?:,[^.!?\n\d=]{0,30})?"
    # ("$3! \times 5!$" is a factorial: a "!" right after a digit ends a sentence only before a
    # line end or a capital)
    r"(?:[.?\u3002]|(?<!\d)!|(?<=\d)!(?=[ \t]*(?:\n|$|[A-Z])))(?=\s)"
)
_CLAUSE_SENTENCE_RE = re.compile(_CLAUSE_SENTENCE.replace("@NOUN_LEAD@", _NOUN_CLAUSE_LEAD), re.MULTILINE | re.IGNORECASE)
# The same without the answer noun's lead, for a paragraph that holds no noun (speed).
_COPULA_SENTENCE_RE = re.compile(_CLAUSE_SENTENCE.replace("@NOUN_LEAD@", ""), re.MULTILINE | re.IGNORECASE)


# A short sentence that ends with a value after one or two words ("Maybe 23.", "Maybe nine?",
# "Perhaps 7!"), or that lists values only ("14, 28."), offers them; a heading that numbers a
# part ("Step 1.", "Case 2:", "Day 3.") does not.
_SHORT_VALUE_SENTENCE_RE = re.compile(
    # (a comma after the words too: "If rounding, 69.", "Rounded, 69.")
    r"(?:^|(?<=[.!?\u3002])[ \t])[ \t*_>]*+(?:(?P<words>[A-Za-z]{2,}(?:[ \t]+[A-Za-z]{2,})?),?[ \t]+"
    rf"(?:(?P<number>[-+\u2212]?\d+(?:\.\d+)?)|(?P<word>{SPELLED_VALUE}))"
    r"|(?P<list>[-+\u2212]?\d+(?:\.\d+)?(?:[ \t]*,[ \t]*[-+\u2212]?\d+(?:\.\d+)?)+))"
    r"(?![\d.,]\d)[*_$ \t]*(?:[.?\u3002]|(?<!\d)!|(?<=\d)!(?=[ \t]*(?:\n|$|[A-Z])))(?=\s)",
    re.MULTILINE,
)
_HEADING_WORD_RE = re.compile(
    r"(?:step|case|part|chapter|section|page|line|problem|question|exercise|example|figure|table|"
    r"item|rule|method|day|week|month|year|round|level|stage|phase|grade|version|no|number|lemma|"
    r"theorem|equation|option|choice|claim|note|hint|subcase|scenario|term|row|column|box|group|"
    r"team|player|person|room|floor|test|trial|attempt|move|turn|answer|total|sum|result)",
    re.IGNORECASE,
)


# Values offered as alternatives before the final answer, in its paragraph: two values joined
# by "or" in any language ("either 43 or 21", "C'est 5 ou 6.", "是5还是6"), or a list after a
# label of candidates ("Possible answers: 45, 16.", "Options: 89 / 73", "Candidates are 76 and 25").
_VALUE = r"[-+\u2212]?\d+(?:[.,]\d+)?"
_OR_WORDS = (r"or|ou|o|oder|eller|vagy|nebo|albo|lub|sau|tai|atau|veya|ya\s+da|hay|ho\u1eb7c|"
             r"\u0438\u043b\u0438|\u043b\u0438\u0431\u043e|\u0430\u0431\u043e|\u03ae|"
             r"\u0623\u0648|\u05d0\u05d5|\u092f\u093e|\u0e2b\u0e23\u0e37\u0e2d|\ub610\ub294|\u304b")
_CANDIDATES_RE = re.compile(
    # (standalone values: "$1+3>n$, or $2<n<4$" joins two relations, not two values)
    rf"(?<![A-Za-z\d_.,^*/+=<>\\-])(?P<a>{_VALUE})(?![\d.,]\d)[*$ \t]*+(?:,|\.\.\.|\u2026)?[ \t]*+(?:(?:{_OR_WORDS})(?![^\W\d_])|"
    r"\u6216\u8005|\u6216|\u8fd8\u662f|\u9084\u662f)[ \t*$]*(?P<b>" + _VALUE + r")(?![\d.,]\d)(?![ \t]*[A-Za-z\d_^*/+=<>(%])"
    r"|(?:possible|candidate|option|choice|alternative|potential)\w*(?:[ \t]+[A-Za-z]+)?[ \t]*(?::|are|is)"
    rf"[ \t*$]*(?P<c>{_VALUE})(?:[*$ \t]*(?:,|;|/|\band\b|\bor\b)[ \t*$]*(?P<d>{_VALUE}))",
    re.IGNORECASE,
)

# What every match of _CANDIDATES_RE holds: a digit, then an "or" (a first branch), or a word
# of candidates (the second; in ``folded`` text). The "or" words' first letters are tested
# once per digit before the alternation's branches are.
_OR_AFTER_DIGIT_RE = re.compile(
    r"\d[*$ \t]*(?:,|\.\.\.|\u2026)?[ \t]*(?=[oeuvnalstyhOEUVNALSTYH\u0130\u0131\u017f\u0438\u043b\u0430\u0418\u041b\u0410"
    r"\u03ae\u0389\u0623\u05d0\u092f\u0e2b\ub610\u304b\u6216\u8fd8\u9084])"
    rf"(?:(?:{_OR_WORDS})(?![^\W\d_])|\u6216|\u8fd8\u662f|\u9084\u662f)",
    re.IGNORECASE,
)
_CANDIDATE_WORDS = ("possible", "candidate", "option", "choice", "alternative", "potential")


# An "or" between two values offers both when its sentence is short or names what it offers
# ("It is 98 or 74.", "either 43 or 21", "C'est 5 ou 6."); "move each person 2, 4, or 6 places
# clockwise" is a step of the reasoning.
_OFFER_WORD_RE = re.compile(
    r"\b(?:either|is|it's|are|be|answers?|results?|es|est|ist|\u00e9|\u00e8|\u00e4r|er|on|jest)\b"
    r"|[\u662f\u4e3a\u7b54]|\u043e\u0442\u0432\u0435\u0442|\u044d\u0442\u043e", re.IGNORECASE)


def _offers_pair(text: str, m: re.Match[str]) -> bool:
    lo, hi = _sentence_start(text, m.start()), _sentence_end(text, m.end())
    if "$" in text[lo : m.start()] or "=" in text[lo : m.start()]:
        return False  # "$d$ must be either 4 or 8": a case of the working, about a variable
    words = len(_REST_WORD_RE.findall(text, lo, hi))
    return words <= 6 or _OFFER_WORD_RE.search(text, max(lo, m.start() - 30), m.start()) is not None


_BREAK_RE = re.compile(r"[\n.!?\u3002\uff01]")


def _sentence_starts(text: str, lo: int, hi: int) -> list[int] | None:
    """Every position of ``text[lo:hi]`` where a sentence-anchored pattern below may start (a
    line start, right after a sentence stop, one whitespace after it), in order; None when
    stops are so dense that one scan by each pattern costs less than a match at each."""
    starts = [lo]
    for m in _BREAK_RE.finditer(text, lo, hi):
        end = m.end()
        starts.append(end)
        if end < hi and text[end].isspace():
            starts.append(end + 1)
        if len(starts) * 8 > hi - lo + 64:
            return None
    return starts


def _anchored(pattern: re.Pattern[str], text: str, lo: int, hi: int, starts: list[int] | None) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text, lo, hi)`` for a pattern that can match only at ``starts``: the
    same matches, tried at those positions alone (a scan tries every position)."""
    if starts is None:
        yield from pattern.finditer(text, lo, hi)
        return
    end = -1
    for pos in starts:
        if pos >= end:
            m = pattern.match(text, pos, hi)
            if m is not None:
                yield m
                end = m.end()


def _line_starts(text: str, lo: int, hi: int) -> list[int] | None:
    """Every line start in ``text[lo:hi]`` (and ``lo``), where a ``^``-anchored pattern may
    match; None when lines are so short that one scan costs less (see ``_sentence_starts``)."""
    if text.count("\n", lo, hi) * 8 > hi - lo + 64:
        return None
    starts = [lo]
    at = text.find("\n", lo, hi)
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1, hi)
    return starts


def value_first_values(text: str, para_start: int, start: int) -> list[str] | None:
    """The values that open a sentence of the final answer's paragraph before ``start`` and
    that no later arithmetic uses (``6 is correct.`` then ``\\boxed{5}``); None when there
    are more of them than any solution holds."""
    line_end = text.find("\n", start)
    hi = len(text) if line_end < 0 else line_end
    found: list[str] = []
    para_start = max(para_start, start - READ_BACK_CHARS)
    starts = _sentence_starts(text, para_start, start)
    for count, m in enumerate(_anchored(_VALUE_FIRST_RE, text, para_start, start, starts)):
        if count >= _MAX_LABELLED_LINES:
            return None
        if m.group("number") is not None and not text.startswith("\n", m.end()):
            continue  # the line runs on into the final answer: its own sentence
        number = m.group("number") or m.group("number2")
        if not _used_later(text, number, m.end(), min(hi, m.end() + _CONSUMED_WINDOW)):
            found.append(number)
    for count, m in enumerate(_anchored(_LONE_SENTENCE_RE, text, para_start, start, starts)):
        # "**6**. Equivalently, \boxed{5}": a value said alone is offered; "2. Then" is a list
        if count >= _MAX_LABELLED_LINES:
            return None
        if m.end() < start and not _LIST_MARKER_RE.match(text, text.rfind("\n", 0, m.end()) + 1) and (
                not _used_later(text, m.group(1), m.end(), min(hi, m.end() + _CONSUMED_WINDOW))):
            found.append(spelled_value(m.group(1)) or m.group(1))
    low = folded(text, para_start, start)
    candidates = _OR_AFTER_DIGIT_RE.search(text, para_start, start) is not None or holds_any(
        low, _CANDIDATE_WORDS)  # (most paragraphs offer none: one C pass)
    for count, m in enumerate(_CANDIDATES_RE.finditer(text, para_start, start) if candidates else ()):
        if count >= _MAX_LABELLED_LINES:
            return None
        if m.group("a") is not None and (m.group("a") == m.group("b") or not _offers_pair(text, m)):
            continue
        found.extend(v for v in m.group("a", "b", "c", "d") if v is not None)
    for count, m in enumerate(_anchored(_SHORT_VALUE_SENTENCE_RE, text, para_start, start, starts)):
        if count >= _MAX_LABELLED_LINES:
            return None
        words = m.group("words")
        if words is not None and (_HEADING_WORD_RE.fullmatch(words.split()[-1]) or _COMMIT_WORD_RE.search(words)):
            continue  # "Step 1.": a part's number; "We get 12.": a step stated
        if m.group("list") is not None:
            found.extend(v.strip() for v in m.group("list").split(","))
        elif m.group("word") is not None and spelled_value(m.group("word")):
            found.append(spelled_value(m.group("word")))  # type: ignore[arg-type]
        elif m.group("number") is not None and not _used_later(
                text, m.group("number"), m.end(), min(hi, m.end() + _CONSUMED_WINDOW)):
            found.append(m.group("number"))
    clause_re = _CLAUSE_SENTENCE_RE if holds_any(low, NOUN_CORES) else _COPULA_SENTENCE_RE
    for count, m in enumerate(_anchored(clause_re, text, para_start, start, starts)):
        if count >= _MAX_LABELLED_LINES:
            return None
        if m.group("word") is not None:  # "It's two.", "Answer: тринадцать."
            if not _BOUND_GAP_RE.search(m.group(0)) and spelled_value(m.group("word")):
                found.append(spelled_value(m.group("word")))  # type: ignore[arg-type]
        elif not _BOUND_GAP_RE.search(m.group(0)) and not _used_later(
                text, m.group("number"), m.end(), min(hi, m.end() + _CONSUMED_WINDOW)):
            found.append(m.group("number"))
            if m.group("number2") is not None:
                found.append(m.group("number2"))
    for count, m in enumerate(_anchored(_WORD_FIRST_RE, text, para_start, start, starts)):
        if count >= _MAX_LABELLED_LINES:
            return None
        if m.end() < start and not _DETERMINER_RE.match(text, m.end("word")):
            # "Two auch.", "Sechs ist auch richtig.", "\u2076\ub3c4 \ub9de\ub2e4."
            found.append(spelled_value(m.group("word")) or m.group("word"))
    return found


# A sentence that is one value and nothing else ("**6**.", "$6$!", "\\(6\\).") in the paragraph.
_LONE_SENTENCE_RE = re.compile(
    r"(?:^|(?<=[\u3002\uff01])|(?<=[.!?]\s))[ \t]*+(?:[*_$]|\\\()*+"
    rf"([-+\u2212]?\d[\d,.]*\d|[-+\u2212]?\d|(?i:{SPELLED_VALUE}))(?:[*_$]|\\\))*"
    r"[ \t]*(?:[.!?\u3002\uff01\u2026]|\.\.\.)(?=\s|$)", re.MULTILINE)
# A short sentence that opens with a value in words and says something of it (up to five
# words more): "Two auch.", "Sixでもいい。", "Sechs ist auch richtig.". English "one" and the
# words of prose ("On", "Un", "Hat") open sentences of the working; they are left out.
_FIRST_WORD = (
    rf"(?i:{TAIL_WORD}|(?:zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred)(?:-[a-z]+)?(?![A-Za-z])"
    # "one" before a predicate or a word of another script, not "One way to see it"
    r"|one(?=[ \t]+(?:also|too|as\s+well|auch|aussi|tambi\u00e9n|tamb\u00e9m|anche|works|fits|seems|"
    r"is|was|could|might|may|would|satisfies|equals|holds|qualifies)\b|[ \t]*[^\x00-\u024f\s]))"
    rf"|[{RAISED_DIGITS}]+|{CJK_NUMERAL}(?=[ \t])"  # not "三个苹果": a CJK count word
)
_WORD_FIRST_RE = re.compile(
    r"(?:^|(?<=[.!?\u3002\uff01])[ \t]*+)(?:\*\*|__|[ \t$>*_])*+"
    rf"(?P<word>{_FIRST_WORD})(?:[*_$])*+,?[ \t]*{_LETTER}+(?:[ \t]+{_LETTER}+){{0,4}}"
    r"[ \t]*(?:[.!?;\u3002\uff01\u0964](?=\s|$)|$)",
    re.MULTILINE,
)
# An English number word before a plural noun counts things ("Three friends share the
# cost."): a determiner, no value offered; before a verb or another language's word it is one.
_DETERMINER_RE = re.compile(
    r"[ \t]+(?!(?:is|was|has|does|works|seems|holds|fits|satisfies|equals|gives|makes|yields|"
    r"remains|as|also|plus|minus|thus|times)\b)[a-z]{2,}s\b"
)
# (not before "Or", "Also": "79. OR 72" offers 79, whatever renders it as a list's number)
_LIST_MARKER_RE = re.compile(r"[ \t]*[0-9]{1,2}[.)][ \t]+(?!(?i:or|also|alternatively|otherwise|else)\b)\S")
