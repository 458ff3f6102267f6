r"""Values in the text around a final answer, and when two spellings are one value: the
value vocabularies the tail reads (``_TAIL_VALUE_RE``, ``_TAIL_EXTRA_VALUE_RE``), ``_clean``
and ``_value_keys`` (``1,000`` and ``1000``, ``five`` and ``5`` meet), sentence bounds, and
checks ``... = final`` (``_is_check``) with their arithmetic evaluator. The lowest of the
answer reader's rule modules: ``verifiers.answer_sentence``, ``verifiers.answer_tail``,
``verifiers.answer_commitments`` and ``verifiers.math_extract`` read with it. Moved out of
``verifiers.answer_tail`` unchanged."""

from __future__ import annotations

import re
from fractions import Fraction

from verifiers.answer_text import NUMERIC_CHARS, read_visible
from verifiers.exact_numbers import parse_number, parse_quantity
from verifiers.spelled_numbers import TAIL_WORD, spelled_value


def _seen(words: str) -> str:
    """An alternation of ``words`` as the normaliser leaves them: a Cyrillic word is read
    through the confusables table (its "о" reads as a Latin "o"), so it is matched that way."""
    return "|".join(re.escape(read_visible(w)[0]) for w in words.split("|"))


MAX_LINE_CHARS = 400  # a longer '####' line is no answer line


# The end of a sentence: ., ! or ? before whitespace or the end (not a decimal point), the
# CJK stops, the danda and the Urdu full stop.
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s|$)|[\u3002\uff01\uff1f\u0964\u0965\u06d4]|\n")


def mark_trailing_ellipsis(ans: str) -> str:
    """``ans`` with the ellipsis of a decimal that trails off at its end written ``\\ldots``,
    which no stripping of sentence punctuation removes: ``2.718...`` is no 2.718 (and
    ``0.8333...`` repeats its 3: ``exact_numbers`` reads both)."""
    return _TRAILING_ELLIPSIS_RE.sub(r"\1\\ldots", ans) if "." in ans or "\u2026" in ans else ans


