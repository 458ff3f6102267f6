r"""The working's last sentence, read as a conclusion (issue 30, round 16).

A worked solution ends its working by stating the result in words, then commits to it
(``So Tom has 904 - 21 = 883 apples left.\n#### 883``). When that last sentence concludes one
amount and the commitment names another (``... 883 apples left.\n#### 881``), the completion
offers two answers: the amount is read as an earlier commitment, and must agree.

The grammar of a concluding sentence (the one right before the commitment's own lead-in, on
its line or the line before; or, when the commitment's paragraph holds nothing but a label,
the last line of the paragraph before):

- one amount, standing alone or as the result of the sentence's one computation
  (``904 - 21 = 883``; GSM8K's calculator notes ``<<904-21=883>>`` are read through);
- after it, a count noun or a unit (``apples``, ``dollars``, ``miles``; none after ``$653``) and at most five
  more words, no value among them (``left``, ``in all``, ``altogether in April and May``),
  then an optional ``, so`` and the sentence's stop;
- or a short claim of it (``I got 1921.``, ``So it's 13.``);
- or the result of a computation whose operands carry their nouns, with up to six words after it
  (``84 sofas+88 chairs = 175``, ``$180*7=$1267 a week``);
- a result that the sentence denies or qualifies (``6 + 3 = not 9 rows.``, ``= ~12``) is a
  conclusion that differs from any answer;
- not a condition, a check or a first state (``If ...``, ``Check: ...``, ``Originally ...``);
- a closing sentence between it and the commitment hides nothing (``I got 8. Hope this
  helps! Answer: 104``).

In a script without Latin words, the sentence holds one amount and after it a counter or noun
and a verb at most (``汤姆还剩564个。``, ``トムは合計78個持っています。``, ``У Тома осталось 883
яблока.``), with no word of a condition, bound, alternative or negation.

A sentence with amounts outside its one computation (``Each box holds 12 eggs, so 4 boxes hold
48 eggs.\n#### 4``) concludes nothing; the committed value as an operand of the computation
changes nothing (``So she has 25 - 7 = 18 apples left.\n#### 7`` offers 18).

>>> concluded_values("So Tom has 904 - 21 = 883 apples left.\n#### 881", 39, "881")
('883',)
>>> concluded_values("So Tom has 904 - 21 = 883 apples left.\n#### 883", 39, "883")
()
"""

from __future__ import annotations

import re
from fractions import Fraction

from verifiers.exact_numbers import parse_number
from verifiers.labelled_lines import _HEADING_WORD_RE
from verifiers.paragraph_commitments import _CALCULATOR_NOTE_RE, roman_token
from verifiers.spelled_numbers import spelled_value
from verifiers.unit_words import read_words

__all__ = ["concluded_values"]

_STOP_RE = re.compile(r"[.!?](?=\s|$)|[\n\u3002\uff01]")
_NUMBER_RE = re.compile(r"\d[\d,]*(?:\.\d+)?")
# The amount, its noun and up to five more words, an optional ", so", the stop.
_RESULT_RE = re.compile(
    r"(?<![\w.,])(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?)[ \t]+(?P<noun>[A-Za-z]+)(?P<rest>(?:[ \t]+[A-Za-z']+){0,5})"
    r"[ \t]*(?:,[ \t]*(?:so|then|thus|hence)?)?[ \t*_]*[.!]?[ \t*_]*\Z"
)
# A dollar amount needs no noun: "In total, the store spends $653."
_DOLLARS_RESULT_RE = re.compile(
    r"(?<![\w.,])(?P<sign>[-\u2212]?)\$(?P<value>\d[\d,]*(?:\.\d+)?)(?P<rest>(?:[ \t]+[A-Za-z']+){0,5})"
    r"[ \t]*(?:,[ \t]*(?:so|then|thus|hence)?)?[ \t*_]*[.!]?[ \t*_]*\Z"
)
# Before the amount, when the sentence holds other numbers: one computation ending in "=".
_COMPUTATION_RE = re.compile(r"[\d\s+\-*/x\u00d7\u00f7().,$%]*=[ \t$]*\Z")
_COMPUTATION_END_RE = re.compile(r"=[ \t$]*\Z")
# The computation that ends right before the amount: operands and operators after a word.
_LAST_COMPUTATION_RE = re.compile(r"(?<![\w$.,])\$?\d[\d.,]*(?:[ \t]*[-+*/x\u00d7\u00f7][ \t]*\$?\d[\d.,]*)+[ \t]*=[ \t$]*\Z")
# A computation's result ending the sentence, no noun after it ("because 12 x 2 = 27").
_BARE_RESULT_RE = re.compile(r"=[ \t]*(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?)[ \t*_]*[.!]?[ \t*_]*\Z")
# A computation whose operands carry their nouns, then "=" and its result, then up to six words
# and the stop ("84 sofas+88 chairs = 175", "$180*7=$1267 a week", "22 - 3 = 119 eyeshadow
# colors left"): the result is the amount the sentence concludes, whatever its noun.
_WORDED_RESULT_RE = re.compile(
    r"(?<![\w.,$])\$?\d[\d.,]*%?(?:[ \t]+[A-Za-z]+){0,2}(?:[ \t]*[-+*/x\u00d7\u00f7][ \t]*\$?\d[\d.,]*%?(?:[ \t]+[A-Za-z]+){0,2})+"
    r"[ \t]*=[ \t]*(?:\$(?=[-\u2212]))?(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?)(?P<rest>(?:[ \t]+[A-Za-z']+){0,6})"
    r"[ \t*_]*[.!]?[ \t*_]*\Z")
