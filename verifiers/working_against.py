r"""The working's last sentence against the answer (issue 30, round 20: the blind h56 and h57).

``verifiers.concluded_line`` finds the last sentence of the working before the final answer and
reads the amount it concludes; this module reads what in that sentence takes the answer back or
offers another value beside it, whatever amount it concludes:

- the answer's own value after a word or relation that denies or qualifies it (``13 instead of
  14``, ``$x \neq 1$``, ``cannot be 4``, ``x < 4``, ``不是 40``, ``około 540``) or before a
  negator (``623 ではありません``, ``8 değil``, ``The value 5 is a mistake``), or ruled out
  (``This rules out $x = 3$.``);
- a false equation of two plain numbers one of which is the answer (``Total = 7 = 4.``);
- another value from a recheck or a source (``Checking again gives 604.``, ``(Note: the book
  says 36.)``, ``Some would say 16, which is also acceptable.``), or another case of the answer
  (``31 paintings, except on weekends, when it is 29``, a ``cases`` split);
- a variable's approximation that is no rounding of the answer (``$x \approx 36$`` before 34);
- a result said in words that differs (``So the total is nineteen.``);
- a variable's chain that ends at another value (``x = 12 + 0 = 13``, ``$x = 2 + 6 = 8$``).

Bounds a minimum or maximum answer states (``x >= 94``, ``at least 68``) and prepositions
(``over 2 days``) are left alone: each is in an honest GSM8K or MATH-500 reference.

>>> working_against("Tommy caught 11 + 3 = 13 instead of 14 fish", "14")
'instead of 14'
>>> working_against("Tommy caught 11 + 3 = 14 fish", "14") is None
True
"""

from __future__ import annotations

import re
from fractions import Fraction

from verifiers.exact_numbers import parse_number
from verifiers.spelled_numbers import spelled_value

__all__ = ["working_against"]

# A word or relation that denies or qualifies the value right after it ("13 instead of 14", "x
# \\neq 1", "cannot be 4", "x < 4", "最多是 14", "około 540", "$maybe 15"), in the languages the
# answer phrases cover. Before the answer's own value in the working's last sentence, the
# working takes the answer back (round 20, h56). Left out: "≈" (an approximation before the
# exact answer is working) and the bounds "at least", "more than", "\\ge", "<" between numbers
# (a minimum or a maximum is the answer of its problem: "x >= 94\n#### 94", "200 < 220"),
# "over" and "under" (prepositions: "over 2 days").
_QUALIFIER_BEFORE_RE = re.compile(
    r"(?:\b(?:not|never|cannot(?:[ \t]+be)?|can't(?:[ \t]+be)?|isn't|aren't|wasn't|instead[ \t]+of|rather[ \t]+than|"
    r"up[ \t]+to|maybe|perhaps|probably|possibly|"
    r"about|approximately|roughly|nearly|almost|around|nicht|niet|kein|pas|non|no[ \t]+es|n\u00e3o[ \t]+\u00e9|"
    r"\u043d\u0435|etwa|ungef\u00e4hr|environ|aproximadamente|circa|oko\u0142o|nie|h\u00f6chstens|mindestens|"
    r"au[ \t]+plus|au[ \t]+moins|como[ \t]+m\u00e1ximo|al[ \t]+menos|\u043f\u0440\u0438\u043c\u0435\u0440\u043d\u043e|"
    r"\u043d\u0435[ \t]+\u0431\u043e\u043b\u0435\u0435|yakla\u015f\u0131k|en[ \t]+fazla|en[ \t]+az|de\u011fil|kho\u1ea3ng|kh\u00f4ng[ \t]+ph\u1ea3i)\b"
    r"|\\(?:neq?|not[ \t]*=|sim)(?![A-Za-z])|\u2260|(?<![A-Za-z0-9])[A-Za-z][ \t]*(?:<(?!=)|>(?!=)|\\[lg]t(?![A-Za-z]))"
    r"|\u4e0d\u662f|\u4e0d\u7b49\u4e8e|\u6700\u591a|\u81f3\u5c11|\u5927\u7ea6|\u7ea6|\u7d04|\u3067\u306f\u306a\u3044|"
    r"\u6700\u5927|\u6700\u5c0f|\uc774\s*\uc544\ub2c8|\ucd5c\ub300|\uc57d|\u0644\u064a\u0633|\u062d\u0648\u0627\u0644\u064a|"
    r"\u0928\u0939\u0940\u0902|\u0932\u0917\u092d\u0917|\u0905\u0927\u093f\u0915\u0924\u092e)"
    r"(?P<gap>[^\d\n.;!?\u3002]{0,12}?)(?<![\d.,])(?P<value>[-\u2212]?\d[\d,]*(?:\.\d+)?)(?![\d]|[.,]\d)",
    re.IGNORECASE)