def _clean(ans: str) -> str:
    ans = mark_trailing_ellipsis(ans)
    ans = _without_trailing_junk(ans.lstrip())  # before a strip() splits "\\ " apart
    for left, right in (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"), ("**", "**"), ("__", "__")):
        if len(ans) >= len(left) + len(right) and ans.startswith(left) and ans.endswith(right):
            ans = ans[len(left) : len(ans) - len(right)].strip()
    ans = ans.strip("*").strip()
    if ans.endswith("__") and not ans.startswith("_"):
        ans = ans.rstrip("_").rstrip()  # the bold that closes the line: "__Final answer: 18__"
    # A sentence-final period (not a decimal point: "5." -> "5", "3.5" stays) and trailing
    # LaTeX spacing and line breaks ("185\\,", "185\\ ", "5~", "5\\\\"); a trailing backslash
    # (a control space whose space was stripped) carries nothing.
    ans = _without_trailing_junk(ans).strip("$").strip()
    # Bold or upright type, an underline or a (shown) colour around the whole answer is
    # dressing: "\mathbf{0}" is 0, "\underline{\frac12}" and "\color{blue}{2024}" their values.
    for _ in range(3):
        styled = _STYLED_RE.match(ans)
        if styled is None:
            break
        if styled.group(0).endswith("{") or styled.group(0).startswith("{"):
            # "\underline{...}", "\color{blue}{...}"; "{\color{blue}...}" is its own group
            if not _one_group(ans, 0 if styled.group(0).startswith("{") else styled.end() - 1):
                break
            ans = ans[styled.end() : -1].strip()
        else:
            ans = ans[styled.end() :].strip()  # "\color{blue} 150": a switch to the end
    return ans


_STYLED_RE = re.compile(
    r"\\(?:mathbf|textbf|boldsymbol|bm|mathrm|textrm|text|underline)\s*\{"
    r"|\\(?:textcolor|color)\s*\{[A-Za-z]{1,20}\}\s*\{|\{\\color\s*\{[A-Za-z]{1,20}\}\s*"
    r"|\\color\s*\{[A-Za-z]{1,20}\}\s*(?=[^\s{])")


def _one_group(text: str, open_at: int) -> bool:
    """Whether the brace at ``open_at`` closes at the end of ``text`` and nowhere before."""
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{" and text[i - 1] != "\\":
            depth += 1
        elif text[i] == "}" and text[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
    return False


_TRAILING_ELLIPSIS_RE = re.compile(r"(\d\.\d+)[ \t]*(?:\.\.\.|\u2026)(?=[\s$.,;:~*]*\Z)")
_TRAILING_JUNK_RE = re.compile(r"(?:\s|[.,;:~]|\\[,;:! .]|\\q?quad(?![A-Za-z])|\\)+\Z")
_JUNK_CHARS = ".,;:~"


def _without_trailing_junk(ans: str) -> str:
    """``ans`` without what ``_TRAILING_JUNK_RE`` matches at its end, stripped from the right
    (the regex, searched, restarts at every position of a run that does not reach the end:
    1,200 ", " before a value took 0.9 s, h38)."""
    while True:
        before = ans
        ans = ans.rstrip().rstrip(_JUNK_CHARS)
        if ans.endswith(("\\quad", "\\qquad")):
            ans = ans[: ans.rfind("\\")]
        elif ans.endswith("\\!"):
            ans = ans[:-2]
        elif ans.endswith("\\"):
            ans = ans[:-1]
        if ans == before:
            return ans


def _first_char(text: str, start: int) -> int:
    """Index of the first character at or after ``start`` that is no space or '#'."""
    while start < len(text) and text[start] in " \t#":
        start += 1
    return start


def _sentence_end(text: str, start: int) -> int:
    m = _SENTENCE_END_RE.search(text, start)
    return len(text) if m is None else m.start()


# A value in the tail: a number (any script's digits), an English number word ("one" and "a"
# are left out: prose uses them as pronouns), a CJK numeral, or a math constant.
_NUMBER_WORDS = (
    "zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    "fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    "eighty|ninety|hundred|thousand|million|billion|twice|thrice"
)


_TAIL_VALUE_RE = re.compile(
    rf"[-+]?\d+(?:,\d{{3}})*(?:\.\d+)?|\.\d+|\b(?:{_NUMBER_WORDS})\b|"
    # "one" standing as a second item ("5 and one!", "5 A One"), not "one of them", "the one"
    r"\bone\b(?<!\bthe one)(?<!\bthis one)(?<!\bthat one)(?<!\beach one)(?<!\bany one)"
    r"(?<!\bno one)(?<!\bevery one)(?<!\bwhich one)(?<!\bright one)(?<!\bcorrect one)"
    r"(?<!\bonly one)(?<!\bsame one)(?<!\blast one)(?<!\bfirst one)(?<!\bother one)"
    r"(?<!\bno-one)(?![ \t]*(?:(?!(?:or|and|vs)\b)[A-Za-z]{2}|[A-Za-z]'|['-]))|"
    # any numeral character: CJK (\u4e94, \u3007), Roman, vulgar fractions
    rf"[\u4e24{NUMERIC_CHARS}]|"
    r"\\(?:infty|pi|sqrt|frac|dfrac|tfrac)(?![A-Za-z])",
    re.IGNORECASE,
)


# Values the tail reads besides ``_TAIL_VALUE_RE`` (only there: before the answer, "Case
# III" or "drei Schritte" is prose). A Roman numeral of two or more letters in one case
# ("IV", "vii"; a circled or Roman-numeral character reads as these after NFKC), a lone "V"
# or "X" on its own line or ending the tail (not "= X", a name), and the number words zero
# to ten of 33 languages (``verifiers.spelled_numbers.TAIL_WORD``: "due", "un", "eins",
# "to" are left out, words of prose or articles).
_TAIL_EXTRA_VALUE_RE = re.compile(
    r"(?-i:\b(?=[IVX]{2,}\b)X{0,3}(?:IX|IV|V?I{0,3})\b|\b(?=[ivx]{2,}\b)x{0,3}(?:ix|iv|v?i{0,3})\b|"
    r"(?m:^[ \t]*[VXvx][ \t.]*$)|(?<![=\\])(?<!= )\b[VX]\b(?=[\s.!]*\Z))|"
    rf"{TAIL_WORD}|"
    # a fraction in words joined to the value ("\boxed{5} and one fifth", "18 and a-quarter")
    r"\band[ \t]+(?:a|one|two|three|four|five|six|seven|eight|nine)[ \t-]+(?:half|halves|thirds?|"
    r"quarters?|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?)\b",
    re.IGNORECASE,
)


# "cm^2", "m^{3}", "x^\circ": the digit of a unit's power is dressing, no value.
_UNIT_POWER_RE = re.compile(r"[A-Za-z][\s$]*\^\s*\{?\s*\Z")


# A period before a lower-case word ends no sentence: "I think it's 4... or 5" is one.
# (not the stop of "i.e.", "e.g.", "a.k.a.", "viz.", "cf.", "vs.": "6 i.e. 5" is one sentence)
# (the stop first, its abbreviation tests after it: a scan tries the lookbehinds only at a stop)
_OPENING_END_RE = re.compile(
    r"[.!?](?<!\bi\.e[.!?])(?<!\be\.g[.!?])(?<!\ba\.k\.a[.!?])(?<!\bviz[.!?])(?<!\bcf[.!?])(?<!\bvs[.!?])"
    r"(?=\s|$)(?!(?:[ \t]*[.!?])*[ \t]+[a-z])|[\u3002\uff01\uff1f\u0964\u0965\u06d4]|\n")


_OPENING_END_CANDIDATE_RE = re.compile("[.!?\u3002\uff01\uff1f\u0964\u0965\u06d4\n]")


def _sentence_start(text: str, pos: int) -> int:
    """Where the sentence holding ``pos`` starts: after the last end of ``_OPENING_END_RE`` in
    the 400 characters before it (each end is one character: the last candidate that matches
    is the last match, so the lookarounds run from the end back, not at every stop)."""
    lo = max(0, pos - 400)
    for at in reversed([m.start() for m in _OPENING_END_CANDIDATE_RE.finditer(text, lo, pos)]):
        m = _OPENING_END_RE.match(text, at, pos)
        if m is not None:
            return m.end()
    return lo


# Around a check's result: spacing, math delimiters, bold, a final period, a check mark.
_CHECK_DRESSING_RE = re.compile(
    r"\A(?:\s|[$*]|\\[(\[])+|(?:\s|[.$*]|\\[)\]]|\\checkmark|[\u2713\u2714\u2705])+\Z"
)


def _is_check(sentence: str, keys: set[str]) -> bool:
    """Whether ``sentence`` is a check whose result is the answer: its last side, after its
    last ``=``, is the answer alone (``2 + 3 = 5``, ``x = 5``), and every other side that is
    plain arithmetic evaluates to it (``Check: 0 = 5`` equates another value with it)."""
    if "=" not in sentence or not keys:
        return False
    sides = sentence.split("=")
    result = _clean(sides[-1].strip(" \t$*()"))
    values = _TAIL_VALUE_RE.findall(result)
    # a result written as the answer is written, whole: "\sqrt{50} = 5\sqrt{2}", "(x, y) =
    # (6, 7)" (a tuple, radical or fraction holds several values; compared as text, exactly)
    whole = _CHECK_DRESSING_RE.sub("", sides[-1])
    same = 0 < len(whole) <= MAX_LINE_CHARS and whole.replace(" ", "").lower() in keys
    if not same and (len(values) != 1 or keys.isdisjoint(_value_keys(values[0]))):
        return len(values) == 1 and _checks_with_answer(sides, keys, _value_keys(values[0]))
    for side in sides[-17:-1]:  # the sides next to the result (bounded: a wall of "=")
        value = _arithmetic_side(side)
        if value is not None and keys.isdisjoint(_value_keys(str(value))):
            return False
    return True


def _checks_with_answer(sides: list[str], keys: set[str], result: set[str]) -> bool:
    """Whether a check computes from the answer: a side of plain arithmetic that holds the
    answer as an operand and is true (``Check: 392 - 204 = 188``, after "The answer is 392").
    Every side that is plain arithmetic must equal the result; one must use the answer."""
    uses = False
    for side in sides[-17:-1]:
        value = _arithmetic_side(side)
        if value is None:
            continue
        if result.isdisjoint(_value_keys(str(value))):
            return False
        operands = _ARITH_TAIL_RE.search(side)
        uses = uses or (operands is not None and any(
            not keys.isdisjoint(_value_keys(n)) for n in re.findall(r"\d+(?:\.\d+)?", operands.group(0))))
    return uses


# The arithmetic that ends one side of a check: numbers, + - * / and parentheses, after a
# lead of words ("Check: 2 + 3"). A side glued to a letter or a command ("x + 2", "f(3)")
# is no plain arithmetic and is not evaluated.
_ARITH_TAIL_RE = re.compile(r"[-(\s]*\d[\d.\s+\-*/()]*\Z")


_ARITH_TOKEN_RE = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([-+*/()]))")


_PROSE_WORD_END_RE = re.compile(r"(?:\A|[\s:(,])[A-Za-z]{2,}\Z")


def _arithmetic_side(side: str) -> Fraction | None:
    """The value of the plain arithmetic that ends ``side`` of a check, or None when it is
    not plain arithmetic (a variable, a function, a power) or cannot be evaluated."""
    side = side[-200:].replace("$", " ").replace("\\left", "").replace("\\right", "")
    side = re.sub(r"\\(?:times|cdot)(?![A-Za-z])|[\u00d7\u00b7]", "*", side)
    side = re.sub(r"\\div(?![A-Za-z])|\u00f7", "/", side)
    side = re.sub(r"\\d?frac\s*\{([^{}]{1,40})\}\s*\{([^{}]{1,40})\}", r"((\1)/(\2))", side)
    side = re.sub(r"(?<=\d)(?:,|\{,\}|\\,)(?=\d{3}(?!\d))", "", side)
    m = _ARITH_TAIL_RE.search(side)
    if m is None:
        return None
    lead = side[: m.start()].rstrip()
    # a word of prose before a space leads the arithmetic ("since 7 = 5" equates 7 with the
    # answer); a letter or command glued to it is a variable or function ("x + 2", "f(3)")
    spaced = len(lead) < m.start() or side[m.start() : m.start() + 1].isspace()
    prose_lead = spaced and _PROSE_WORD_END_RE.search(lead) is not None
    if lead and (lead[-1].isalnum() or lead[-1] in "\\}^_!'") and not prose_lead:
        return None
    tokens = []
    pos = m.start()
    while pos < len(side):
        t = _ARITH_TOKEN_RE.match(side, pos)
        if t is None:
            if side[pos:].strip():
                return None
            break
        tokens.append(t.group(1) or t.group(2))
        pos = t.end()
    try:
        value, used = _expression(tokens, 0)
    except (ValueError, ZeroDivisionError, IndexError, RecursionError):
        return None
    return value if used == len(tokens) else None


def _expression(tokens: list[str], i: int) -> tuple[Fraction, int]:
    value, i = _term(tokens, i)
    while i < len(tokens) and tokens[i] in "+-":
        right, j = _term(tokens, i + 1)
        value, i = (value + right if tokens[i] == "+" else value - right), j
    return value, i


def _term(tokens: list[str], i: int) -> tuple[Fraction, int]:
    value, i = _factor(tokens, i)
    while i < len(tokens) and tokens[i] in "*/":
        right, j = _factor(tokens, i + 1)
        value, i = (value * right if tokens[i] == "*" else value / right), j
    return value, i


def _factor(tokens: list[str], i: int) -> tuple[Fraction, int]:
    tok = tokens[i]
    if tok == "-":
        value, i = _factor(tokens, i + 1)
        return -value, i
    if tok == "+":
        return _factor(tokens, i + 1)
    if tok == "(":
        value, i = _expression(tokens, i + 1)
        if i >= len(tokens) or tokens[i] != ")":
            raise ValueError("unbalanced")
        return value, i + 1
    if tok in "*/)":
        raise ValueError(tok)
    return Fraction(tok), i + 1


def _value_keys(value: str) -> set[str]:
    """Keys under which two spellings of one value meet: the canonical text, and the number
    it reads as (``1,000`` and ``1000``; ``five`` and ``5``)."""
    text = _clean(value).replace(" ", "").replace("$", "")
    keys = {text.lower()}
    if len(text) > MAX_LINE_CHARS:
        return keys  # no number is this long
    number = parse_number(text)
    if number is None and not text[:1].isdigit():
        words = spelled_value(text)  # "five", "fünf", "пять", "दो"
        number = None if words is None else Fraction(words)
    if number is None and text[:1].isdigit():
        quantity = parse_quantity(_clean(value))  # "120 dollars" restated as "120 dollars" or 120
        number = None if quantity is None else quantity[0]
    if number is not None:
        keys.add(str(number))
    return keys