# A computation's result denied or qualified ("6 + 3 = not 9 rows", "= $not 5 left", "= ~ 12"):
# the working takes back its own result, whatever the answer after it.
_DENIED_RESULT_RE = re.compile(
    r"=[ \t]*\\?\$?[ \t]*(?P<word>not|no|never|about|approximately|roughly|around|nearly|almost|over|under|maybe|"
    r"(?:less|more|fewer)[ \t]+than|at[ \t]+(?:least|most)|up[ \t]+to|~|\u2248)[ \t]*\\?\$?[ \t]*\d",
    re.IGNORECASE)
# A short claim of the result, no noun after it ("I got 1921.", "So it's 13.", "We get 12!").
_CLAIM_RE = re.compile(
    r"\A[ \t*_]*(?:(?:so|thus|hence|therefore|then|finally|now|ok(?:ay)?|hmm+|well|wait|actually)[ \t,]+)?"
    r"(?:(?:i|we|you)[ \t]+(?:got|get|have|obtain(?:ed)?|found|find|end[ \t]+up[ \t]+with)|"
    r"(?:it|that|this)(?:['\u2019]s|[ \t]+is|[ \t]+was|[ \t]+gives|[ \t]+yields)|"
    r"(?:checking|counting|computing)(?:[ \t]+(?:it|again|once[ \t]+more))*[ \t]+(?:gives|yields))"
    r"[ \t]+(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?|(?-i:[IVXLCDM]{2,12}))(?:[ \t,]+actually)?"
    r"[ \t*_]*[.!]*[ \t*_]*\Z", re.IGNORECASE)