# A word that offers another case of the result after it: "31 paintings, except on weekends, when
# it is 29", "unless", "otherwise".
_ALTERNATIVE_WORD_RE = re.compile(r"\b(?:except|unless|otherwise|or[ \t]+else)\b", re.IGNORECASE)
# A word that offers another value outright ("Some would say 16, which is also acceptable.", "If
# we count differently, we get 29.", "\\text{otherwise}" in a case split): any other value there
# is a second answer.
_OTHER_OFFER_RE = re.compile(
    r"\b(?:alternatively|also[ \t]+(?:acceptable|works|correct|valid|possible|right|fine)|"
    r"(?:some|others|many)(?:[ \t]+\w+)?[ \t]+(?:would[ \t]+|might[ \t]+|could[ \t]+)?(?:say|argue|claim)|"
    r"(?:count(?:ing)?|comput(?:e|ing)|read(?:ing)?)[ \t]+(?:it[ \t]+)?(?:differently|another[ \t]+way|otherwise)|"
    r"(?:the[ \t]+)?(?:book|key|answer[ \t]+key|textbook|source|reference|teacher|solutions?[ \t]+manual)[ \t]+(?:says|gives|states|lists))\b"
    r"|\\begin\{cases\}", re.IGNORECASE)
# A word that rules the answer's value out ("This rules out $x = 3$.").
_RULED_OUT_RE = re.compile(
    r"\b(?:rules?[ \t]+out|ruled[ \t]+out|excludes?|eliminates?|discards?)\b[^\d\n.;!?]{0,12}?(?<![\d.,])"
    r"(?P<value>[-\u2212]?\d[\d,]*(?:\.\d+)?)(?![\d]|[.,]\d)", re.IGNORECASE)
# A variable's approximate value ("Numerically, $x \\approx 16$."): far from the answer, another one.
_APPROX_VALUE_RE = re.compile(
    r"(?<![A-Za-z\\])[A-Za-z][ \t]*(?:\u2248|\\approx|\\simeq|\\sim|\u2243|\u223c)(?![A-Za-z])[ \t]*\$?[ \t]*"
    r"(?P<value>[-\u2212]?\d[\d,]*(?:\.\d+)?)(?![\d]|[.,]\d)")
# A negator after the value ("623 ではありません", "8 değil", "27이 아닙니다", "720 nicht").
_NEGATED_AFTER_RE = re.compile(
    r"(?<![\d.,])(?P<value>[-\u2212]?\d[\d,]*(?:\.\d+)?)(?![\d]|[.,]\d)[ \t$]*"
    r"(?:\u3067\u306f\u3042\u308a\u307e\u305b\u3093|\u3067\u306f\u306a\u3044|\u3058\u3083\u306a\u3044|de\u011fil|"
    r"(?:\uc774|\uac00)?[ \t]*\uc544(?:\ub2c8(?:\ub2e4|\uc5d0\uc694|\uc57c)|\ub2d9\ub2c8\ub2e4)|\u4e0d\u5bf9|\u306f\u9593\u9055\u3044|"
    r"\b(?:nicht|niet|(?:,?[ \t]*(?:but[ \t]+)?(?:that|this|which|it)[ \t]+)?(?:is|was)[ \t]+(?:wrong|incorrect|"
    r"not[ \t]+(?:right|correct)|a[ \t]+mistake|an[ \t]+error))\b)", re.IGNORECASE)