# A step's or a list item's label before the sentence ("**Step 4:**", "### Step 3", "2.").
_STEP_LABEL_RE = re.compile(r"\A[ \t*_#>]*(?:(?:step|part)[ \t]*\d+[ \t]*[:.)]?|\d{1,2}[.)])[ \t*_]*", re.IGNORECASE)
_NOT_A_CONCLUSION_RE = re.compile(
    r"\b(?:if|suppose|supposing|assum\w*|check\w*|verif\w*|without|instead|otherwise|originally|"
    r"initially|or|not|per|each|every|maybe|about|around|approximately|roughly)\b",
    re.IGNORECASE,
)
# A bound before the amount ("more than 5 apples"); after it, "than" compares the amount
# concluded ("Harry slept 9 - 6 = 4 hours more than James.").
_BOUND_BEFORE_RE = re.compile(r"\bthan\b", re.IGNORECASE)
# Arithmetic in math reads as plain arithmetic ("$6 \\cdot 10 = 61$ handshakes").
_MATH_ARITHMETIC_RE = re.compile(r"\$((?:[\d \t+\-*/().,=]|\\(?:cdot|times|div)(?![A-Za-z])){3,200})\$")
# A number alone in math reads as the number ("the total is $998$.", "合計は $683$ 個です").
_MATH_NUMBER_RE = re.compile(r"\$[ \t]*([-\u2212]?\d[\d,]*(?:\.\d+)?)[ \t]*\$|\\\([ \t]*([-\u2212]?\d[\d,]*(?:\.\d+)?)[ \t]*\\\)")
# A quantity named, then a copula, then the amount: "Therefore, the total number of apples is 998."
_COPULA_RESULT_RE = re.compile(
    # (and "result" in the Latin-script languages: "Het resultaat is dus 121.", "Le résultat est donc 127.")
    r"\b(?:total|number|amount|sum|count|cost|price|answer|result|resultaat|r\u00e9sultat|resultado|risultato|ergebnis|"
    r"wynik|hasil(?:nya)?|sonu\u00e7|k\u1ebft[ \t]+qu\u1ea3)\b(?:[ \t]+[A-Za-z']+){0,6}?[ \t]+"
    r"(?:is|was|are|were|equals|comes[ \t]+to|=|est|es|\u00e9|\u00e8|ist|to|adalah|l\u00e0)"
    r"(?:[ \t]+(?:dus|donc|also|somit|entonces|quindi|portanto|zatem|jadi|thus|so))?[ \t]+"
    r"(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?)"
    r"(?P<rest>(?:[ \t]+[A-Za-z']+){0,3})[ \t]*[.!]?[ \t*_]*\Z",
    re.IGNORECASE,
)
# A result's label and its value alone ("Total: 122.", "Result: 46 castles").
_LABEL_RESULT_RE = re.compile(
    r"\b(?:total|result|sum|answer)[ \t]*:[ \t*_]*(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?)"
    r"(?:[ \t]+[A-Za-z']+){0,2}[ \t*_]*[.!]?[ \t*_]*\Z", re.IGNORECASE)
# A label alone, in any language ("**Answer:**", "उत्तर: $", "**Đáp án:**"); possessive runs.
_LABEL_ONLY_RE = re.compile(
    r"[\s*_#>:\uff1a$\\(\[]*+(?:(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u0e00-\u0e7f])++[\s*_#>:\uff1a$\\(\[]*+){0,4}")
_VARIABLE_BEFORE_RE = re.compile(r"(?<![A-Za-z])[A-Za-z](?:_\{?\w{1,3}\}?)?[ \t]*=[ \t]*\Z")
_LOOK_BACK = 600  # characters: a sentence of the working, not a paragraph


def _last_sentence(text: str) -> str:
    """The last sentence of ``text`` (after its last stop or line break), without its stop."""
    body = text.rstrip(" \t*_\n")
    body = body[:-1] if body.endswith((".", "!", "\u3002", "\uff01")) else body
    cut = max(body.rfind("\n"), body.rfind(". "), body.rfind("! "), body.rfind("? "), body.rfind("\u3002"))
    return body[cut + 1 :].strip()


def _bare_result(sentence: str) -> re.Match[str] | None:
    """The result that ends ``sentence`` after a computation ("because 12 x 2 = 27"; not a
    variable's value, "x = 10")."""
    m = _BARE_RESULT_RE.search(sentence)
    return m if m is not None and _LAST_COMPUTATION_RE.search(sentence, 0, m.start() + 1) else None


_JOINER_WORD_RE = re.compile(r"\b(?:and|or|then|so|to|is|are|was|were|but|of|from|by)\b", re.IGNORECASE)


def _worded_result(sentence: str) -> re.Match[str] | None:
    """``_WORDED_RESULT_RE``'s match when a noun names what is counted: in the operands ("84
    sofas+88 chairs = 175") or after the result, a unit or a plural ("= 119 eyeshadow colors
    left"); "= 24 left" names nothing, and a filler sentence is read as no conclusion."""
    m = _WORDED_RESULT_RE.search(sentence)
    if m is None or "=" in sentence[: m.start()]:
        return None  # ("... are 11+50 = 39 and 11+2*50 = 89": two results, no one conclusion)
    operands = sentence[m.start() : m.start("sign")]
    if _JOINER_WORD_RE.search(operands):
        return None  # ("39 and 11+50 = 89": "and" joins two amounts, it names no count)
    words = m.group("rest").split()
    if any(c.isalpha() and c not in "x" for c in operands) or any(
            read_words(w) is not None or (len(w) > 3 and w.endswith("s")) for w in words):
        return m
    return None


def _concluded(sentence: str) -> str | None:
    """The amount ``sentence`` concludes, or None."""
    sentence = _STEP_LABEL_RE.sub("", sentence)  # "**Step 4:** Janet has 32 + 54 + 12 = 97 pens now"
    m = _RESULT_RE.search(sentence)
    if m is not None and read_words(m.group("noun")) is None and not (
            m.group("noun") == "times" and _COMPUTATION_END_RE.search(sentence, 0, m.start())):
        m = None  # "883 is", "5 times": no count noun or unit ("= 24500 times" counts)
    m = (m or _worded_result(sentence) or _DOLLARS_RESULT_RE.search(sentence) or _COPULA_RESULT_RE.search(sentence)
         or _bare_result(sentence) or _CLAIM_RE.match(sentence) or _LABEL_RESULT_RE.search(sentence))
    if m is None or _NOT_A_CONCLUSION_RE.search(sentence) or _BOUND_BEFORE_RE.search(sentence, 0, m.start()):
        return None
    found = _amount_of(sentence, m)
    worded = _worded_result(sentence) if found is None else None
    # ("6 girls + 12 boys = 36 kids in the park": a computation whose operands carry nouns)
    return _amount_of(sentence, worded) if worded is not None and worded.start() < m.start() else found


def _amount_of(sentence: str, m: re.Match[str]) -> str | None:
    """The amount ``m`` reads in ``sentence`` when nothing before it makes it one of several."""
    before = sentence[: m.start()]
    first = _NUMBER_RE.search(before)
    if first is not None and not _COMPUTATION_RE.fullmatch(before, first.start()):
        # "3 boxes hold 48 eggs": several amounts, no one result; a computation right before
        # the amount is its one result ("During the 5 years, she collected 12 * 5 = 59 shells.")
        computation = _LAST_COMPUTATION_RE.search(before)
        if computation is None or _NUMBER_RE.search(before, 0, computation.start()) is None:
            return None
    if first is None and _VARIABLE_BEFORE_RE.search(before):
        return None  # "Y = 12 cm": a variable's value, a step of the working
    value = m.group("value")
    if not value[0].isdigit():  # "I got MCCX."
        value = roman_token(value) or value
    return ("-" if m.group("sign") else "") + value


# In another language (a sentence with a letter outside ASCII): one amount, then at most its
# counter or noun and a verb ("汤姆还剩564个。", "トムは合計78個持っています。", "У Тома осталось
# 883 яблока.", "Vậy tổng số táo là 569."), with no word of a condition, a bound, an
# alternative or a negation anywhere in the sentence.
_OTHER_SCRIPT_RESULT_RE = re.compile(
    r"(?<![\d.,])(?P<sign>[-\u2212]?)(?P<value>\d[\d,]*(?:\.\d+)?)[ \t]*"
    r"(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u0e00-\u0e7f]|[ \t]){0,24}[ \t]*[.!\u3002\uff01\u0964]?[ \t]*\Z")