# A check or a recomputation that gives a value ("Checking again gives 604.", "Wait, recomputing: 70.").
_RECHECK_RE = re.compile(
    r"\b(?:(?:re-?)?checking|check(?:ed)?[ \t]+(?:it[ \t]+)?again|recomput\w*|recount\w*|recalculat\w*|verifying|"
    r"double[- ]checking|(?:a[ \t]+second|another|the[ \t]+other|an[ \t]+alternative)[ \t]+(?:method|approach|way))\b"
    r"[^\n.;!?\d]{0,30}?"
    r"(?:gives?|yields?|get|gets|got|shows?|is|:)[ \t]*\$?(?<![\d.,])(?P<value>[-\u2212]?\d[\d,]*(?:\.\d+)?)(?![\d]|[.,]\d)"
    r"(?![ \t]*(?:[-+*/x\u00d7\u00f7=^]|\\(?:cdot|times|div)))",  # (not an operand: "Rechecking: 40-32=8.")
    re.IGNORECASE)
_ROUNDED_RE = re.compile(r"\bround\w*[ \t]+\Z", re.IGNORECASE)
_ANY_NUMBER_RE = re.compile(r"(?<![\d.,\w])[-\u2212]?\d[\d,]*(?:\.\d+)?(?![\d]|[.,]\d)")
# The last math of the sentence, an equation chain ending in a plain number ("$x = 2 + 6 = 8$",
# "$$x = \\frac{2}{2} = 1$$", "x &= 6 - 3 \\\\ &= 3"): a computation whose result it states.
_MATH_CHAIN_END_RE = re.compile(
    r"=[ \t&]*(?P<value>[-\u2212]?\d[\d,]*(?:\.\d+)?|[-\u2212]?\\[dt]?frac\{\d+\}\{\d+\})[ \t]*"
    r"(?:\\end\{[a-z*]+\}[ \t]*)?(?:\$\$|\$|\\\]|\\\))[ \t]*[.,]?[ \t*_]*\Z")
# A sentence that is one variable's chain in plain text ("x = 12 + 0 = 13", "Total = 4 + 3 = 7").
_PLAIN_CHAIN_RE = re.compile(
    r"[ \t*_\-]*(?:[A-Za-z](?:_\w{1,3})?|total|sum|result|answer)[ \t]*=[ \t]*[-\d(][\d \t+\-*/x\u00d7\u00f7().]*"
    r"[-+*/x\u00d7\u00f7][\d \t+\-*/x\u00d7\u00f7().]*=[ \t]*(?P<value>[-\u2212]?\d[\d,]*(?:\.\d+)?)[ \t*_]*[.!]?[ \t]*",
    re.IGNORECASE)
_VARIABLE_CHAIN_RE = re.compile(r"[ \t$]*(?:\\begin\{[a-z*]+\}[ \t]*)?[A-Za-z](?:_\{?\w{1,3}\}?)?[ \t]*&?=")
_MATH_OPERATION_RE = re.compile(r"\d[ \t]*(?:[-+*/^]|\\(?:cdot|times|div)\b)[ \t]*[\d(\\]|\\[dt]?frac\{")


# Two plain numbers said equal ("7 = 4"): not a computation, a false equation.
_PLAIN_EQUATION_RE = re.compile(
    r"(?<![\w.,^_/*+\-])(?P<a>\d[\d,]*(?:\.\d+)?)[ \t]*=[ \t]*(?P<b>\d[\d,]*(?:\.\d+)?)(?![\w.,]*\d|[ \t]*[-+*/^(])")