_WORD_BEFORE_RE = re.compile(r"([^\W\d_]+)[ \t*_#.:]*\Z")
_OTHER_SCRIPT_NUMBER_RE = re.compile(r"(?<![\d.,])[-\u2212]?\d[\d,]*(?:\.\d+)?")
_OTHER_SCRIPT_HEDGE_RE = re.compile(
    "\u5982\u679c|\u5047\u5982|\u82e5|\u5047\u8bbe|\u5927\u7ea6|\u7ea6|\u7d04|\u5927\u6982|\u6216|"
    "\u8fd8\u662f|\u4e0d|\u6ca1|\u6c92|\u672a|\u68c0\u67e5|\u9a8c\u8bc1|\u9a57\u8b49|\u3082\u3057|"
    "\u305f\u3089|\u304f\u3089\u3044|\u3050\u3089\u3044|\u307b\u3069|\u307e\u305f\u306f|\u307e\u305b\u3093|"
    "\u306a\u3044|\ub9cc\uc57d|\uc57d|\ub610\ub294|\uc54a|\uc5c6|\u0435\u0441\u043b\u0438|"
    "\u043e\u043a\u043e\u043b\u043e|\u0438\u043b\u0438|\u043d\u0435|\u043f\u0440\u0438\u043c\u0435\u0440\u043d\u043e|"
    "\u043f\u0440\u043e\u0432\u0435\u0440|"
    # (Hindi, Arabic, and the Latin-script languages: if, about, or, not; whole words: "या",
    # or, ends "संख्या", number)
    "(?<![\u0900-\u097f])(?:\u0905\u0917\u0930|\u092f\u0926\u093f|\u0932\u0917\u092d\u0917|\u092f\u093e|"
    "\u0928\u0939\u0940\u0902)(?![\u0900-\u097f])|"
    "(?<![\u0600-\u06ff])(?:\u0625\u0630\u0627|\u0644\u0648|\u062d\u0648\u0627\u0644\u064a|\u0623\u0648|"
    "\u0644\u064a\u0633)(?![\u0600-\u06ff])|"
    r"\b(?:n\u1ebfu|kho\u1ea3ng|ho\u1eb7c|kh\u00f4ng|ch\u01b0a|si|o|u|aproximadamente|unos|no|wenn|falls|oder|etwa|"
    r"ungef\u00e4hr|nicht|ou|environ|pas|se|circa|non|if|or|not|about)\b",
    re.IGNORECASE)


def _concluded_other_script(sentence: str) -> str | None:
    """The amount a sentence of another language concludes, or None (its grammar above)."""
    sentence = _STEP_LABEL_RE.sub("", sentence)  # ("**Step 3:** Yani sonuç 12.")
    if _OTHER_SCRIPT_HEDGE_RE.search(sentence):
        return None
    first = _OTHER_SCRIPT_NUMBER_RE.search(sentence)  # (a CJK letter glues to the digits)
    m = _OTHER_SCRIPT_RESULT_RE.search(sentence)
    if m is None or first is None:
        return None
    if first.start() < m.start() and not _COMPUTATION_RE.fullmatch(sentence, first.start(), m.start()):
        return None  # several amounts, no one result (one computation may lead to it: "25 + 3150 = 3175")
    word = _WORD_BEFORE_RE.search(sentence, 0, m.start())
    if word is not None and (_HEADING_WORD_RE.fullmatch(word.group(1)) or word.group(1).endswith("\u7b2c")):
        return None  # "Step 1.", "第3": a part's number
    return ("-" if m.group("sign") else "") + m.group("value")


_UNIT_AFTER_NUMBER_RE = re.compile(r"\d[ \t]*([A-Za-z]+(?:[ \t]+[A-Za-z]+)?)")


def _unit_of(text: str) -> str | None:
    """The unit named right after the last number of ``text`` that names one, or None."""
    unit = None
    for m in _UNIT_AFTER_NUMBER_RE.finditer(text[-400:]):
        for words in (m.group(1), m.group(1).split()[0]):
            read = read_words(words)
            if read is not None and read[1] is not None:
                unit = read[1]
                break
    return unit


def _plain_arithmetic(m: re.Match[str]) -> str:
    return re.sub(r"\\(?:cdot|times)", "*", m.group(1)).replace("\\div", "/")


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
# A word that offers another case of the result: "except on weekends, when it is 29", "which is
# also acceptable", "\text{otherwise}" in a case split.
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
    r"double[- ]checking)\b[^\n.;!?\d]{0,30}?"
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
_RECHECK_HINTS = ("check", "recomput", "recount", "recalcul", "verif")
_OFFER_HINTS = ("also", "say", "argue", "claim", "differently", "another way", "otherwise", "book", "key", "source",
                "reference", "teacher", "manual", "cases", "alternatively")
_APPROX_HINTS = ("approx", "sim", "\u2248", "\u2243", "\u223c")
_CASE_HINTS = ("except", "unless", "otherwise", "or else")


def _holds_no_value(sentence: str) -> bool:
    """Whether ``sentence`` holds no value in any form: no numeral character, no Roman numeral, no
    number word ("Everything checks out." holds none; "II 👈 final answer" and "It is nineteen." do)."""
    if any(c.isnumeric() for c in sentence):
        return False
    return not any(roman_token(word) or spelled_value(word) for word in re.findall(r"[^\W\d_]+", sentence))


def _rounds_to(exact: Fraction | float, approximation: Fraction | float) -> bool:
    """Whether ``approximation`` is ``exact`` rounded to some place (1234 to 1200 or 1230; 3.14159
    to 3.14); an integer approximating another integer is another value (36 for 34)."""
    return any(round(float(exact), places) == float(approximation) for places in range(-9, 10))


# A result said in words at the sentence's end ("So the total is nineteen.", "Total = 6 = eight.").
_SPELLED_RESULT_RE = re.compile(r"(?:\bis|=|\bequals)[ \t]+(?P<w>[A-Za-z][A-Za-z -]{2,40}?)[ \t*_]*[.!]?[ \t]*\Z", re.IGNORECASE)


def _same_value(value: str, answer: str) -> bool:
    number = parse_number(value.replace("\u2212", "-").replace(",", ""))
    return value == answer or (number is not None and number == parse_number(answer))


def _working_against(sentence: str, answer: str) -> str | None:
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
    gold = parse_number(answer)
    for m in _APPROX_VALUE_RE.finditer(sentence) if any(hint in low for hint in _APPROX_HINTS) else ():
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


def concluded_values(text: str, at: int, answer: str) -> tuple[str, ...]:
    """The amount that the working's last sentence before the commitment at ``at`` concludes,
    when it differs from ``answer`` (module doc), else ``()``."""
    window = text[max(0, at - _LOOK_BACK) : at]
    para = window.rfind("\n\n")
    head = window[para + 2 :] if para >= 0 else window
    if para >= 0 and (_LABEL_ONLY_RE.fullmatch(head) or (
            not _STOP_RE.search(head) and not any(c.isdigit() for c in head) and len(head.split()) <= 6)):
        # "\n\n**Answer:** 149", "\n\nTherefore, the final answer is 44.": the paragraph before
        # holds the working
        window = window[:para]
        own = ""
    else:
        cut = -1
        for m in _STOP_RE.finditer(head):
            cut = m.end()
        own = head[cut:] if cut >= 0 else head
        if cut < 0 or any(c.isdigit() for c in own) or len(own.split()) > 6:
            return ()  # the commitment's own sentence holds the working, or none stands before it
        window = window[: len(window) - len(own)]
    row = window.rstrip(" \t\n")
    row = row[row.rfind("\n") + 1 :]
    if row.startswith("|") and row.endswith("|"):  # a table's row: its last cell ("| 3 | So the total is 377. |")
        cells = [c.strip() for c in row.strip("| \t").split("|") if c.strip()]
        window = window[: len(window.rstrip(" \t\n")) - len(row)] + (cells[-1] if cells else "")
    last = _last_sentence(window)
    for _ in range(2):  # a sentence with no value between the working and the answer hides nothing
        # ("I got 8. Hope this helps!", "So the total is 19. Everything checks out.")
        if not last or not _holds_no_value(last):
            break
        window = window[: window.rstrip(" \t*_\n.!").rfind(last)]
        last = _last_sentence(window)
    if last.startswith("(") and last.endswith(")"):  # an aside is read as the sentence it holds
        last = last[1:-1].rstrip(" \t.!")
    against = _working_against(_CALCULATOR_NOTE_RE.sub("", last), answer)
    if against is not None:
        return (against,)
    sentence = _MATH_NUMBER_RE.sub(lambda m: m.group(1) or m.group(2), _CALCULATOR_NOTE_RE.sub("", last))
    if "$" in sentence:
        sentence = _MATH_ARITHMETIC_RE.sub(_plain_arithmetic, sentence)
    denied = _DENIED_RESULT_RE.search(sentence)
    if denied is not None:
        return (sentence[denied.start() + 1 :].strip(" \t.!"),)  # ("6 + 3 = not 9 rows.\n#### 9")
    found = _concluded(sentence) if sentence.isascii() else _concluded_other_script(sentence)
    if found is None:
        return ()
    amount = found.replace(",", "")
    unit = _unit_of(sentence)
    line_end = text.find("\n", at)
    if unit is not None and _unit_of(text[at : len(text) if line_end < 0 else line_end]) not in (None, unit):
        return ()  # "150,000 meters\nTelegraph is 150 km longer": the amount in another unit
    value = parse_number(amount)
    same = amount == answer or (value is not None and value == parse_number(answer))
    return () if same else (amount,)