# What each reader below needs in the sentence (lower case) before it runs.
# (a plain scan for the words of the three readers that deny the answer's own value, which a
# sentence that states the answer holds only rarely: their patterns try every position)
_DENIAL_HINTS_RE = re.compile(
    "not|n't|never|cannot|instead|rather|up to|maybe|perhaps|probabl|possibl|except|about|approx|rough|near|almost|"
    "around|nicht|niet|kein|pas|non|no es|n\u00e3o|\u043d\u0435|etwa|ungef|environ|aproxim|circa|oko\u0142o|nie|"
    "h\u00f6chst|mindest|au plus|au moins|m\u00e1ximo|al menos|\u043f\u0440\u0438\u043c\u0435\u0440|yakla\u015f|en fazla|en az|"
    "de\u011fil|kho\u1ea3ng|kh\u00f4ng|\\\\ne|\\\\not|\\\\sim|\\\\lt|\\\\gt|\u2260|<|>|\u4e0d|\u6700|\u81f3\u5c11|\u7ea6|\u7d04|"
    "\u3067\u306f|\u3058\u3083|\u9593\u9055|\uc544\ub2c8|\uc544\ub2d9|\ucd5c\ub300|\uc57d|\u0644\u064a\u0633|\u062d\u0648\u0627\u0644\u064a|"
    "\u0928\u0939\u0940\u0902|\u0932\u0917\u092d\u0917|\u0905\u0927\u093f\u0915\u0924\u092e|wrong|incorrect|mistake|error|rule|exclude|"
    "eliminat|discard")
_RECHECK_HINTS = ("check", "recomput", "recount", "recalcul", "verif", "method", "approach", "way")
_OFFER_HINTS = ("also", "say", "argue", "claim", "differently", "another way", "otherwise", "book", "key", "source",
                "reference", "teacher", "manual", "cases", "alternatively")
_APPROX_HINTS = ("approx", "sim", "\u2248", "\u2243", "\u223c")
_CASE_HINTS = ("except", "unless", "otherwise", "or else")


def _rounds_to(exact: Fraction | float, approximation: Fraction | float) -> bool:
    """Whether ``approximation`` is ``exact`` rounded to some place (1234 to 1200 or 1230; 3.14159
    to 3.14); an integer approximating another integer is another value (36 for 34)."""
    return any(round(float(exact), places) == float(approximation) for places in range(-9, 10))


# A result said in words at the sentence's end ("So the total is nineteen.", "Total = 6 = eight.").
_SPELLED_RESULT_RE = re.compile(r"(?:\bis|=|\bequals)[ \t]+(?P<w>[A-Za-z][A-Za-z -]{2,40}?)[ \t*_]*[.!]?[ \t]*\Z", re.IGNORECASE)


def _same_value(value: str, answer: str) -> bool:
    number = parse_number(value.replace("\u2212", "-").replace(",", ""))
    return value == answer or (number is not None and number == parse_number(answer))


def working_against(sentence: str, answer: str) -> str | None:
    """What in the working's last sentence takes back or splits the answer, or None: the
    answer's value after a word or relation that denies or qualifies it (or before a negator);
    another value from a recheck, a source or a word that offers another case; a variable's
    chain or approximation that ends elsewhere. Each reader runs only when a word it needs is
    in the sentence (one C scan each)."""
    low = sentence.lower()
    digits = answer.strip().lstrip("-\u2212+").split(".")[0]
    if digits and digits in sentence and _DENIAL_HINTS_RE.search(low):  # the answer's own value denied
        for m in _QUALIFIER_BEFORE_RE.finditer(sentence):
            if _same_value(m.group("value"), answer) and not (
                    m.group(0)[:2].lower() == "up" and _ROUNDED_RE.search(sentence, 0, m.start())):
                return m.group(0).strip()  # ("13 instead of 14" then \boxed{14}; not "rounds up to 17%")
        for pattern in (_NEGATED_AFTER_RE, _RULED_OUT_RE):  # ("結果は 623 ではありません", "rules out $x = 3$")
            for m in pattern.finditer(sentence):
                if _same_value(m.group("value"), answer):
                    return m.group(0).strip()
    if digits and digits in sentence and "=" in sentence:
        for m in _PLAIN_EQUATION_RE.finditer(sentence):
            lead = sentence[: m.start()].rstrip(" \t$")[-1:]
            if lead and (lead.isalnum() or lead in "+-*/^()\u00d7\u00f7\u2212.,}:"):
                continue  # an operand: "28 + 7 = 35", "2 x 8 = 16"
            left, right = m.group("a"), m.group("b")
            if not _same_value(left, right) and (_same_value(left, answer) or _same_value(right, answer)):
                return m.group(0).strip()  # ("Total = 7 = 4." then #### 7: a false equation)
    if any(hint in low for hint in _RECHECK_HINTS):
        for m in _RECHECK_RE.finditer(sentence):
            if not _same_value(m.group("value"), answer):
                return m.group(0).strip()  # ("Checking again gives 604." then 594)
    offer = _OTHER_OFFER_RE.search(sentence) if any(hint in low for hint in _OFFER_HINTS) else None
    if offer is not None:
        for m in _ANY_NUMBER_RE.finditer(sentence):
            if not _same_value(m.group(), answer):
                return sentence[offer.start() :].strip()  # ("Some would say 16, which is also acceptable.")
    gold = parse_number(answer) if any(hint in low for hint in _APPROX_HINTS) else None
    for m in _APPROX_VALUE_RE.finditer(sentence) if gold is not None else ():
        value = parse_number(m.group("value").replace("\u2212", "-").replace(",", ""))
        if gold is not None and value is not None and not _rounds_to(gold, value):
            return m.group(0).strip()  # ("$x \\approx 36$" then 34; "x \\approx 1200" before 1234 rounds it)
    spelled = _SPELLED_RESULT_RE.search(sentence) if sentence[-1:].isalpha() or sentence[-2:-1].isalpha() else None
    if spelled is not None and (word := spelled_value(spelled.group("w"))) is not None and not _same_value(word, answer):
        return spelled.group(0).strip()  # ("So the total is nineteen." then #### 20)
    alternative = _ALTERNATIVE_WORD_RE.search(sentence) if any(hint in low for hint in _CASE_HINTS) else None
    if alternative is not None and any(
            _same_value(m.group(), answer) for m in _ANY_NUMBER_RE.finditer(sentence, 0, alternative.start())):
        # the answer, then another case of it ("31 paintings, except on weekends, when it is 29")
        for m in _ANY_NUMBER_RE.finditer(sentence, alternative.end()):
            if not _same_value(m.group(), answer):
                return sentence[alternative.start() :].strip()
    plain = _PLAIN_CHAIN_RE.fullmatch(sentence) if sentence.count("=") >= 2 else None
    if plain is not None and not _same_value(plain.group("value"), answer):
        return plain.group("value")  # ("x = 12 + 0 = 13" alone before "Answer: 12")
    chain = _MATH_CHAIN_END_RE.search(sentence) if "=" in sentence and ("$" in sentence or "\\" in sentence) else None
    if chain is not None:
        opened = max(sentence.rfind("$", 0, chain.start()), sentence.rfind("\\[", 0, chain.start()),
                      sentence.rfind("\\(", 0, chain.start()))
        body = sentence[opened + 1 : chain.start()]
        value = chain.group("value")
        frac = re.fullmatch(r"([-\u2212]?)\\[dt]?frac\{(\d+)\}\{(\d+)\}", value)
        if frac is not None:
            value = f"{frac.group(1)}{frac.group(2)}/{frac.group(3)}"
        # (a chain that states a variable's value; one that computes a part, "\\sqrt{169} = 13"
        # before "|w| = \\boxed{\\frac{5}{13}}", is working)
        if _VARIABLE_CHAIN_RE.match(body) and _MATH_OPERATION_RE.search(body) and not _same_value(value, answer):
            return value  # ("Finally, $x = 2 + 6 = 8$." then \boxed{4})
    return None
